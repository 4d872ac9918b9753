"""The story's chapters as data: ``Chapter``, read from ``cards/story/*.toml`` and checked (every problem
names the file, the chapter and the field: ``StoryDataError``), a chapter's start position filled in
for one game (``fill_start``), and finding a chapter (``chapters``, ``chapter``, ``next_chapter``, the
chapter a story game plays: ``chapter_of``). The format is docs/story.md's; the story mode that plays
the chapters is ``story.py``, the goal's judging ``storygoals.py``, a player's progress
``storyprogress.py``.
"""

import copy
import functools
import os
import random
import re
from collections import Counter

from flask_babel import gettext  # the request's language; English outside a request

from webapp.ai import DIFFICULTIES
from webapp.cards.decks import DeckDataError, load_decks, open_record, ordered_records, parse_deck
from webapp.decks import collection
from webapp.engine import LANDS, Game, load_pool
from webapp.game import play, storywords
from webapp.game.replay import scenario_with_decks

CHAPTER_KEYS = {"id", "order", "title", "narration_before", "narration_after", "opponent", "start", "goal",
                "reward", "teaches", "tips", "difficulty"}
REQUIRED_KEYS = CHAPTER_KEYS - {"start", "tips", "difficulty"}
OPPONENT_KEYS = {"name", "deck"}
TEACHES_KEYS = {"rules", "en", "ja"}
REWARD_KEYS = {"cards", "packs"}
TIP_KEYS = {"when", "target", "text"}
GOAL_KEYS = {"win": {"type", "by_round"}, "take_land": {"type", "land", "by_round"}}
#: The moments a tip is shown at, the first time each happens in the chapter's game (docs/story.md).
TIP_WHEN = ("start", "first_battle", "first_spell", "first_failed_attack", "first_quick_summon", "first_refill",
            "judgment")
#: The parts of the board a tip may point at; ``land:<land>`` names one land (R4.2).
TIP_TARGETS = ("hand", "end-turn", "battle-steps", "formation", "initiative", "chain", "slots", "quick-summon",
               "leaders", "round", "map", "log", "deck")
LAND_TARGET = re.compile(r"^land:(H0|H1|L[1-6])$")
RULE_ID = re.compile(r"^R\d{1,2}(\.\d{1,2}[a-z]?)?$")
ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
LANGS = ("en", "ja")
MAX_PACKS = 10
LAST_ROUND = 12  # R1.4


class StoryDataError(ValueError):
    """A chapter file is malformed; the message names the file, the chapter and the field."""


class Chapter:
    """One chapter, checked. ``data`` is the file's table as read; the attributes are its parts."""

    __slots__ = ("id", "order", "title", "narration_before", "narration_after", "opponent", "deck", "start",
                 "goal", "reward", "teaches", "tips", "difficulty", "source")

    def __init__(self, data, deck, source):
        self.id, self.order, self.source = data["id"], data["order"], source
        self.title, self.teaches = data["title"], data["teaches"]
        self.narration_before, self.narration_after = data["narration_before"], data["narration_after"]
        self.opponent = data["opponent"]
        self.deck = deck  # webapp.cards.decks.Deck of the opponent
        self.start = data.get("start")
        self.goal = data["goal"]
        self.reward = {"cards": dict(data["reward"].get("cards", {})), "packs": data["reward"].get("packs", 0)}
        self.tips = list(data.get("tips", []))
        self.difficulty = data.get("difficulty", "normal")  # the CPU's level (webapp.ai.DIFFICULTIES)

    def __repr__(self):
        return f"Chapter({self.id!r}, order={self.order})"

    @property
    def pack_source(self):
        """The ``packs.source`` of this chapter's reward packs (read as "Story pack (chapter N)")."""
        return f"story:{self.order}"

    def goal_text(self, lang="en"):
        return storywords.goal_text(self.goal, lang, self.opponent["name"][lang])

    def goal_short(self, lang="en"):
        return storywords.goal_short(self.goal, lang, self.opponent["name"][lang])

    def start_position(self):
        """The chapter's set start as a Game (the Prince's Brigade as the human's deck, seed 0), to say
        how it begins; None for a chapter that begins with the leader choice like any game (or a start
        that cannot be built)."""
        if self.start is None:
            return None
        try:
            loaner = load_decks(load_pool())[collection.LOANER]
            return Game.from_scenario(fill_start(self.start, [loaner.card_ids(), self.deck.card_ids()], 0))
        except (KeyError, ValueError, TypeError):
            return None

    def start_text(self, lang="en"):
        """How the chapter begins in words (``storywords.start_words``); None without a set start."""
        game = self.start_position()
        return None if game is None else storywords.start_words(game, self.opponent["name"][lang], lang)

    def tips_for(self, lang="en"):
        """The tips as the board takes them: ``[{when, target, text}]`` in one language."""
        return [{"when": t["when"], "target": t["target"], "text": t["text"][lang]} for t in self.tips]


def story_dir():
    """``cards/story`` beside the card pool (``$BRIGADE_STORY`` overrides it)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get("BRIGADE_STORY") or os.path.join(root, "cards", "story")


def check_text(value, fail, field):
    if not isinstance(value, dict) or set(value) != set(LANGS) or \
            not all(isinstance(value[k], str) and value[k].strip() for k in LANGS):
        fail(field, "expected { en = \"...\", ja = \"...\" }, both non-empty")


def check_round(value, fail, field, lo=2):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= LAST_ROUND:
        fail(field, f"expected a round from {lo} to {LAST_ROUND}, got {value!r}")


def parse_chapter(data, pool, loaner, source="<data>"):
    """Check one chapter's table against the pool and return a Chapter; StoryDataError otherwise.

    ``loaner`` is the Prince's Brigade (a Deck): a custom start position is tried with it as the
    human's deck, as a player without 30 cards would play it (R2.3).
    """
    cid, fail = open_record(data, "chapter", CHAPTER_KEYS, source, StoryDataError)
    for k in sorted(REQUIRED_KEYS):
        if k not in data:
            fail(k, "missing")
    if not isinstance(cid, str) or not ID.match(cid):
        fail("id", "expected an id of lower-case letters, digits and '-'")
    order = data["order"]
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        fail("order", f"expected a whole number of 1 or more, got {order!r}")
    for f in ("title", "narration_before", "narration_after"):
        check_text(data[f], fail, f)

    teaches = data["teaches"]
    if not isinstance(teaches, dict):
        fail("teaches", "expected { rules = [\"R5.4\", ...], en = \"...\", ja = \"...\" }")
    for k in teaches:
        if k not in TEACHES_KEYS:
            fail(f"teaches.{k}", "unknown key")
    rules = teaches.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) and RULE_ID.match(r) for r in rules):
        fail("teaches.rules", f"expected a list of rule ids such as \"R8.4\", got {rules!r}")
    check_text({k: teaches.get(k) for k in LANGS}, fail, "teaches")

    if data.get("difficulty", "normal") not in DIFFICULTIES:
        fail("difficulty", f"expected one of {', '.join(map(repr, DIFFICULTIES))}, got {data['difficulty']!r}")

    opponent = data["opponent"]
    if not isinstance(opponent, dict):
        fail("opponent", "expected { name = { en, ja }, deck = { card = count, ... } }")
    for k in opponent:
        if k not in OPPONENT_KEYS:
            fail(f"opponent.{k}", "unknown key")
    check_text(opponent.get("name"), fail, "opponent.name")
    if "deck" not in opponent:
        fail("opponent.deck", "missing")
    record = {"id": f"story-{cid}", "name": opponent["name"], "description": data["title"],
              "cards": opponent["deck"]}
    try:
        deck = parse_deck(record, pool, f"{source}: chapter {cid!r}: field 'opponent.deck'")
    except DeckDataError as exc:
        raise StoryDataError(str(exc)) from None

    goal = data["goal"]
    kind = goal.get("type") if isinstance(goal, dict) else None
    if kind not in GOAL_KEYS:
        fail("goal.type", f"expected one of {', '.join(GOAL_KEYS)}, got {kind!r}")
    for k in goal:
        if k not in GOAL_KEYS[kind]:
            fail(f"goal.{k}", f"unknown key for a {kind!r} goal")
    if kind == "take_land":
        if goal.get("land") not in LANDS or goal["land"] == "H0":
            fail("goal.land", f"expected a land to take: one of {', '.join(LANDS[1:])}, got {goal.get('land')!r}")
        if "by_round" not in goal:
            fail("goal.by_round", "missing")
    if "by_round" in goal:
        check_round(goal["by_round"], fail, "goal.by_round")

    reward = data["reward"]
    if not isinstance(reward, dict) or not reward:
        fail("reward", "expected { cards = { card = count }, packs = n } (either or both)")
    for k in reward:
        if k not in REWARD_KEYS:
            fail(f"reward.{k}", "unknown key")
    if "cards" in reward:
        cards = reward["cards"]
        if not isinstance(cards, dict) or not cards:
            fail("reward.cards", "expected a table of card id = count")
        for card, n in cards.items():
            if card not in pool:
                fail(f"reward.cards.{card}", "no such card in the pool")
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 30:
                fail(f"reward.cards.{card}", f"expected a count from 1 to 30, got {n!r}")
    if "packs" in reward:
        n = reward["packs"]
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_PACKS:
            fail("reward.packs", f"expected a number of packs from 1 to {MAX_PACKS}, got {n!r}")

    tips = data.get("tips", [])
    if not isinstance(tips, list):
        fail("tips", "expected a list of { when, target, text }")
    for i, tip in enumerate(tips):
        where = f"tips[{i}]"
        if not isinstance(tip, dict):
            fail(where, "expected { when = ..., target = ..., text = { en, ja } }")
        for k in tip:
            if k not in TIP_KEYS:
                fail(f"{where}.{k}", "unknown key")
        if tip.get("when") not in TIP_WHEN:
            fail(f"{where}.when", f"expected one of {', '.join(TIP_WHEN)}, got {tip.get('when')!r}")
        target = tip.get("target")
        if not isinstance(target, str) or not (target in TIP_TARGETS or LAND_TARGET.match(target)):
            fail(f"{where}.target", f"expected one of {', '.join(TIP_TARGETS)} or land:<H0|L1..L6|H1>, "
                                    f"got {target!r}")
        check_text(tip.get("text"), fail, f"{where}.text")

    if "start" in data:
        check_start(data["start"], deck, loaner, goal, pool, fail)
    return Chapter(data, deck, source)


def check_start(start, opponent_deck, loaner, goal, pool, fail):
    """A custom start must be a legal position (Game.from_scenario) where the human moves first."""
    if not isinstance(start, dict):
        fail("start", "expected a scenario table (docs/engine.md, \"Scenario format\")")
    for key, allowed in (("first", (0,)), ("active", (0,)), ("leader_mode", ("sequential",))):
        if key in start and start[key] not in allowed:
            fail(f"start.{key}", f"in the story the human (player 0) moves first (R5.1): expected "
                                 f"{allowed[0]!r}, got {start[key]!r}")
    players = start.get("players")
    if isinstance(players, list) and len(players) == 2 and isinstance(players[1], dict):
        left = Counter(opponent_deck.counts)
        for zone in ("hand", "discard", "units", "deck"):
            items = players[1].get(zone, [])
            for i, item in enumerate(items if isinstance(items, list) else []):
                card = item if isinstance(item, str) else item.get("card") if isinstance(item, dict) else None
                if left[card] <= 0:
                    fail(f"start.players[1].{zone}[{i}]",
                         f"{card!r} is not (or no more) in the opponent's deck: the CPU plays its own cards")
                left[card] -= 1
    try:
        game = Game.from_scenario(fill_start(start, [loaner.card_ids(), opponent_deck.card_ids()], 0), pool)
    except (ValueError, TypeError, KeyError) as exc:
        fail("start", f"not a legal position: {exc}")
    if game.result is not None or game.waiting_for() != {0}:
        fail("start", "the position must wait for the human (player 0) to move first (R5.1)")
    if not [a for a in game.legal_actions(0) if a["type"] != "resign"]:
        fail("start", "the human has nothing to do in this position")
    if game.state.phase == "leaders" and not any(game.state.static.cards[c].kind == "monster"
                                                 for c in game.state.hand[1]):
        fail("start.players[1].hand", "at the leader choice the CPU needs a monster in hand (R5.4)")
    if goal.get("type") == "take_land" and game.state.owners[LANDS.index(goal["land"])] == 0:
        fail("goal.land", f"the human already holds {goal['land']} in the start position")
    if "by_round" in goal and game.state.round > goal["by_round"]:
        fail("goal.by_round", f"the start position is already in round {game.state.round}")


def fill_start(start, decks, seed):
    """The chapter's start as a complete scenario for one game.

    The human is player 0 and moves first (``first`` = ``active`` = 0, sequential leaders). A
    player without a ``deck`` gets as draw pile the rest of their 30 cards (``decks[p]``: the
    human's chosen deck, the opponent's deck), one copy fewer of each card already placed, shuffled
    from ``seed``. Without a ``seed`` of its own the position takes the game's (lands, dice).
    """
    scenario = copy.deepcopy(start)
    scenario.setdefault("seed", seed)
    scenario["first"] = 0
    scenario["active"] = 0
    scenario["leader_mode"] = "sequential"
    return scenario_with_decks(scenario, decks, random.Random(f"story:{seed}"))


def load_chapters(path=None, pool=None):
    """Every chapter in ``path`` (default ``cards/story``), sorted by ``order``; StoryDataError on bad data."""
    path = path or story_dir()
    pool = load_pool() if pool is None else pool
    try:
        loaner = load_decks(pool)[collection.LOANER]
    except KeyError:
        raise StoryDataError(f"the loaner deck {collection.LOANER!r} is missing from cards/decks") from None
    return ordered_records(path, lambda data, full: parse_chapter(data, pool, loaner, full), "chapter", StoryDataError)


@functools.lru_cache(maxsize=4)
def _cached(path):
    return tuple(load_chapters(path))


def chapters():
    """The story's chapters in order (read once per process)."""
    return list(_cached(story_dir()))


def chapter(chapter_id):
    """The chapter with this id; play.NotFound otherwise."""
    for c in chapters():
        if c.id == chapter_id:
            return c
    raise play.NotFound(gettext("There is no such story chapter."))


def next_chapter(chapter_id):
    """The chapter after this one, or None after the last."""
    cs = chapters()
    for i, c in enumerate(cs):
        if c.id == chapter_id:
            return cs[i + 1] if i + 1 < len(cs) else None
    return None


def chapter_of(row):
    """The chapter a story game row plays; play.NotFound if it is not a story game."""
    setup = row.get("setup") or {}
    if row.get("mode") != "story" or not setup.get("story"):
        raise play.NotFound(gettext("This is not a story game."))
    return chapter(setup["story"])
