"""Games that start at a given position, for tests only: a CPU, story or online game from a scenario.

A browser test opens the board exactly where it needs to be instead of playing until the state it
wants happens. The position is the engine's scenario format (docs/engine.md, "Scenario format";
``Game.from_scenario``); the game is stored as a story chapter with a custom start is: the scenario
in the setup (``setup["scenario"]``), from which ``replay.new_game`` builds the game's start and
every rebuild and replay. A player without a ``deck`` in the scenario gets the rest of their 30
cards as draw pile (``replay.scenario_with_decks``): the Prince's Brigade (the loaner deck), or a
story chapter's opponent deck for its CPU.

Seeded: the game's ``seed`` is the scenario's unless the scenario has one of its own (the lands it
leaves out, the dice it does not force, a filled draw pile's order), and the CPU's choices follow
from it (``cpuseats.cpu_seed``: the game's seed and version), so the same call plays the same game.

Only ``webapp/web/testing.py`` calls this, and that blueprint exists only when the app's
``TESTING`` is on (docs/architecture.md; tests/web/test_testing_start.py).
"""

import random

from webapp import store
from webapp.config import DEFAULTS
from webapp.decks.collection import LOANER
from webapp.game import cpuseats, gamecache, invitations, onlineclock, play, story, storychapters
from webapp.game.replay import new_game, scenario_cards, scenario_with_decks

MODES = ("cpu", "story", "online")


def filled(scenario, decks, seed):
    """The scenario with the game's seed (unless it has its own) and its missing draw piles filled."""
    if not isinstance(scenario, dict):
        raise play.BadRequest("the scenario is a JSON object (docs/engine.md, \"Scenario format\")")
    scenario = dict(scenario, seed=scenario.get("seed", seed))
    try:
        return scenario_with_decks(scenario, decks, random.Random(f"position:{seed}"))
    except (TypeError, AttributeError) as exc:  # a card named by something that is no card id
        raise play.BadRequest(f"not a legal position: {exc}") from None


def first_game(setup):
    """``replay.new_game(setup)``, the game every rebuild and replay starts from; BadRequest naming
    the problem when the scenario is not a legal position to play."""
    try:
        game = new_game(setup)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise play.BadRequest(f"not a legal position: {exc}") from None
    if game.result is not None:
        raise play.BadRequest("not a position to play: the game is already over")
    return game


def dealt(db, mode, user, seed, cpu_name=None, difficulty=None, seconds=None, chapter_id=None, config=None):
    """Without a position: the game the pages start, with the deal's ``seed`` fixed. A story game is
    ``story.start_chapter`` (the chapter's own start, or the leader choice with both decks; the
    chapter must be open to the player); a CPU game is ``play.create_cpu_game`` with the deck the
    player would be offered first (the Prince's Brigade while they may borrow it)."""
    if mode == "story":
        if difficulty is not None:
            raise play.BadRequest("a story game without a position plays at its chapter's level: no 'difficulty'")
        return story.start_chapter(db, user, chapter_id, seed=seed, config=config, cpu_name=cpu_name, seconds=seconds)
    deck = story.story_deck(db, play.user_id_of(user), None, config)
    return play.create_cpu_game(db, user, deck["id"], seed=seed, config=config, cpu_name=cpu_name,
                                difficulty=difficulty, seconds=seconds)


def start(db, mode, users, scenario, seed=0, cpu_name=None, difficulty=None, seconds=None, chapter_id=None,
          clock_ms=None, config=None, rated=False):
    """Store a new game of ``mode`` ("cpu", "story", "online") at the position ``scenario``; return its id.

    ``scenario`` None (CPU and story games): the game a page would start, dealt from ``seed``
    (``dealt``); ``config`` is the host's, for the collection policy there.

    ``users`` are the human seats' user dicts or ids: one (seat 0) against the CPU, two for an online
    game (both seats human). The CPU seat (seat 1) is ``cpuseats.cpu_seat(cpu_name, difficulty, seconds)``;
    a story game plays chapter ``chapter_id`` (its goal, tips and reward; its difficulty unless
    ``cpu_name`` or ``difficulty`` is given). An online game gets clocks of ``clock_ms`` each (default
    R18.3's 15 minutes), rated for the ladder when ``rated`` (both players' wish).
    Bad input raises play.BadRequest (or play.NotFound for an unknown chapter)
    before anything is written; the game and its clocks are written in one transaction."""
    if mode not in MODES:
        raise play.BadRequest(f"the mode is one of {', '.join(MODES)}, not {mode!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise play.BadRequest(f"the seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
    humans = [play.user_id_of(u) for u in users]
    if len(humans) != (2 if mode == "online" else 1) or len(set(humans)) != len(humans):
        raise play.BadRequest("an online game takes two different players, a CPU or story game one")
    if scenario is None and mode != "online":
        return dealt(db, mode, humans[0], seed, cpu_name, difficulty, seconds, chapter_id, config)
    if not isinstance(scenario, dict):
        raise play.BadRequest("the scenario is a JSON object (docs/engine.md, \"Scenario format\")")
    loaner = play.deck_list(store.get_loaner(db, LOANER)["cards"])
    setup = {"mode": mode, "seed": seed, "first": scenario.get("first", 0), "position": True,
             "leader_mode": scenario.get("leader_mode", "sequential")}
    if mode == "online":
        if clock_ms is None:
            clock_ms = DEFAULTS["ONLINE_CLOCK_MINUTES"] * 60_000
        if isinstance(clock_ms, bool) or not isinstance(clock_ms, int) or clock_ms <= 0:
            raise play.BadRequest(f"the clock is a positive number of milliseconds, not {clock_ms!r}")
        decks = [loaner, loaner]
        setup.update(seats=[{"user_id": humans[0]}, {"user_id": humans[1]}], clock_ms=clock_ms,
                     rated=[bool(rated), bool(rated)])
    elif mode == "story":
        ch = storychapters.chapter(chapter_id)
        decks = [loaner, play.deck_list(ch.deck.counts)]
        setup.update(story=ch.id, seats=[{"user_id": humans[0]},
                                         cpuseats.cpu_seat(cpu_name, difficulty or ch.difficulty, seconds)])
    else:
        decks = [loaner, loaner]
        setup.update(seats=[{"user_id": humans[0]}, cpuseats.cpu_seat(cpu_name, difficulty, seconds)])
    scenario = filled(scenario, decks, seed)
    setup.update(scenario=scenario, deck_ids=[None, None])
    game = first_game(setup)
    setup["decks"] = [scenario_cards(scenario, p) for p in (0, 1)]
    with store.transaction(db):
        game_id = store.create_game(db, mode, seed, setup, state=gamecache.snapshot_text(game))
        if mode == "online":
            invitations.insert_online(db, game_id, onlineclock.clock_new(clock_ms, game.waiting_for()))
    return game_id
