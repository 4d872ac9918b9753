"""Puzzle games through the play service on the app's real SQLite file: a puzzle is a play mode
(``modes.register_mode``), ends the moment its goal is met or missed, counts tries and solves per
account, shows its solution after a solve or three misses, and pays no Victory pack."""

from webapp import store
from webapp.game import cpumoves, play, puzzles


def play_line(db, game_id, user_id, line):
    """The player's actions through play.act, the CPU through cpumoves.cpu_turns, until the game ends or the line does."""
    for action in line:
        cpumoves.cpu_turns(db, game_id)
        row = play.load_row(db, game_id)
        if row["status"] != "active":
            break
        play.act(db, game_id, user_id, action, row["version"])
    cpumoves.cpu_turns(db, game_id)
    return play.load_row(db, game_id)


def test_the_solution_solves_the_puzzle_and_ends_the_game(app, db, alice):
    pz = puzzles.puzzle("two-roads-one-blow")
    game_id = puzzles.start_puzzle(db, alice, pz.id)
    row = play.load_row(db, game_id)
    assert row["mode"] == "puzzle" and row["setup"]["puzzle"] == pz.id and row["seats"] == [alice["id"], None]
    row = play_line(db, game_id, alice["id"], pz.solution)
    assert row["status"] == "finished"
    assert row["result"] == {"winner": 0, "reason": "puzzle"}
    entry = puzzles.progress(db, alice["id"])[pz.id]
    assert entry["solved"] and entry["tries"] == 1 and entry["misses"] == 0
    assert puzzles.solution_open(entry)
    assert store.list_packs(db, alice["id"]) == []  # no Victory pack for a puzzle


def test_doing_nothing_misses_and_three_misses_open_the_solution(app, db, alice):
    pz = puzzles.puzzle("two-roads-one-blow")
    for n in range(1, 4):
        game_id = puzzles.start_puzzle(db, alice, pz.id)
        row = play_line(db, game_id, alice["id"], [{"type": "end_turn"}])
        assert row["result"] == {"winner": 1, "reason": "puzzle"}
        entry = puzzles.progress(db, alice["id"])[pz.id]
        assert entry["misses"] == n and not entry["solved"]
        assert puzzles.solution_open(entry) == (n >= puzzles.TRIES_BEFORE_SOLUTION)


def test_a_retry_ends_the_try_in_progress_as_a_miss(app, db, alice):
    pz = puzzles.puzzle("the-pincer")
    first = puzzles.start_puzzle(db, alice, pz.id)
    second = puzzles.start_puzzle(db, alice, pz.id)
    assert play.load_row(db, first)["result"] == {"winner": 1, "reason": "puzzle"}
    assert play.load_row(db, second)["status"] == "active"
    entry = puzzles.progress(db, alice["id"])[pz.id]
    assert entry["tries"] == 2 and entry["misses"] == 1


def test_a_result_is_counted_once_however_often_reported(app, db, alice):
    pz = puzzles.puzzle("the-pincer")
    game_id = puzzles.start_puzzle(db, alice, pz.id)
    row = play_line(db, game_id, alice["id"], [{"type": "end_turn"}])
    puzzles.on_game_over(db, row)
    puzzles.on_game_over(db, row)
    assert puzzles.progress(db, alice["id"])[pz.id]["misses"] == 1


def test_progress_is_per_account(app, db, alice, bob):
    pz = puzzles.puzzle("the-pincer")
    play_line(db, puzzles.start_puzzle(db, alice, pz.id), alice["id"], pz.solution)
    assert puzzles.progress(db, alice["id"])[pz.id]["solved"]
    assert pz.id not in puzzles.progress(db, bob["id"])


def test_a_stranger_cannot_act_in_a_puzzle_game(app, db, alice, bob):
    game_id = puzzles.start_puzzle(db, alice, "the-pincer")
    row = play.load_row(db, game_id)
    try:
        play.act(db, game_id, bob["id"], {"type": "end_turn"}, row["version"])
    except play.Forbidden:
        pass
    else:
        raise AssertionError("bob acted in alice's puzzle")
    assert play.load_row(db, game_id)["version"] == row["version"]
