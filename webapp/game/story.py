"""Story mode: chapters from ``cards/story/*.toml``, their games against the CPU, goals and rewards.

A chapter is data (docs/story.md): Eringe's narration before and after, an opponent with a
30-card deck, an optional custom start position (the engine's scenario format), a goal the
server judges, a reward granted once, and tips for the board. This module loads and checks the
chapters (every problem names the file and the field), starts a chapter's game through the play
service's store (mode ``"story"``, the human in seat 0 and first, R5.1), judges the goal from the
game's record, and records the clear and grants the reward exactly once.

This module registers the story mode with the play service (``modes.register_mode``, at the end
of the file): the chapter's opponent names the CPU, and ``on_game_over(db, row)`` runs when a
story game ends; the chapter's "done" page calls ``finish`` again as a safety net. Both are idempotent: ``store.claim_reward`` flips
``reward_granted`` once, in the same transaction as the grant.
"""

import copy
import functools
import logging
import os
import random
import re
import secrets
from collections import Counter
from typing import NamedTuple

from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.decks import collection
from webapp.decks import build as deckbuild
from webapp.game import cpuseats, gamecache, modes, play
from webapp.game.replay import new_game, scenario_cards, scenario_with_decks  # scenario_cards: story.scenario_cards for callers
from webapp.game.replay import steps as replay_steps
from webapp.ai import DIFFICULTIES
from webapp.cards.decks import DeckDataError, load_decks, open_record, ordered_records, parse_deck
from webapp.engine import LANDS, Game, load_pool
from webapp.store.marks import get_mark, set_mark

log = logging.getLogger(__name__)

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
        return goal_text(self.goal, lang, self.opponent["name"][lang])

    def goal_short(self, lang="en"):
        return goal_short(self.goal, lang, self.opponent["name"][lang])

    def start_text(self, lang="en"):
        return start_text(self, lang)

    def tips_for(self, lang="en"):
        """The tips as the board takes them: ``[{when, target, text}]`` in one language."""
        return [{"when": t["when"], "target": t["target"], "text": t["text"][lang]} for t in self.tips]


# ---------------------------------------------------------------- loading and checking


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


# ---------------------------------------------------------------- progress


def unlocked(progress):
    """The ids of the chapters open to a player with this progress (``store.get_progress``), in order:
    the first chapter, every cleared one, and the one after each cleared chapter."""
    out = []
    previous_cleared = True
    for c in chapters():
        cleared = bool((progress.get(c.id) or {}).get("cleared"))
        if previous_cleared or cleared:
            out.append(c.id)
        previous_cleared = cleared
    return out


def chapter_states(progress):
    """[(chapter, "cleared" | "open" | "locked", best)] for the map."""
    open_ids = set(unlocked(progress))
    out = []
    for c in chapters():
        p = progress.get(c.id) or {}
        state = "cleared" if p.get("cleared") else "open" if c.id in open_ids else "locked"
        out.append((c, state, p.get("best")))
    return out


def better(new, old):
    """True when the result ``new`` beats the recorded best ``old`` (an earlier round is better)."""
    if not old or not isinstance(old, dict) or not isinstance(old.get("round"), int):
        return True
    return new["round"] < old["round"]


# ---------------------------------------------------------------- starting a chapter


def story_deck(db, user_id, deck_id=None, config=None):
    """The human's deck for a chapter: the one chosen (checked as playable), else the Prince's
    Brigade while the player may borrow it (R2.3), else their first playable deck (the collection
    policy under the host's ``config``, webapp/decks/collection.py)."""
    if deck_id is not None:
        return play.deck_for(db, user_id, deck_id, config)
    decks = collection.playable_decks(db, user_id, config)
    for deck in decks:
        if deck["loaner"] and deck.get("slug") == collection.LOANER:
            return deck
    if decks:
        return decks[0]
    raise play.Forbidden(gettext("You own 30 cards or more, so the Prince's Brigade stays home: build a deck of "
                                 "your own cards in the deck builder to go on with the story."))


def start_chapter(db, user, chapter_id, deck_id=None, seed=None, config=None, cpu_name=None, seconds=None,
                  limit=None, replacing=0):
    """Create the chapter's game against the CPU and return its id (mode ``"story"``).

    The human is seat 0 and goes first (R5.1), the CPU (of the chapter's difficulty) picks its leaders
    after the human (R5.7, sequential). Without a ``start`` the game begins at the leader choice
    with both decks, like ``play.create_cpu_game``; with one, the game is
    ``Game.from_scenario(fill_start(...))`` and the filled scenario is kept in the setup.
    Raises play.NotFound (no chapter), play.Forbidden (locked, or no playable deck). ``cpu_name`` and
    ``seconds`` (the Hard CPU's thinking time) as in ``play.create_cpu_game``; a ``cpu_name`` (the
    host's CPU_PLAYER, for tests) wins over the chapter's difficulty. ``limit`` (MAX_ACTIVE_GAMES) and
    ``replacing`` (the chapter's battles the new one ends) are checked in the transaction that stores
    the game (``play.check_solo_cap``).
    """
    uid = play.user_id_of(user)
    ch = chapter(chapter_id)
    if ch.id not in unlocked(store.get_progress(db, uid)):
        raise play.Forbidden(gettext("Chapter %(n)s is locked: clear the chapter before it first.", n=ch.order))
    deck = story_deck(db, uid, deck_id, config)
    seed = secrets.randbelow(2**63) if seed is None else seed
    decks = [play.deck_list(deck["cards"]), play.deck_list(ch.deck.counts)]
    setup = {"story": ch.id, "decks": decks, "deck_ids": [deck["id"], None], "mode": "story", "seed": seed,
             "seats": [{"user_id": uid}, cpuseats.cpu_seat(cpu_name, ch.difficulty, seconds)], "first": 0,
             "leader_mode": "sequential"}
    if ch.start is not None:
        scenario = fill_start(ch.start, decks, seed)
        setup["scenario"] = scenario
        setup["decks"] = [scenario_cards(scenario, p) for p in (0, 1)]
    game = new_game(setup)
    with store.transaction(db):
        play.check_solo_cap(db, uid, limit, replacing=replacing)
        return store.create_game(db, "story", seed, setup, state=gamecache.snapshot_text(game))


def chapter_of(row):
    """The chapter a story game row plays; play.NotFound if it is not a story game."""
    setup = row.get("setup") or {}
    if row.get("mode") != "story" or not setup.get("story"):
        raise play.NotFound(gettext("This is not a story game."))
    return chapter(setup["story"])


def story_games(db, user_id, chapter_id, status=None):
    """The user's games of this chapter, most recently changed first."""
    return [r for r in store.list_games(db, user_id, status)
            if r["mode"] == "story" and r["setup"].get("story") == chapter_id and r["seats"][0] == user_id]


# ---------------------------------------------------------------- judging the goal


class Verdict(NamedTuple):
    """Whether the chapter's goal is met, whether that can still change, and when it was met."""

    met: bool
    final: bool       # the verdict cannot change any more (met, or no longer possible)
    round: int | None  # the round it was met in
    reason: str        # a short English explanation


def judge(row, game, actions=None):
    """Judge a story game's goal (docs/story.md).

    ``win``: met when the game is over and the human (seat 0) won — by leaders or by the round-12
    judgment (R1.1, R16) — within ``by_round`` if the goal has one.
    ``take_land``: met as soon as the human holds the land (R4.5) at a moment when the round is at
    most ``by_round``. Given the game's stored ``actions`` it replays the record and checks after
    every action (so a land taken and lost again still counts); without them it looks at ``game``
    as it stands. The verdict is final once met, once the game is over, or once the round has
    passed ``by_round``.
    """
    goal = chapter_of(row).goal
    state = game.state
    if goal["type"] == "win":
        result = game.result
        if result is None:
            return Verdict(False, False, None, "the battle goes on")
        limit = goal.get("by_round")
        if result.get("winner") != 0:
            return Verdict(False, True, None, "draw" if result.get("winner") is None else "lost")
        if limit is not None and state.round > limit:
            return Verdict(False, True, None, f"won in round {state.round}, after round {limit}")
        return Verdict(True, True, state.round, f"won ({result.get('reason')}) in round {state.round}")
    land, limit = LANDS.index(goal["land"]), goal["by_round"]
    states = (step.game for step in replay_steps(row["setup"], actions)) if actions is not None else (game,)
    for g in states:
        s = g.state
        if s.round > limit:
            break
        if s.owners[land] == 0:
            return Verdict(True, True, s.round, f"took {goal['land']} in round {s.round}")
        if s.result is not None and s.result.get("winner") == 0:
            # the last enemy leader fell first: the battle that did it stops there (R1.6), so the
            # land may never change hands, but a won battle is more than the goal asked for
            return Verdict(True, True, s.round, f"won ({s.result.get('reason')}) in round {s.round}")
    over = game.result is not None or state.round > limit
    return Verdict(False, over, None, f"{goal['land']} not taken by round {limit}" if over else "the battle goes on")


def possessive(name):
    """ "the River Kappa's", "Goblin Scouts'" (a name is written as it stands, "The" lowered mid-sentence)."""
    if name.startswith("The "):
        name = "the " + name[4:]
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def land_words(land, opponent=None, lang="en"):
    """A land as the board names it: the bases by whose they are, the others by their label (L3)."""
    if land == "H1":
        if lang == "ja":
            return f"{opponent}の本陣" if opponent else "相手の本陣"
        return f"{possessive(opponent)} base" if opponent else "the enemy base"
    if land == "H0":
        return "自分の本陣" if lang == "ja" else "your base"
    return f"土地{land}" if lang == "ja" else land


def goal_text(goal, lang="en", opponent=None):
    """The goal in player words: land names as the board shows them, never an id like H1."""
    limit = goal.get("by_round")
    if goal["type"] == "win":
        if lang == "ja":
            return f"{limit}巡目までに勝利する" if limit else "相手の旅団長をすべて倒して勝利する（12巡の判定での勝ちも可）"
        return (f"Win by round {limit}" if limit else
                "Win: destroy every enemy leader (a win at the round-12 judgment counts too)")
    name = land_words(goal["land"], opponent, lang)
    if lang == "ja":
        return f"{limit}巡目までに{name}を取る"
    return f"Take {name} by round {limit}"


def goal_short(goal, lang="en", opponent=None):
    """The goal as the board's goal bar says it, before the progress: "Take the Goblin Scouts' base"."""
    if goal["type"] == "win":
        return "勝利する" if lang == "ja" else "Win the battle"
    name = land_words(goal["land"], opponent, lang)
    return f"{name}を取る" if lang == "ja" else f"Take {name}"


def start_text(ch, lang="en"):
    """How a chapter with a custom start begins, in words (round, whose turn, what is on the map); None
    for a chapter that begins with the leader choice like any game."""
    if ch.start is None:
        return None
    try:
        loaner = load_decks(load_pool())[collection.LOANER]
        game = Game.from_scenario(fill_start(ch.start, [loaner.card_ids(), ch.deck.card_ids()], 0))
    except (KeyError, ValueError, TypeError):
        return None
    s = game.state
    units = game.view(0)["units"]
    mine = sum(1 for u in units if u["owner"] == 0)
    theirs = sum(1 for u in units if u["owner"] == 1)
    name = ch.opponent["name"][lang]
    if lang != "ja":
        name = possessive(name)
    if lang == "ja":
        return (f"この章は決まった局面から始まります：{s.round}巡目のあなたの手番。旅団長は選択済みで、"
                f"あなたのモンスター{mine}体と{name}のモンスター{theirs}体がすでに盤上にいます。")
    return (f"This chapter starts from a set position: round {s.round}, your turn. The leaders are chosen, and "
            f"{mine} of your monsters and {theirs} of {name} monsters are already on the map.")


# ---------------------------------------------------------------- recording the result


class Outcome(NamedTuple):
    """What ``finish`` found and did."""

    chapter: Chapter
    game_id: int
    verdict: Verdict
    cleared: bool            # the chapter is cleared (now or before)
    granted: dict | None     # {"packs": [pack ids], "cards": {id: n}} when this call granted the reward


def grant_reward(db, user_id, ch):
    """Give the chapter's reward (inside the caller's transaction); return what was given."""
    pack_ids = [store.grant_pack(db, user_id, ch.pack_source) for _ in range(ch.reward["packs"])]
    if ch.reward["cards"]:
        store.add_cards(db, user_id, ch.reward["cards"])
        deckbuild.after_grant(db, user_id)  # 30 cards for the first time: a first deck (docs/decks.md)
    return {"packs": pack_ids, "cards": dict(ch.reward["cards"])}


def finish(db, user_id, row):
    """Judge a story game of the user's and, if its goal is met, record the clear (and a better
    best result) and grant the reward — exactly once per user and chapter, however often this is
    called (``store.claim_reward`` and the grant share one transaction).

    ``row`` is the game's row or id; it is read again from the store, so a row whose state is older
    than the game is fine. Raises play.NotFound (not a story game) and play.Forbidden (not the
    user's game). Works on a game still being played too: a ``take_land`` goal met mid-game clears.
    """
    game_id = row["id"] if isinstance(row, dict) else row
    row = play.load_row(db, game_id)
    ch = chapter_of(row)
    if row["seats"][0] is None or row["seats"][0] != user_id:
        raise play.Forbidden(gettext("This story game is not yours."))
    game = Game.from_json(row["state"])
    actions = store.list_actions(db, game_id) if ch.goal["type"] == "take_land" else None
    verdict = judge(row, game, actions)
    if not verdict.met:
        cleared = bool((store.get_progress(db, user_id).get(ch.id) or {}).get("cleared"))
        return Outcome(ch, game_id, verdict, cleared, None)
    best = {"round": verdict.round, "game": game_id, "reason": verdict.reason}
    granted = None
    with store.transaction(db):
        old = (store.get_progress(db, user_id).get(ch.id) or {}).get("best")
        store.record_clear(db, user_id, ch.id, best if better(best, old) else None)
        if store.claim_reward(db, user_id, ch.id):
            granted = grant_reward(db, user_id, ch)
            set_mark(db, user_id, first_clear_mark(ch), {"game": game_id})
    return Outcome(ch, game_id, verdict, True, granted)


def first_clear_mark(ch):
    """The user mark that names the game which first cleared chapter ``ch`` (and so got its reward)."""
    return f"story_first_clear:{ch.id}"


def first_cleared_by(db, user_id, ch):
    """The id of the game that first cleared the chapter for the user and got its reward; None if
    not cleared, or cleared before this was recorded."""
    mark = get_mark(db, user_id, first_clear_mark(ch))
    return mark.get("game") if isinstance(mark, dict) else None


def on_game_over(db, row):
    """The play service's hook when a game ends: for a story game, ``finish`` it for its player.

    Never raises (the action that ended the game is already stored): a failure is logged, and the
    chapter's done page finishes the game again. Returns finish's Outcome, or None.
    """
    try:
        if row.get("mode") != "story":
            return None
        user_id = row["seats"][0] if row.get("seats") else None
        if user_id is None:
            return None
        return finish(db, user_id, row)
    except Exception:  # noqa: BLE001 - see the docstring
        log.exception("recording the story result of game %s failed", row.get("id"))
        return None


def reward_packs(db, user_id, ch):
    """The user's packs from this chapter's reward (to show them with the pack-opening view)."""
    return [p for p in store.list_packs(db, user_id) if p["source"] == ch.pack_source]


def opponent_name(row, lang="en"):
    """The chapter's opponent, who plays a story game's CPU seat ("Goblin Scouts"); None if the
    chapter is gone."""
    try:
        return chapter_of(row).opponent["name"][lang]
    except play.NotFound:
        return None


def reward_source(row):
    """The ``packs.source`` of the reward packs of a story game's chapter; None if the chapter is gone."""
    try:
        return chapter_of(row).pack_source
    except play.NotFound:
        return None


modes.register_mode("story", modes.Mode(opponent_name=opponent_name, reward_source=reward_source,
                                        game_over=on_game_over))
