"""The CPU worker pool's line (webapp/ai/fairqueue.py): live moves before background work, the user who
with the fewest moves in hand first, one user's own games first come first served, a started search
kept on its worker; and in the real pool, waiting in line never makes the baseline play a move."""

import threading

import pytest

from webapp.ai import workers
from webapp.ai.fairqueue import BACKGROUND, LIVE, FairQueue
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


def test_live_moves_go_before_background_work_whoever_asks():
    q = FairQueue()
    analysis = q.ticket("bob", BACKGROUND)
    q.wait(analysis)
    busy = [q.ticket("alice") for _ in range(5)]
    for t in busy:
        q.wait(t)
    assert q.order() == [*busy, analysis]


def test_the_user_with_fewer_moves_in_hand_goes_first_and_her_own_games_wait_their_turn():
    q = FairQueue()
    heavy = [q.ticket("alice") for _ in range(5)]
    for t in heavy:
        q.wait(t)
    light = q.ticket("bob")
    q.wait(light)
    assert q.order() == [light, *heavy]  # bob first; her five first come first served
    for t in heavy[:4]:
        q.done(t)  # four of her moves answered: one in hand each, and her ticket came first
    assert q.order() == [heavy[4], light]
    q.done(light)
    q.done(heavy[4])
    assert q.order() == [] and q.in_hand == {}


def test_a_started_search_waits_for_its_own_worker():
    q = FairQueue()
    started = q.ticket("alice")
    started.pinned = "w1"
    q.wait(started)
    new = q.ticket("bob")
    q.ticket("bob")  # bob has two moves in hand, alice one
    q.wait(new)
    assert q.best("w2") is new      # w2 cannot take alice's search (it lives on w1)
    assert q.best("w1") is started  # w1 can, and alice has fewer in hand
    assert q.best("w2", fresh_allowed=False) is None


def simulate(q, jobs, slices, arrive, clock):
    """One worker serving `jobs` (owner, priority) of `slices[i]` slices each, job i in line from slice
    `arrive[i]` on; each slice moves the app's clock by 0.1 s. The slice at which each job finished."""
    tickets = [None] * len(jobs)
    left = list(slices)
    done = {}
    tick = 0
    while len(done) < len(jobs):
        for i, (owner, priority) in enumerate(jobs):
            if arrive[i] == tick:
                tickets[i] = q.ticket(owner, priority)
                q.wait(tickets[i])
        t = q.best("w")
        if t is not None:
            q.give(t, "w")
            i = tickets.index(t)
            t.pinned = "w"
            left[i] -= 1
            if left[i]:
                q.wait(t)
            else:
                q.done(t)
                done[i] = tick + 1
        clock.advance(0.1)
        tick += 1
    return done


def test_one_users_five_hard_games_do_not_starve_another_users_move(clock):
    """The finding: one user's five Hard games took the one worker from another user's Hard CPU. In
    line, the other user's move (5 slices, arriving while they think) finishes within one slice of
    its own length; her games go on one after another."""
    q = FairQueue()
    jobs = [("alice", LIVE)] * 5 + [("bob", LIVE)]
    done = simulate(q, jobs, slices=[5] * 6, arrive=[0, 0, 0, 0, 0, 7], clock=clock)
    assert done[5] - 7 <= 5 + 1
    assert [done[i] for i in range(5)] == sorted(done[i] for i in range(5))  # her games in turn
    assert max(done.values()) == 30  # the worker never idled


def test_background_work_delays_a_live_move_by_one_slice_at_most(clock):
    q = FairQueue()
    done = simulate(q, [("analysis", BACKGROUND), ("alice", LIVE)], slices=[40, 5], arrive=[0, 3], clock=clock)
    assert done[1] - 3 <= 5 + 1 and done[0] == 45


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_a_move_left_in_line_past_the_last_resort_gets_the_baseline(clock, pool, monkeypatch):
    """WAIT_LIMIT is the only thing that makes waiting in line fail a move: with the app's clock moved
    past it while a long search holds the one worker, the waiting move falls back; the long one does not."""
    game, p = main_step_game()
    workers.think(game, p, "hard", seed=1, seconds=0.05)  # a started worker
    got = {}

    def long_move():
        got["long"] = workers.think(game, p, "hard", seed=2, seconds=3.0, owner=("user", "alice"))

    def late_move():
        got["late"] = workers.think(game, p, "hard", seed=3, seconds=0.5, owner=("user", "bob"))

    long_thread, late_thread = threading.Thread(target=long_move), threading.Thread(target=late_move)
    long_thread.start()
    with pool.cond:  # the pool tells its condition of every change: wait on it, not on a timer
        assert pool.cond.wait_for(lambda: pool.busy, timeout=60)
    late_thread.start()
    with pool.cond:
        assert pool.cond.wait_for(lambda: any(t.owner == ("user", "bob") for t in pool.queue.waiting), timeout=60)
    clock.advance(workers.WAIT_LIMIT + 1)
    late_thread.join()
    long_thread.join()
    assert got["late"].fallback and "no worker" in got["late"].reason
    assert not got["long"].fallback


def main_step_game(seed=2):
    game, rng = random_game(seed, POOL)
    while game.state.round < 3 or game.state.phase != "main" or len(game.legal_actions(game.state.active)) < 4:
        game.apply(*random_action(game, rng))
    return game, game.state.active


@pytest.fixture
def pool():
    workers.shutdown()
    workers.configure(1)
    yield workers.pool()
    workers.shutdown()
    workers.configure(None)


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_moves_waiting_in_line_keep_their_budget_and_the_baseline_never_stands_in(pool, monkeypatch):
    """Three Hard moves at once on one worker, each longer than the grace the old pool gave a move in
    line (its deadline counted the wait): all three are the search's own, none the baseline's."""
    monkeypatch.setattr(workers, "GRACE", 0.5)
    game, p = main_step_game()
    got = {}

    def move(i):
        got[i] = workers.think(game, p, "hard", seed=i, seconds=0.6, owner=("user", i % 2))

    threads = [threading.Thread(target=move, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == [0, 1, 2]
    assert [t.fallback for t in got.values()] == [False] * 3, [t.reason for t in got.values()]
    assert all(t.iterations > 0 and game.is_legal(p, t.action) for t in got.values())
    assert pool.count == 1
