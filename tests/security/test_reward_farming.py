"""Issue 26, reward farming, written as the attack: two friends farmed Victory packs by resigning to
each other in turn in round 2–4, a pack a minute. Now a game cut short by a player (a resignation, a
clock, a lost connection) before round 5 pays no pack, a played-out game still does, and a pair earns
at most three packs from games against each other per day, in both directions together
(webapp/game/fairplay.py). The end screen says why a winner got none."""

import pytest

from tests.security.conftest import client_of
from webapp.game import fairplay, play
from webapp.store import list_packs

pytestmark = pytest.mark.usefixtures("app")


def win_packs(db, user):
    return [p["source"] for p in list_packs(db, user["id"]) if p["source"].startswith("win:")]


def passive(game, seat):
    """A quiet move: leaders first, then end the turn; nobody marches, so no battle comes."""
    legal = game.legal_actions(seat)
    for kind in ("choose_leaders", "end_turn"):
        for a in legal:
            if a["type"] == kind:
                return a
    raise AssertionError(f"no quiet move in {legal[:3]}")


def play_to_round(app, db, game_id, users, rnd):
    """Both players make quiet moves until the game is in round ``rnd``."""
    hub = app.extensions["brigade_online"]
    for _ in range(500):
        row, game = play.load(db, game_id)
        if game.state.round >= rnd and game.state.phase == "main":
            return
        seat = min(game.waiting_for())
        hub.act(db, row, seat, passive(game, seat), row["version"])
    raise AssertionError(f"the game did not reach round {rnd}")


def resign(app, db, game_id, seat):
    row = play.load_row(db, game_id)
    app.extensions["brigade_online"].act(db, row, seat, {"type": "resign"}, row["version"])


def test_farming_by_early_resignations_pays_nothing(app, db, started, alice, bob):
    for n in range(4):  # in turn, as the farmers did
        game_id = started()
        play_to_round(app, db, game_id, (alice, bob), 2 + n % 3)
        resign(app, db, game_id, n % 2)
    assert win_packs(db, alice) == [] and win_packs(db, bob) == []
    # The end screen tells the winner (alice: bob resigned the last) why.
    info = client_of(app, alice).get(f"/play/{game_id}/end.json").get_json()
    assert info["packs"] == [] and "before round 5" in info["no_pack"]


def test_a_played_out_game_still_pays_and_a_pair_earns_at_most_three_a_day(app, db, started, alice, bob, carol):
    won = []
    for n in range(5):
        game_id = started()
        play_to_round(app, db, game_id, (alice, bob), fairplay.FULL_ROUND)
        resign(app, db, game_id, n % 2)  # bob, alice, bob, alice, bob win
        won.append(game_id)
    assert len(win_packs(db, alice)) + len(win_packs(db, bob)) == fairplay.PAIR_WINS_PER_DAY
    assert win_packs(db, bob) == [f"win:game:{won[0]}", f"win:game:{won[2]}"]
    assert win_packs(db, alice) == [f"win:game:{won[1]}"]
    info = client_of(app, bob).get(f"/play/{won[4]}/end.json").get_json()
    assert info["packs"] == [] and "3 packs from each other today" in info["no_pack"]
    # Another pair is another pair.
    game_id = started(inviter=carol, friend=alice)
    play_to_round(app, db, game_id, (carol, alice), fairplay.FULL_ROUND)
    resign(app, db, game_id, 0)
    assert f"win:game:{game_id}" in win_packs(db, alice)


@pytest.mark.parametrize(("reason", "rnd", "counts"), [
    ("resign", 4, False), ("timeout", 2, False), ("disconnect", 4, False),
    ("resign", 5, True), ("timeout", 9, True), ("leaders", 2, True), ("judgment", 12, True), ("draw", 3, True)])
def test_the_line(reason, rnd, counts):
    assert fairplay.played_out({"winner": 0 if reason != "draw" else None, "reason": reason}, rnd) is counts
