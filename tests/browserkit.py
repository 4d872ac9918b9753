"""What the browser tests share: the real server as a subprocess, registering through the page, and a
player that drives a board page through its own controls.

* ``Server(folder, config, env)`` starts ``python -m webapp`` on a free port with its own instance folder
  (``folder/instance``, holding ``config`` as its config.py) and database (``env``: more environment
  variables, e.g. ``BRIGADE_STORY``), waits until it prints its address and answers ``/healthz``;
  ``url``, ``output()`` (its log) and ``stop()``.
* ``start_at(page, server, scenario, mode, cpu, seed)`` starts a game at a position (a scenario, or a
  file of tests/browser/positions/) through the test-only POST /testing/start and opens its board.
* ``watched_page(browser, size)`` a page in a fresh context that fails the test on a script error, a
  console error or a failed load (``page_errors``); ``no_sideways_scroll(page)`` checks the page is no
  wider than the screen.
* ``BoardPlayer(page)`` makes one decision at a time on a board page (static/js/play.js) with simple
  rules of thumb, clicking only the controls the page offers (they come from the server's
  ``legal_actions``); the test never sends an action itself.

The Playwright ``browser`` fixture and ``shots_dir()`` live in tests/conftest.py.
"""

import contextlib
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "correct horse battery staple"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
#: the desktop windows the whole map must fit (issue 27), by name
DESKTOP_SIZES = {"1280x800": DESKTOP, "1366x768": {"viewport": {"width": 1366, "height": 768}},
                 "1920x1080": {"viewport": {"width": 1920, "height": 1080}}}
STARTED_WITHIN = 60  # seconds for the server to print its address and answer /healthz


def page_errors(page):
    """Start collecting what goes wrong in ``page``; returns the list it fills: script errors, errors
    written to the console, and any image, style, script or fetch answered 400 or more. A page itself
    answered 400 on purpose (a refused form) is not one, and neither is the console's own "Failed to
    load resource" line, which the response already counted."""
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and not msg.text.startswith("Failed to load resource")
            and errors.append(msg.text))
    page.on("response", lambda r: r.status >= 400 and r.request.resource_type != "document"
            and errors.append(f"{r.status} {r.url}"))
    return errors


@contextlib.contextmanager
def watched_page(browser, size, timeout=20_000, **options):
    """A page in a fresh context (no cookies) of ``size`` (context options: DESKTOP, PHONE, ...; more
    ``options`` added to them); at the end the context is closed and the test fails if ``page_errors``
    saw anything."""
    context = browser.new_context(**size, **options)
    try:
        page = context.new_page()
        page.set_default_timeout(timeout)
        errors = page_errors(page)
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def no_sideways_scroll(page):
    """The page is no wider than the screen (a phone never scrolls sideways).

    Measured against the screen's width, not ``innerWidth`` or the root's ``clientWidth``: a mobile
    browser widens its layout viewport to fit content that overflows, so both grow with the overflow.
    """
    width = page.evaluate("document.documentElement.scrollWidth")
    screen = page.viewport_size["width"]
    assert width <= screen, f"{page.url}: the page is {width} px wide on a {screen} px screen"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m webapp --port N`` on a fresh instance folder under ``folder``; ``config`` (Python
    source, e.g. ``"CPU_DELAY = 0\\n"``) becomes its instance/config.py; ``env`` adds environment
    variables. Stopped (and waited for) by ``stop``."""

    def __init__(self, folder, config="", env=None):
        folder = Path(folder)
        self.instance = folder / "instance"
        self.instance.mkdir(parents=True)
        # Every test user registers from 127.0.0.1: lift the per-address limit on new accounts. TESTING
        # opens POST /testing/start (``start_at``: a game at a position, webapp/web/testing.py); Flask's
        # only other use of it, re-raising a view's exception instead of the "500" page, is switched
        # off, so the server behaves as a host's does.
        # The after-game analysis (started by every end screen) thinks 0.02 s per estimate instead of the
        # host's 0.3 s: about 30 estimates of a finished game cost its server 0.6 s of CPU instead of 9 s;
        # what a test checks of it is that it runs, shows its progress and draws its graph, never how
        # well it estimates (tests/ai/test_analysis.py does that at its own budgets).
        config = ("REGISTER_LIMIT_ADDRESS = 10_000\nTESTING = True\nPROPAGATE_EXCEPTIONS = False\n"
                  "ANALYSIS_SECONDS = 0.02\n" + (config or ""))
        (self.instance / "config.py").write_text(config, encoding="utf-8")
        self.db_path = self.instance / "brigade.db"
        self.log_path = folder / "server.log"
        variables = dict(os.environ, BRIGADE_INSTANCE_PATH=str(self.instance), BRIGADE_DB=str(self.db_path),
                         PYTHONUNBUFFERED="1", **(env or {}))
        variables.pop("BRIGADE_PORT", None)
        # The output goes through a pipe that a thread of ours reads to the end (a pipe nobody read would
        # fill up and block the server) and copies line by line to the log file; it tells the moment
        # the server prints its address (``announced``), or stops printing because it stopped.
        self.announced = threading.Event()
        self.printed_url = None
        self.log_path.write_bytes(b"")
        self.proc = subprocess.Popen([sys.executable, "-m", "webapp", "--port", str(free_port())], cwd=ROOT,
                                     env=variables, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        self.copier = threading.Thread(target=self._copy_output, daemon=True)
        self.copier.start()
        try:
            self.url = self._wait_for_url()
        except BaseException:
            self.stop()
            raise

    def _copy_output(self):
        with open(self.log_path, "ab") as log:
            for line in self.proc.stdout:
                log.write(line)
                log.flush()
                found = self.printed_url is None and re.search(rb"running at (http://\S+?)/?$", line.rstrip())
                if found:
                    self.printed_url = found.group(1).decode()
                    self.announced.set()
        self.announced.set()  # the server's output ended: it stopped

    def _wait_for_url(self):
        deadline = time.monotonic() + STARTED_WITHIN
        if not self.announced.wait(STARTED_WITHIN) or self.printed_url is None:
            self.proc.poll()
            raise RuntimeError(f"the server printed no address (exit status {self.proc.returncode}):\n{self.output()}")
        url = self.printed_url
        while time.monotonic() < deadline:
            try:  # the address is printed just before the server listens: ask until it answers
                with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return url
            except OSError:
                pass
            try:  # refused: it is not listening yet; wait a moment for it, or for its end
                self.proc.wait(timeout=0.05)
                raise RuntimeError(f"the server stopped with {self.proc.returncode}:\n{self.output()}")
            except subprocess.TimeoutExpired:
                pass
        raise RuntimeError(f"the server did not answer /healthz within {STARTED_WITHIN} s:\n{self.output()}")

    def output(self):
        """What the server printed so far (its log)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.copier.join(timeout=10)


def register(page, url, name):
    """Register ``name`` through the form (and so log in)."""
    page.goto(url + "/register")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("form.auth-form button[type=submit]")
    page.wait_for_load_state()
    assert "/register" not in page.url, page.content()[:2000]


def wait_for_board(page, timeout=20):
    """The board page has drawn its first state and is idle."""
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.view && window.brigadeBoard.idle",
                           timeout=timeout * 1000)


def start_at(page, server, scenario, mode="cpu", cpu="random", seed=0, **more):
    """Start a ``mode`` game ("cpu", "story", "online") for the page's logged-in user at the position
    ``scenario`` (a dict in the engine's scenario format, the name of a file in
    tests/browser/positions/ without ".json", or None: the game the page would start, dealt from
    ``seed``), through the server's testing-only POST /testing/start
    (webapp/web/testing.py), and open its board; return the game id. ``cpu`` names the CPU's player
    (``difficulty`` in ``more`` picks one by level instead), ``seed`` the game's seed (the CPU's choices
    follow from it); ``more``: ``chapter`` (story), ``opponent`` and ``clock_ms`` (online)."""
    if isinstance(scenario, str):
        scenario = position(scenario)
    body = dict(mode=mode, seed=seed, **more)
    if scenario is not None:  # None: the game the page would start, dealt from ``seed``
        body["scenario"] = scenario
    if mode != "online" and "difficulty" not in more:
        body["cpu"] = cpu
    answer = post_json(page, server.url + "/testing/start", body)
    assert answer["status"] == 200, answer
    page.goto(server.url + answer["body"]["url"])
    wait_for_board(page)
    return answer["body"]["game"]


def at_take_back(page, server, name):
    """Register ``name`` on ``page`` and open its CPU game at table-take-back.json (the baseline CPU, seed
    3: the player's Orc may march to L3), the tips put away and the board idle; (game id, BoardPlayer)."""
    register(page, server.url, name)
    game = start_at(page, server, "table-take-back", cpu="baseline", seed=3)
    player = BoardPlayer(page)
    player.dismiss_tips()
    player.idle()
    return game, player


def march_then_resign(player, unit, land):
    """March ``unit`` to ``land`` (the board's own selection, then the destination's button), wait for the
    server's new state, then resign and wait for the end screen."""
    page = player.page
    version = player.state()["version"]
    page.evaluate(f"() => window.brigadeBoard.toggle({unit!r})")
    page.locator(f"[data-key='go:{land}']").click()
    page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
    page.locator(".pl-status [data-key=resign]").click()
    page.locator("[data-testid=confirm-ok]").click()
    page.wait_for_selector(".pl-end[open]", timeout=20000)


def replay_at(page, i=None, last=None):
    """Step a replay page to ``i`` (its last step if None) with its range, once the page has its steps
    (a value set before they arrive is dropped), and wait until the board has drawn that step; the
    range loses the focus so the arrow keys step again. With ``last``, the page must also say
    "Step i of last" (an English page). Returns the step."""
    page.wait_for_function("() => document.getElementById('replay-step').textContent.length > 0")
    if i is None:
        i = int(page.get_attribute("#replay-range", "max"))
    page.fill("#replay-range", str(i))
    said = "true" if last is None else f"document.getElementById('replay-step').textContent === 'Step {i} of {last}'"
    page.wait_for_function(f"""() => {said} && document.getElementById('replay-range').value === '{i}'
        && window.brigadeBoard && window.brigadeBoard.version === {i} && window.brigadeBoard.idle""", timeout=20000)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    return i


def post_json(page, url, body):
    """POST ``body`` as JSON to ``url`` from ``page`` (logged in: the CSRF token of its header's form),
    as the pages' own scripts do; {"status", "body"} of the answer."""
    return page.evaluate("""async ([url, body]) => {
        const token = document.querySelector("input[name=csrf_token]").value;
        const r = await fetch(url, {method: "POST", body: JSON.stringify(body), credentials: "same-origin",
                                   headers: {"Content-Type": "application/json", "X-CSRF-Token": token}});
        return {status: r.status, body: await r.json()};
    }""", [url, body])


POSITIONS = ROOT / "tests" / "browser" / "positions"


def position(name):
    """The scenario in tests/browser/positions/<name>.json (its "about" key, what it is for, dropped)."""
    import json
    data = json.loads((POSITIONS / f"{name}.json").read_text(encoding="utf-8"))
    data.pop("about", None)
    return data


# ---------------------------------------------------------------- driving a board page


#: Playwright's own tests of a control, for many elements in one evaluate: visible (a box of some size,
#: not visibility:hidden) and enabled (not :disabled, which covers a disabled fieldset, and not inside
#: aria-disabled="true"); a detached element is neither.
USABLE = """(els) => els.map((e) => {
    if (!e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || getComputedStyle(e).visibility === "hidden") return false;
    return !e.matches(":disabled") && !e.closest("[aria-disabled=true]");
})"""


class BoardPlayer:
    """One browser page on the board, playing with simple rules of thumb through the page's controls."""

    def __init__(self, page, rng=None):
        self.page = page
        self.rng = rng or random.Random(0)
        self.errors = []
        self.seen = {"attacked": 0, "defended": 0, "battle_decisions": 0, "formation": 0, "quick": 0,
                     "declared": 0, "countered": 0, "let_through": 0, "no_attack": 0, "ends": 0,
                     "max_chain": 0, "summons": 0, "marches": 0, "confirm_r65": 0}
        self.tried = set()
        self.turn = None
        page.on("pageerror", lambda e: self.errors.append(f"{e}\n{getattr(e, 'stack', '')}"))

    def board(self, script):
        return self.page.evaluate(f"() => {{ const b = window.brigadeBoard; {script} }}")

    def idle(self, timeout=60):
        try:
            self.page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=timeout * 1000)
        except Exception as exc:  # say what the board was busy with
            if "Timeout" not in type(exc).__name__:
                raise
            raise AssertionError(f"the board was not idle within {timeout} s: {self.diagnose()}") from exc

    def state(self):
        return self.board("""
            const v = b.view, bt = v.battle;
            return {phase: v.phase, round: v.round, active: v.active, result: v.result, me: b.me,
                    version: b.version, mine: b.seat !== null && (v.waiting_for || []).includes(b.me),
                    types: [...new Set(b.legal.map((a) => a.type))].filter((t) => t !== "resign"),
                    battle: bt ? {attacker: bt.attacker, chain: bt.chain.length, step: bt.step} : null};
        """)

    def controls(self, selector):
        """The visible, enabled controls matching `selector` now, in one round trip (the journeys ask this
        hundreds of times). The board draws its regions keyed (static/js/play-view.js): a control stays
        the same element through updates it is not part of, so a handle found here is the one to click."""
        handles = self.page.query_selector_all(selector)
        if not handles:
            return []
        usable = self.page.evaluate(USABLE, handles)
        return [handle for handle, ok in zip(handles, usable, strict=True) if ok]

    def press(self, selector):
        """Once the board is idle, click the first usable control matching `selector` (within the
        page's default timeout: a loaded machine can take seconds over Playwright's checks); False when
        there is none."""
        self.idle()
        found = self.controls(selector)
        if not found:
            return False
        found[0].click()
        return True

    def diagnose(self):
        """What the board thought when a control was missing (for the failure message)."""
        self.page.screenshot(path=os.path.join(tempfile.gettempdir(), "brigade-play-failure.png"))
        return self.board("""return JSON.stringify({busy: b.busy, sent: b.sent, animating: b.animating, queue: b.queue.length,
            version: b.version, phase: b.view.phase, waiting: b.view.waiting_for, legal: b.legal.map((a) => a.type),
            panel: document.querySelector('.pl-panel').innerText.slice(0, 300)});""")

    def dismiss_tips(self):
        """Eringe's tips ("Got it"); one behind a modal dialog waits until the dialog is closed."""
        for _ in range(5):
            if self.page.locator("dialog[open]").count() or not self.controls("[data-testid=tip-ok]"):
                return
            self.press("[data-testid=tip-ok]")

    def choose_leaders(self):
        """R5.4: two leaders if the page allows them together, else one."""
        for _ in range(2):
            picked = self.page.locator(".pl-leader-card[aria-pressed=true]").count()
            free = [c for c in self.controls(".pl-leader-card") if c.get_attribute("aria-pressed") == "false"]
            if picked < 2 and free:
                free[0].click()
        if not self.controls("[data-testid=leaders-ok]"):
            self.controls(".pl-leader-card[aria-pressed=true]")[-1].click()
        assert self.press("[data-testid=leaders-ok]"), self.diagnose()

    def battle_step(self, st):
        b = st["battle"]
        self.seen["battle_decisions"] += 1
        self.seen["max_chain"] = max(self.seen["max_chain"], b["chain"])
        types = set(st["types"])
        if "quick_summon" in types:
            self.seen["quick"] += 1
            picks = self.controls(".pl-quick-card")
            if picks:
                picks[0].click()
                if self.press("[data-key=quick-go]"):
                    return
            assert self.press("[data-key=quick-none]")
            return
        if "formation" in types:
            self.seen["formation"] += 1
            # R9.5: the suggested order is preset; move the rear card one step forward with its button,
            # then put it back with the keyboard, and confirm.
            backs = self.controls(".pl-party-me [data-key^='fwd:']")
            if backs:
                key = backs[-1].get_attribute("data-key")
                unit = key.split(":", 1)[1]
                before = self.board("return b.battle.ui.order.slice();")
                backs[-1].click()
                moved = self.board("return b.battle.ui.order.slice();")
                assert moved != before and moved.index(unit) == before.index(unit) - 1
                self.page.locator(f".pl-party-me [data-key='b:{unit}']").press("ArrowRight")
                assert self.board("return b.battle.ui.order.slice();") == before
            assert self.press("[data-key=form-go]")
            return
        decls = self.controls(".pl-decl-btn")
        if decls and (b["chain"] > 0 or self.rng.random() < 0.5):
            self.seen["countered" if b["chain"] else "declared"] += 1
            decls[0].click()
            for _ in range(3):  # target, then choose-one, then sacrifice, as the page asks
                if not self.press(".pl-pick .pl-btn-choice"):
                    break
            return
        for sel, what in (("[data-testid=attack]", "attacked" if b["attacker"] == st["me"] else "defended"),
                          ("[data-testid=let-through]", "let_through"), ("[data-testid=no-attack]", "no_attack")):
            if self.press(sel):
                self.seen[what] += 1
                return

    def main_step(self, st):
        if st["round"] != self.turn:
            self.turn = st["round"]
            self.tried.clear()
        if self.press(".pl-hcard .pl-btn-go"):
            self.seen["summons"] += 1
            return
        units = [u for u in self.controls(".pl-unit.pl-can") if u.get_attribute("data-unit") not in self.tried]
        units.sort(key=lambda u: "pl-leader" in (u.get_attribute("class") or ""))  # leaders march last
        if units:
            self.tried.add(units[0].get_attribute("data-unit"))
            units[0].click()
            for _ in range(2):  # converge (R8.5): add a unit that may march along
                if not self.press(".pl-unit.pl-join"):
                    break
            dests = self.controls(".pl-march-here")
            attacks = [d for d in dests if "pl-btn-danger" in (d.get_attribute("class") or "")]
            if attacks:
                attacks[0].click()
                self.seen["marches"] += 1
                return
            if dests and self.rng.random() < 0.85:
                min(dests, key=lambda d: d.bounding_box()["y"]).click()  # towards the enemy base
                self.seen["marches"] += 1
                return
            self.page.keyboard.press("Escape")
            return
        assert self.press("[data-key=end-turn]") or not self.state()["mine"], self.diagnose()
        if self.controls("[data-testid=confirm-ok]"):
            self.seen["confirm_r65"] += 1
            self.press("[data-testid=confirm-ok]")
        self.seen["ends"] += 1

    def decide(self, st):
        """One decision for the state ``st`` (``state()``), which waits for this page's seat."""
        # the pointer off the card it last clicked: a card's preview, where no room is left beside it (a
        # phone), takes the move panel's place while it shows (docs/decisions/0128)
        self.page.mouse.move(1, 1)
        if "choose_leaders" in st["types"]:
            self.choose_leaders()
        elif st["phase"] == "battle":
            self.battle_step(st)
        elif "destroy_over_capacity" in st["types"]:
            assert self.press(".pl-panel .pl-btn-danger")
        else:
            self.main_step(st)

    def step(self, st=None):
        """One decision of the player (or a short wait while the other side moves). Returns False
        once the game is over. ``st``: the state the caller read (and checked) this step at; the
        decision is made at it, or, where it does not wait for this page, nothing is decided: the
        step waits for the next state and leaves that one to the caller (a state read here again
        could be the next one, decided at once and never seen by the caller's checks)."""
        self.idle()
        self.dismiss_tips()
        if self.controls(".pl-end[open]"):
            return False
        st = st or self.state()
        if st["result"]:
            self.page.wait_for_selector(".pl-end[open]", timeout=10000)
            return False
        if not st["mine"]:  # the other side moves: wait until the game waits for this seat, or is over
            self.page.wait_for_function("""() => { const b = window.brigadeBoard; return b.idle && b.view
                && (b.view.result || (b.seat !== null && (b.view.waiting_for || []).includes(b.me))); }""",
                                        timeout=60_000)
            return True
        self.decide(st)
        return True


def drive(players, until=None, limit=4000):  # a whole game is a few hundred decisions of both pages
    """Make the decisions of whichever page the game waits for, until the game is over ("over") or
    ``until(player, state)`` says so for some page ("until")."""
    for _ in range(limit):
        moved = False
        seen = []
        for pl in players:
            pl.idle()
            pl.dismiss_tips()
            st = pl.state()
            if st["result"]:
                return "over"
            if until is not None and until(pl, st):
                return "until"
            if st["mine"]:
                pl.decide(st)
                moved = True
            seen.append(st["version"])
        if not moved:
            wait_for_a_move(players, seen)
    raise AssertionError(f"no end after {limit} rounds of decisions")


def wait_for_a_move(players, versions, timeout=60):
    """Nobody's page may decide at ``versions`` (one state version per page): wait on the page that is
    behind (with one page: that page, while the CPU moves) until it has a newer state, the game's
    result, or its seat to move."""
    behind = min(range(len(players)), key=lambda i: versions[i])
    players[behind].page.wait_for_function(f"""() => {{ const b = window.brigadeBoard;
        return b.idle && (b.version > {versions[behind]} || !!b.view.result
                          || (b.seat !== null && (b.view.waiting_for || []).includes(b.me))); }}""", timeout=timeout * 1000)


def befriend(server, a, b):
    """Make the accounts named ``a`` and ``b`` friends in the server's database (the friends page's work,
    done directly): who may watch a player's games by default (docs/security.md "Watching")."""
    from webapp.store import connect, get_user_by_name, social, transaction
    db = connect(server.db_path)
    try:
        with transaction(db):
            social.add_friendship(db, get_user_by_name(db, a)["id"], get_user_by_name(db, b)["id"])
    finally:
        db.close()


def fast_board(page, anim="fast"):
    """Choose the board's speed ``anim`` ("fast", "instant") in the account's board settings, as the
    settings dialog does (POST /play/settings.json). The account's saved settings win over the
    browser's ``brigade.anim``: without this, the first thing that saved any setting (the header's
    language switch saves ``lang``) put the account on "normal", which with reduced motion is 0.35 of
    the full pace, not fast's 0.07."""
    answer = post_json(page, "/play/settings.json", {"anim": anim})
    assert answer["status"] == 200, answer


#: The context options of a page that plays through a game: the system's "reduce motion" on, which
#: stops the board's endless glows (a destination's pulse, the tip's glow; static/css/play.css), whose
#: repaints cost chromium about a third of a core for every page that shows one, all the time it shows
#: it (docs/testing.md, "What a test costs"). The moves still animate, at the speed the page sets.
STILL_GLOWS = {"reduced_motion": "reduce"}


def new_player(browser, server, name, size=DESKTOP, seed=0, anim="instant"):
    """A fresh browser context registered as ``name`` (board animations ``anim``, in the account's
    settings: ``fast_board``; no endless glows: STILL_GLOWS); its BoardPlayer, which also keeps
    ``name``, ``ctx`` and ``base`` (the server's URL).

    "instant" by default: a player who plays through games for what the pages say and do needs no
    animation, and each one costs chromium a layout and frames to paint (docs/testing.md, "What a
    test costs"); a test that checks what an animation shows asks for "fast"."""
    ctx = browser.new_context(**size, **STILL_GLOWS)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    register(page, server.url, name)
    page.evaluate("(anim) => localStorage.setItem('brigade.anim', anim === 'instant' ? 'off' : anim)", anim)
    fast_board(page, anim)
    player = BoardPlayer(page, random.Random(seed))
    player.name, player.ctx, player.base = name, ctx, server.url
    return player
