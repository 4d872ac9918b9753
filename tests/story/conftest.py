"""Story fixtures: an app whose CPU moves at once, its SQLite file, users, and playing a story game out.

The web fixtures (make_user, alice, bob, log_in, post) come from tests/web/conftest.py.
"""

import pytest

from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
from webapp import create_app, play, story
from webapp.ai import BaselinePlayer
from webapp.store import connect, get_loaner, record_clear


@pytest.fixture
def app(tmp_path):
    """An app on its own instance folder; the CPU plays without pauses."""
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "CPU_DELAY": 0})


@pytest.fixture
def db(app):
    """A connection of the test's own to the app's database file."""
    database = connect(app.config["DATABASE"])
    yield database
    database.close()


@pytest.fixture
def loaner(db):
    """The Prince's Brigade loaner deck's id."""
    return get_loaner(db, play.LOANER)["id"]


def unlock_up_to(db, user_id, chapter_id):
    """Mark every chapter before ``chapter_id`` cleared (without rewards), so it can be started."""
    for ch in story.chapters():
        if ch.id == chapter_id:
            return ch
        record_clear(db, user_id, ch.id)
    raise AssertionError(f"no chapter {chapter_id!r}")


def act(db, game_id, user_id, action, version):
    """play.act, then what the play service's one-line hook does when the action ended a story game
    (docs/story.md: ``story.on_game_over(db, row)`` after ``reward_winner`` in play.apply/end)."""
    played = play.act(db, game_id, user_id, action, version)
    if played.row["status"] != "active":
        story.on_game_over(db, played.row)
    return played


def cpu_turns(db, game_id):
    """play.cpu_turns, then the hook if the CPU's move ended the game."""
    out = play.cpu_turns(db, game_id)
    if out and out[-1].row["status"] != "active":
        story.on_game_over(db, out[-1].row)
    return out


def play_out(db, game_id, user_id, bot_seed=0, limit=5000, sent=None):
    """The human seat played by the baseline bot through play.act, the CPU through play.cpu_turns,
    until the game ends; return the final row. ``sent`` collects the human's (action, version)."""
    for _ in range(limit):
        row, game = play.load(db, game_id)
        if row["status"] != "active":
            return row
        if 0 in game.waiting_for():
            action = BaselinePlayer(seed=bot_seed * 100_003 + row["version"]).choose(game.copy(), 0)
            act(db, game_id, user_id, action, row["version"])
            if sent is not None:
                sent.append((action, row["version"]))
        else:
            assert cpu_turns(db, game_id), "the game waits for nobody"
    raise AssertionError("the game did not end")
