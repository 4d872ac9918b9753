"""Play from here: a practice game against the CPU from one step of a finished game the user played.

The new game starts exactly where the old one stood after that step, the hidden parts as they were
(hands, piles, the dice to come: it is the same state), with the user in the seat they held and the
CPU of the chosen difficulty in the other. Its setup keeps the old game's setup and the actions up to
the step (``setup["from"]``), so ``replay.new_game`` rebuilds its start and every replay of it.

Only a player of a game against the CPU (a CPU game or a story battle), and only once it is over:
the whole game is theirs to look back on then, and the hidden parts the practice game plays on with
are the CPU's. A game between people is refused (playing on from a step would deal the friend's
hidden deck into view), and so are anyone else and any game still being played, with the one answer
a game that does not exist gets (NotFound), so the refusal tells nothing.
"""

from flask_babel import gettext

from webapp import store
from webapp.game import cpuseats, gamecache, play
from webapp.game.replay import new_game


def refuse(game_id):
    return play.NotFound(gettext("There is no such game to play from."), game_id)


def fork(db, game_id, user_id, version, difficulty="normal", seconds=None, limit=None):
    """Start the practice game; return its id. ``version`` is the replay step (0 = the start)."""
    try:
        row = play.load_row(db, game_id)
    except play.NotFound:
        raise refuse(game_id) from None
    seat = play.seat_of(row, user_id)
    if seat is None or row["status"] != "finished" or row["mode"] not in play.SOLO_MODES:
        raise refuse(game_id)
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= row["version"]:
        raise play.BadRequest(gettext("Pick a step of the replay to play from."), game_id)
    actions = [{"player": a["player"], "action": a["action"]} for a in store.list_actions(db, game_id)
               if a["seq"] <= version]
    seats = [None, None]
    seats[seat] = {"user_id": user_id}
    seats[1 - seat] = cpuseats.cpu_seat(None, difficulty, seconds)
    old = row["setup"]
    setup = {"from": {"setup": old, "actions": actions}, "fork": {"game": game_id, "version": version},
             "mode": "cpu", "seed": row["seed"], "seats": seats, "first": old.get("first"),
             "decks": old.get("decks"), "deck_ids": old.get("deck_ids"),
             "leader_mode": old.get("leader_mode", "sequential")}
    game = new_game(setup)
    if game.result is not None or not game.waiting_for():
        raise play.BadRequest(gettext("The game is over at that step: pick an earlier one."), game_id)
    with store.transaction(db):
        play.check_solo_cap(db, user_id, limit)
        return store.create_game(db, "cpu", row["seed"], setup, state=gamecache.snapshot_text(game))
