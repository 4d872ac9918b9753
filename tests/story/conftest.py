"""Story fixtures: an app whose CPU moves at once, its SQLite file, users, and playing a story game out.

The web fixtures (make_user, alice, bob, log_in, post) come from tests/web/conftest.py.
"""

from tests.play.conftest import app, db, loaner  # noqa: F401 (fixtures: an app whose CPU moves at once)
from tests.web.conftest import PASSWORD, alice, bob, log_in, make_user, post  # noqa: F401 (fixtures)
from webapp.game import cpumoves, play, story, storychapters
from webapp.ai import BaselinePlayer
from webapp.store import record_clear


def unlock_up_to(db, user_id, chapter_id):
    """Mark every chapter before ``chapter_id`` cleared (without rewards), so it can be started."""
    for ch in storychapters.chapters():
        if ch.id == chapter_id:
            return ch
        record_clear(db, user_id, ch.id)
    raise AssertionError(f"no chapter {chapter_id!r}")


def act(db, game_id, user_id, action, version):
    """play.act: a story game that ends there finishes its chapter (play.game_over runs the story hook)."""
    return play.act(db, game_id, user_id, action, version)


def cpu_turns(db, game_id):
    """cpumoves.cpu_turns, then the hook if the CPU's move ended the game."""
    out = cpumoves.cpu_turns(db, game_id)
    if out and out[-1].row["status"] != "active":
        story.on_game_over(db, out[-1].row)
    return out


def play_out(db, game_id, user_id, bot_seed=0, limit=5000, sent=None):
    """The human seat played by the baseline bot through play.act, the CPU through cpumoves.cpu_turns,
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
