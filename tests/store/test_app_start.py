"""The app factory creates, migrates and seeds its database, and skips seeding when nothing changed."""

import importlib

from webapp import create_app
from webapp.store import LATEST, connect, get_db, get_setting
from webapp.store.schema import version


def test_create_app_creates_migrates_and_seeds_the_database(tmp_path, pool, monkeypatch):
    monkeypatch.delenv("BRIGADE_DB", raising=False)
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path})
    assert app.config["DATABASE"] == str(tmp_path / "brigade.db")
    with connect(app.config["DATABASE"]) as db:
        assert version(db) == LATEST
        assert db["cards"].count == len(pool)
        assert get_setting(db, "seed_hash")


def test_a_second_start_skips_seeding(tmp_path, monkeypatch):
    config = {"TESTING": True, "INSTANCE_PATH": tmp_path, "DATABASE": str(tmp_path / "b.db")}
    create_app(config)
    calls = []
    seed_module = importlib.import_module("webapp.store.seed")  # webapp.store.seed is also the function
    monkeypatch.setattr(seed_module, "seed_loaners", lambda *a: calls.append(a))
    create_app(config)
    assert calls == []


def test_database_path_from_brigade_db(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIGADE_DB", str(tmp_path / "env.db"))
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance"})
    assert app.config["DATABASE"] == str(tmp_path / "env.db")
    assert (tmp_path / "env.db").exists()


def test_no_database_configured_means_no_file(tmp_path):
    create_app({"TESTING": True, "INSTANCE_PATH": tmp_path, "DATABASE": None})
    assert not list(tmp_path.glob("*.db"))


def test_requests_get_their_own_connection(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path, "DATABASE": str(tmp_path / "b.db")})
    with app.test_request_context("/"):
        assert get_db().execute("SELECT count(*) FROM schema_version").fetchone()[0] == LATEST
