"""The match history: every CPU, story and online game of the player, newest first (docs/decks.md "The match history").

Each row: when, the mode, the opponent (a user's name, "CPU", or the story chapter's opponent),
the result from the player's side and how it was decided, and a link: *Continue* for a game in
progress, *Replay* for a finished one (the replay route of webapp/web/lobby.py).
"""

from flask import Blueprint, g, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from webapp import i18n
from webapp.game import play, seatnames, storychapters
from webapp.store import get_db, list_games
from webapp.web.security import login_required

bp = Blueprint("history", __name__)

#: How many games the page lists (the newest).
LIMIT = 200
MODES = {"cpu": _l("CPU"), "story": _l("Story"), "online": _l("Online")}
#: How a game was decided, as players read it (the engine's result reasons).
REASONS = {
    "leaders": _l("every leader fell"),
    "judgment": _l("decided by the round-12 judgment"),
    "draw": _l("the last leaders fell together"),
    "resign": _l("by resignation"),
    "timeout": _l("a clock ran out"),
    "disconnect": _l("a player stayed away"),
}


def story_opponent(setup):
    """The story chapter's opponent as named in its data, or None."""
    try:
        names = storychapters.chapter(setup.get("story")).opponent["name"]
        return names.get(i18n.current()) or names["en"]
    except (play.NotFound, KeyError, TypeError):
        return None


def result_of(row, seat):
    """(kind, words): kind is won, lost, draw, playing, waiting or abandoned; words say how."""
    status = row["status"]
    if status == "active":
        return "playing", _("In progress")
    if status == "waiting":
        return "waiting", _("Invitation open")
    if status == "aborted":
        return "abandoned", _("Abandoned")
    result = row.get("result") or {}
    winner, reason = result.get("winner"), result.get("reason")
    how = str(REASONS.get(reason, ""))
    if winner is None:
        return "draw", _("Draw: %(how)s", how=how) if how else _("Draw")
    won = winner == seat
    if reason == "resign":
        how = _("the opponent resigned") if won else _("you resigned")
    elif reason == "timeout":
        how = _("the opponent's clock ran out") if won else _("your clock ran out")
    elif reason == "disconnect":
        how = _("the opponent stayed away") if won else _("you stayed away too long")
    if won:
        return "won", _("Won: %(how)s", how=how) if how else _("Won")
    return "lost", _("Lost: %(how)s", how=how) if how else _("Lost")


def history_rows(db, user_id, limit=LIMIT):
    """The rows of the page for this user, newest first."""
    rows = []
    for row in list_games(db, user_id)[:limit]:
        seat = 0 if row["seats"][0] == user_id else 1
        names = seatnames.seat_names(db, row)
        opponent = names[1 - seat]
        if row["mode"] == "story":
            opponent = story_opponent(row["setup"]) or opponent
        kind, words = result_of(row, seat)
        link = None
        if row["status"] == "active":
            link = (_("Continue"), url_for("play.board", game_id=row["id"]))
        elif row["status"] == "finished":
            link = (_("Replay"), url_for("lobby.replay", game_id=row["id"]))
        rows.append({"id": row["id"], "when": row["created"], "mode": str(MODES.get(row["mode"], row["mode"].title())),
                     "opponent": opponent, "kind": kind, "result": words, "link": link})
    return rows


@bp.get("/history")
@login_required
def index():
    """The player's games, newest first."""
    rows = history_rows(get_db(), g.user["id"])
    counts = {k: sum(r["kind"] == k for r in rows) for k in ("won", "lost", "draw")}
    return render_template("history/index.html", rows=rows, counts=counts, limit=LIMIT)
