"""What the play service keeps in memory between actions, each in a ``Bounded`` memory
(webapp/game/bounded.py): ``GAMES``, the Game at the stored version of the games played last (so an
action neither reads nor decodes the snapshot its predecessor wrote), and ``PER_GAME``, what is made
once per game from what it fixes at its start (the snapshot's fixed keys, the log's instance map);
and ``snapshot_text``, the stored text of a game, written with those fixed keys."""

import orjson

from webapp.engine import Game, codec
from webapp.game.bounded import Bounded


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
        self.kept = Bounded(size)  # id(Static) -> (Static, {kind: value})

    @property
    def entries(self):
        return self.kept.entries

    def get(self, st, kind):
        entry = self.kept.get(id(st))
        if entry is None or entry[0] is not st:
            return None
        return entry[1].get(kind)

    def put(self, st, kind, value):
        entry = self.kept.get(id(st))
        if entry is None or entry[0] is not st:
            entry = self.kept.put(id(st), (st, {}))
        entry[1][kind] = value
        return value

    def forget(self, st):
        entry = self.kept.peek(id(st))
        if entry is not None and entry[0] is st:
            self.kept.pop(id(st))


PER_GAME = PerGame()


class GameCache:
    """The Game at the stored version of recently played games, and its snapshot text, so an action
    neither reads the snapshot its predecessor just wrote (``load_row``) nor decodes it (``game_of``).
    Keyed by database file and game id, an entry names the game's creation time and seed too and is
    served only at the version it was kept at: a row at another version, or another game under the
    same id (a file made anew), never meets an old entry, so several processes can share the file. An
    entry's Game is a Game of its own made from the state alone, without the lists of legal actions
    the caller's Game keeps (the checks of marches, summons, discards and formations do not need
    them); it is only handed out as copies (``Game.copy`` shares the state, which ``apply`` never
    changes), so nothing a caller does reaches it. A finished game is dropped. The entry keeps the row
    written with that version too (``row_at``: a player's next action needs no read of the row when
    it names that version, ``play.move_as``)."""

    def __init__(self, size=2048):
        self.kept = Bounded(size)  # (path, id) -> (version, created, seed, Game, snapshot text, row)

    @property
    def size(self):
        return self.kept.size

    @property
    def entries(self):
        return self.kept.entries

    @staticmethod
    def key(db, game_id):
        path = getattr(db, "path", None)
        if not path or path == ":memory:":
            return None
        return path, game_id

    def peek(self, db, game_id):
        """(version, created, seed, Game, snapshot text, row) kept for the game in ``db``'s file, or None."""
        key = self.key(db, game_id)
        return None if key is None else self.kept.peek(key)

    def get(self, db, row):
        """The kept Game if it is at ``row``'s version of ``row``'s game, else None."""
        key = self.key(db, row["id"])
        entry = None if key is None else self.kept.get(key)
        if entry is None:
            return None
        version, created, seed, game = entry[:4]
        return game if (version, created, seed) == (row["version"], row["created"], row["seed"]) else None

    def row_at(self, db, game_id, version):
        """A copy of the row kept with the game when it is kept at ``version``, else None. It is the row
        as this process last wrote or read it (its ``updated`` is the time of the read, as a Played's row
        always was): another process (or a write past the play service) may have moved the game on since,
        which the next write's version check finds (``play.move_as``)."""
        key = self.key(db, game_id)
        entry = None if key is None else self.kept.peek(key)
        if entry is None or entry[0] != version or entry[5] is None:
            return None
        return dict(entry[5], state=entry[4])

    def put(self, db, row, game, text, own=False):
        """Keep ``game`` and its snapshot ``text`` at ``row``'s version (a Game of its own made from its
        state; ``own``: ``game`` is one already, nobody else's); drop the game if the row is not active."""
        key = self.key(db, row["id"])
        if key is None:
            return
        if row["status"] != "active":
            self.kept.pop(key)
            return
        self.kept.put(key, (row["version"], row["created"], row["seed"], game if own else Game(game.state), text,
                            {k: v for k, v in row.items() if k != "state"}))


GAMES = GameCache()
