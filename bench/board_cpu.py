"""What chromium's processes spend drawing the board while a player plays a fixed CPU game.

    .venv/bin/python bench/board_cpu.py [--decisions 40] [--anim fast|instant|normal] [--size desktop|phone]
                                        [--css "extra CSS"] [--seed 7] [--repeat 1]

Starts ``python -m webapp`` (tests/browserkit.py's Server, CPU_DELAY = 0) and Debian's chromium with
the suite's arguments (tests/conftest.py), registers a player whose board plays at ``--anim``, opens
the game the play page would start, dealt from ``--seed`` against the random CPU (the test-only
POST /testing/start), and lets the suite's driver (``BoardPlayer.step``) make up to ``--decisions``
decisions. Prints, per run, the decisions made, the wall time, and the CPU time of chromium's
processes by type (renderer, GPU, browser, utilities) read from /proc over the play; then the idle
board's CPU over the next 4 s. ``--css`` adds a style sheet to every page (to try what a rule costs
without editing static/css: ``--css ".pl-map .pl-units { contain: none }"``).

Nothing is asserted. The figures move with the host's load: compare runs made back to back (two
checkouts, or with and without ``--css``), as docs/performance.md ("Board updates") and
docs/decisions/0148 do.
"""

import argparse
import inspect
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import SIZES, Server, new_player, start_at  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.costs import TICK, _descendants  # noqa: E402


def by_type():
    """{chromium's process type: CPU seconds} of the processes under this one."""
    out = {}
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/stat") as f:
                raw = f.read()
            with open(f"/proc/{pid}/cmdline") as f:
                cmd = f.read().replace("\0", " ").split()  # chromium's children write their own title
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        if not name.startswith("chrom"):
            continue
        kind = next((c[7:] for c in cmd if c.startswith("--type=")), "browser")
        if kind == "utility":
            kind += ":" + next((c.split("=", 1)[1].split(".")[0] for c in cmd if c.startswith("--utility-sub-type=")), "?")
        fields = raw[raw.rindex(")") + 2:].split()
        out[kind] = out.get(kind, 0.0) + sum(int(x) for x in fields[11:15]) / TICK
    return out


def one_run(browser, server, args, n):
    # a checkout from before new_player's ``anim`` (2026-12-07) always played fast
    more = {"anim": args.anim} if "anim" in inspect.signature(new_player).parameters else {}
    player = new_player(browser, server, f"bench{os.getpid()}x{n}", size=SIZES[args.size], **more)
    if args.css:
        sheet = json.dumps(args.css)
        player.ctx.add_init_script("document.addEventListener('DOMContentLoaded', () => { const s ="
                                   f" document.createElement('style'); s.textContent = {sheet};"
                                   " document.head.appendChild(s); });")
    start_at(player.page, server, None, seed=args.seed, cpu="random")
    before, t0 = by_type(), time.perf_counter()
    made = 0
    while made < args.decisions and player.step():
        made += 1
    wall, after = time.perf_counter() - t0, by_type()
    time.sleep(4)
    idle = by_type()
    player.ctx.close()
    spent = {k: after[k] - before.get(k, 0.0) for k in after}
    return made, wall, spent, sum(idle.values()) - sum(after.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--anim", choices=("fast", "instant", "normal"), default="fast")
    ap.add_argument("--size", choices=sorted(SIZES), default="desktop")
    ap.add_argument("--css", default="")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    server = Server(tempfile.mkdtemp(), "CPU_DELAY = 0\n")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            print(f"anim {args.anim}, {args.size}, seed {args.seed}{', extra CSS' if args.css else ''}; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
            for n in range(args.repeat):
                made, wall, spent, idle = one_run(browser, server, args, n)
                parts = ", ".join(f"{k} {v:.2f}" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]) if v >= 0.01)
                print(f"run {n + 1}: {made} decisions in {wall:.1f} s wall; chromium {sum(spent.values()):.2f} s of CPU "
                      f"({sum(spent.values()) / max(1, made):.2f} s a decision: {parts}); idle 4 s after: {idle:.2f} s",
                      flush=True)
            browser.close()
    finally:
        server.stop()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
