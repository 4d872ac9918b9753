"""Migrations: a schema from an empty file, an upgrade from version 1, idempotence, concurrency."""

import threading

import pytest

from webapp.store import LATEST, MIGRATIONS, SchemaTooNew, connect, migrate
from webapp.store.schema import version

TABLES = {"schema_version", "users", "cards", "collection", "decks", "deck_cards", "packs", "games",
          "game_actions", "story_progress", "settings", "online_games", "user_marks", "known_logins",
          "audit_log", "invite_codes", "invite_uses", "password_resets", "chat_messages", "chat_reports",
          "chat_mutes", "friend_requests", "friendships", "blocks", "social_settings", "challenges", "ratings", "rating_history",
          "match_queue", "shards", "shard_ledger",
          "daily_quests", "quest_days", "quest_games",
          "puzzle_progress", "puzzle_results", "gauntlet_runs", "shared_puzzles", "game_analyses",
          "deck_wants"}


def test_migrations_are_numbered_in_order():
    assert [m.__name__[:4] for m in MIGRATIONS] == [f"m{n:03d}" for n in range(1, LATEST + 1)]
    assert LATEST >= 2


def test_an_empty_file_gets_every_table_at_the_latest_version(db_path):
    db = connect(db_path)
    assert migrate(db) == [m.__name__ for m in MIGRATIONS]
    assert set(db.table_names()) == TABLES
    assert version(db) == LATEST
    assert "last_login" in db["users"].columns_dict
    db.close()


def test_migrate_twice_applies_nothing_the_second_time(db):
    before = db.execute("SELECT * FROM schema_version").fetchall()
    assert migrate(db) == []
    assert db.execute("SELECT * FROM schema_version").fetchall() == before


def test_foreign_keys_and_indexes_are_declared(db):
    fks = {(fk.table, fk.column, fk.other_table) for t in db.tables for fk in t.foreign_keys}
    assert {("collection", "user_id", "users"), ("collection", "card_id", "cards"),
            ("decks", "user_id", "users"), ("deck_cards", "deck_id", "decks"),
            ("deck_cards", "card_id", "cards"), ("packs", "user_id", "users"),
            ("games", "seat0_user_id", "users"), ("games", "seat1_user_id", "users"),
            ("game_actions", "game_id", "games"), ("story_progress", "user_id", "users"),
            ("online_games", "game_id", "games")} <= fks
    indexes = {i.name for t in db.tables for i in t.indexes}
    assert {"cards_browse", "collection_card", "decks_user_name", "deck_cards_card", "packs_user",
            "games_seat0", "games_seat1", "games_status", "games_updated"} <= indexes
    assert db["collection"].pks == ["user_id", "card_id"]
    assert db["game_actions"].pks == ["game_id", "seq"]


def test_migration_from_version_1_keeps_the_data(db_path):
    db = connect(db_path)
    assert migrate(db, target=1) == ["m001_initial"]
    assert "last_login" not in db["users"].columns_dict
    db["users"].insert({"name": "Old Timer", "password_hash": "h", "created": "2024-01-01T00:00:00.000Z"})
    db["cards"].insert({"id": "orc", "kind": "monster", "element": "earth", "level": 1, "rarity": "C",
                        "set": 1, "data": "{}"})
    db["collection"].insert({"user_id": 1, "card_id": "orc", "count": 3})
    db.close()

    db = connect(db_path)
    assert migrate(db) == [m.__name__ for m in MIGRATIONS[1:]]
    assert version(db) == LATEST
    user = next(db.query("SELECT * FROM users"))
    assert user["name"] == "Old Timer" and user["last_login"] is None
    assert db.execute("SELECT * FROM collection").fetchall() == [(1, "orc", 3)]
    db.close()


def test_a_database_from_a_newer_brigade_is_refused(db):
    db["schema_version"].insert({"version": LATEST + 1, "name": "m999_future", "applied": "x"})
    with pytest.raises(SchemaTooNew, match=f"version {LATEST + 1}"):
        migrate(db)


def test_a_failing_migration_leaves_the_previous_version(db_path, monkeypatch):
    def m003_broken(db):
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("broken migration")

    db = connect(db_path)
    migrate(db)
    monkeypatch.setattr("webapp.store.schema.MIGRATIONS", MIGRATIONS + [m003_broken])
    monkeypatch.setattr("webapp.store.schema.LATEST", LATEST + 1)
    with pytest.raises(RuntimeError, match="broken migration"):
        migrate(db, target=LATEST + 1)
    assert version(db) == LATEST
    assert "half_done" not in db.table_names()
    db.close()


def test_servers_starting_together_on_a_new_file_apply_each_migration_once(db_path):
    errors, barrier = [], threading.Barrier(4)

    def start():
        try:
            barrier.wait(timeout=10)
            with connect(db_path) as db:
                migrate(db)
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == []
    db = connect(db_path)
    assert db.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [
        (n,) for n in range(1, LATEST + 1)]
    db.close()
