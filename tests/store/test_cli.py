"""``python -m webapp.store`` and ``python -m webapp db``: init, seed and backup on $BRIGADE_DB."""

import os
import subprocess
import sys

import pytest

from webapp import ROOT
from webapp.store import LATEST, MIGRATIONS, connect

from .helpers import table_rows


def run(tmp_path, *args):
    """Run a command with BRIGADE_DB in tmp_path; return its stdout (it must succeed)."""
    env = dict(os.environ, BRIGADE_DB=str(tmp_path / "brigade.db"),
               BRIGADE_INSTANCE_PATH=str(tmp_path / "instance"))
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
@pytest.mark.parametrize("prefix", [["webapp.store"], ["webapp", "db"]], ids=["webapp.store", "webapp db"])
def test_init_seed_and_backup(tmp_path, pool, prefix):
    db_file = tmp_path / "brigade.db"
    out = run(tmp_path, *prefix, "init")
    applied = ", ".join(m.__name__ for m in MIGRATIONS)
    assert out == f"{db_file}: schema version {LATEST} (applied {applied})\n"
    assert run(tmp_path, *prefix, "init") == f"{db_file}: schema version {LATEST} (nothing to apply)\n"

    out = run(tmp_path, *prefix, "seed")
    assert out.startswith(f"{db_file}: seeded {len(pool)} cards")
    with connect(db_file) as db:
        assert db["cards"].count == len(pool)

    out = run(tmp_path, *prefix, "backup", str(tmp_path / "copy.db"))
    assert out.startswith(f"backed up {db_file} to {tmp_path / 'copy.db'}")
    with connect(db_file) as db, connect(tmp_path / "copy.db") as copy:
        assert table_rows(copy) == table_rows(db)


def test_db_option_overrides_the_environment(tmp_path):
    other = tmp_path / "other.db"
    assert run(tmp_path, "webapp.store", "--db", str(other), "init").startswith(f"{other}:")
    assert other.exists() and not (tmp_path / "brigade.db").exists()


def test_a_command_is_required(tmp_path):
    done = subprocess.run([sys.executable, "-m", "webapp.store"], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, BRIGADE_DB=str(tmp_path / "brigade.db")), timeout=60)
    assert done.returncode == 2 and "init,seed,backup" in done.stderr
