"""Taking back a move (webapp/game/takeback.py): which moves can be taken back, which cannot, races,
and who may ask. Games start at tests/browser/positions/table-take-back.json (round 3, the player's
main step: an Orc on L1 beside the empty L3 and the CPU's Gnome Miner on L4, monsters in hand)."""

import pytest

from tests.browserkit import position
from webapp import store
from webapp.ai import BaselinePlayer
from webapp.game import cpumoves, play, positions, takeback
from webapp.store import list_actions, load_game

TO_L3 = {"type": "march", "units": ["me-orc"], "to": "L3"}
INTO_L4 = {"type": "march", "units": ["me-orc"], "to": "L4"}


def start(db, users, mode="cpu"):
    return positions.start(db, mode, users, position("table-take-back"), seed=5, cpu_name="baseline")


@pytest.fixture
def game_id(db, alice):
    return start(db, [alice])


def stored(db, game_id):
    """What a refused take-back must not change: the version, the snapshot, the actions."""
    row = load_game(db, game_id)
    return row["version"], row["state"], [a["seq"] for a in list_actions(db, game_id)]


def act(db, game_id, user, action):
    row = play.load_row(db, game_id)
    return play.act(db, game_id, user["id"], action, row["version"])


def summon(db, game_id, user):
    row, game = play.load(db, game_id)
    card = next(a for a in game.legal_actions(0) if a["type"] == "summon")
    return act(db, game_id, user, card)


def offered(db, game_id, seat=0, played=None):
    row, game = play.load(db, game_id)
    return takeback.offered(db, row, game, seat, played)


def fresh(db, game_id):
    """``offered`` from the store alone (a join after a restart): nothing remembered."""
    takeback.REMEMBERED.entries.clear()
    return offered(db, game_id)


# ---------------------------------------------------------------- what can be taken back


def test_a_march_to_an_empty_land_is_taken_back_and_the_game_is_its_setup_and_actions_again(db, alice, game_id):
    row0, game0 = play.load(db, game_id)
    assert offered(db, game_id) is False  # nothing played yet this turn
    played = act(db, game_id, alice, TO_L3)
    assert offered(db, game_id, played=played) is True
    assert fresh(db, game_id) is True  # the replay agrees with the action's own answer
    back = takeback.take_back(db, game_id, alice["id"], played.version)
    assert back.version == played.version + 1  # a version never goes back
    assert back.events == [{"type": "taken_back", "player": 0}] and back.seat == 0
    row, game = play.load(db, game_id)
    assert row["version"] == back.version and list_actions(db, game_id) == []
    assert game.view(0) == game0.view(0) and game.legal_actions(0) == game0.legal_actions(0)
    unit = next(u for u in game.view(0)["units"] if u["id"] == "me-orc")
    assert unit["land"] == "L1" and unit["marches_left"] == 1
    assert play.rebuild(db, game_id).to_json() == game.to_json() == row0["state"]
    assert fresh(db, game_id) is False  # back at the start of the turn


def test_two_moves_of_a_turn_are_taken_back_one_after_the_other_back_to_its_start(db, alice, game_id):
    start_view = play.load(db, game_id)[1].view(0)
    summon(db, game_id, alice)
    played = act(db, game_id, alice, TO_L3)
    back = takeback.take_back(db, game_id, alice["id"], played.version)
    assert offered(db, game_id) is True  # the summon before it, known without another replay
    assert fresh(db, game_id) is True
    takeback.take_back(db, game_id, alice["id"], back.version)
    assert play.load(db, game_id)[1].view(0) == start_view
    before = stored(db, game_id)
    with pytest.raises(play.Illegal) as refused:
        takeback.take_back(db, game_id, alice["id"], before[0])
    assert refused.value.message == takeback.refused(game_id).message
    assert stored(db, game_id) == before


def test_a_march_into_a_battle_cannot_be_taken_back(db, alice, game_id):
    played = act(db, game_id, alice, INTO_L4)
    assert any(e["type"] == "battle_started" for e in played.events)
    row, game = play.load(db, game_id)
    assert takeback.offered(db, row, game, 0, played) is False
    before = stored(db, game_id)
    with pytest.raises(play.Illegal):
        takeback.take_back(db, game_id, alice["id"], row["version"])
    assert stored(db, game_id) == before


def test_nothing_is_offered_once_the_cpu_acted_even_in_the_next_turn(db, alice, game_id):
    act(db, game_id, alice, TO_L3)
    act(db, game_id, alice, {"type": "end_turn"})  # draws: never taken back
    for _ in range(200):  # the CPU's turn, and the player's battle decisions if it attacks
        row, game = play.load(db, game_id)
        if game.state.phase == "main" and game.state.active == 0:
            break
        if 0 in game.waiting_for():
            act(db, game_id, alice, BaselinePlayer(seed=row["version"]).choose(game, 0))
        else:
            assert cpumoves.cpu_turns(db, game_id)
    row, game = play.load(db, game_id)
    assert (game.state.phase, game.state.active) == ("main", 0)
    assert list_actions(db, game_id)[-1]["action"] == {"type": "end_turn"}  # the CPU's
    assert fresh(db, game_id) is False
    with pytest.raises(play.Illegal):
        takeback.take_back(db, game_id, alice["id"], row["version"])
    # the player's first move of the new turn can be taken back, and only that one
    played = summon(db, game_id, alice)
    assert offered(db, game_id, played=played) is True
    back = takeback.take_back(db, game_id, alice["id"], played.version)
    assert fresh(db, game_id) is False
    with pytest.raises(play.Illegal):
        takeback.take_back(db, game_id, alice["id"], back.version)


# ---------------------------------------------------------------- the rule on the engine's states


def test_the_rule_refuses_a_draw_a_revealed_card_and_the_dice(db, alice, game_id):
    played = act(db, game_id, alice, TO_L3)
    before, after = played.before, played.game.state
    assert takeback.revealed_nothing(before, after, 0)

    drawn = after.copy()  # a card drawn (from the top of the pile into the hand)
    drawn.hand[0].append(drawn.deck[0].pop())
    assert not takeback.revealed_nothing(before, drawn, 0)

    shown = after.copy()  # a card of the CPU's hand shown to the player
    shown.shown = frozenset({shown.hand[1][0]})
    assert not takeback.revealed_nothing(before, shown, 0)

    rolled = after.copy()  # the random stream used
    rolled.rng = (rolled.rng + 1) % 2**64
    assert not takeback.revealed_nothing(before, rolled, 0)

    shuffled = after.copy()  # a draw pile touched
    shuffled.deck[1].reverse()
    assert not takeback.revealed_nothing(before, shuffled, 0)

    assert not takeback.revealed_nothing(before, after, 1)  # not the CPU's main step


# ---------------------------------------------------------------- races and the CPU


def test_a_second_take_back_of_the_same_version_changes_nothing(db, alice, game_id):
    summon(db, game_id, alice)
    played = act(db, game_id, alice, TO_L3)
    takeback.take_back(db, game_id, alice["id"], played.version)
    before = stored(db, game_id)
    with pytest.raises(play.Stale):
        takeback.take_back(db, game_id, alice["id"], played.version)
    assert stored(db, game_id) == before


def test_a_take_back_that_another_writer_overtakes_changes_nothing(db, alice, game_id, monkeypatch):
    """Between the take-back's read and its write another writer moves the game on (the player's other
    tab, or the CPU): the write names the version it read and is refused as stale."""
    summon(db, game_id, alice)
    played = act(db, game_id, alice, TO_L3)
    real = takeback.last_states

    def overtaken(setup, actions, keep=3):
        states = real(setup, actions, keep)
        act(db, game_id, alice, {"type": "march", "units": ["me-lord"], "to": "L2"})  # the other writer wins
        return states

    monkeypatch.setattr(takeback, "last_states", overtaken)
    with pytest.raises(play.Stale):
        takeback.take_back(db, game_id, alice["id"], played.version)
    monkeypatch.setattr(takeback, "last_states", real)
    actions = list_actions(db, game_id)
    assert [a["action"]["type"] for a in actions] == ["summon", "march", "march"]  # nothing dropped
    assert play.rebuild(db, game_id).to_json() == play.load(db, game_id)[1].to_json()


def test_a_cpu_move_thought_before_a_take_back_is_not_applied_after_it(db, alice, game_id):
    """The CPU task writes with the version it thought on (``cpumoves.cpu_step``): a take-back in between
    makes that write stale, and the next look finds nothing for the CPU to do."""
    played = act(db, game_id, alice, TO_L3)
    old = play.load_row(db, game_id)
    takeback.take_back(db, game_id, alice["id"], played.version)
    with pytest.raises(play.Stale):
        play.apply(db, old, 1, {"type": "resign"}, old["version"])  # a move the CPU may make at any time
    assert cpumoves.cpu_step(db, game_id) is None
    assert list_actions(db, game_id) == []


def test_the_store_drops_only_the_last_action_of_that_player(db, alice, game_id):
    summon(db, game_id, alice)
    played = act(db, game_id, alice, TO_L3)
    first = list_actions(db, game_id)[0]
    with pytest.raises(store.StaleVersion):  # not the last action
        store.take_back_action(db, game_id, played.version, first["seq"], 0, "{}")
    with pytest.raises(store.StaleVersion):  # not that player's
        store.take_back_action(db, game_id, played.version, played.version, 1, "{}")
    assert [a["seq"] for a in list_actions(db, game_id)] == [first["seq"], played.version]
    assert load_game(db, game_id)["version"] == played.version


# ---------------------------------------------------------------- who may ask


def test_an_online_game_offers_no_take_back_and_refuses_one(db, alice, bob):
    game_id = start(db, [alice, bob], mode="online")
    played = act(db, game_id, alice, TO_L3)
    row, game = play.load(db, game_id)
    assert takeback.offered(db, row, game, 0, played) is None
    before = stored(db, game_id)
    with pytest.raises(play.Forbidden):
        takeback.take_back(db, game_id, alice["id"], played.version)
    assert stored(db, game_id) == before


def test_a_strangers_take_back_is_told_the_game_does_not_exist(db, alice, bob, game_id):
    played = act(db, game_id, alice, TO_L3)
    before = stored(db, game_id)
    with pytest.raises(play.NotFound) as stranger:
        takeback.take_back(db, game_id, bob["id"], played.version)
    with pytest.raises(play.NotFound) as nothing:
        takeback.take_back(db, 987654, bob["id"], 0)
    assert stranger.value.message == nothing.value.message
    assert stored(db, game_id) == before
    row, game = play.load(db, game_id)
    assert takeback.offered(db, row, game, None) is None


def test_an_old_version_is_stale_and_a_finished_game_is_over(db, alice, game_id):
    played = act(db, game_id, alice, TO_L3)
    with pytest.raises(play.Stale):
        takeback.take_back(db, game_id, alice["id"], played.version - 1)
    play.abandon(db, game_id, alice["id"])
    row = play.load_row(db, game_id)
    with pytest.raises(play.Illegal):
        takeback.take_back(db, game_id, alice["id"], row["version"])
