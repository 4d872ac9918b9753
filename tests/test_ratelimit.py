"""webapp.hosting.ratelimit.Window: the one sliding-window limiter, with a stopped clock."""

import threading

import pytest

from webapp.hosting.ratelimit import Window


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_take_allows_the_limit_then_refuses_until_the_window_passes():
    clock = Clock()
    w = Window(3, 10, clock=clock)
    assert [w.take("a") for _ in range(4)] == [True, True, True, False]
    assert w.count("a") == 3
    assert w.wait("a") == 10
    clock.now = 9.5
    assert w.wait("a") == 1
    clock.now = 10.0
    assert w.wait("a") == 0 and w.take("a")


def test_keys_are_independent_and_expire():
    clock = Clock()
    w = Window(1, 5, clock=clock)
    assert w.take(("u", 1)) and w.take(("u", 2))
    assert not w.take(("u", 1))
    clock.now = 20
    w.hit("other")  # a hit after a whole window sweeps the expired keys
    assert len(w) == 1


def test_hit_counts_even_past_the_limit_and_clear_forgets():
    w = Window(2, 60, clock=Clock())
    for _ in range(5):
        w.hit("k")
    assert w.count("k") == 5 and w.wait("k") > 0
    w.clear("k")
    assert w.count("k") == 0 and w.wait("k") == 0


def test_bad_limits_are_refused():
    with pytest.raises(ValueError):
        Window(0, 1)
    with pytest.raises(ValueError):
        Window(1, 0)


def test_threads_never_let_more_than_the_limit_through():
    w = Window(100, 3600)
    taken = []

    def worker():
        for _ in range(200):
            if w.take("shared"):
                taken.append(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(taken) == 100


def test_no_module_keeps_a_sliding_window_of_its_own():
    """Window is the one limiter (issue 17): the log-ins, registrations, invitation codes, replays,
    hints, socket events and emotes all count in one; no other module trims a deque of hit times.
    (webapp/hosting/cluster.py keeps the cross-process windows in Redis, counted by a Lua script.)"""
    import ast

    from tests import sources

    root = sources.WEBAPP
    own = []
    for path in sources.webapp_files():
        if path.name == "ratelimit.py":
            continue
        for node in sources.nodes(path):
            if isinstance(node, ast.Attribute) and node.attr in ("popleft", "deque"):
                own.append(f"{path.relative_to(root.parent)}:{node.lineno} .{node.attr}")
    assert not own, "use webapp.hosting.ratelimit.Window:\n" + "\n".join(own)
