"""Friends and the ladder at a small server's size: presence, rating updates, profile pages (CPU time).

    python bench/social.py                 # 100 accounts
    python bench/social.py --accounts 200 --moves 60

Makes a fresh app (migrated, seeded database in a temporary folder) with ``--accounts`` accounts, each
friends with the next. Then:

* **presence**: every account connects a socket (``presence.connect``, this process's memory as with one
  server process) and half of them sit down at a game (``enter_game``); the friends page's question,
  ``presence.status`` of every account, is asked ``--repeat`` times;
* **rating updates**: one rated online game per account against the next (started at round 5 from the
  browser tests' online position, ``--moves`` random legal actions played, then resigned), so every
  account's rating moves twice; the time of ``ratings.record`` (Glicko-2 for both players and the
  stored ratings and history lines, in one transaction) is taken inside ``play.end``'s end-of-game step;
* **profile pages**: each account opens its own profile (``GET /players/<name>`` through Flask's test
  client: rating chart, games, win rate by deck and the per-card figures, which replay its games),
  twice: the first time replays, the second reads the kept figures.

Prints process CPU time (``time.process_time``) per call in ms. Varies with the machine and its load.
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from webapp import create_app, store  # noqa: E402
from webapp.ai import RandomPlayer  # noqa: E402
from webapp.game import play, positions  # noqa: E402
from webapp.social import friends, presence, ratings  # noqa: E402

POSITION = os.path.join(ROOT, "tests", "browser", "positions", "online-battle.json")


def cpu_ms(fn, *args):
    begun = time.process_time()
    value = fn(*args)
    return (time.process_time() - begun) * 1000, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40, help="random actions per game before the resignation")
    parser.add_argument("--repeat", type=int, default=50, help="presence.status calls")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(POSITION) as file:
        scenario = json.load(file)
    scenario.pop("about", None)
    scenario["round"] = 5
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "INSTANCE_PATH": folder, "CPU_DELAY": 0})
        db = store.connect(app.config["DATABASE"])
        users = [store.create_user(db, f"player{i:03d}", "not-a-hash") for i in range(args.accounts)]
        n = len(users)
        for i, u in enumerate(users):
            friends.ask(db, u["id"], users[(i + 1) % n]["id"])
            friends.accept(db, users[(i + 1) % n]["id"], u["id"])

        # presence
        for u in users:
            presence.connect(u["id"], f"sid-{u['id']}")
        for u in users[::2]:
            presence.enter_game(u["id"], f"sid-{u['id']}", 1)
        ids = [u["id"] for u in users]
        spent, status = cpu_ms(lambda: [presence.status(ids) for _ in range(args.repeat)])
        states = {s for s, _ in status[-1].values()}
        print(f"presence: {n} accounts online ({sorted(states)}): status of all {n} in {spent / args.repeat:.3f} ms "
              f"CPU per call ({args.repeat} calls)")

        # rating updates, timed inside the end of each game
        timed = []
        record = ratings.record

        def timed_record(db, row):
            ms, value = cpu_ms(record, db, row)
            if value is not None:
                timed.append(ms)
            return value

        ratings.record = timed_record
        runtime = app.extensions["brigade_online"]
        for i, u in enumerate(users):
            game_id = positions.start(db, "online", [u, users[(i + 1) % n]], scenario, seed=rng.getrandbits(32), rated=True)
            runtime.track(db, play.load_row(db, game_id))
            for _ in range(args.moves):
                row, game = play.load(db, game_id)
                if row["status"] != "active":
                    break
                seat = sorted(game.waiting_for())[0]
                action = RandomPlayer(seed=rng.getrandbits(32)).choose(game.copy(), seat)
                if action.get("type") == "resign":
                    continue
                play.apply(db, row, seat, action, row["version"])
            if play.load_row(db, game_id)["status"] == "active":
                runtime.finish(db, game_id, rng.randrange(2), "resign")
        ratings.record = record
        timed.sort()
        print(f"rating updates: {len(timed)} (one rated game per account, both players each): "
              f"median {timed[len(timed) // 2]:.3f} ms, p90 {timed[int(len(timed) * 0.9)]:.3f} ms, "
              f"mean {sum(timed) / len(timed):.3f} ms CPU per game (two ratings and two history lines)")
        moved = sum(1 for u in users if ratings.rating_of(db, u["id"])["games"] == 2)
        print(f"  accounts whose rating moved twice: {moved} of {n}")

        # profile pages
        for label in ("first view (replays the games)", "second view (kept figures)"):
            times = []
            for u in users:
                client = app.test_client()
                with client.session_transaction() as sess:
                    sess["user_id"] = u["id"]
                ms, answer = cpu_ms(client.get, f"/players/{u['name']}")
                assert answer.status_code == 200 and b'data-testid="cards"' in answer.data, answer.status_code
                times.append(ms)
            times.sort()
            print(f"profile pages, {label}: median {times[len(times) // 2]:.2f} ms, "
                  f"p90 {times[int(len(times) * 0.9)]:.2f} ms CPU per page ({len(times)} pages, own profile, 2 games each)")
        db.close()
        app.extensions["brigade_online"].stop()


if __name__ == "__main__":
    main()
