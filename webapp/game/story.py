"""Story mode: the chapters played as games against the CPU (docs/story.md).

A chapter is data (``storychapters.py``: Eringe's narration before and after, an opponent with a
30-card deck, an optional set start position, a goal, a reward, tips for the board). This module
starts a chapter's game through the play service's store (mode ``"story"``, the human in seat 0 and
first, R5.1) and registers the story mode with the play service (``modes.register_mode``, at the end
of the file): the chapter's opponent names the CPU, and ``on_game_over(db, row)`` runs when a story
game ends, recording its result (``storyprogress.finish``; the chapter's "done" page calls ``finish``
again as a safety net, and both are idempotent). The goal's judging is ``storygoals.py``, the goal in
player words ``storywords.py``.
"""

import logging
import secrets

from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.decks import collection
from webapp.game import cpuseats, gamecache, modes, play, storychapters, storyprogress
from webapp.game.replay import new_game, scenario_cards
from webapp.game.storyprogress import finish  # by name: ``on_game_over`` calls it (a test replaces it here)

log = logging.getLogger(__name__)


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
    ch = storychapters.chapter(chapter_id)
    if ch.id not in storyprogress.unlocked(store.get_progress(db, uid)):
        raise play.Forbidden(gettext("Chapter %(n)s is locked: clear the chapter before it first.", n=ch.order))
    deck = story_deck(db, uid, deck_id, config)
    seed = secrets.randbelow(2**63) if seed is None else seed
    decks = [play.deck_list(deck["cards"]), play.deck_list(ch.deck.counts)]
    setup = {"story": ch.id, "decks": decks, "deck_ids": [deck["id"], None], "mode": "story", "seed": seed,
             "seats": [{"user_id": uid}, cpuseats.cpu_seat(cpu_name, ch.difficulty, seconds)], "first": 0,
             "leader_mode": "sequential"}
    if ch.start is not None:
        scenario = storychapters.fill_start(ch.start, decks, seed)
        setup["scenario"] = scenario
        setup["decks"] = [scenario_cards(scenario, p) for p in (0, 1)]
    game = new_game(setup)
    with store.transaction(db):
        play.check_solo_cap(db, uid, limit, replacing=replacing)
        return store.create_game(db, "story", seed, setup, state=gamecache.snapshot_text(game))


def story_games(db, user_id, chapter_id, status=None):
    """The user's games of this chapter, most recently changed first."""
    return [r for r in store.list_games(db, user_id, status)
            if r["mode"] == "story" and r["setup"].get("story") == chapter_id and r["seats"][0] == user_id]


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


def opponent_name(row, lang="en"):
    """The chapter's opponent, who plays a story game's CPU seat ("Goblin Scouts"); None if the
    chapter is gone."""
    try:
        return storychapters.chapter_of(row).opponent["name"][lang]
    except play.NotFound:
        return None


def reward_source(row):
    """The ``packs.source`` of the reward packs of a story game's chapter; None if the chapter is gone."""
    try:
        return storychapters.chapter_of(row).pack_source
    except play.NotFound:
        return None


modes.register_mode("story", modes.Mode(opponent_name=opponent_name, reward_source=reward_source,
                                        game_over=on_game_over))
