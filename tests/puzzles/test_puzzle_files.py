"""Every puzzle file in cards/puzzles loads, its solution meets its goal against its CPU, doing
nothing and its listed wrong lines do not, and the solver finds a line of its own (docs/puzzles.md)."""

import copy
import os
import tomllib

import pytest

from webapp.engine import load_pool
from webapp.game import puzzles, puzzlesolver

FILES = sorted(f for f in os.listdir(puzzles.puzzle_dir()) if f.endswith(".toml"))
POOL = load_pool()
#: The story's lessons are not repeated: every puzzle teaches one of these (docs/puzzles.md).
THEMES = {"R8.5": "converge", "R8.2": "Double March", "R11.2": "counters", "R11.3": "counters",
          "R12.7": "wild slots", "R12.11": "Spellproof", "R12.10": "the Goblin lock", "R8.8": "over capacity",
          "R16.1": "the judgment"}


def load(name):
    with open(os.path.join(puzzles.puzzle_dir(), name), "rb") as fh:
        return tomllib.load(fh)


def test_at_least_twenty_puzzles_in_order():
    pzs = puzzles.load_puzzles(prove=False)
    assert len(pzs) >= 20
    assert [p.order for p in pzs] == list(range(1, len(pzs) + 1))
    taught = {THEMES[r] for p in pzs for r in p.teaches["rules"] if r in THEMES}
    assert taught == set(THEMES.values())


@pytest.mark.parametrize("name", FILES)
def test_puzzle_is_proven(name):
    """parse_puzzle with prove=True plays the solution (met), doing nothing and each wrong line (not met)."""
    pz = puzzles.parse_puzzle(load(name), POOL, name, prove=True)
    line = puzzlesolver.play_line(pz.start, pz.goal, pz.solution, pz.seed(), pz.cpu)
    assert line.verdict == "met" and line.played == pz.solution
    assert puzzles.play_idle(pz.start, pz.goal, pz.seed(), pz.cpu) != "met"
    for wrong in pz.wrong:
        try:
            verdict = puzzlesolver.play_line(pz.start, pz.goal, wrong, pz.seed(), pz.cpu).verdict
        except puzzlesolver.IllegalAction:
            verdict = "refused"
        assert verdict != "met"


@pytest.mark.parametrize("name", FILES)
def test_solver_finds_a_line(name):
    """The small solver over the engine's legal actions finds a line of its own, and that line meets
    the goal when played as the board would play it."""
    pz = puzzles.parse_puzzle(load(name), POOL, name, prove=False)
    line, nodes = puzzlesolver.solve(pz.start, pz.goal, pz.seed(), pz.cpu, max_depth=8, max_nodes=30_000)
    assert line is not None, f"no line within {nodes} positions"
    assert puzzlesolver.play_line(pz.start, pz.goal, line, pz.seed(), pz.cpu).verdict == "met"


def broken(change):
    data = copy.deepcopy(load(FILES[0]))
    change(data)
    return data


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d.pop("hint"), "hint"),
    (lambda d: d["title"].pop("ja"), "title"),
    (lambda d: d.update(difficulty="brutal"), "difficulty"),
    (lambda d: d["goal"].update(type="win_everything"), "goal"),
    (lambda d: d["goal"].update(count=2), "goal"),
    (lambda d: d["scenario"].pop("seed"), "scenario.seed"),
    (lambda d: d["scenario"]["players"][0].pop("deck"), "scenario.players"),
    (lambda d: d["scenario"]["players"][0]["units"].append({"card": "no-such-card", "land": "L4"}), "scenario"),
    (lambda d: d.update(solution=d["solution"][:1]), "solution"),
    (lambda d: d.update(solution=[{"type": "march", "units": ["brute"], "to": "L6"}]), "solution"),
    (lambda d: d.update(wrong=[{"line": d["solution"]}]), "wrong[0]"),
    (lambda d: d.update(cpu="hard"), "cpu"),
    (lambda d: d["teaches"].update(rules=["8.5"]), "teaches.rules"),
])
def test_bad_puzzle_data_is_refused_naming_the_field(change, field):
    with pytest.raises(puzzles.PuzzleDataError) as err:
        puzzles.parse_puzzle(broken(change), POOL, "bad.toml")
    assert f"field {field!r}" in str(err.value) and "bad.toml" in str(err.value)


def test_a_goal_met_by_doing_nothing_is_no_puzzle():
    def easy(d):
        d["goal"] = {"type": "survive", "round": 5}
        d["scenario"]["round"] = 4
        d["solution"] = [{"type": "end_turn"}]
        d["wrong"] = []
    with pytest.raises(puzzles.PuzzleDataError, match="doing nothing meets it"):
        puzzles.parse_puzzle(broken(easy), POOL, "bad.toml")


def test_a_folder_with_a_bad_file_loads_nothing(tmp_path):
    """Bad puzzle data changes nothing: the loader refuses the whole folder, naming the file."""
    first = os.path.join(puzzles.puzzle_dir(), FILES[0])
    with open(first, encoding="utf-8") as fh:
        text = fh.read()
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text('id = "x"\norder = 2\n')
    with pytest.raises(puzzles.PuzzleDataError, match="b.toml"):
        puzzles.load_puzzles(str(tmp_path), POOL)
    (tmp_path / "b.toml").write_text(text)
    with pytest.raises(puzzles.PuzzleDataError, match="also used by"):
        puzzles.load_puzzles(str(tmp_path), POOL)
