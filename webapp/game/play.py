"""The play service: the one place where a game is created, loaded, checked, advanced and stored.

Socket handlers, HTTP views, the CPU task and the tests all call these functions; none of them
touches ``Game.apply`` or ``store.append_action`` itself. A stored game is its setup, its ordered
actions and a state snapshot at a version (docs/storage.md); every write names the version it was
computed from, so two writers (a human and the CPU task, or two server processes) never both win.

Errors derive from PlayError and carry the protocol's error ``code`` (docs/protocol.md,
webapp/game/playerrors.py). What a mode adds (story, puzzles, the gauntlet, online games' clocks) comes
through its registered ``Mode`` (webapp/game/modes.py); the rest of a game lives beside this module, one
idea each: the caches between actions (gamecache.py), the CPU's seats and moves (cpuseats.py,
cpumoves.py), names and languages (seatnames.py), what a seat sees (seatstate.py).
"""

import datetime
import logging
import secrets
import time
from contextlib import nullcontext
from typing import NamedTuple

from flask_babel import gettext, ngettext  # the request's language; English outside a request

from webapp import clock, refusals, store
from webapp.config import DEFAULTS
from webapp.decks.collection import LOANER, Collection
from webapp.engine import Game, IllegalAction
from webapp.game import fairplay, gamelog, quests, replay
from webapp.game.cpuseats import cpu_seat
from webapp.game.gamecache import GAMES, PER_GAME, snapshot_text
from webapp.game.modes import mode_of
from webapp.game.playerrors import BadRequest, Forbidden, Illegal, NotFound, PlayError, Stale
from webapp.game.replay import new_game
from webapp.game.seatnames import seat_lang, seat_names
from webapp.game.seatstate import instances, public_units
from webapp.hosting import metrics


#: The host log's game lines (docs/deploy.md#logs): a game's end, with its reason.
GAME_LOG = logging.getLogger("brigade.game")


class Played(NamedTuple):
    """What one accepted action produced: the new version, its events and the game after it; ``before``,
    the engine state just before a player's action (webapp/game/takeback.py reads both)."""

    version: int
    events: list
    game: Game
    row: dict
    seat: int
    before: object = None


# ---------------------------------------------------------------- decks


def user_id_of(user):
    """A user dict's id, or the id itself."""
    return user["id"] if isinstance(user, dict) else user


def deck_list(counts):
    """{card id: count} as the list of 30 ids the engine takes (sorted: order is the engine's shuffle's job)."""
    return [cid for cid in sorted(counts) for _ in range(counts[cid])]


def deck_for(db, user_id, deck_id, config=None):
    """The user's chosen deck with its cards, checked as playable under the host's ``config`` (the
    collection policy, webapp/decks/collection.py); raise NotFound/Forbidden otherwise."""
    if isinstance(deck_id, bool) or not isinstance(deck_id, int):
        raise BadRequest(f"a deck id is an integer, got {deck_id!r}")
    try:
        deck = store.get_deck(db, user_id, deck_id)
    except store.DeckNotFound:
        raise NotFound(gettext("There is no such deck.")) from None
    except store.NotYourDeck:
        raise Forbidden(gettext("That deck is not yours.")) from None
    problem = Collection.of(db, user_id, config).deck_problem(deck)
    if problem:
        raise Forbidden(gettext("“%(name)s” cannot be played: %(problem)s", name=deck["name"], problem=problem))
    return deck


# ---------------------------------------------------------------- creating and loading


def create_cpu_game(db, user, deck_ids, seed=None, config=None, cpu_name=None, difficulty=None,
                    seconds=None, limit=None):
    """A new game against the CPU; return its id. The human is seat 0 and goes first (R5.1).

    ``deck_ids`` is the human's deck id, or ``[human deck id, CPU deck id]``; the CPU plays the
    loaner deck unless given one. The CPU picks its leaders after the human (R5.7). ``cpu_name`` names
    the CPU's player (``webapp.ai.PLAYERS``; the baseline by default, see ``cpuseats.cpu_player``);
    ``difficulty`` ("easy", "normal", "hard") picks it by level instead, ``seconds`` the Hard CPU's
    thinking time per decision (``cpuseats.cpu_seat``); ``config`` is the host's, for the collection policy
    (``deck_for``). ``limit`` (the host's MAX_ACTIVE_GAMES) is checked in the transaction that stores
    the game (``check_solo_cap``), so parallel requests cannot pass it."""
    uid = user_id_of(user)
    ids = list(deck_ids) if isinstance(deck_ids, (list, tuple)) else [deck_ids]
    if not 1 <= len(ids) <= 2:
        raise BadRequest(f"give one or two deck ids, got {deck_ids!r}")
    human = deck_for(db, uid, ids[0], config)
    if len(ids) == 2 and ids[1] is not None:
        try:
            cpu = store.get_deck(db, uid, ids[1])
        except store.DeckNotFound:
            raise NotFound(gettext("There is no such deck.")) from None
        except store.NotYourDeck:
            raise Forbidden(gettext("That deck is not yours.")) from None
    else:
        cpu = store.get_loaner(db, LOANER)
    seed = secrets.randbelow(2**63) if seed is None else seed
    decks = [deck_list(human["cards"]), deck_list(cpu["cards"])]
    setup = {"decks": decks, "deck_ids": [human["id"], cpu["id"]], "mode": "cpu", "seed": seed,
             "seats": [{"user_id": uid}, cpu_seat(cpu_name, difficulty, seconds)], "first": 0,
             "leader_mode": "sequential"}
    game = new_game(setup)
    with store.transaction(db):
        check_solo_cap(db, uid, limit)
        return store.create_game(db, "cpu", seed, setup, state=snapshot_text(game))


#: The modes a user plays alone, capped by MAX_ACTIVE_GAMES (``check_solo_cap``).
SOLO_MODES = ("cpu", "story")


def active_solo_games(db, user_id):
    """How many games against the CPU and story battles the user has in progress."""
    return store.count_active_games(db, user_id, SOLO_MODES)


def check_solo_cap(db, user_id, limit, replacing=0):
    """Forbidden when starting one more solo game would make more than ``limit`` in progress;
    ``replacing`` counts the games the new one ends (a story chapter started over)."""
    if limit is None:
        return
    now = active_solo_games(db, user_id) - replacing
    if now >= int(limit):
        raise Forbidden(ngettext("You have %(num)s battle against the CPU in progress, the most one player may "
                                 "have at once. Finish it, or resign it from its board, then start another.",
                                 "You have %(num)s battles against the CPU in progress, the most one player may "
                                 "have at once. Finish one, or resign it from its board, then start another.", now))


def load_row(db, game_id):
    """The stored game row; raise NotFound. When ``GAMES`` holds the game at the row's version (the
    same statement checks it: ``store.load_game(unless_held=…)``), the snapshot is not read from the
    file: the row's ``state`` is the text kept with that Game, the text stored with that version."""
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise BadRequest(f"a game id is an integer, got {game_id!r}")
    held = GAMES.peek(db, game_id)
    try:
        row = store.load_game(db, game_id, unless_held=held[:3] if held is not None else None)
    except store.GameNotFound:
        raise NotFound(f"no game has id {game_id}", game_id) from None
    if "state" not in row:
        row["state"] = held[4]
    return row


def game_of(db, row):
    """The stored game's Game, to change at will: a copy of the cached one, or decoded from the snapshot."""
    kept = GAMES.get(db, row)
    if kept is not None:
        return kept.copy()
    game = Game.from_json(row["state"])
    GAMES.put(db, row, game, row["state"])  # keeps a Game of its own
    return game


def load(db, game_id):
    """(row, Game) of a stored game at its stored version (``game_of``)."""
    row = load_row(db, game_id)
    return row, game_of(db, row)


def rebuild(db, game_id, upto=None):
    """The game rebuilt from its setup and its actions (up to version ``upto``): the replay's last step."""
    row = load_row(db, game_id)
    *_, last = replay.steps(row["setup"], store.list_actions(db, game_id), upto)
    return last.game


def seat_of(row, user_id):
    """The seat (0 or 1) the user holds in the game, or None."""
    if user_id is None:
        return None
    for seat, uid in enumerate(row["seats"]):
        if uid == user_id:
            return seat
    return None


def player_seat(row, user_id):
    """The seat the user holds in the game; Forbidden if none (a spectator or a stranger)."""
    seat = seat_of(row, user_id)
    if seat is None:
        raise Forbidden(gettext("You hold no seat in this game."), row["id"])
    return seat


# ---------------------------------------------------------------- acting


def act(db, game_id, user_id, action, version):
    """Apply the user's action to the game at ``version`` and store it (``apply``, without what a mode's
    ``act`` adds: a socket's action goes through ``move``); return Played.

    Refusals change nothing: Forbidden (no seat), Stale (older version, or another writer won),
    Illegal (the engine's message), NotFound.
    """
    row = load_row(db, game_id)
    return apply(db, row, player_seat(row, user_id), action, version)


def apply(db, row, seat, action, version, also=None, lock=None):
    """Check ``version`` and the action against the stored game, apply, store; return Played.

    ``also(db, new_version, game)``, if given, runs in the same write transaction as the stored
    action (online games keep their clocks that way, webapp/game/online.py). ``lock``, if given, is held
    around the write: a process's writers then queue on it instead of on SQLite's busy handler,
    which sleeps in steps of up to 100 ms (docs/deploy.md)."""
    game_id, begun = row["id"], time.perf_counter()
    if version != row["version"]:
        raise Stale(f"game {game_id} is at version {row['version']}, not {version}", game_id)
    if row["status"] != "active":
        raise Illegal(gettext("This game is over."), game_id)
    game = game_of(db, row)
    before = game.state  # never changed: ``apply`` swaps in a new state
    try:
        events = game.apply(seat, action)
    except IllegalAction as exc:
        kind = action.get("type") if isinstance(action, dict) else None
        raise Illegal(refusals.words(seat_lang(row, seat), exc.rule, kind)
                      or plain_refusal(db, row, game, seat, str(exc)), game_id) from None
    counted = events  # the engine's own, what a replay of the stored action gives (the quests count them)
    mode = mode_of(row)
    if mode is not None and mode.judge is not None and game.result is None:
        ending = mode.judge(row, game, events)  # a puzzle ends when its goal is met or missed
        if ending is not None:
            events = events + game.set_result(*ending)
    over = game.result is not None
    text = snapshot_text(game)
    try:
        writing = time.perf_counter()
        with lock or nullcontext():
            new_version = store.append_action(db, game_id, version, seat, action, text,
                                              status="finished" if over else None,
                                              result=game.result if over else None,
                                              also=(lambda v: also(db, v, game)) if also is not None else None,
                                              created=row["created"])
        metrics.observe_db_write(time.perf_counter() - writing)
    except store.StaleVersion as exc:
        raise Stale(f"game {game_id} moved on to version {exc.actual} while this action was checked",
                    game_id) from None
    quests.note(db, row, version, new_version, counted, game)
    row = dict(row, version=new_version, status="finished" if over else row["status"],
               result=game.result if over else row["result"], state=text)
    GAMES.put(db, row, game, text)
    if over:
        PER_GAME.forget(game.state.static)
    if over:
        game_over(db, row, game)
    metrics.observe_action(time.perf_counter() - begun)
    return Played(new_version, events, game, row, seat, before)


def move(db, row, seat, action, version):
    """A player's action as the game's mode takes it: the mode's own ``act`` if it has one (online
    games: their clocks, R18.3, webapp/game/online.py), else ``apply``; return Played. A socket's
    ``action`` is ``move_as`` (the row, the seat, ``move``), push: no transport asks the mode."""
    mode = mode_of(row)
    if mode is not None and mode.act is not None:
        return mode.act(db, row, seat, action, version)
    return apply(db, row, seat, action, version)


def move_as(db, game_id, user_id, action, version):
    """A socket's action: the game's row, the user's seat, ``move``; return Played. When this process
    holds the game at ``version`` (it wrote or read that version last, ``GAMES.row_at``), the row it kept
    serves and no statement reads it: the write checks that the stored game is still at that version
    (and the same game). Any refusal met on the kept row (a stale one included: another process or a
    host moved the game on) is decided again on the row read from the file, so every answer is the
    one the stored game gives, as if it had been read first."""
    row = GAMES.row_at(db, game_id, version)
    if row is not None:
        try:
            return move(db, row, player_seat(row, user_id), action, version)
        except PlayError:
            pass
    row = load_row(db, game_id)
    return move(db, row, player_seat(row, user_id), action, version)


def before_start(db, row, seat):
    """What joining a game that never started answers in place of its board: its mode's ``before_start``
    (an online invitation still waiting, or cancelled before a friend joined: its status, and for the
    inviter its code), else None (the game has a board to show). A socket's ``join`` is load,
    ``before_start``, then the seat's state: no transport asks the mode."""
    mode = mode_of(row)
    if mode is not None and mode.before_start is not None:
        return mode.before_start(db, row, seat)
    return None


def plain_refusal(db, row, game, seat, text):
    """The engine's refusal as the player reads it: no rule numbers, and units named as the log names
    them ("your Orc") when the seat can see them (the board, its own hand and the discard piles);
    any other id becomes "that card", so a refusal never names a hidden card."""
    visible = game.seen_ids(seat)
    narrator = gamelog.Narrator(instances(game), seat_names(db, row), seat, public=public_units(game))
    return gamelog.plain(text, lambda uid: narrator.owned(uid) if uid in visible else None)


def game_over(db, row, game):
    """What a finished game pays: the winner's pack, and what its mode adds (``Mode.game_over``: a story
    chapter's record and reward)."""
    result = row.get("result") or {}
    GAME_LOG.info("game %s (%s) over at version %s: winner %s, %s", row["id"], row.get("mode"), row.get("version"),
                  result.get("winner"), result.get("reason"))
    reward_winner(db, row, game)
    mode = mode_of(row)
    if mode is not None:
        mode.game_over(db, row)
    try:  # the daily quests count the game's events (webapp/game/quests.py); the game's end stands regardless
        quests.after_game(db, row)
    except Exception:  # noqa: BLE001 - logged with its traceback, never the player's error
        GAME_LOG.exception("game %s: counting the daily quests failed", row["id"])


def reward_winner(db, row, game):
    """A won game grants its winner (a player, not the CPU) one pack, once (R17.4 packs from wins),
    unless it was cut short or the pair has had its packs of the day (``fairplay.pays_a_pack``)."""
    winner = (row.get("result") or {}).get("winner")
    if winner not in (0, 1):
        return None
    user_id = row["seats"][winner]
    mode = mode_of(row)
    if user_id is None or (mode is not None and not mode.victory_pack):
        return None
    source = f"win:game:{row['id']}"
    with store.transaction(db):  # the pair's count and the grant together: two games ending at once
        if store.has_pack_from(db, user_id, source) or not fairplay.pays_a_pack(db, row, game):
            return None
        return store.grant_pack(db, user_id, source)


def end(db, game_id, winner, reason, also=None, lock=None):
    """End an active game from outside the rules (timeout, disconnect, abort); return Played.

    StaleVersion (a store error) if another writer moved the game on meanwhile; ``also`` as in ``apply``."""
    row, game = load(db, game_id)
    if row["status"] != "active":
        raise Illegal(gettext("This game is over."), game_id)
    events = game.set_result(winner, reason)
    with lock or nullcontext():
        version = store.end_game(db, game_id, row["version"], "finished", game.result, state=snapshot_text(game),
                                 also=(lambda v: also(db, v, game)) if also is not None else None)
    quests.note(db, row, row["version"], version, (), game)  # no action stored: nothing to count
    row = dict(row, version=version, status="finished", result=game.result)
    GAMES.put(db, row, game, None)  # drops it
    PER_GAME.forget(game.state.static)
    game_over(db, row, game)
    return Played(version, events, game, row, None)


def end_by_host(db, game_id, note, by=None, lock=None):
    """The host ends a game in progress (from /admin): nobody wins and nothing is rewarded; the game
    becomes "aborted" with the result ``{"winner": None, "reason": "host", "note": note, "by": by}``.
    Its state holds the result too (``Game.set_result``), so every board shows the end, with the
    host's words, live (the caller pushes the returned Played through the notifier) and after a
    reload. Illegal if the game is not in progress; StaleVersion if another writer moved it on."""
    row, game = load(db, game_id)
    if row["status"] != "active":
        raise Illegal(gettext("This game is over."), game_id)
    events = game.set_result(None, "host", note)
    result = dict(game.result, by=by) if by else dict(game.result)
    with lock or nullcontext():
        version = store.end_game(db, game_id, row["version"], "aborted", result, state=snapshot_text(game))
    row = dict(row, version=version, status="aborted", result=result)
    GAMES.put(db, row, game, None)  # drops it
    PER_GAME.forget(game.state.static)
    GAME_LOG.info("game %s (%s) ended by the host at version %s", game_id, row["mode"], version)
    return Played(version, events, game, row, None)


# ---------------------------------------------------------------- abandoned games

#: Days without an action after which a CPU or story game in progress is resigned for its player
#: (the app's ``ABANDON_AFTER_DAYS`` setting overrides it; 0 turns it off).
ABANDON_AFTER_DAYS = DEFAULTS["ABANDON_AFTER_DAYS"]


def abandon(db, game_id, user_id):
    """The player gives up a CPU or story game in progress: it ends as a resignation (R18.5) at any
    moment, whoever is to move. Forbidden for a game without the user's seat or an online game
    (those have their own resign and clocks); Illegal if it is over. Returns Played."""
    row = load_row(db, game_id)
    seat = player_seat(row, user_id)
    if row["mode"] not in SOLO_MODES:
        raise Forbidden(gettext("This is an online game: resign it on its board."), game_id)
    if row["status"] != "active":
        raise Illegal(gettext("This game is over."), game_id)
    try:
        return end(db, game_id, 1 - seat, "resign")
    except store.StaleVersion:
        raise Stale(gettext("The game moved on while it was being abandoned: try again."), game_id) from None


def abandon_stale(db, user_id=None, days=ABANDON_AFTER_DAYS, now=None):
    """Resign every CPU or story game in progress (the user's, or everyone's) whose last action is
    older than ``days``; return the ids ended. Run when the games in progress are listed, so the list
    stays true; a game another writer moves on meanwhile is left alone."""
    if not days or days <= 0:
        return []
    now = now or clock.utcnow()
    # the store's stamps are ISO 8601 UTC text ("2025-01-31T12:00:00.000Z"): they compare as text
    cutoff = (now - datetime.timedelta(days=days)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    ended = []
    for r in store.stale_games(db, ("cpu", "story"), cutoff, user_id):
        human = 0 if r[1] is not None else 1
        try:
            end(db, r[0], 1 - human, "resign")
            ended.append(r[0])
        except (PlayError, store.StaleVersion):
            continue
    return ended


# ---------------------------------------------------------------- what a game earned


def earned_packs(db, row, user_id):
    """The packs this finished game gave the user (store rows): its Victory pack (one per won game,
    ``reward_winner``), and for a story game the chapter's reward packs when this game first cleared
    the chapter (granted once per player and chapter, so a pack of the chapter made after this game
    began was made by it)."""
    sources = [f"win:game:{row['id']}"]
    mode = mode_of(row)
    story_source = mode.reward_source(row) if mode is not None else None
    out = []
    for p in store.list_packs(db, user_id):
        if p["source"] in sources or (story_source and p["source"] == story_source
                                      and p["created"] >= row["created"]):
            out.append(p)
    return out
