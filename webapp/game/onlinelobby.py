"""What the lobby lists of a user's own online games: open invitations, games in progress, recent
finished games (friends' games to watch are webapp/social/watching.py's ``watchable``)."""

import json

from webapp.store import online as store_online


def lobby_row(r, user_id=None):
    setup = json.loads(r["setup"])
    seat = 0 if r["seat0_user_id"] == user_id else 1 if r["seat1_user_id"] == user_id and user_id else None
    names = [r["name0"] or "Player 1", r["name1"] or ("—" if r["status"] == "waiting" else "Player 2")]
    # A code is the key to a seat: only the inviter of a waiting invitation ever sees it.
    code = r["code"] if r["status"] == "waiting" and seat == 0 else None
    return {"id": r["id"], "status": r["status"], "code": code, "created": r["created"], "updated": r["updated"],
            "clock_minutes": setup.get("clock_ms", 0) / 60_000, "names": names, "seat": seat,
            "opponent": names[1 - seat] if seat is not None else None,
            "result": json.loads(r["result"]) if r["result"] else None}


def lobby(db, user_id, finished=10):
    """What the lobby lists for a user of their own games: open invitations, games in progress, recent
    finished games. (Friends' games to watch are webapp/social/watching.py's ``watchable``.)"""
    return {kind: [lobby_row(r, user_id) for r in rows]
            for kind, rows in store_online.lobby_games(db, user_id, finished).items()}
