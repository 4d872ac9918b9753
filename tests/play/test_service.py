"""The play service against a real SQLite file: create, seats, versions, illegal input, CPU, rebuild."""

import re

import pytest

from webapp.decks import collection
from webapp.game import cpumoves, cpuseats, play, replay, seatnames, seatstate
from webapp.ai import BaselinePlayer
from webapp.engine import Game
from webapp.store import add_cards, connect, list_actions, load_game, save_deck


def snapshot(db, game_id):
    """What a refused action must not change: the row's version and state, and the action list."""
    row = load_game(db, game_id)
    return row["version"], row["state"], row["status"], len(list_actions(db, game_id))


@pytest.fixture
def game_id(db, alice, loaner):
    return play.create_cpu_game(db, alice, loaner, seed=2024)


def human_move(db, game_id, user, policy=None):
    """One decision of the human seat by the baseline policy; return Played."""
    row, game = play.load(db, game_id)
    action = (policy or BaselinePlayer(seed=row["version"])).choose(game, 0)
    return play.act(db, game_id, user["id"], action, row["version"])


def play_out(db, game_id, user, limit=2000):
    """Alternate human (baseline) decisions and CPU turns until the game ends."""
    for _ in range(limit):
        row, game = play.load(db, game_id)
        if row["status"] != "active":
            return row
        if 0 in game.waiting_for():
            human_move(db, game_id, user)
        else:
            assert cpumoves.cpu_turns(db, game_id), "the game waits for nobody"
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- creating


def test_a_cpu_game_stores_its_setup_and_starts_with_the_human(db, alice, loaner, game_id):
    row, game = play.load(db, game_id)
    setup = row["setup"]
    assert (row["mode"], row["seed"], row["status"], row["version"]) == ("cpu", 2024, "active", 0)
    assert setup["seats"] == [{"user_id": alice["id"]}, {"cpu": "baseline"}]
    assert (setup["mode"], setup["seed"], setup["first"], setup["leader_mode"]) == ("cpu", 2024, 0, "sequential")
    assert [len(d) for d in setup["decks"]] == [30, 30]
    assert setup["deck_ids"] == [loaner, loaner]
    assert row["seats"] == [alice["id"], None]
    assert game.waiting_for() == {0}  # R5.1 the human first; R5.7 the CPU picks its leaders after


def test_the_cpu_can_be_given_a_deck(db, alice, loaner):
    add_cards(db, alice["id"], {"orc": 30})
    own = save_deck(db, alice["id"], "Orcs", {"orc": 30})
    game_id = play.create_cpu_game(db, alice, [own, loaner], seed=1)
    assert load_game(db, game_id)["setup"]["decks"] == [["orc"] * 30, play.deck_list(
        play.store.get_loaner(db, "princes-brigade")["cards"])]


def test_a_seed_is_drawn_when_none_is_given(db, alice, loaner):
    seeds = {load_game(db, play.create_cpu_game(db, alice, loaner))["seed"] for _ in range(3)}
    assert len(seeds) == 3 and all(0 <= s < 2**63 for s in seeds)


def test_r2_3_the_loaner_deck_only_while_owning_fewer_than_30_cards(db, alice, loaner):
    assert [d["id"] for d in collection.playable_decks(db, alice["id"])] == [loaner]
    add_cards(db, alice["id"], {"orc": 30})
    assert collection.playable_decks(db, alice["id"]) == []
    with pytest.raises(play.Forbidden, match="fewer than 30 cards"):
        play.create_cpu_game(db, alice, loaner)
    assert [d["id"] for d in collection.playable_decks(db, alice["id"], {"COLLECTION": "all"})] == [loaner]


def test_own_decks_are_playable_only_when_legal_and_owned(db, alice, bob):
    add_cards(db, alice["id"], {"orc": 30, "goblin-raider": 2})
    good = save_deck(db, alice["id"], "Orcs", {"orc": 30})
    short = save_deck(db, alice["id"], "Short", {"orc": 29})
    unowned = save_deck(db, alice["id"], "Raiders", {"orc": 26, "goblin-raider": 4})
    assert [d["id"] for d in collection.playable_decks(db, alice["id"])] == [good]
    for deck, why in ((short, "exactly 30 cards"), (unowned, "own")):
        with pytest.raises(play.Forbidden, match=why) as refused:
            play.create_cpu_game(db, alice, deck)
        assert not re.search(r"\bR\d+\.\d+", refused.value.message)  # players read no rule numbers
    with pytest.raises(play.Forbidden, match="not yours"):
        play.create_cpu_game(db, bob, good)
    with pytest.raises(play.NotFound):
        play.create_cpu_game(db, alice, 9999)


# ---------------------------------------------------------------- acting


def test_an_action_is_applied_stored_and_answered_with_its_events(db, alice, game_id):
    row, game = play.load(db, game_id)
    action = game.legal_actions(0)[0]
    played = play.act(db, game_id, alice["id"], action, 0)
    assert played.version == 1 and played.seat == 0
    assert played.events == [{"type": "leaders_chosen", "player": 0}]
    assert [(a["seq"], a["player"], a["action"]) for a in list_actions(db, game_id)] == [(1, 0, action)]
    assert load_game(db, game_id)["state"] == played.game.to_json()


def test_a_user_without_a_seat_is_forbidden_and_nothing_changes(db, bob, game_id):
    before = snapshot(db, game_id)
    _, game = play.load(db, game_id)
    with pytest.raises(play.Forbidden) as caught:
        play.act(db, game_id, bob["id"], game.legal_actions(0)[0], 0)
    assert caught.value.code == "forbidden"
    assert snapshot(db, game_id) == before


@pytest.mark.parametrize("version", [1, 7, -1])
def test_an_action_on_another_version_is_stale_and_nothing_changes(db, alice, game_id, version):
    before = snapshot(db, game_id)
    _, game = play.load(db, game_id)
    with pytest.raises(play.Stale) as caught:
        play.act(db, game_id, alice["id"], game.legal_actions(0)[0], version)
    assert caught.value.code == "stale"
    assert snapshot(db, game_id) == before


@pytest.mark.parametrize("action", [
    {"type": "end_turn"},                              # not during the leader choice
    {"type": "choose_leaders", "cards": ["p1c0"]},     # the CPU's card
    {"type": "choose_leaders", "cards": ["nope"]},
    {"type": "fly"},
    "end_turn",
    {"type": "summon"},
])
def test_an_illegal_action_is_refused_with_the_engines_reason_and_nothing_changes(db, alice, game_id, action):
    before = snapshot(db, game_id)
    with pytest.raises(play.Illegal) as caught:
        play.act(db, game_id, alice["id"], action, 0)
    assert caught.value.code == "illegal" and caught.value.message
    assert snapshot(db, game_id) == before


def test_acting_while_the_game_waits_for_the_cpu_is_illegal(db, alice, game_id):
    played = human_move(db, game_id, alice)
    assert played.game.waiting_for() == {1}
    before = snapshot(db, game_id)
    with pytest.raises(play.Illegal, match="waits for your opponent"):
        play.act(db, game_id, alice["id"], {"type": "end_turn"}, played.version)
    assert snapshot(db, game_id) == before


def test_a_game_that_does_not_exist_is_not_found(db, alice):
    with pytest.raises(play.NotFound) as caught:
        play.act(db, 12345, alice["id"], {"type": "resign"}, 0)
    assert caught.value.code == "not_found"


def test_when_another_writer_wins_the_race_the_action_is_stale(app, db, alice, game_id):
    row = play.load_row(db, game_id)
    other = connect(app.config["DATABASE"])
    try:
        play.act(other, game_id, alice["id"], {"type": "resign"}, 0)
    finally:
        other.close()
    before = snapshot(db, game_id)
    game = Game.from_json(row["state"])
    with pytest.raises(play.Stale, match="moved on"):
        play.apply(db, row, 0, game.legal_actions(0)[0], 0)  # checked against the row read before
    assert snapshot(db, game_id) == before


def test_resigning_finishes_the_game_with_its_result(db, alice, game_id):
    played = play.act(db, game_id, alice["id"], {"type": "resign"}, 0)
    row = load_game(db, game_id)
    assert (row["status"], row["result"]) == ("finished", {"winner": 1, "reason": "resign"})
    assert played.row["status"] == "finished"
    with pytest.raises(play.Illegal, match="over"):
        play.act(db, game_id, alice["id"], {"type": "resign"}, played.version)


def test_the_server_can_end_a_game_on_time(db, game_id):
    played = play.end(db, game_id, 1, "timeout")
    row = load_game(db, game_id)
    assert (row["status"], row["result"], row["version"]) == ("finished", {"winner": 1, "reason": "timeout"}, 1)
    assert played.events[-1] == {"type": "game_over", "winner": 1, "reason": "timeout"}


# ---------------------------------------------------------------- the CPU


def test_cpu_turns_do_nothing_while_the_game_waits_for_the_human(db, game_id):
    assert cpumoves.cpu_turns(db, game_id) == []
    assert snapshot(db, game_id)[0] == 0


def test_r5_7_the_cpu_chooses_its_leaders_after_the_human_then_waits(db, alice, game_id):
    human_move(db, game_id, alice)
    played = cpumoves.cpu_turns(db, game_id)
    assert [p.seat for p in played] == [1]
    assert played[0].events[0] == {"type": "leaders_chosen", "player": 1}
    assert any(e["type"] == "leaders_revealed" for e in played[0].events)
    assert played[-1].game.waiting_for() == {0}
    assert list_actions(db, game_id)[-1]["player"] == 1


def test_cpu_turns_report_each_action_as_it_is_stored(db, alice, game_id):
    human_move(db, game_id, alice)
    seen = []
    cpumoves.cpu_turns(db, game_id, on_action=lambda p: seen.append((p.version, load_game(db, game_id)["version"])))
    assert seen and all(mine == stored for mine, stored in seen)


# ---------------------------------------------------------------- a whole game and its rebuild


def test_a_whole_game_against_the_cpu_ends_with_a_stored_result(db, alice, game_id):
    row = play_out(db, game_id, alice)
    assert row["status"] == "finished"
    assert row["result"]["winner"] in (0, 1, None)
    assert load_game(db, game_id)["result"] == row["result"]
    seats = {a["player"] for a in list_actions(db, game_id)}
    assert seats == {0, 1}


def test_rebuilding_from_setup_and_actions_gives_the_stored_state(db, alice, game_id):
    for _ in range(25):
        row, game = play.load(db, game_id)
        if 0 in game.waiting_for():
            human_move(db, game_id, alice)
        else:
            cpumoves.cpu_turns(db, game_id)
    row = load_game(db, game_id)
    assert play.rebuild(db, game_id).to_json() == row["state"]
    play_out(db, game_id, alice)
    row = load_game(db, game_id)
    rebuilt = play.rebuild(db, game_id)
    assert rebuilt.to_json() == row["state"]
    assert rebuilt.result == row["result"]


def test_rebuild_up_to_a_version(db, alice, game_id):
    first = human_move(db, game_id, alice)
    cpumoves.cpu_turns(db, game_id)
    assert play.rebuild(db, game_id, upto=first.version).to_json() == first.game.to_json()


def test_the_replay_steps_are_the_played_actions_with_their_events(db, alice, game_id):
    """webapp/game/replay.py: the start (version 0), then each stored action with the events and the
    state play.apply gave it when it was played."""
    played = []
    for _ in range(12):
        row, game = play.load(db, game_id)
        played += [human_move(db, game_id, alice)] if 0 in game.waiting_for() else cpumoves.cpu_turns(db, game_id)
    row = load_game(db, game_id)
    steps = [(s.version, s.player, s.action, s.events, s.game.to_json())
             for s in replay.steps(row["setup"], list_actions(db, game_id))]
    assert steps[0][:4] == (0, None, None, []) and steps[0][4] == replay.new_game(row["setup"]).to_json()
    assert [(v, p, e, state) for v, p, _a, e, state in steps[1:]] == [
        (x.version, x.seat, x.events, x.game.to_json()) for x in played]
    assert [a for *_, a, _e, _s in steps[1:]] == [a["action"] for a in list_actions(db, game_id)]
    assert [s.version for s in replay.steps(row["setup"], list_actions(db, game_id), upto=3)] == [0, 1, 2, 3]


def test_seat_of(db, alice, bob, game_id):
    row = play.load_row(db, game_id)
    assert (play.seat_of(row, alice["id"]), play.seat_of(row, bob["id"]), play.seat_of(row, None)) == (0, None, None)
    assert cpuseats.cpu_seats(row) == {1: "baseline"}


# ---------------------------------------------------------------- what a seat is sent


def test_a_state_holds_only_the_seats_view_and_its_legal_actions(db, alice, game_id):
    row, game = play.load(db, game_id)
    names = seatnames.seat_names(db, row)
    assert names == ["alice", "CPU"]
    mine = seatstate.state_for(row, game, 0, [], names)
    assert set(mine) == {"game", "version", "seat", "mode", "status", "players", "view", "legal_actions",
                         "waiting_for", "events", "log"}
    assert mine["view"] == game.view(0) and mine["legal_actions"] == game.legal_actions(0)
    assert mine["players"] == [{"name": "alice", "cpu": False}, {"name": "CPU", "cpu": True}]
    watcher = seatstate.state_for(row, game, None, [], names)
    assert watcher["view"] == game.view(None) and watcher["legal_actions"] == []


def test_the_log_speaks_to_each_seat(db, alice, game_id):
    played = human_move(db, game_id, alice)
    names = seatnames.seat_names(db, played.row)
    assert seatstate.state_for(played.row, played.game, 0, played.events, names)["log"] == ["You choose leaders."]
    assert seatstate.state_for(played.row, played.game, None, played.events, names)["log"] == ["alice chooses leaders."]


def test_a_win_against_the_cpu_grants_one_pack(app):
    """Packs come from wins: the winning player gets exactly one, the CPU none."""
    from webapp.game import play
    from webapp import store
    from webapp.store.packs import list_packs
    from webapp.store.users import create_user
    from tests.web.conftest import stored_hash
    from webapp.engine.randomplay import random_game

    db = store.connect(app.config["DATABASE"])
    try:
        user = create_user(db, "winner", stored_hash("correct horse battery"))
        row = {"id": 99, "seats": [user["id"], None], "result": {"winner": 0, "reason": "leaders"}}
        game = random_game(1)[0]
        assert play.reward_winner(db, row, game) is not None
        assert play.reward_winner(db, row, game) is None  # the same game never pays twice
        assert [p["source"] for p in list_packs(db, user["id"])] == ["win:game:99"]
        assert play.reward_winner(db, dict(row, result={"winner": 1, "reason": "leaders"}), game) is None
        assert play.reward_winner(db, dict(row, id=100, result={"winner": None, "reason": "draw"}), game) is None
    finally:
        db.conn.close()
