"""Daily quests (docs/cards.md "Daily quests"): three a day per player from the pool in
``cards/quests/daily.toml``, advanced by the engine's own events of each finished game, one reroll a
day, rewards of shards and packs claimed once.

- **The day** follows the host's time zone, the setting ``QUEST_DAY_ZONE`` (an IANA name such as
  ``Asia/Tokyo``; default UTC): friends on one server share a day and its midnight, and no player can
  move their own midnight to get a second set. ``today`` reads webapp/clock.py.
- **Which three**: drawn from the pool by a generator seeded with the player and the day, dealt on the
  first look (the home page, or a game's end) and kept in the store.
- **Counting** (``after_game``, called by play's ``game_over``, the one place a game ends): the game's
  events are counted for each player's seat (as each action is stored, ``note``, so the end needs no
  replay; when this process did not count every action, the game's actions are replayed,
  webapp/game/replay.py): spells
  cast (``declared`` of kind spell), monsters summoned (``summoned``, ``quick_summoned``), lands taken
  (``land_taken``), the game finished and won, and the main element of the seat's deck. A game counts
  once, on the day it ended, only for quests not claimed yet, and only if it was played out: a game
  cut short by a resignation (or a clock, a disconnection) before round 5 counts for nothing, the
  rewards' one line against farming (webapp/game/fairplay.py ``played_out``).
- **Claim** (``claim``): one statement marks the quest claimed only if it is done and unclaimed, in the
  transaction that pays: a double click or two racing claims pay once.
"""

import datetime
import functools
import random
import tomllib
import zoneinfo
from collections import Counter
from typing import NamedTuple

from flask_babel import gettext

from webapp import clock, store
from webapp.engine import load_pool
from webapp.game import fairplay, replay
from webapp.game.bounded import Bounded
from webapp.serving import ROOT
from webapp.store import quests as store_quests
from webapp.store import shards as store_shards

QUESTS_FILE = ROOT / "cards" / "quests" / "daily.toml"
PER_DAY = 3
GOALS = ("play", "win", "spells", "summons", "lands", "lands_in_game")
ELEMENTS = ("fire", "water", "earth", "wind", "light", "dark")
#: The configuration key naming the host's time zone of the quests' day.
ZONE_KEY = "QUEST_DAY_ZONE"


class QuestError(ValueError):
    """A reroll or claim that was not done; the message says why, for the player."""


class Quest(NamedTuple):
    id: str
    goal: str
    target: int
    text: dict
    shards: int = 0
    packs: int = 0
    element: str | None = None

    def words(self, lang):
        return self.text.get(lang) or self.text["en"]


def read_pool(path=QUESTS_FILE):
    """{quest id: Quest} from a quests file; ValueError naming the record and field that is wrong."""
    with open(path, "rb") as f:
        records = tomllib.load(f).get("quest", [])
    out = {}
    for i, r in enumerate(records):
        where = f"{path.name}: quest {r.get('id', i)!r}"
        if not isinstance(r.get("id"), str) or r["id"] in out:
            raise ValueError(f"{where}: needs a unique text id")
        if r.get("goal") not in GOALS:
            raise ValueError(f"{where}: goal must be one of {', '.join(GOALS)}")
        if not isinstance(r.get("target"), int) or r["target"] < 1:
            raise ValueError(f"{where}: target must be a whole number of 1 or more")
        text = r.get("text") or {}
        if not all(isinstance(text.get(lang), str) and text[lang] for lang in ("en", "ja")):
            raise ValueError(f"{where}: text needs both en and ja")
        reward = r.get("reward") or {}
        shards, packs = reward.get("shards", 0), reward.get("packs", 0)
        if not (isinstance(shards, int) and isinstance(packs, int) and shards >= 0 and packs >= 0 and shards + packs):
            raise ValueError(f"{where}: reward needs shards or packs, whole numbers of 0 or more")
        element = r.get("element")
        if element is not None and (element not in ELEMENTS or r["goal"] != "win"):
            raise ValueError(f"{where}: element is one of {', '.join(ELEMENTS)}, for a win goal")
        out[r["id"]] = Quest(r["id"], r["goal"], r["target"], dict(text), shards, packs, element)
    if len(out) < PER_DAY + 1:
        raise ValueError(f"{path.name}: needs at least {PER_DAY + 1} quests (three a day and one to reroll to)")
    return out


@functools.cache
def pool():
    return read_pool()


#: The host's settings the quests read (``configure``, when the pages' blueprint is registered).
SETTINGS = {}


def configure(config):
    """Take the host's ``QUEST_DAY_ZONE`` (ValueError at start if it names no zone)."""
    zone(config)
    SETTINGS[ZONE_KEY] = config.get("QUEST_DAY_ZONE")


def zone(config=None):
    name = (config if config is not None else SETTINGS).get(ZONE_KEY) or "UTC"
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{ZONE_KEY}: {name!r} is not a time zone (an IANA name such as 'Asia/Tokyo')") from None


def today(config=None):
    """The quests' day now, ``YYYY-MM-DD`` in the host's zone."""
    return clock.utcnow().astimezone(zone(config)).date().isoformat()


def next_day_starts(config=None):
    """The aware UTC datetime of the next midnight in the host's zone."""
    z = zone(config)
    local = clock.utcnow().astimezone(z)
    tomorrow = local.date() + datetime.timedelta(days=1)
    midnight = datetime.datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=z)
    return midnight.astimezone(datetime.UTC)


def draw(user_id, day, quests=None):
    """The three quest ids of a player's day: a generator seeded with both picks them, no two alike."""
    ids = sorted(quests or pool())
    return random.Random(f"quests:{user_id}:{day}").sample(ids, PER_DAY)


class DayQuest(NamedTuple):
    slot: int
    quest: Quest
    progress: int
    claimed: bool

    @property
    def done(self):
        return self.progress >= self.quest.target


def of_day(db, user_id, config=None, day=None):
    """The player's quests of the day (dealt now if not yet): a list of DayQuest by slot."""
    day = day or today(config)
    rows = store_quests.day_quests(db, user_id, day)
    if len(rows) < PER_DAY:
        store_quests.deal(db, user_id, day, draw(user_id, day))
        rows = store_quests.day_quests(db, user_id, day)
    quests = pool()
    return [DayQuest(r["slot"], quests[r["quest"]], min(r["progress"], quests[r["quest"]].target),
                     r["claimed_at"] is not None) for r in rows if r["quest"] in quests]


def can_reroll(db, user_id, config=None):
    return not store_quests.rerolled(db, user_id, today(config))


def reroll(db, user_id, slot, config=None):
    """Swap the quest in ``slot`` (not claimed) for one not among the day's: the day's one reroll."""
    day = today(config)
    current = of_day(db, user_id, config, day)
    chosen = next((q for q in current if q.slot == slot), None)
    if chosen is None:
        raise QuestError(gettext("There is no such quest today."))
    if chosen.claimed:
        raise QuestError(gettext("That quest is claimed already."))
    taken = {q.quest.id for q in current}
    choices = sorted(set(pool()) - taken)
    pick = random.Random(f"reroll:{user_id}:{day}:{slot}").choice(choices)
    if not store_quests.reroll(db, user_id, day, slot, pick):
        raise QuestError(gettext("You have used today's reroll: a new one comes with the next day."))
    return pool()[pick]


def claim(db, user_id, slot, config=None):
    """Pay a done quest's reward, once; return the Quest. QuestError if it is not done or claimed already."""
    day = today(config)
    current = {q.slot: q for q in of_day(db, user_id, config, day)}
    q = current.get(slot)
    if q is None:
        raise QuestError(gettext("There is no such quest today."))
    with store.transaction(db):
        if not store_quests.claim(db, user_id, day, slot, q.quest.target):
            if q.claimed or q.done:
                raise QuestError(gettext("That quest is claimed already."))
            raise QuestError(gettext("That quest is not done yet."))
        if q.quest.shards:
            store_shards.exchange(db, user_id, q.quest.shards, "reward", {"source": f"quest:{day}:{q.quest.id}"})
        for n in range(q.quest.packs):
            store.grant_pack(db, user_id, f"quest:{day}:{q.quest.id}" + (f":{n}" if n else ""))
    return q.quest


# ---------------------------------------------------------------- counting a finished game


def main_elements(deck, cards):
    """The elements most common among a deck's cards (several on a tie)."""
    counts = Counter(cards[cid].element for cid in deck if cid in cards)
    if not counts:
        return set()
    top = max(counts.values())
    return {e for e, n in counts.items() if n == top}


#: The event types ``tally`` counts (a spell is a "declared" of kind "spell").
COUNTED = frozenset({"declared", "summoned", "quick_summoned", "land_taken"})


def tally(events, counts=None):
    """The quests' counts of ``events`` added to ``counts`` (a new tuple; zeros if None): per seat
    (0, 1), (spells cast, monsters summoned, lands taken)."""
    if counts is not None and not any(e.get("type") in COUNTED for e in events):
        return counts  # most actions (a march, a pass, a roll) count nothing: the same tuple
    spells, summons, lands = ([*c] for c in zip(*(counts or ((0, 0, 0), (0, 0, 0))), strict=True))
    for e in events:
        kind = e.get("type")
        if kind == "declared":
            if e.get("kind") == "spell" and e.get("player") in (0, 1):
                spells[e["player"]] += 1
        elif kind in ("summoned", "quick_summoned"):
            if e.get("owner") in (0, 1):
                summons[e["owner"]] += 1
        elif kind == "land_taken" and e.get("player") in (0, 1):
            lands[e["player"]] += 1
    return tuple(zip(spells, summons, lands, strict=True))


def seat_facts(events, seat, result, deck, cards, counts=None):
    """What one seat did in a game, for the quests: {goal: amount} and the deck's main elements.
    ``counts``, if given, is ``tally`` of the game's events already (then ``events`` is not read)."""
    spells, summons, lands = (counts if counts is not None else tally(events))[seat] if seat in (0, 1) else (0, 0, 0)
    won = (result or {}).get("winner") == seat
    return {"play": 1, "win": int(won), "spells": spells, "summons": summons, "lands": lands,
            "lands_in_game": lands}, main_elements(deck, cards)


#: The counts of the games in progress this process stored every action of: {(database file, game id):
#: (created, version counted to, ``tally``, round reached)}. A game whose actions were not all stored
#: here (another process's, or a process started since) is not in it, or not at its version: its end
#: replays it (``game_events``).
TALLIES = Bounded(4096)


def tally_key(db, game_id):
    path = getattr(db, "path", None)
    return None if not path or path == ":memory:" else (path, game_id)


def note(db, row, version, new_version, events, game):
    """Count ``events``, what the engine's ``apply`` of the action stored as ``new_version`` produced on
    the game at ``version`` (``row``'s game; ``game`` after it), toward the game's quests (play's
    ``apply``; ``end`` notes its write with no events). Counted only from version 0 on, one stored write
    after another: any gap (a write this process did not note: a take-back, another process) drops the
    count, and the game's end replays it instead."""
    key = tally_key(db, row["id"])
    if key is None:
        return
    if version == 0:
        kept = (row["created"], 0, None, 0)
    else:
        kept = TALLIES.get(key)
        if kept is None or kept[0] != row["created"] or kept[1] != version:
            if kept is not None:
                TALLIES.pop(key)
            return
    TALLIES.put(key, (row["created"], new_version, tally(events, kept[2]) if events else kept[2],
                      game.state.round))


def counted(db, row):
    """(``tally``, round reached) of the finished game ``row`` when this process noted every write of
    it up to its version (then it is forgotten), else None."""
    key = tally_key(db, row["id"])
    kept = None if key is None else TALLIES.pop(key)
    if kept is None or kept[0] != row.get("created") or kept[1] != row.get("version"):
        return None
    return kept[2] or tally(()), kept[3]


def advance(quest, progress, amounts, elements):
    """A quest's new progress after a game with these ``amounts`` (``seat_facts``)."""
    if quest.goal == "win" and quest.element is not None and quest.element not in elements:
        return progress
    if quest.goal == "lands_in_game":
        return min(quest.target, max(progress, amounts["lands_in_game"]))
    return min(quest.target, progress + amounts[quest.goal])


def game_events(db, row):
    """(every event of a stored game, the round it reached), replayed from its setup and actions."""
    events, last = [], None
    for step in replay.steps(row["setup"], store.list_actions(db, row["id"])):
        events.extend(step.events)
        last = step.game
    return events, last.state.round


def after_game(db, row, config=None):
    """Advance the quests of each player seated in the finished game ``row``; {user id: [slots advanced]}.
    A game counts once per player (a second call changes nothing)."""
    known = counted(db, row)  # (and forgotten, whatever the game's end)
    seats = [(seat, uid) for seat, uid in enumerate(row.get("seats") or []) if isinstance(uid, int)]
    if not seats or row.get("status") != "finished":
        return {}
    counts, cards, out = None, load_pool(), {}
    decks = (row.get("setup") or {}).get("decks") or [[], []]
    for seat, uid in seats:
        if store_quests.game_advanced(db, uid, row["id"]) is not None:
            continue
        if counts is None:
            if known is not None:
                counts, reached = known
            else:
                events, reached = game_events(db, row)
                counts = tally(events)
            if not fairplay.played_out(row.get("result"), reached):
                return {}  # cut short (a resignation before round 5): the farming line of the rewards
        day = today(config)
        amounts, elements = seat_facts((), seat, row.get("result"), decks[seat] if seat < len(decks) else [], cards,
                                       counts=counts)
        progress = {}
        for q in of_day(db, uid, config, day):
            if q.claimed:
                continue
            new = advance(q.quest, q.progress, amounts, elements)
            if new != q.progress:
                progress[q.slot] = new
        if store_quests.count_game(db, uid, row["id"], day, progress):
            out[uid] = sorted(progress)
    return out


def advanced_by(db, user_id, game_id, config=None):
    """The quests the game advanced for the player, as they stand now: a list of DayQuest (the end screen)."""
    found = store_quests.game_advanced(db, user_id, game_id)
    if not found or not found[1]:
        return []
    day, slots = found
    return [q for q in of_day(db, user_id, config, day) if q.slot in slots]
