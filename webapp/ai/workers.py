"""Thinking off the server's event loop: a small pool of worker processes for the searching CPU.

The search is CPU-bound Python; run in the server's process it would hold the GIL (threads) or the
hub (gevent) for its whole budget and stall every other game. `think()` hands the game to a
worker process instead and waits on a pipe (which yields to other threads and, monkey-patched, to
other greenlets) until the worker answers or the deadline passes. A worker that dies, errs or
misses its deadline is killed and replaced; the move is then the baseline's, played here at once,
and the fallback is logged. Players that do not search (easy, normal) are played here directly.

The pool is made on first use, `size` workers at most (the host's `CPU_WORKERS`; default one per
core minus one, at least one), each a fresh `python -c` process (forking a threaded or gevent
server is unsafe, and multiprocessing's "spawn" re-runs the server's main module). More Hard
games than workers take turns fairly: each search runs in slices, and between slices a free
worker goes to the best job in line (webapp/ai/fairqueue.py: live moves before background work,
then the user with the fewest moves in hand), so one user's five Hard games cannot starve
another user's CPU. Waiting in line costs a move none of its budget; the baseline plays only for
a worker really lost (dead, erring, stuck past its slice or budget) or, as a last resort, after
WAIT_LIMIT seconds in line.
`suggest()` is the hint: the Hard player's move for a seat, its estimated win chance and a sentence.
"""

import contextlib
import itertools
import logging
from multiprocessing.connection import Connection
import os
import subprocess
import sys
import threading
import time
from typing import NamedTuple

from .analysis import Estimator
from webapp import clock
from webapp.engine import Game, choices, load_pool

from . import fairqueue, reasons
from .baseline import BaselinePlayer
from .players import PLAYERS, SEARCHING
from .search import DEFAULT_BUDGET, SearchResult

log = logging.getLogger(__name__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds webapp/

GRACE = 2.0     # seconds a worker may run past its slice or its budget before it counts as stuck
STARTUP = 60.0  # more for a worker still starting (it imports the engine, loads the pool: slow on a loaded host)
SLICE = 0.1     # seconds of search a worker runs before the job goes back in line
WAIT_LIMIT = 120.0  # a last resort: seconds a move may wait in line before the baseline plays it
MAX_SESSIONS = 64   # searches in progress one worker keeps


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
    _serve(Connection(inbox_fd, writable=False), Connection(outbox_fd, readable=False))


def _serve(inbox, outbox):
    """Answer jobs until the pipe closes: ("start", job id, state JSON, player, name, seed, seconds,
    slice) begins a search and runs its first slice, ("more", job id, slice) runs the next one. Each
    slice answers ("more", job id) while budget is left, then ("ok", action, win, iterations, report)
    or ("error", words, None, 0, None). The searches in progress live here, keyed by job id."""
    pool = load_pool()
    sessions = {}
    while True:
        try:
            job = inbox.recv()
        except (EOFError, OSError):
            return
        jid = job[1]
        try:
            if job[0] == "start":
                _kind, jid, text, player, name, seed, seconds, piece = job
                game = Game.from_json(text, pool)
                maker = Estimator if name == Estimator.name else PLAYERS[name]  # "estimate": a position's value
                search = maker(seed=seed, pool=pool, budget=seconds).begin(game, player)
                sessions[jid] = search
                while len(sessions) > MAX_SESSIONS:  # a caller that gave up: forget its search
                    sessions.pop(next(iter(sessions)))
            else:
                _kind, jid, piece = job
                search = sessions[jid]
            r = search.run(piece)
            if r is None:
                outbox.send(("more", jid))
                continue
            sessions.pop(jid, None)
            outbox.send(("ok", r.action, r.win, r.iterations, report(r)))
        except Exception as exc:  # noqa: BLE001 - the server falls back and logs it
            sessions.pop(jid, None)
            outbox.send(("error", f"{type(exc).__name__}: {exc}", None, 0, None))


def report(result):
    """What the server needs of a SearchResult besides the move (the hint's reasons): plain data."""
    return {"candidates": result.candidates, "visits": result.visits, "stats": result.stats}


class Worker:
    """One worker process, started as `python -c` (not multiprocessing's spawn, which re-runs the
    server's main module in the child), talking over two pipes of multiprocessing Connections."""

    def __init__(self):
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
    """At most `size` worker processes, shared fairly (webapp/ai/fairqueue.py): `run(job, seconds,
    owner, priority)` answers from a worker or raises ThinkFailed. A search runs in slices of
    `slice_seconds`; between slices its job goes back in line, so another user's move, or a live
    move ahead of background work, waits at most one slice. Waiting in line never costs a move its
    budget; only a worker that dies, errs, or overruns its slice or its budget by GRACE fails it."""

    def __init__(self, size=None, slice_seconds=None):
        self.size = max(1, int(size)) if size else default_size()
        self.slice = slice_seconds or SLICE
        self.cond = threading.Condition()
        self.lock = self.cond
        self.queue = fairqueue.FairQueue()
        self.idle = []     # workers with no job slice (newest last)
        self.live = set()  # every worker of the pool
        self.count = 0
        self.busy = {}     # pid -> Worker running a slice, for tests and the host's curiosity
        self._jobs = itertools.count(1)

    def _dispatch(self):
        """Give free workers to the best tickets they may take; start workers while there is room.
        Called with the lock held."""
        for w in list(self.idle):
            t = self.queue.best(w)
            if t is not None:
                self.idle.remove(w)
                self.queue.give(t, w)
        while self.count < self.size:
            t = self.queue.best(None)
            if t is None:
                break
            w = Worker()
            self.count += 1
            self.live.add(w)
            self.queue.give(t, w)
        self.cond.notify_all()

    def _take(self, ticket, limit):
        """Wait (lock held) until `ticket` is given a worker; ThinkFailed if its worker was lost."""
        while True:
            if ticket.worker is not None:
                w = ticket.worker
                self.busy[w.pid] = w
                return w
            if ticket.pinned is not None and ticket.pinned not in self.live:
                self.queue.leave(ticket)
                raise ThinkFailed("the worker thinking about this move was lost")
            left = limit - clock.monotonic()
            if left <= 0:
                self.queue.leave(ticket)
                raise ThinkFailed(f"no worker for {WAIT_LIMIT:.0f} s")
            self.cond.wait(min(left, 1.0))

    def _drop(self, worker):
        with self.cond:
            self.busy.pop(worker.pid, None)
            if worker in self.live:
                self.live.discard(worker)
                self.count -= 1
            if worker in self.idle:
                self.idle.remove(worker)
            self._dispatch()
        worker.kill()

    def run(self, job, seconds, owner=None, priority=fairqueue.LIVE):
        """Search `job` = (state JSON, player, name, seed, budget) for `owner` (a user, a game: whose
        turn it is in line; None: a line of its own) and return (action, win, iterations, report)."""
        jid = next(self._jobs)
        with self.cond:
            ticket = self.queue.ticket(("job", jid) if owner is None else owner, priority)
            self.queue.wait(ticket)
            self._dispatch()
        try:
            return self._slices(ticket, jid, job, seconds)
        finally:
            with self.cond:
                self.queue.done(ticket)

    def _slices(self, ticket, jid, job, seconds):
        text, player, name, seed, budget = job
        limit = clock.monotonic() + WAIT_LIMIT
        used = 0.0
        while True:
            with self.cond:
                worker = self._take(ticket, limit)
            message = ("start", jid, text, player, name, seed, budget, self.slice) if ticket.pinned is None \
                else ("more", jid, self.slice)
            began = time.perf_counter()
            try:
                worker.send_conn.send(message)
                if not worker.conn.poll(self.slice + GRACE + (STARTUP if worker.fresh else 0.0)):
                    raise ThinkFailed(f"no answer within {seconds + GRACE:.1f} s")
                answer = worker.conn.recv()
                took = time.perf_counter() - began
                used += 0.0 if worker.fresh else took
                if used > seconds + GRACE:
                    raise ThinkFailed(f"no answer within {seconds + GRACE:.1f} s")
            except ThinkFailed:
                self._drop(worker)
                raise
            except (EOFError, OSError) as exc:
                self._drop(worker)
                raise ThinkFailed(f"the worker process died ({type(exc).__name__})") from None
            worker.fresh = False
            with self.cond:
                self.busy.pop(worker.pid, None)
                ticket.pinned = worker
                if answer[0] == "more":
                    self.queue.wait(ticket)
                self.idle.append(worker)
                self._dispatch()
            if answer[0] == "more":
                continue
            if answer[0] != "ok":
                raise ThinkFailed(answer[1])
            return answer[1:]

    def close(self):
        with self.cond:
            workers = list(self.live)
            self.live.clear()
            self.idle.clear()
            self.busy.clear()
            self.count = 0
            self.cond.notify_all()
        for w in workers:
            w.kill()


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


def think(game, player, name, seed=None, seconds=None, owner=None, priority=fairqueue.LIVE):
    """The CPU `name`'s move for `player`: a searching player thinks in a worker process (with the
    baseline standing in if the worker fails), taking turns in the pool as `owner` (the user whose
    game it is: `ThinkPool.run`); the others choose here at once."""
    if name not in SEARCHING:
        return Thought(PLAYERS[name](seed=seed).choose(game.copy(), player), None)
    seconds = DEFAULT_BUDGET if seconds is None else float(seconds)
    legal = [a for a in game.legal_actions(player) if a["type"] != "resign"]
    if len(legal) == 1 and not choices.is_compact(legal[0]):  # a compact entry is many moves: think
        return Thought(legal[0], None)
    try:
        action, win, iterations, found = pool().run((game.to_json(), player, name, seed, seconds), seconds,
                                                    owner=owner, priority=priority)
        if not game.is_legal(player, action):  # a worker must never make the game stall
            raise ThinkFailed(f"the worker answered a move that is not legal: {action!r}")
        return Thought(action, win, iterations=iterations, report=found)
    except ThinkFailed as exc:
        log.warning("CPU %s fell back to the baseline for this move: %s", name, exc)
        return Thought(BaselinePlayer(seed=seed).choose(game.copy(), player), None, True, str(exc))


def suggest(game, player, seconds=None, seed=None, owner=None):
    """What the Hard CPU would do in `player`'s place (the hint button): a dict with `action` (one of
    `game.legal_actions(player)`), `win` (its estimated chance to win, 0–1, or None) and `sentence`
    (plain words: the move and its chance). The search sees only what `player` may see."""
    t = think(game, player, "hard", seed, seconds, owner=owner)
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


def estimate(game, seat, seconds=None, owner=None, priority=fairqueue.BACKGROUND):
    """`seat`'s chance to win at this position (0–1) as the worker pool values it from that seat's view
    (webapp/ai/analysis.py's Estimate), at low priority by default; None if no worker answered."""
    seconds = DEFAULT_BUDGET if seconds is None else float(seconds)
    try:
        _action, win, _iterations, _found = pool().run((game.to_json(), seat, "estimate", 1, seconds), seconds,
                                                       owner=owner, priority=priority)
        return win
    except ThinkFailed as exc:
        log.warning("an analysis estimate failed: %s", exc)
        return None


def advise(game, seat, seconds=None, owner=None, priority=fairqueue.BACKGROUND):
    """What the Hard CPU would do in `seat`'s place and why ({action, win, why}), searched in the pool
    at low priority by default (the after-game analysis); None if no worker answered."""
    seconds = DEFAULT_BUDGET if seconds is None else float(seconds)
    try:
        action, win, iterations, found = pool().run((game.to_json(), seat, "hard", 1, seconds), seconds,
                                                    owner=owner, priority=priority)
    except ThinkFailed as exc:
        log.warning("an analysis search failed: %s", exc)
        return None
    t = Thought(action, win, iterations=iterations, report=found)
    return {"action": action, "win": win, "why": explained(game, seat, t)}
