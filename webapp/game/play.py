"""The play service: the one place where a game is created, loaded, checked, advanced and stored.

Socket handlers, HTTP views, the CPU task and the tests all call these functions; none of them
touches ``Game.apply`` or ``store.append_action`` itself. A stored game is its setup, its ordered
actions and a state snapshot at a version (docs/storage.md); every write names the version it was
computed from, so two writers (a human and the CPU task, or two server processes) never both win.

Errors derive from PlayError and carry the protocol's error ``code`` (docs/protocol.md).
"""

import collections
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from typing import NamedTuple

import orjson
from flask_babel import gettext, ngettext  # the request's language; English outside a request

from webapp import clock, refusals, store
from webapp.game import fairplay, gamelog
from webapp.hosting import metrics
from webapp.ai import DIFFICULTIES, PLAYERS, SEARCHING, workers
from webapp.ai.search import DEFAULT_BUDGET
from webapp.config import DEFAULTS
from webapp.decks.collection import LOANER, Collection
from webapp.engine import Game, IllegalAction, codec
from webapp.engine.game import forget_oldest
from webapp.game import hintwords, quests, replay
from webapp.game.replay import new_game

CPU_PLAYER = "baseline"
CPU_NAME = "CPU"
#: The host log's game lines (docs/deploy.md#logs): a game's end, with its reason.
GAME_LOG = logging.getLogger("brigade.game")


class PlayError(Exception):
    """Base of the play service's refusals; ``code`` is the protocol's error code."""

    code = "bad_request"

    def __init__(self, message, game=None):
        super().__init__(message)
        self.message = message
        self.game = game


class BadRequest(PlayError):
    """The request is malformed (wrong keys, types or sizes)."""

    code = "bad_request"


class NotFound(PlayError):
    """No such game (or deck)."""

    code = "not_found"


class Forbidden(PlayError):
    """Not your seat, not your game, or not your deck."""

    code = "forbidden"


class Stale(PlayError):
    """The action was computed on an older version of the game."""

    code = "stale"


class Illegal(PlayError):
    """The engine refused the action; the message says why."""

    code = "illegal"


class Played(NamedTuple):
    """What one accepted action produced: the new version, its events and the game after it; ``before``,
    the engine state just before a player's action (webapp/game/takeback.py reads both)."""

    version: int
    events: list
    game: Game
    row: dict
    seat: int
    before: object = None


# ---------------------------------------------------------------- modes


class Mode(NamedTuple):
    """What a kind of game adds to the play service. The mode's own module registers it
    (``register_mode``: webapp/game/story.py for "story"), so play imports no mode: a mode builds
    on play, never the other way round."""

    opponent_name: Callable  # (row, lang): the CPU seat's name, or None
    reward_source: Callable  # (row): the ``packs.source`` of the reward packs a game may grant, or None
    game_over: Callable      # (db, row): after a game of the mode ended (its record, its reward); never raises
    judge: Callable | None = None  # (row, game, events): after an action, (winner, reason) to end the game with, or None
    victory_pack: bool = True      # a won game of the mode pays the Victory pack (``reward_winner``)


#: {mode: Mode} of the modes that add something ("cpu" and "online" games add nothing).
MODES = {}


def register_mode(name, mode):
    """Add what games of mode ``name`` add (``Mode``); the mode's module does it when imported."""
    MODES[name] = mode


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


def snapshot_text(game):
    """``game.to_json()``, the same text exactly, in a fraction of the time: the engine's snapshot data
    (``codec.snapshot``: string keys, integers, strings, no floats) written by orjson with sorted keys,
    as the engine writes it with the standard ``json`` module (which the engine must use: it imports
    nothing else). Data orjson refuses (an integer beyond 64 bits, a lone surrogate) goes through
    ``to_json``; tests/play/test_snapshot_text.py compares the two over random games and the story."""
    st = game.state.static
    try:
        fixed = PER_GAME.get(st, "snapshot")
        if fixed is None:  # the game's fixed keys, encoded once per game
            fixed = PER_GAME.put(st, "snapshot", {key: orjson.Fragment(orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
                                                  for key, value in codec.static_snapshot(st).items()})
        data = codec.moving_snapshot(game.state)
        data.update(fixed)
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return game.to_json()


class PerGame:
    """What is made once per game from what the game fixes at its start (the engine's ``Static``, which
    every later state of the game shares): the snapshot's fixed keys, the log's instance map. Kept for
    the ``size`` games used last and dropped when a game ends here (``forget``); an entry holds its
    Static, so the Static's id is nobody else's while the entry lives. Callers only read the values."""

    def __init__(self, size=1024):
        self.size = size
        self.entries = collections.OrderedDict()  # id(Static) -> (Static, {kind: value})
        self.lock = threading.Lock()

    def get(self, st, kind):
        with self.lock:
            entry = self.entries.get(id(st))
            if entry is None or entry[0] is not st:
                return None
            self.entries.move_to_end(id(st))
            return entry[1].get(kind)

    def put(self, st, kind, value):
        with self.lock:
            entry = self.entries.get(id(st))
            if entry is None or entry[0] is not st:
                entry = self.entries[id(st)] = (st, {})
            entry[1][kind] = value
            self.entries.move_to_end(id(st))
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def forget(self, st):
        with self.lock:
            entry = self.entries.get(id(st))
            if entry is not None and entry[0] is st:
                del self.entries[id(st)]


PER_GAME = PerGame()



def create_cpu_game(db, user, deck_ids, seed=None, config=None, cpu_name=None, difficulty=None,
                    seconds=None, limit=None):
    """A new game against the CPU; return its id. The human is seat 0 and goes first (R5.1).

    ``deck_ids`` is the human's deck id, or ``[human deck id, CPU deck id]``; the CPU plays the
    loaner deck unless given one. The CPU picks its leaders after the human (R5.7). ``cpu_name`` names
    the CPU's player (``webapp.ai.PLAYERS``; the baseline by default, see ``cpu_player``);
    ``difficulty`` ("easy", "normal", "hard") picks it by level instead, ``seconds`` the Hard CPU's
    thinking time per decision (``cpu_seat``); ``config`` is the host's, for the collection policy
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


def cpu_player(name=None):
    """The CPU's player by name: the baseline unless the host's ``CPU_PLAYER`` setting names another
    one of ``webapp.ai.PLAYERS`` (the browser tests' first hour sets "random", a weak CPU)."""
    if name is None:
        return CPU_PLAYER
    if name not in PLAYERS:
        raise BadRequest(f"no CPU player is called {name!r}")
    return name


def cpu_seat(cpu_name=None, difficulty=None, seconds=None):
    """The setup's CPU seat: ``{"cpu": player name}``, and for a searching player its thinking time
    per decision, ``"seconds"`` (the host's CPU_HARD_SECONDS; the search's default if None). A
    ``cpu_name`` (the host's CPU_PLAYER, for tests) wins over ``difficulty``; neither: the baseline."""
    if cpu_name is None and difficulty is not None:
        if difficulty not in DIFFICULTIES:
            raise BadRequest(f"the difficulty is one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
        cpu_name = DIFFICULTIES[difficulty]
    seat = {"cpu": cpu_player(cpu_name)}
    if seat["cpu"] in SEARCHING:
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds <= 60):
            raise BadRequest(f"the CPU's thinking time is a number of seconds up to 60, not {seconds!r}")
        seat["seconds"] = float(seconds) if seconds is not None else DEFAULT_BUDGET
    return seat


def cpu_difficulty(row):
    """The difficulty ("easy", "normal", "hard") of a game's CPU seat, or None (another player)."""
    names = {v: k for k, v in DIFFICULTIES.items()}
    for name in cpu_seats(row).values():
        return names.get(name)
    return None


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


class GameCache:
    """The Game at the stored version of recently played games, and its snapshot text, so an action
    neither reads the snapshot its predecessor just wrote (``load_row``) nor decodes it (``game_of``).
    Keyed by database file and game id, an entry names the game's creation time and seed too and is
    served only at the version it was kept at: a row at another version, or another game under the
    same id (a file made anew), never meets an old entry, so several processes can share the file. An
    entry's Game is a Game of its own made from the state alone, without the lists of legal actions
    the caller's Game keeps (the checks of marches, summons, discards and formations do not need
    them); it is only handed out as copies (``Game.copy`` shares the state, which ``apply`` never
    changes), so nothing a caller does reaches it. A finished game is dropped."""

    def __init__(self, size=2048):
        self.size = size
        self.entries = collections.OrderedDict()  # (path, id) -> (version, created, seed, Game, snapshot text)
        self.lock = threading.Lock()

    @staticmethod
    def key(db, game_id):
        path = getattr(db, "path", None)
        if not path or path == ":memory:":
            return None
        return path, game_id

    def peek(self, db, game_id):
        """(version, created, seed, Game, snapshot text) kept for the game in ``db``'s file, or None."""
        key = self.key(db, game_id)
        if key is None:
            return None
        with self.lock:
            return self.entries.get(key)

    def get(self, db, row):
        """The kept Game if it is at ``row``'s version of ``row``'s game, else None."""
        key = self.key(db, row["id"])
        if key is None:
            return None
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            self.entries.move_to_end(key)
        version, created, seed, game, _ = entry
        return game if (version, created, seed) == (row["version"], row["created"], row["seed"]) else None

    def put(self, db, row, game, text, own=False):
        """Keep ``game`` and its snapshot ``text`` at ``row``'s version (a Game of its own made from its
        state; ``own``: ``game`` is one already, nobody else's); drop the game if the row is not active."""
        key = self.key(db, row["id"])
        if key is None:
            return
        with self.lock:
            if row["status"] != "active":
                self.entries.pop(key, None)
                return
            self.entries[key] = (row["version"], row["created"], row["seed"], game if own else Game(game.state), text)
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


GAMES = GameCache()


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


def cpu_seats(row):
    """{seat: player name} of the seats the CPU plays."""
    return {seat: s["cpu"] for seat, s in enumerate(row["setup"].get("seats", []))
            if isinstance(s, dict) and s.get("cpu")}


# ---------------------------------------------------------------- acting


def act(db, game_id, user_id, action, version):
    """Apply the user's action to the game at ``version`` and store it; return Played.

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
    mode = MODES.get(row.get("mode"))
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
                                              also=(lambda v: also(db, v, game)) if also is not None else None)
        metrics.observe_db_write(time.perf_counter() - writing)
    except store.StaleVersion as exc:
        raise Stale(f"game {game_id} moved on to version {exc.actual} while this action was checked",
                    game_id) from None
    row = dict(row, version=new_version, status="finished" if over else row["status"],
               result=game.result if over else row["result"], state=text)
    GAMES.put(db, row, game, text)
    if over:
        PER_GAME.forget(game.state.static)
    if over:
        game_over(db, row, game)
    metrics.observe_action(time.perf_counter() - begun)
    return Played(new_version, events, game, row, seat, before)


def plain_refusal(db, row, game, seat, text):
    """The engine's refusal as the player reads it: no rule numbers, and units named as the log names
    them ("your Orc") when the seat can see them (the board, its own hand and the discard piles);
    any other id becomes "that card", so a refusal never names a hidden card."""
    visible = game.seen_ids(seat)
    narrator = gamelog.Narrator(instances(game), seat_names(db, row), seat, public=public_units(game))
    return gamelog.plain(text, lambda uid: narrator.owned(uid) if uid in visible else None)


def game_over(db, row, game):
    """What a finished game pays: the winner's pack, and what its mode adds (``MODES``: a story
    chapter's record and reward)."""
    result = row.get("result") or {}
    GAME_LOG.info("game %s (%s) over at version %s: winner %s, %s", row["id"], row.get("mode"), row.get("version"),
                  result.get("winner"), result.get("reason"))
    reward_winner(db, row, game)
    mode = MODES.get(row.get("mode"))
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
    mode = MODES.get(row.get("mode"))
    if user_id is None or (mode is not None and not mode.victory_pack):
        return None
    source = f"win:game:{row['id']}"
    with store.transaction(db):  # the pair's count and the grant together: two games ending at once
        if store.has_pack_from(db, user_id, source) or not fairplay.pays_a_pack(db, row, game):
            return None
        return store.grant_pack(db, user_id, source)


def cpu_to_move(row, game):
    """The CPU seat the game waits for, or None."""
    if row["status"] != "active":
        return None
    waiting = game.waiting_for()
    for seat in sorted(cpu_seats(row)):
        if seat in waiting:
            return seat
    return None


def cpu_step(db, game_id):
    """Play one CPU decision if the game waits for the CPU; return Played, or None if it does not."""
    for _ in range(5):  # another writer may win the version race: look again
        row, game = load(db, game_id)
        seat = cpu_to_move(row, game)
        if seat is None:
            return None
        spec = row["setup"]["seats"][seat]
        action = thought(game, seat, spec["cpu"], cpu_seed(row), spec.get("seconds"), owner=pool_owner(row)).action
        try:
            return apply(db, row, seat, action, row["version"])
        except Stale:
            continue
    return None


def hint(db, game_id, user_id, seconds=None):
    """The hint button: what the Hard CPU would do in the user's place, as ``webapp.ai.workers.suggest``
    gives it (``action``, ``win``) with the ``version`` it is for and its words in the request's
    language (webapp/game/hintwords.py: ``sentence``, ``why``, a list of reasons, ``runner_up``),
    thought in a worker process from the user's seat's view only. For CPU and story games (Forbidden
    in online games between people, or without a seat), while the game waits for the user (Illegal
    otherwise); ``seconds`` the thinking time (the game's Hard budget, or the search's default)."""
    row, game = load(db, game_id)
    seat = player_seat(row, user_id)
    if row["mode"] not in SOLO_MODES:
        raise Forbidden(gettext("Hints are for games against the CPU, not between people."), game_id)
    if row["status"] != "active":
        raise Illegal(gettext("This game is over."), game_id)
    if seat not in game.waiting_for():
        raise Illegal(gettext("It is not your move: the CPU is thinking."), game_id)
    if seconds is None:
        seconds = next((s.get("seconds") for s in row["setup"].get("seats", [])
                        if isinstance(s, dict) and s.get("seconds")), None)
    begun = time.perf_counter()
    try:
        got = workers.suggest(game, seat, seconds, seed=cpu_seed(row), owner=("user", user_id))
        return dict(action=got["action"], win=got["win"], version=row["version"], **hintwords.words(game, seat, got))
    finally:
        metrics.observe_cpu_move(time.perf_counter() - begun)


def thought(game, seat, name, seed, seconds, owner=None):
    """``workers.think``, its time counted in /metrics' ``brigade_cpu_move_seconds``."""
    begun = time.perf_counter()
    try:
        return workers.think(game, seat, name, seed, seconds, owner=owner)
    finally:
        metrics.observe_cpu_move(time.perf_counter() - begun)


def pool_owner(row):
    """Whose turn a CPU move takes in the worker pool's line (webapp/ai/fairqueue.py): the game's
    person, so one user's many games share one place; a game without one is its own."""
    uid = next((u for u in row.get("seats", []) if u is not None), None)
    return ("user", uid) if uid is not None else ("game", row["id"])


def cpu_seed(row):
    """The CPU's random choices depend on the game and its version only (a rebuild replays them)."""
    return random.Random(f"{row['seed']}:{row['version']}").getrandbits(64)


def cpu_turns(db, game_id, on_action=None, delay=None, limit=10_000):
    """Play the CPU seat while the game waits for it; ``on_action(played)`` after each; return them all."""
    out = []
    while len(out) < limit:
        played = cpu_step(db, game_id)
        if played is None:
            break
        out.append(played)
        if on_action is not None:
            on_action(played)
        if delay:
            delay()
    return out


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


# ---------------------------------------------------------------- what a seat sees


def instances(game):
    """{instance id: (card id, owner)} for naming units in the log (only ids in public events are looked up).
    Made once per game (its instances never change) and kept in ``PER_GAME``; callers only read it."""
    st = game.state.static
    made = PER_GAME.get(st, "instances")
    if made is None:
        made = PER_GAME.put(st, "instances", {name: (card.id, owner) for name, card, owner
                                              in zip(st.names, st.cards, st.owner, strict=True)})
    return made


def seat_names(db, row, lang="en"):
    """The display name of each seat: the user's name, or "CPU" (a story's opponent, in ``lang``)."""
    names = []
    for seat, s in enumerate(row["setup"].get("seats", [])):
        uid = row["seats"][seat]
        if uid is not None:
            try:
                names.append(store.get_user(db, uid)["name"])
            except store.UserNotFound:
                names.append(f"Player {seat + 1}")
        elif isinstance(s, dict) and s.get("cpu"):
            names.append(opponent_name(row, lang) or CPU_NAME)
        else:
            names.append(f"Player {seat + 1}")
    return names


def public_units(game):
    """The instance ids of the units on the board, in the order ``Game.view`` lists them (by land,
    then arrival): public to every seat, and what the log's ordinals count."""
    st = game.state
    return [st.static.names[u] for u in sorted(st.land, key=st.land.__getitem__)]


def log_sight(game, events):
    """The ids the log of ``events`` (``game`` after them) counts for its ordinals: the units on the
    board (``public_units``) with those the events name (``gamelog.mentioned``), as a frozenset. The same
    for every reader, so made once per state and events (kept in ``SIGHT`` with the state, which never
    changes, and the events, compared by value); callers only read it."""
    s = game.state
    events = tuple(events)
    kept = SIGHT.get(id(s))
    if kept is not None and kept[0] is s and kept[1] == events:
        return kept[2]
    seen = frozenset(public_units(game)) | gamelog.mentioned(events)
    SIGHT[id(s)] = (s, events, seen)
    if len(SIGHT) > SIGHT_KEPT:
        forget_oldest(SIGHT)
    return seen


#: ``log_sight`` of the states written last, by the state's id: {id: (state, events, ids)}. An entry holds
#: its state (so the id is nobody else's while it lives); beyond SIGHT_KEPT entries the oldest goes.
SIGHT = {}
SIGHT_KEPT = 16


def opponent_name(row, lang="en"):
    """The name its mode gives a game's CPU (a story game's is the chapter's opponent, "Goblin
    Scouts"); None for other games."""
    mode = MODES.get(row.get("mode"))
    return mode.opponent_name(row, lang) if mode is not None else None


def seat_lang(row, seat, marks=None):
    """The language of the game log for a seat: its player's (``user_lang``); English for a CPU's seat
    or none. ``marks`` as in ``user_lang``."""
    user_id = (row.get("seats") or [None, None])[seat] if seat in (0, 1) else None
    return user_lang(user_id, marks)


def user_lang(user_id, marks=None):
    """The language a user reads the game in: the language they last read a page in (webapp/i18n.py
    ``user_lang``), else the account's ``locale`` mark, else English (also for no user). ``marks``, a
    dict the caller keeps (the socket server, one per game in progress), remembers the mark's answer
    per user, so a game's actions read it once, not twice each (a page read since, in this process,
    still wins at once: ``last_read`` is looked at first)."""
    from webapp.i18n import LANGS, MARK
    from webapp.i18n import user_lang as last_read
    if user_id is None:
        return "en"
    if (read := last_read(user_id)) in LANGS:
        return read
    if marks is not None and user_id in marks:
        return marks[user_id]
    try:
        from webapp.store import get_db
        from webapp.store.marks import get_mark
        mark = get_mark(get_db(), user_id, MARK)
    except RuntimeError:  # no app context (a background task): English
        return "en"
    lang = mark if mark in LANGS else "en"
    if marks is not None:
        marks[user_id] = lang
    return lang


def state_for(row, game, seat, events=(), names=None, parts=None, lang=None):
    """The protocol's ``state`` payload for one seat (0, 1) or a spectator (None): built only from
    ``Game.view(seat)``, that seat's legal actions and the public events (R18.6). ``parts``, if
    given, is (view, legal actions, waiting_for) already made from the same game for the same seat
    (the socket server keeps them encoded, webapp/sockets/statecache.py ``StateCache``). The log is in
    ``lang`` (default: the seat's player's language, ``seat_lang``), and so is a story opponent's name
    (the CPU's seat: "Goblin Scouts", "ゴブリンの斥候隊")."""
    names = list(names or [f"Player {n + 1}" for n in (0, 1)])
    view, legal, waiting = parts if parts is not None else (
        game.view(seat), game.legal_actions(seat) if seat is not None else [], sorted(game.waiting_for()))
    cpu = cpu_seats(row)
    events = list(events)
    lang = lang or seat_lang(row, seat)
    if cpu and row.get("mode") == "story":
        for p in cpu:
            names[p] = opponent_name(row, lang) or names[p]
    return {
        "game": row["id"], "version": row["version"], "seat": seat, "mode": row["mode"],
        "status": row["status"],
        "players": [{"name": names[p], "cpu": p in cpu} for p in (0, 1)],
        "view": view,
        "legal_actions": legal,
        "waiting_for": waiting,
        "events": events,
        "log": gamelog.describe(events, instances(game), names, seat, lang=lang,
                                seen=log_sight(game, events)) if events else [],
    }


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
    import datetime

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
    mode = MODES.get(row.get("mode"))
    story_source = mode.reward_source(row) if mode is not None else None
    out = []
    for p in store.list_packs(db, user_id):
        if p["source"] in sources or (story_source and p["source"] == story_source
                                      and p["created"] >= row["created"]):
            out.append(p)
    return out
