"""Fixtures shared by the whole suite: an app on a fresh instance folder and its client.

Engine, card and property tests keep their fixtures in their own folders' conftest.py.
"""

import faulthandler
import gc
import os
import shutil

import flask
import jinja2
import pytest
from werkzeug.routing import Rule

from webapp import clock as app_clock
from webapp import create_app, store


class SharedTemplateCode(jinja2.BytecodeCache):
    """Jinja's compiled templates kept for the whole run (a worker's), shared by every app a test
    makes: each test's app has its own Jinja environment, which would otherwise parse and compile
    every template it renders again (about 40 ms for a page's first render, most of a page test's
    CPU). Jinja checks each template's source against the checksum it was compiled from, so a
    changed template is compiled again. Only apps made in the test process use it; the servers the
    tests start in processes of their own (``python -m webapp``) compile as a host's does."""

    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


flask.Flask.jinja_options = dict(flask.Flask.jinja_options, bytecode_cache=SharedTemplateCode())


_url_builders = {}
_compile_builder = Rule._compile_builder


def _compile_builder_once(self, append_unknown=True):
    """Werkzeug's URL builder of a route, made once per run for every app that has the route.

    Each app a test makes registers its ~75 routes, and werkzeug writes and compiles a small Python
    function per route to build its URLs (``Rule._compile_builder``): about 35 ms of each app's 47 ms
    start, so most of the CPU of a test that only renders a page or two. The function it makes is the
    same for every app: it depends only on the route's parts (``_trace``), the defaults it folds in
    (as their converter writes them) and ``append_unknown``, and reaches the rule itself only
    through its first argument (it is bound to each rule with ``__get__``), so one function serves
    every app's copy of the route. Only apps made in the test process use this; the servers tests
    start with ``python -m webapp`` are as a host's."""
    defaults = self.defaults or {}
    key = (self.rule, tuple(self._trace), bool(append_unknown),
           tuple((k, self._converters[k].to_url(v) if k in self._converters else None)
                 for k, v in defaults.items()))
    builder = _url_builders.get(key)
    if builder is None:
        builder = _url_builders[key] = _compile_builder(self, append_unknown)
    return builder


Rule._compile_builder = _compile_builder_once


_compiled_rules = {}
_compile = Rule.compile


def _compile_once(self):
    """Werkzeug's parse of a route (``Rule.compile``: its parts, trace, converters and arguments), made
    once per run for every app that has the route; the builders come through ``_compile_builder_once``.

    Parsing a route's text into its regular expressions and converters was about 5 % of the fast lane's
    CPU (each of its ~800 apps parses its ~110 routes). The parse depends only on the route's text, its
    host or subdomain, the map's slash merging and host matching, and the map's converter classes; the
    converters it makes keep their map but never read it (werkzeug's and Flask's ``to_python`` and
    ``to_url``), so every app's copy of a route can share them. Only apps made in the test process use this."""
    key = (self.rule, self.subdomain, self.host, self.merge_slashes, self.map.host_matching,
           tuple(self.map.converters.items()), frozenset(self.arguments))
    hit = _compiled_rules.get(key)
    if hit is None:
        _compile(self)
        _compiled_rules[key] = (tuple(self._parts), tuple(self._trace), dict(self._converters), frozenset(self.arguments))
        return
    parts, trace, converters, arguments = hit
    self._parts, self._trace, self._converters = list(parts), list(trace), dict(converters)
    self.arguments = set(arguments)
    self._build = self._compile_builder(False).__get__(self, None)
    self._build_unknown = self._compile_builder(True).__get__(self, None)


Rule.compile = _compile_once


#: Seconds a test marked ``journey`` may run before pytest-timeout fails it (the default, ``timeout``
#: in pyproject.toml, is 300); a test's own ``@pytest.mark.timeout(...)`` wins over both.
JOURNEY_TIMEOUT = 600


#: faulthandler dumps every thread's stack this many seconds before a test's timeout (pytest-timeout's
#: ``timeout``, JOURNEY_TIMEOUT or the test's own mark): only a test about to fail for its time shows
#: them, never a deep journey that is merely long. faulthandler's dump needs no Python code to run, so
#: a test stuck in C code (a socket read holding the GIL) still shows where it stood.
FAULTHANDLER_LEAD = 20


def pytest_collection_finish(session):
    """What collection made (the modules, their tests, the imported packages: most of a worker's heap)
    lives to the end of the run: ``gc.freeze`` moves it out of the collector's sight, so the full
    collections that the tests' own garbage sets off (each app is a web of cycles) scan only what the
    tests made since (tests/web and tests/security, one process: full collections 4.2 s of 40.8 s of CPU before,
    2.6 s after)."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("journey") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(JOURNEY_TIMEOUT))
    longest_first(items)


def longest_first(items):
    """Order the run's modules by what they cost, longest first, each module kept whole (its
    module-scoped server starts once): those with a deep journey, then the other browser modules, then
    the other slow ones, then the rest, in their order within each group.

    xdist's worksteal gives each worker a contiguous share of this list and lets a worker with nothing
    left take the back half of another's queue, never a test that already runs. In the file order a
    three-minute journey could start near the end and keep one worker busy while the other idled; in
    this order the long tests start at once and the last minutes are thousands of short tests that
    both workers share."""
    def group(item):
        if item.get_closest_marker("journey"):
            return 0
        if item.get_closest_marker("browser"):
            return 1
        return 2 if item.get_closest_marker("slow") else 3
    rank = {}
    for item in items:
        rank[item.path] = min(rank.get(item.path, 3), group(item))
    items.sort(key=lambda item: rank[item.path])  # a stable sort: the file order within each group


def timeout_of(item):
    """The seconds pytest-timeout gives ``item``: its ``timeout`` mark, else ``--timeout``, else the
    ``timeout`` of pyproject.toml (0: none)."""
    mark = item.get_closest_marker("timeout")
    if mark is not None:
        value = mark.args[0] if mark.args else mark.kwargs.get("timeout")
    else:
        value = item.config.getoption("timeout", None)
        if value is None:
            value = item.config.getini("timeout")
    return float(value or 0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """faulthandler's stack dump, armed FAULTHANDLER_LEAD seconds before each test's own timeout
    (pyproject.toml leaves pytest's one ``faulthandler_timeout`` for all tests unset)."""
    seconds = timeout_of(item) - FAULTHANDLER_LEAD
    if seconds > 0:
        from _pytest.faulthandler import fault_handler_stderr_fd_key  # the stderr pytest keeps for faulthandler

        faulthandler.dump_traceback_later(seconds, file=item.config.stash[fault_handler_stderr_fd_key])
    try:
        yield
    finally:
        if seconds > 0:
            faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI`` set, as .ci/run's machine sets it) a skipped test fails: CI's summary shows 0
    skipped, so what a skip hides (a missing node, chromium, redis-server) cannot pass unseen."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome, report.longrepr = "failed", f"skipped in CI (nothing may skip there): {reason}"


@pytest.fixture(autouse=True)
def _real_clock():
    """Every test starts and ends on the real clocks: what a test advanced is put back."""
    app_clock.reset()
    yield
    app_clock.reset()


#: The scrypt cost of the passwords tests store (N = 2**10 rather than werkzeug's 2**15): a real hash,
#: checked for real, in about 2 ms of CPU instead of 70 ms (hundreds of tests register or log in).
QUICK_SCRYPT = "scrypt:1024:8:1"


@pytest.fixture(autouse=True)
def _quick_password_hashes(request, monkeypatch):
    """Passwords stored by a test are hashed with QUICK_SCRYPT: the same scrypt, salt and comparison,
    with a smaller work factor (a check reads the factor from the stored hash). A test marked
    ``real_password_hashes`` (tests/web/test_passwords.py) hashes with the host's parameters."""
    if request.node.get_closest_marker("real_password_hashes"):
        return
    from webapp.accounts import passwords

    real = passwords.generate_password_hash

    def quick(password, method="scrypt", salt_length=16):
        return real(password, QUICK_SCRYPT if method == "scrypt" else method, salt_length)

    monkeypatch.setattr(passwords, "generate_password_hash", quick)


@pytest.fixture
def clock():
    """The app's clock (webapp/clock.py): ``clock.advance(seconds)`` moves every reading forward, so a
    grace period, a game clock or a rate window passes without sleeping. Put back after the test."""
    return app_clock


@pytest.fixture(scope="session")
def node():
    """The path of Debian's node, which the JavaScript tests run under; a test asking for it fails
    without it (scripts/test installs nodejs): a skipped JavaScript test would hide a broken script."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is not installed: scripts/test installs Debian's nodejs (apt-get install nodejs)")
    return path


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
#: ``--mute-audio``: a test never plays sound (the board's effects, play-sound.js, are on by default for
#: players, docs/accounts.md; muted here for every page of every context, they are still asked for)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio"]


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
