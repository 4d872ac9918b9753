"""CPU per online action in the server's write path, in-process, on a real SQLite file (issue 16).

    python bench/action_path.py                    # 20 games of the baseline against itself
    python bench/action_path.py --games 40 --seed 7 --player random

Makes a fresh database (migrated, seeded) in a temporary folder, invites and joins ``--games``
online games between two users with the loaner deck, then plays them to their end one action at a
time as the socket server's ``action`` handler does (webapp/sockets/hub.py ``Hub.act``):
``play.load_row``, ``play.player_seat``, ``Online.act`` (its clocks, ``play.apply``: the engine,
``snapshot_text``, ``store.append_action`` with the clocks in the same transaction). The move is
chosen by ``--player`` from the Game the last action returned, outside every timer.

Prints the process CPU time (``time.process_time``) per action, in µs, of the whole path and of its
parts: loading the row, ``game_of`` (a copy of the cached Game, or a decode), the engine's apply,
``snapshot_text``, the store's write (``append_action``: BEGIN … COMMIT with the clocks) and what is
left (Online.act's own work, play.apply's checks). The figures vary with the machine and its load:
compare runs made one after the other. No socket, no state building, no logging: what the host log
costs is ``--log`` (one ``hostlog.log_event`` per action, through the handler ``configure`` installs,
its output to /dev/null); ``--gevent`` patches the standard library first, as the server does, so
connections are ``store.db.CooperativeConnection``s.
"""

import sys

if "--gevent" in sys.argv:  # as the server runs (webapp.serving): the cooperative SQLite connection
    from gevent import monkey
    monkey.patch_all()

import argparse
import collections
import os
import random
import tempfile
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from webapp import store  # noqa: E402
from webapp.ai import PLAYERS  # noqa: E402
from webapp.game import gamecache, invitations, online, play  # noqa: E402
from webapp.hosting import hostlog  # noqa: E402
from webapp.store import games as store_games  # noqa: E402

TIMES = collections.Counter()
COUNTS = collections.Counter()


ACTING = [False]  # whether Online.act runs: the engine's apply is counted only then (the players apply too)


def timed(name, fn, only_acting=False):
    """``fn`` wrapped to add its CPU time to TIMES[name] (nested timers each count their own whole)."""
    def wrapper(*args, **kwargs):
        if only_acting and not ACTING[0]:
            return fn(*args, **kwargs)
        begun = time.process_time_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            TIMES[name] += time.process_time_ns() - begun
            COUNTS[name] += 1
    return wrapper


class Notifier:
    """What Online needs of the socket layer here: nothing is sent."""

    def watch_clocks(self):
        pass

    def to_game(self, *args):
        pass

    def push(self, *args):
        pass


def setup(folder, games):
    path = os.path.join(folder, "brigade.db")
    store.prepare(path)
    db = store.connect(path)
    alice, bob = store.create_user(db, "alice", "x"), store.create_user(db, "bob", "y")
    deck = store.get_loaner(db, "princes-brigade")["id"]
    ids = []
    for _ in range(games):
        game_id, code = invitations.create_invitation(db, alice, deck, 30 * 60_000)
        invitations.join(db, code, bob, deck)
        ids.append(game_id)
    app = types.SimpleNamespace(extensions={}, config={"DATABASE": path, "ONLINE_CLAIM_AFTER": 60, "ONLINE_AUTO_AFTER": 120})
    return path, db, online.Online(app, Notifier()), [alice, bob], ids


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="baseline", choices=sorted(PLAYERS))
    parser.add_argument("--log", action="store_true", help="also one host log line per action (to /dev/null)")
    parser.add_argument("--connections", type=int, default=1,
                        help="round-robin the actions over this many connections (the server's pool lends several)")
    parser.add_argument("--pragma", action="append", default=[], help="e.g. mmap_size=268435456: run on every connection")
    parser.add_argument("--gevent", action="store_true", help="patch the standard library as the gevent server does")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path, db, on, users, ids = setup(folder, args.games)
        dbs = [db] + [store.connect(path) for _ in range(args.connections - 1)]
        for each in dbs:
            for pragma in args.pragma:
                each.execute(f"PRAGMA {pragma}")
        if args.log:
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (kept open for the run)
            hostlog.configure({"LOG_LEVEL": "INFO"})
        play.load_row = timed("load_row", play.load_row)
        play.game_of = timed("game_of", play.game_of)
        gamecache.snapshot_text = timed("snapshot_text", gamecache.snapshot_text)
        store.append_action = timed("append_action", store.append_action)
        store_games.append_action = store.append_action
        engine_apply = timed("engine", play.Game.apply, only_acting=True)
        play.Game.apply = engine_apply
        act = timed("act", on.act)
        log = timed("log", lambda: hostlog.log_event("action", users[0]["id"], 1.5, "ok")) if args.log else None
        pending = {game_id: None for game_id in ids}  # game id -> the Game after its last action (None: not yet)
        actions, begun_wall = 0, time.perf_counter()
        for game_id in ids:
            row, game = play.load(db, game_id)
            on.track(db, row)
            pending[game_id] = game
        while pending:
            for game_id in list(pending):
                db = dbs[actions % len(dbs)]
                game = pending[game_id]
                waiting = sorted(game.waiting_for())
                seat = rng.choice(waiting)
                action = PLAYERS[args.player](seed=rng.getrandbits(32)).choose(game.copy(), seat)
                begun = time.process_time_ns()
                row = play.load_row(db, game_id)
                user = users[seat]["id"]
                seat = play.player_seat(row, user)
                ACTING[0] = True
                played = act(db, row, seat, action, row["version"])
                ACTING[0] = False
                if log is not None:
                    log()
                TIMES["total"] += time.process_time_ns() - begun
                actions += 1
                if played.row["status"] != "active":
                    del pending[game_id]
                else:
                    pending[game_id] = played.game
        wall = time.perf_counter() - begun_wall
        for each in dbs:
            each.close()
    per = {k: v / actions / 1000 for k, v in TIMES.items()}
    store_part = per["load_row"] + per["append_action"]
    rest = per["act"] - per["game_of"] - per["engine"] - per["snapshot_text"] - per["append_action"]
    print(f"{args.games} games, {actions} actions ({args.player}), wall {wall:.1f} s incl. choosing moves")
    print(f"CPU µs per action: total {per['total']:.0f} | load_row {per['load_row']:.0f} | game_of {per['game_of']:.0f} | "
          f"engine {per['engine']:.0f} | snapshot_text {per['snapshot_text']:.0f} | append_action {per['append_action']:.0f} | "
          f"rest of act {rest:.0f}" + (f" | log line {per['log']:.0f}" if args.log else ""))
    print(f"store part (load_row + append_action): {store_part:.0f} µs per action")


if __name__ == "__main__":
    main()
