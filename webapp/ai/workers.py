"""Thinking off the server's event loop: a small pool of worker processes for the searching CPU.

The search is CPU-bound Python; run in the server's process it would hold the GIL (threads) or the
hub (gevent) for its whole budget and stall every other game. `think()` hands the game to a
worker process instead and waits on a pipe (which yields to other threads and, monkey-patched, to
other greenlets) until the worker answers or the deadline passes. A worker that dies, errs or
misses its deadline is killed and replaced; the move is then the baseline's, played here at once,
and the fallback is logged. Players that do not search (easy, normal) are played here directly.

The pool is made on first use, `size` workers at most (the host's `CPU_WORKERS`; default one per
core minus one, at least one), each a fresh `python -c` process (forking a threaded or gevent
server is unsafe, and multiprocessing's "spawn" re-runs the server's main module). A
game waits for an idle worker up to its deadline, so more Hard games than workers take turns.
`suggest()` is the hint: the Hard player's move for a seat, its estimated win chance and a sentence.
"""

import contextlib
import logging
import os
import queue
import subprocess
import sys
import threading
from typing import NamedTuple

from webapp import clock
from webapp.engine import choices

from . import PLAYERS, SEARCHING
from .baseline import BaselinePlayer
from . import reasons
from .search import DEFAULT_BUDGET, SearchResult

log = logging.getLogger(__name__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds webapp/

GRACE = 2.0     # seconds a worker may run past its budget before it counts as stuck
STARTUP = 10.0  # more for a worker that is still starting (spawn imports the engine, loads the pool)


class Thought(NamedTuple):
    """A CPU decision: the action, the searcher's win estimate (None if it did not search), whether
    the baseline stood in (`fallback`) and why."""

    action: dict
    win: float | None
    fallback: bool = False
    reason: str | None = None
    iterations: int = 0
    report: dict | None = None  # the search's candidates and their statistics (`report`)


class ThinkFailed(Exception):
    """A worker gave no answer in time, died, or erred."""


def default_size():
    return max(1, (os.cpu_count() or 2) - 1)


def _main(inbox_fd, outbox_fd):
    """A worker process's entry (`python -c`): serve jobs on the two pipes it was handed."""
    from multiprocessing.connection import Connection

    _serve(Connection(inbox_fd, writable=False), Connection(outbox_fd, readable=False))


def _serve(inbox, outbox):
    """Answer (state JSON, player, name, seed, seconds) jobs until the pipe closes."""
    from webapp.engine import Game, load_pool

    pool = load_pool()
    while True:
        try:
            job = inbox.recv()
        except (EOFError, OSError):
            return
        text, player, name, seed, seconds = job
        try:
            game = Game.from_json(text, pool)
            searcher = PLAYERS[name](seed=seed, pool=pool, budget=seconds)
            r = searcher.search(game, player)
            outbox.send(("ok", r.action, r.win, r.iterations, report(r)))
        except Exception as exc:  # noqa: BLE001 - the server falls back and logs it
            outbox.send(("error", f"{type(exc).__name__}: {exc}", None, 0, None))


def report(result):
    """What the server needs of a SearchResult besides the move (the hint's reasons): plain data."""
    return {"candidates": result.candidates, "visits": result.visits, "stats": result.stats}


class Worker:
    """One worker process, started as `python -c` (not multiprocessing's spawn, which re-runs the
    server's main module in the child), talking over two pipes of multiprocessing Connections."""

    def __init__(self):
        from multiprocessing.connection import Connection

        inbox_r, inbox_w = os.pipe()
        outbox_r, outbox_w = os.pipe()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, *filter(None, [os.environ.get("PYTHONPATH")])]))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", f"from webapp.ai.workers import _main; _main({inbox_r}, {outbox_w})"],
                pass_fds=(inbox_r, outbox_w), env=env, stdin=subprocess.DEVNULL, close_fds=True)
        except Exception:
            for fd in (inbox_r, inbox_w, outbox_r, outbox_w):
                os.close(fd)
            raise
        os.close(inbox_r)
        os.close(outbox_w)
        self.send_conn = Connection(inbox_w, readable=False)
        self.conn = Connection(outbox_r, writable=False)
        self.fresh = True  # no answer yet: it may still be importing

    @property
    def pid(self):
        return self.process.pid

    def is_alive(self):
        return self.process.poll() is None

    def kill(self):
        for c in (self.send_conn, self.conn):
            with contextlib.suppress(OSError):
                c.close()
        if self.is_alive():
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.warning("CPU worker %s did not stop", self.pid)


class ThinkPool:
    """At most `size` worker processes; `run(job, seconds)` answers from one of them or raises ThinkFailed."""

    def __init__(self, size=None):
        self.size = max(1, int(size)) if size else default_size()
        self.idle = queue.LifoQueue()
        self.lock = threading.Lock()
        self.count = 0
        self.busy = {}  # pid -> Worker, for tests and the host's curiosity

    def _acquire(self, timeout):
        try:
            return self.idle.get_nowait()
        except queue.Empty:
            pass
        with self.lock:
            if self.count < self.size:
                self.count += 1
                try:
                    return Worker()
                except Exception:
                    self.count -= 1
                    raise
        try:
            return self.idle.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise ThinkFailed("every worker was busy until the deadline") from None

    def _drop(self, worker):
        self.busy.pop(worker.pid, None)
        worker.kill()
        with self.lock:
            self.count -= 1

    def run(self, job, seconds):
        deadline = clock.monotonic() + seconds + GRACE
        worker = self._acquire(deadline - clock.monotonic())
        self.busy[worker.pid] = worker
        wait = deadline - clock.monotonic() + (STARTUP if worker.fresh else 0.0)
        try:
            worker.send_conn.send(job)
            if not worker.conn.poll(max(0.0, wait)):
                raise ThinkFailed(f"no answer within {seconds + GRACE:.1f} s")
            answer = worker.conn.recv()
        except ThinkFailed:
            self._drop(worker)
            raise
        except (EOFError, OSError) as exc:
            self._drop(worker)
            raise ThinkFailed(f"the worker process died ({type(exc).__name__})") from None
        worker.fresh = False
        self.busy.pop(worker.pid, None)
        self.idle.put(worker)
        if answer[0] != "ok":
            raise ThinkFailed(answer[1])
        return answer[1:]

    def close(self):
        while True:
            try:
                w = self.idle.get_nowait()
            except queue.Empty:
                break
            w.kill()
            with self.lock:
                self.count -= 1
        for w in list(self.busy.values()):
            self._drop(w)


_POOL = None
_POOL_LOCK = threading.Lock()
_SIZE = None


def configure(size=None):
    """Set the pool's size (the host's CPU_WORKERS) before its first use; a pool in use keeps its size."""
    global _SIZE
    _SIZE = size


def pool():
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThinkPool(_SIZE or os.environ.get("BRIGADE_CPU_WORKERS") or None)
        return _POOL


def shutdown():
    """Stop the pool's workers (tests; a server just exits: the workers are daemons)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None:
            _POOL.close()
            _POOL = None


def think(game, player, name, seed=None, seconds=None):
    """The CPU `name`'s move for `player`: a searching player thinks in a worker process (with the
    baseline standing in if the worker fails); the others choose here at once."""
    if name not in SEARCHING:
        return Thought(PLAYERS[name](seed=seed).choose(game.copy(), player), None)
    seconds = DEFAULT_BUDGET if seconds is None else float(seconds)
    legal = [a for a in game.legal_actions(player) if a["type"] != "resign"]
    if len(legal) == 1 and not choices.is_compact(legal[0]):  # a compact entry is many moves: think
        return Thought(legal[0], None)
    try:
        action, win, iterations, found = pool().run((game.to_json(), player, name, seed, seconds), seconds)
        if not game.is_legal(player, action):  # a worker must never make the game stall
            raise ThinkFailed(f"the worker answered a move that is not legal: {action!r}")
        return Thought(action, win, iterations=iterations, report=found)
    except ThinkFailed as exc:
        log.warning("CPU %s fell back to the baseline for this move: %s", name, exc)
        return Thought(BaselinePlayer(seed=seed).choose(game.copy(), player), None, True, str(exc))


def suggest(game, player, seconds=None, seed=None):
    """What the Hard CPU would do in `player`'s place (the hint button): a dict with `action` (one of
    `game.legal_actions(player)`), `win` (its estimated chance to win, 0–1, or None) and `sentence`
    (plain words: the move and its chance). The search sees only what `player` may see."""
    t = think(game, player, "hard", seed, seconds)
    why = explained(game, player, t)
    return {"action": t.action, "win": t.win, "sentence": sentence(game, player, t.action, t.win), "why": why}


def explained(game, player, thought):
    """The hint's reasons (webapp/ai/reasons.py `explain`) for a Thought, or None without a search."""
    found = thought.report
    if not found or not found.get("stats"):
        return None
    r = SearchResult(thought.action, thought.win, found["visits"], thought.iterations, found["candidates"], 0.0)
    r.stats = found["stats"]
    return reasons.explain(game.view(player), player, r)


def sentence(game, player, action, win):
    """One plain sentence for a suggested move: "Summon Goblin Scout: about a 62% chance to win from here."."""
    move = describe(game, player, action)
    if win is None:
        return f"{move}: it is the move the CPU would make here."
    pct = round(100 * win)
    article = "an" if str(pct).startswith("8") or pct in (11, 18) else "a"
    return f"{move}: the CPU gives you about {article} {pct}% chance to win from here."


def describe(game, player, action):
    """An action in plain words for `player`, naming only cards that seat can see."""
    st = game.state.static

    def name(iid):
        return game.card_name(st.index[iid])

    def names(ids):
        parts = [name(i) for i in ids]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else "nobody"

    def land(where):
        if where == ("H0", "H1")[player]:
            return "your base"
        if where == ("H1", "H0")[player]:
            return "the enemy base"
        return where

    t = action["type"]
    if t == "summon":
        return f"Summon {name(action['card'])}"
    if t == "march":
        return f"March {names(action['units'])} to {land(action['to'])}"
    if t == "march_ability":
        return f"Use {name(action['unit'])}'s [March] ability"
    if t == "discard":
        return f"Discard {names(action['cards'])}"
    if t == "end_turn":
        return "End your turn"
    if t == "choose_leaders":
        return f"Choose {names(action['cards'])} as your leaders"
    if t == "quick_summon":
        return f"Quick summon {names(action['cards'])}" if action["cards"] else "Quick summon nobody"
    if t == "formation":
        return f"Line up {names(action['order'])}, in that order"
    if t == "ability":
        return f"Use {name(action['unit'])}'s ability" + (f" on {names(action['targets'])}" if action.get("targets") else "")
    if t == "spell":
        return f"Cast {name(action['card'])}" + (f" on {names(action['targets'])}" if action.get("targets") else "")
    if t == "attack":
        return "Attack"
    if t == "pass":
        return "Pass"
    if t == "destroy_over_capacity":
        return f"Destroy {names(action['units'])} to make room"
    return "Resign"
