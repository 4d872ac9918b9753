"""Resident memory of a server across finished CPU games: does anything grow per game?

    python bench/memory_per_game.py --games 50 --server threading

Starts `python -m webapp` (fresh instance folder, CPU_DELAY 0) in the chosen serving mode, then one
bot (webapp.tools.bot.Bot, baseline policy) plays CPU games one after another to their end; prints the
server's resident memory (VmRSS, from /proc) every ``--every`` games and the growth per game after
the first ``--every`` (which warm caches up). ``--env KEY=VALUE`` passes settings to the server's
environment (e.g. MALLOC_ARENA_MAX=2).
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from online_load import proc_memory, start_server  # noqa: E402

PASSWORD = "correct horse battery staple"


def resident_by_kind(pid):
    """MB resident in the process's [heap], anonymous mappings (thread arenas, thread stacks, mmap'd
    blocks) and file mappings (libraries, the SQLite file if mapped), from /proc/<pid>/smaps."""
    kinds = {"heap": 0, "anonymous": 0, "files": 0}
    kind = "anonymous"
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if not head:
                continue
            if "-" in head[0] and len(head) >= 5:
                name = head[5] if len(head) > 5 else ""
                kind = "heap" if name == "[heap]" else "files" if name.startswith("/") else "anonymous"
            elif head[0] == "Rss:":
                kinds[kind] += int(head[1])
    return {k: round(v / 1024, 1) for k, v in kinds.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--server", default="threading", choices=["threading", "gevent"])
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()

    import requests

    from webapp.tools.bot import Bot, log_in, start_cpu_game

    tmp = tempfile.mkdtemp(prefix="brigade-mem-")
    proc, url = start_server(os.path.join(tmp, "instance"), {"CPU_DELAY": 0, "RATE_LIMIT": 1000},
                             [f"BRIGADE_SERVER={args.server}", *args.env])
    try:
        http = requests.Session()
        log_in(http, url, "memory", PASSWORD, register=True)
        base = None
        for n in range(1, args.games + 1):
            game_id = start_cpu_game(http, url)
            Bot(url, http.cookies.get_dict(), game_id, seed=n, timeout=120, rate=1000).run()
            if n % args.every == 0:
                time.sleep(0.5)
                rss, peak, threads = proc_memory(proc.pid)
                if base is None:
                    base = (n, rss)
                per_game = (rss - base[1]) / (n - base[0]) * 1024 if n > base[0] else 0.0
                print(f"{args.server}: after {n:3d} games RSS {rss:6.1f} MB (peak {peak:6.1f}, {threads} threads); "
                      f"{per_game:6.0f} KB a game since game {base[0]}; {resident_by_kind(proc.pid)}", flush=True)
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
