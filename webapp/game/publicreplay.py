"""The public replay of a finished game: every step from its setup and stored actions
(webapp/game/replay.py), each with the spectator's view only and the log in the reader's language."""

from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.engine import Game
from webapp.game import gamelog, play
from webapp.game.replay import steps as replay_steps
from webapp.game.seatnames import seat_names
from webapp.game.seatstate import instances


def replay(db, game_id, lang="en"):
    """A finished game stepped action by action from its setup and stored actions (webapp/game/replay.py),
    each step with the public (spectator) view only; the log in ``lang``."""
    row = play.load_row(db, game_id)
    if row["status"] != "finished":
        raise play.Illegal(gettext("A replay is shown once the game is over."), game_id)
    names = seat_names(db, row)
    steps = []
    for step in replay_steps(row["setup"], store.list_actions(db, game_id)):
        game = step.game
        if not steps:
            inst = instances(game)
        steps.append({"version": step.version, "player": step.player, "type": step.action and step.action["type"],
                      "events": step.events, "log": gamelog.describe(step.events, inst, names, None, lang=lang),
                      "view": game.view(None)})
    if game.result is None and row["result"] is not None:  # ended from outside the rules: timeout, claim
        final = Game.from_json(row["state"])
        events = [{"type": "game_over", "winner": row["result"].get("winner"), "reason": row["result"].get("reason")}]
        steps.append({"version": row["version"], "player": None, "type": None, "events": events,
                      "log": gamelog.describe(events, inst, names, None, lang=lang), "view": final.view(None)})
    seen = {u["card"] for st in steps for u in st["view"]["units"]}
    seen |= {cid for st in steps for p in st["view"]["players"] for cid in p["discard"]}
    pool = game.state.static.pool
    cards = {cid: pool[cid].data["name"]["en"] for cid in sorted(seen) if cid in pool}
    return {"game": game_id, "mode": row["mode"], "players": names, "result": row["result"], "cards": cards,
            "steps": steps}
