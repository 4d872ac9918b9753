"""Backups with SQLite's online backup API: a complete, equal copy, even while a writer is busy."""

import shutil

import pytest

from webapp.store import (add_cards, append_action, connect, create_game, migrate, record_clear, save_deck, seed,
                          set_setting)
from webapp.store.__main__ import backup
from webapp.store.marks import set_mark

from .helpers import table_rows


@pytest.fixture
def full_db(db, pool, decks, alice):
    """A database with a row in every table."""
    seed(db, pool, decks)
    add_cards(db, alice["id"], {"orc": 3})
    wall = save_deck(db, alice["id"], "Wall", {"orc": 30})
    game_id = create_game(db, "cpu", 9, {"decks": [["orc"] * 30] * 2, "seats": [{"user_id": alice["id"]}, None]})
    append_action(db, game_id, 0, 0, {"type": "end_turn"}, "{}")
    db.execute("INSERT INTO packs (user_id, source, created) VALUES (?, 'welcome', 'now')", [alice["id"]])
    record_clear(db, alice["id"], "1", {"turns": 7})
    set_setting(db, "motd", "Welcome!")
    db["online_games"].insert({"game_id": game_id, "code": "ABCDEF", "clock": "{}", "updated": "now"})
    set_mark(db, alice["id"], "first_deck", {"deck": None, "told": True})
    db["known_logins"].insert({"user_id": alice["id"], "place": "0" * 32, "seen": "now"})
    from webapp.store.admin import audit, create_code, create_reset, use_code
    audit(db, alice["id"], "test", "user:1", {"why": "a row"})
    use_code(db, create_code(db, alice["id"], 2), alice["id"])
    create_reset(db, alice["id"])
    from webapp.store.chat import add_message, add_report, set_mute
    message = add_message(db, game_id, "players", alice["id"], 0, "gg")
    add_report(db, message["id"], alice["id"])
    set_mute(db, alice["id"], alice["id"], True)
    db.conn.commit()
    from webapp.store import create_user, social
    bob = create_user(db, "bob", "not-a-hash")
    social.add_request(db, alice["id"], bob["id"])
    social.add_friendship(db, alice["id"], bob["id"])
    social.add_request(db, alice["id"], bob["id"])  # (the friendship took the first one)
    social.add_block(db, alice["id"], bob["id"])
    social.set_watch(db, alice["id"], "link")
    social.add_challenge(db, alice["id"], bob["id"], 1, 60_000, True, 1, 2)
    social.put_rating(db, alice["id"], game_id, 1500.0, 350.0, 0.06)
    social.queue_put(db, alice["id"], 1, 60_000, 1500.0, 1)
    from webapp.store.shards import exchange
    exchange(db, alice["id"], 5, "reward", {"source": "test"})
    from webapp.store import gauntlet, puzzle_finished, puzzle_started
    from webapp.store.puzzles import share_puzzle
    puzzle_started(db, alice["id"], "two-roads-one-blow")
    puzzle_finished(db, alice["id"], "two-roads-one-blow", True, game_id)
    gauntlet.create_run(db, alice["id"], 5)
    share_puzzle(db, "abcdefgh", alice["id"], game_id, 0, {"type": "win_game"}, {"seed": 1}, [])
    from webapp.store import quests
    quests.deal(db, alice["id"], "2026-12-04", ["win_games", "cast_spells", "take_lands"])
    quests.count_game(db, alice["id"], game_id, "2026-12-04", {0: 1})
    from webapp.store.decks import put_wants
    put_wants(db, wall, {"goblin-raider": 2})
    from webapp.store.analyses import claim_analysis, finish_analysis
    claim_analysis(db, game_id, 0, "2000-01-01T00:00:00")
    finish_analysis(db, game_id, 0, {"turns": []})
    db.conn.commit()
    assert [t for t in db.table_names() if not db[t].count] == []
    return db


def test_backup_restores_to_an_equal_database(full_db, db_path, tmp_path, capsys):
    copy = tmp_path / "backup.db"
    backup(str(db_path), str(copy))
    assert f"backed up {db_path} to {copy}" in capsys.readouterr().out
    restored = tmp_path / "restored" / "brigade.db"
    restored.parent.mkdir()
    shutil.copy(copy, restored)  # restoring = putting the file in place while the server is stopped
    with connect(restored) as db:
        assert migrate(db) == []
        assert table_rows(db) == table_rows(full_db)


def test_backup_is_one_file_in_rollback_journal_mode(full_db, db_path, tmp_path):
    backup(str(db_path), str(tmp_path / "backup.db"))
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == ["backup.db"]
    with connect(tmp_path / "backup.db") as db:  # connecting turns WAL back on for the copy only
        assert db["users"].count == full_db["users"].count == 2


def test_backup_while_a_write_is_in_progress_copies_only_committed_rows(full_db, db_path, tmp_path):
    expected = table_rows(full_db)
    with connect(db_path) as writer:
        writer.conn.execute("BEGIN IMMEDIATE")
        writer.conn.execute("INSERT INTO settings (key, value) VALUES ('uncommitted', '1')")
        backup(str(db_path), str(tmp_path / "backup.db"))
        writer.conn.execute("COMMIT")
    with connect(tmp_path / "backup.db") as db:
        assert table_rows(db) == expected


def test_backup_of_a_missing_database_fails_clearly(tmp_path):
    with pytest.raises(SystemExit, match="no database at"):
        backup(str(tmp_path / "nope.db"), str(tmp_path / "backup.db"))
    assert not (tmp_path / "nope.db").exists()
