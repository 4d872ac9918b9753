"""The puzzle solver's cost on every puzzle file: positions searched and CPU seconds to find a line.

    .venv/bin/python bench/puzzles.py

CPU time (``time.process_time``), not wall time: the machine may be shared. docs/puzzles.md quotes it.
"""

import time

from webapp.game import puzzles, puzzlesolver


def main():
    total = 0.0
    for pz in puzzles.load_puzzles(prove=False):
        begun = time.process_time()
        line, nodes = puzzlesolver.solve(pz.start, pz.goal, pz.seed(), pz.cpu, max_depth=8, max_nodes=30_000)
        spent = time.process_time() - begun
        total += spent
        print(f"{pz.order:2d} {pz.id:22s} {'found' if line else 'NONE':5s} {len(line or []):2d} actions "
              f"{nodes:6d} positions {spent:6.2f} s")
    print(f"all: {total:.2f} s of CPU")


if __name__ == "__main__":
    main()
