"""The gauntlet draft: draft 30 cards (pick one of three), then games against the CPU at rising
difficulty until three losses or seven wins; packs and crafting shards by wins (docs/gauntlet.md).

A run is stored (``store.gauntlet``), so a draft in progress survives a reload and a server restart:
each offer is drawn from the run's seed and the pick's number (the same three cards every time it
is shown), and each pick names the number of picks it was made at (a second click changes nothing).
The drafted deck is the run's only: it is never added to the collection. Its games are mode
``"gauntlet"`` (registered with the play service below): the human in seat 0 against a CPU deck
drafted the same way, at the difficulty of the run's standing (``difficulty_for``); when one ends,
the run counts it, and the run's last game grants its packs (``REWARD_PACKS``) and shards
(``REWARD_SHARDS``, webapp/decks/crafting.py), once, in one transaction.
"""

import logging
import random
import secrets
import sqlite3

from flask_babel import gettext

from webapp import store
from webapp.decks.packs import draw_pack
from webapp.engine import load_pool
from webapp.game import cpuseats, gamecache, modes, play
from webapp.game.replay import new_game
from webapp.store import gauntlet as runs
from webapp.store import shards as store_shards

log = logging.getLogger(__name__)

DECK_SIZE = 30       # R2.1
CHOICES = 3
MAX_WINS = 7
MAX_LOSSES = 3
#: Packs a finished run grants, by its wins (0 to 7).
REWARD_PACKS = (1, 1, 2, 2, 3, 3, 4, 5)
#: Crafting shards a finished run grants, by its wins (0 to 7): from the first win, rising to less than
#: a rare's craft (400) at seven, so the packs stay the run's main reward (docs/gauntlet.md).
REWARD_SHARDS = (0, 20, 40, 60, 100, 140, 200, 300)
MODE = "gauntlet"


def difficulty_for(wins):
    """The CPU's level for the run's next game: Easy for the first two, Normal up to five wins, then Hard."""
    return "easy" if wins < 2 else "normal" if wins < 5 else "hard"


def offer(seed, picks, pool=None):
    """The three cards offered at this point of the draft (card ids, distinct), drawn from packs (by
    rarity, ``draw_pack``) with the run's seed and the number of picks made: at most one spell among
    them, and only monsters when the last pick would otherwise leave the deck without one (R2.1)."""
    pool = load_pool() if pool is None else pool
    rng = random.Random(f"gauntlet:{seed}:{len(picks)}")
    need_monster = len(picks) == DECK_SIZE - 1 and not any(pool[c].kind == "monster" for c in picks)
    chosen = []
    while len(chosen) < CHOICES:
        for cid in draw_pack(pool, rng, size=CHOICES):
            spells = sum(1 for c in chosen if pool[c].kind == "spell")
            if cid in chosen or (pool[cid].kind == "spell" and (spells >= 1 or need_monster)):
                continue
            chosen.append(cid)
            if len(chosen) == CHOICES:
                break
    return chosen


def cpu_deck(seed, game_number, pool=None):
    """The CPU's 30 cards for the run's game ``game_number``: drafted from offers of its own, taking
    the strongest monster (power + life) each time and a spell when none is offered."""
    pool = load_pool() if pool is None else pool
    picks = []
    cpu_seed = f"cpu:{seed}:{game_number}"
    while len(picks) < DECK_SIZE:
        cards = offer(cpu_seed, picks, pool)
        monsters = [c for c in cards if pool[c].kind == "monster"]
        picks.append(max(monsters, key=lambda c: (pool[c].data["power"] + pool[c].data["life"], c)) if monsters
                     else cards[0])
    return sorted(picks)


def current(db, user_id):
    """The user's unfinished run (a dict from the store), or None."""
    return runs.open_run(db, user_id)


def run_of(db, user_id, run_id):
    """The user's run ``run_id``; play.NotFound / play.Forbidden otherwise."""
    run = runs.get_run(db, run_id) if isinstance(run_id, int) and not isinstance(run_id, bool) else None
    if run is None:
        raise play.NotFound(gettext("There is no such gauntlet run."))
    if run["user_id"] != user_id:
        raise play.Forbidden(gettext("This gauntlet run is not yours."))
    return run


def start_run(db, user, seed=None):
    """Start a draft for the user and return the run; the unfinished one if there is one."""
    uid = play.user_id_of(user)
    existing = current(db, uid)
    if existing is not None:
        return existing
    seed = secrets.randbelow(2**62) if seed is None else seed
    try:
        with store.transaction(db):
            run_id = runs.create_run(db, uid, seed)
    except sqlite3.IntegrityError:  # a second request started one meanwhile
        return current(db, uid)
    return runs.get_run(db, run_id)


def pick(db, user_id, run_id, card_id, picks_made):
    """Take ``card_id`` from the current offer; ``picks_made`` is the number of picks the player saw
    (a stale or repeated click is refused and changes nothing). Returns the run after the pick."""
    run = run_of(db, user_id, run_id)
    if run["status"] != "drafting":
        raise play.Illegal(gettext("The draft is over: your deck has its 30 cards."))
    if picks_made != len(run["picks"]):
        raise play.Stale(gettext("That pick was already made: here is the draft as it stands."))
    if card_id not in offer(run["seed"], run["picks"]):
        raise play.BadRequest(gettext("Pick one of the three cards offered."))
    with store.transaction(db):
        if not runs.add_pick(db, run["id"], picks_made, card_id, picks_made + 1 == DECK_SIZE):
            raise play.Stale(gettext("That pick was already made: here is the draft as it stands."))
    return runs.get_run(db, run["id"])


def play_next(db, user, run_id, cpu_name=None, seconds=None):
    """Create the run's next game (or return the one in progress) and return its id."""
    uid = play.user_id_of(user)
    run = run_of(db, uid, run_id)
    if run["status"] != "playing":
        raise play.Illegal(gettext("Draft your 30 cards first.") if run["status"] == "drafting"
                           else gettext("This gauntlet run is over."))
    if run["game_id"] is not None:
        return run["game_id"]
    number = len(run["results"]) + 1
    seed = random.Random(f"gauntlet-game:{run['seed']}:{number}").getrandbits(62)
    decks = [sorted(run["picks"]), cpu_deck(run["seed"], number)]
    setup = {"mode": MODE, "gauntlet": run["id"], "game_number": number, "decks": decks, "deck_ids": [None, None],
             "seed": seed, "first": 0, "leader_mode": "sequential",
             "seats": [{"user_id": uid}, cpuseats.cpu_seat(cpu_name, difficulty_for(run["wins"]), seconds)]}
    game = new_game(setup)
    with store.transaction(db):
        game_id = store.create_game(db, MODE, seed, setup, state=gamecache.snapshot_text(game))
        if not runs.set_game(db, run["id"], game_id):
            raise play.Stale(gettext("Your next gauntlet game has already begun."))
    return game_id


def reward_for(wins):
    """Packs a run of ``wins`` grants."""
    return REWARD_PACKS[min(wins, MAX_WINS)]


def shards_for(wins):
    """Crafting shards a run of ``wins`` grants."""
    return REWARD_SHARDS[min(wins, MAX_WINS)]


def on_game_over(db, row):
    """When a gauntlet game ends: count it for its run; the run's last game grants the packs and the
    shards. Never raises."""
    try:
        run_id = (row.get("setup") or {}).get("gauntlet")
        run = runs.get_run(db, run_id) if run_id is not None else None
        if run is None or run["game_id"] != row["id"]:
            return None
        won = (row.get("result") or {}).get("winner") == 0
        wins, losses = run["wins"] + (1 if won else 0), run["losses"] + (0 if won else 1)
        finished = wins >= MAX_WINS or losses >= MAX_LOSSES
        with store.transaction(db):
            reward = None
            if finished:
                source = f"gauntlet:{run['id']}"
                reward = {"packs": [store.grant_pack(db, run["user_id"], source) for _ in range(reward_for(wins))],
                          "shards": shards_for(wins), "wins": wins}
                if reward["shards"]:
                    store_shards.exchange(db, run["user_id"], reward["shards"], "reward", {"source": source})
            if not runs.record_result(db, run["id"], row["id"], won, finished, reward):
                raise _Counted()
        return True
    except _Counted:
        return None
    except Exception:  # noqa: BLE001 - the action that ended the game is stored already
        log.exception("recording the gauntlet result of game %s failed", row.get("id"))
        return None


class _Counted(Exception):
    """The game was counted already (the transaction is rolled back, its packs and shards with it)."""


def opponent_name(row, lang="en"):
    difficulty = cpuseats.cpu_difficulty(row) or "normal"
    words = {"en": {"easy": "Gauntlet: Easy CPU", "normal": "Gauntlet: Normal CPU", "hard": "Gauntlet: Hard CPU"},
             "ja": {"easy": "ガントレット：弱いCPU", "normal": "ガントレット：普通のCPU", "hard": "ガントレット：強いCPU"}}
    return words.get(lang, words["en"])[difficulty]


def reward_source(row):
    run_id = (row.get("setup") or {}).get("gauntlet")
    return f"gauntlet:{run_id}" if run_id is not None else None


modes.register_mode(MODE, modes.Mode(opponent_name=opponent_name, reward_source=reward_source,
                                     game_over=on_game_over, victory_pack=False))
