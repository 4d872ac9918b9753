"""What each test costs in CPU, not wall time: ``pytest --costs=N``.

``--durations`` gives wall time, which on a shared two-core machine says more about the load beside
the run than about the test. A browser test's CPU is mostly chromium's (the board laid out and painted
in software for every state it shows), which no timer in the test sees. With ``--costs=N`` every test
records the CPU, user + system, of

- the test itself (the pytest process or xdist worker running it: ``time.process_time``),
- chromium (every process under the worker whose name starts with "chrom", and what Playwright's
  driver reaped of them: a browser closed at the end of a worker's session would otherwise move its
  whole CPU into "everything else"),
- everything else it started (the real servers of ``python -m webapp``, Playwright's driver, Redis,
  nginx; processes already waited for count through ``RUSAGE_CHILDREN``),

from its setup to the end of its teardown, and the run ends with the N costliest tests and the sums.
Module-scoped fixtures (a real server) are charged to the test that starts or stops them. Nothing here
asserts a time (docs/testing.md, "What a test costs").
"""

import json
import os
import resource
import time

import pytest

TICK = os.sysconf("SC_CLK_TCK")
KEY = "cpu-cost"


def pytest_addoption(parser):
    parser.addoption("--costs", type=int, default=0, metavar="N",
                     help="print the N tests that cost the most CPU (test, chromium, servers)")
    parser.addoption("--costs-json", default=None, metavar="PATH",
                     help="with --costs, also write every test's costs to PATH as JSON")


def pytest_configure(config):
    if config.getoption("costs"):
        config.pluginmanager.register(Costs(config.getoption("costs"), config.getoption("costs_json")),
                                      "brigade-costs")


def _descendants(pid):
    """The pids of every live process under ``pid`` (the kernel's children lists)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            found.extend(kids)
            todo.extend(kids)
    return found


def _is_driver(pid):
    """Whether ``pid`` is Playwright's driver (node, ``... run-driver``)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"run-driver" in f.read()
    except OSError:
        return False


def children_cpu():
    """(chromium's CPU, the rest's CPU) in seconds of the live processes under this one, each with its
    own waited-for children, and of this process's waited-for children."""
    chromium = other = 0
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2:].split()
        own, reaped = (sum(int(x) for x in fields[11:13]),   # utime stime
                       sum(int(x) for x in fields[13:15]))   # cutime cstime: its children's, once reaped
        if name.startswith("chrom"):
            chromium += own + reaped
        elif _is_driver(pid):  # the only child Playwright's driver starts and reaps is chromium
            other += own
            chromium += reaped
        else:
            other += own + reaped
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    return chromium / TICK, other / TICK + done.ru_utime + done.ru_stime


class Costs:
    """Measures in the process that runs the tests; sums and prints in the one that reports."""

    def __init__(self, top, path=None):
        self.top = top
        self.path = path
        self.start = {}
        self.rows = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        self.start[item.nodeid] = (time.process_time(), *children_cpu())
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        yield
        began = self.start.pop(item.nodeid, None)
        if began is not None:
            now = (time.process_time(), *children_cpu())
            # a reaped child leaves the live count and joins RUSAGE_CHILDREN; one it left unreaped and
            # that is gone makes its share vanish: never below zero
            item.user_properties.append((KEY, tuple(max(0.0, b - a) for a, b in zip(began, now, strict=True))))

    def pytest_runtest_logreport(self, report):
        if report.when == "teardown":
            for key, value in report.user_properties:
                if key == KEY:
                    self.rows.append((report.nodeid, *value))

    def pytest_terminal_summary(self, terminalreporter):
        if not self.rows:
            return
        if self.path:
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump([{"test": n, "own": o, "chromium": c, "others": x} for n, o, c, x in self.rows], f, indent=0)
        write = terminalreporter.write_line
        terminalreporter.section(f"CPU of the {min(self.top, len(self.rows))} costliest tests (seconds)")
        write(f"{'all':>7} {'test':>7} {'chromium':>9} {'others':>7}  test")
        for nodeid, own, chromium, other in sorted(self.rows, key=lambda r: -sum(r[1:]))[:self.top]:
            write(f"{own + chromium + other:7.1f} {own:7.1f} {chromium:9.1f} {other:7.1f}  {nodeid}")
        own, chromium, other = (sum(r[i] for r in self.rows) for i in (1, 2, 3))
        write(f"{own + chromium + other:7.1f} {own:7.1f} {chromium:9.1f} {other:7.1f}  "
              f"all {len(self.rows)} tests")
