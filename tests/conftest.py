"""Fixtures shared by the whole suite: an app on a fresh instance folder and its client.

Engine, card and property tests keep their fixtures in their own folders' conftest.py.
"""

import os
import shutil

import pytest

from webapp import clock as app_clock
from webapp import create_app, store


@pytest.fixture(autouse=True)
def _real_clock():
    """Every test starts and ends on the real clocks: what a test advanced is put back."""
    app_clock.reset()
    yield
    app_clock.reset()


@pytest.fixture
def clock():
    """The app's clock (webapp/clock.py): ``clock.advance(seconds)`` moves every reading forward, so a
    grace period, a game clock or a rate window passes without sleeping. Put back after the test."""
    return app_clock


@pytest.fixture(scope="session")
def seeded_database(tmp_path_factory):
    """A database file created, migrated and seeded once per run (store.prepare, what create_app does
    at start): each test's instance starts from a copy of it, so the app's start only finds it current."""
    path = tmp_path_factory.mktemp("seeded") / "brigade.db"
    store.prepare(str(path))
    return path


@pytest.fixture
def instance(tmp_path, seeded_database):
    """The test's own instance folder (tmp_path/instance), holding its own copy of the seeded database."""
    folder = tmp_path / "instance"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(seeded_database, folder / "brigade.db")
    return folder


@pytest.fixture
def app(instance):
    """An app in testing mode whose instance folder (and so its database) is per test."""
    return create_app({"TESTING": True, "INSTANCE_PATH": instance})


@pytest.fixture
def client(app):
    """Flask's test client for ``app``."""
    return app.test_client()


def shots_dir():
    """Where browser tests save screenshots: $BRIGADE_SCREENSHOTS (e.g. docs/screenshots, to refresh
    the committed ones) or a folder in the system's temp dir, so a test run leaves the tree clean."""
    import pathlib
    import tempfile
    path = pathlib.Path(os.environ.get("BRIGADE_SCREENSHOTS") or pathlib.Path(tempfile.gettempdir(), "brigade-screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (never a downloaded browser); skipped when missing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Debian chromium at /usr/bin/chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
