"""Games: setup + ordered actions + a state snapshot, written under optimistic concurrency.

``version`` counts the writes to a game. Every write names the version it was computed from
and fails with StaleVersion if another writer got there first, so several server processes can
serve one game. An action row's ``seq`` is the version its write produced; replaying the
actions in ``seq`` order from the setup rebuilds the game (and is its replay).
"""

import json

import orjson

from .db import now, transaction
from .errors import GameNotFound, StaleVersion

STATUSES = ("waiting", "active", "finished", "aborted")
COLUMNS = ("id, mode, seed, setup, seat0_user_id, seat1_user_id, status, result, version, state, "
           "created, updated")
SUMMARY = COLUMNS.replace(" state,", "")
NAMES = tuple(name.strip() for name in COLUMNS.split(","))
SUMMARY_NAMES = tuple(name for name in NAMES if name != "state")
#: ``load_game`` with a snapshot the caller holds (?2, ?3, ?4: its version, created, seed): the row's
#: small columns, then the snapshot only when the row is not at that version of that game (NULL
#: otherwise, never read from the file), and whether it is.
UNLESS_HELD = (f"SELECT {SUMMARY}, CASE WHEN version = ?2 AND created = ?3 AND seed = ?4 THEN NULL ELSE state END, "
               "version = ?2 AND created = ?3 AND seed = ?4 FROM games WHERE id = ?1")


def decoded(text):
    """A JSON column's text decoded: orjson, the same values as ``json.loads`` in a third of the time;
    what orjson refuses (NaN, an integer beyond 64 bits) through ``json.loads``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def game_row(row):
    """A games row as a dict: ``setup`` and ``result`` decoded, ``seats`` the two seat user ids."""
    return dict(row, setup=decoded(row["setup"]), result=decoded(row["result"]) if row["result"] else None,
                seats=[row["seat0_user_id"], row["seat1_user_id"]])


def seat_users(setup):
    """The user id (or None: CPU or open seat) of each seat in ``setup["seats"]``."""
    seats = setup.get("seats") if isinstance(setup, dict) else None
    if not isinstance(seats, list) or len(seats) != 2 or not all(s is None or isinstance(s, dict) for s in seats):
        raise ValueError(f"setup['seats'] must be a list of two seats (a dict or None), got {seats!r}")
    return [s.get("user_id") if s else None for s in seats]


def as_text(state):
    """A state snapshot as JSON text (the engine's ``to_json()`` is passed through untouched)."""
    return state if state is None or isinstance(state, str) else json.dumps(state)


def create_game(db, mode, seed, setup, state=None, status="active"):
    """Store a new game at version 0 and return its id; ``setup`` holds decks, seats and settings."""
    if not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"a game seed is an integer in 0..2**63-1 (SQLite's range), got {seed!r}")
    if status not in STATUSES:
        raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    seat0, seat1 = seat_users(setup)
    stamp = now()
    return db["games"].insert({
        "mode": mode, "seed": seed, "setup": json.dumps(setup, sort_keys=True),
        "seat0_user_id": seat0, "seat1_user_id": seat1, "status": status, "result": None,
        "version": 0, "state": as_text(state), "created": stamp, "updated": stamp}).last_pk


def load_game(db, game_id, unless_held=None):
    """The game with this id; raise GameNotFound if there is none.

    ``unless_held``, (version, created, seed) of a snapshot the caller holds already (webapp/game/play.py
    keeps the Game of recently played games): when the row is at that version of that game (same
    creation time and seed), its ``state`` is not read and the dict has no "state" key; otherwise it
    is the whole row, as without. One statement either way, so the answer is one moment's row."""
    if unless_held is None:
        row = db.conn.execute(f"SELECT {COLUMNS} FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise GameNotFound(f"no game has id {game_id!r}")
        return game_row(dict(zip(NAMES, row, strict=True)))
    version, created, seed = unless_held
    row = db.conn.execute(UNLESS_HELD, (game_id, version, created, seed)).fetchone()
    if row is None:
        raise GameNotFound(f"no game has id {game_id!r}")
    fields = dict(zip(SUMMARY_NAMES, row, strict=False))
    if not row[-1]:
        fields["state"] = row[-2]
    return game_row(fields)


#: The UPDATE of ``bump`` for each set of columns it writes besides version and updated.
BUMPS = {}


def bump_sql(columns, created=False):
    sql = BUMPS.get((columns, created))
    if sql is None:
        sets = ", ".join(["version = version + 1", "updated = ?", *(f"{c} = ?" for c in columns)])
        sql = BUMPS[columns, created] = (f"UPDATE games SET {sets} WHERE id = ? AND version = ?"
                                         + (" AND created = ?" if created else ""))
    return sql


def bump(db, game_id, expected_version, state=None, status=None, result=None, stamp=None, created=None):
    """Move the game from ``expected_version`` to the next one, or raise StaleVersion/GameNotFound.
    ``stamp`` is the ``updated`` time (``now()`` if None); ``created``, if given, the game's creation
    time the row must have too (a game the caller knew from memory, not from a read: the same id in a
    file made anew is another game, refused as StaleVersion)."""
    if status is not None and status not in STATUSES:
        raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    columns, params = (), [now() if stamp is None else stamp]
    for column, value in (("state", as_text(state)), ("status", status),
                          ("result", None if result is None else json.dumps(result, sort_keys=True))):
        if value is not None:
            columns += (column,)
            params.append(value)
    params += (game_id, expected_version) if created is None else (game_id, expected_version, created)
    cursor = db.conn.execute(bump_sql(columns, created is not None), params)
    if cursor.rowcount != 1:
        row = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise GameNotFound(f"no game has id {game_id!r}")
        raise StaleVersion(game_id, expected_version, row[0])
    return expected_version + 1


def action_text(action):
    """An action as stored: JSON with sorted keys, by orjson (compact; the standard ``json`` module's
    text, with spaces, for what orjson refuses: keys that are not strings, integers beyond 64 bits)."""
    try:
        return orjson.dumps(action, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return json.dumps(action, sort_keys=True)


def append_action(db, game_id, expected_version, player, action, state, status=None, result=None, also=None,
                  created=None):
    """Record ``action`` by ``player`` and the state after it in one transaction; return the new version.
    ``also(version)``, if given, runs last inside the same transaction (what must be stored with the
    action, e.g. an online game's clocks): one transaction, no savepoint inside another. ``created`` as
    in ``bump``."""
    text, stamp = action_text(action), now()  # the game's ``updated`` and the action's ``at`` are one time
    with transaction(db):
        version = bump(db, game_id, expected_version, state, status, result, stamp, created)
        # Plain SQL: sqlite-utils' insert looks the table up on every call, a third of this write.
        db.conn.execute("INSERT INTO game_actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                        (game_id, version, player, text, stamp))
        if also is not None:
            also(version)
    return version


def end_game(db, game_id, expected_version, status, result, state=None, also=None):
    """Set a game's status and result without an action (abort, timeout); return the new version.
    ``also(version)`` as in ``append_action``."""
    with transaction(db):
        version = bump(db, game_id, expected_version, state, status, result)
        if also is not None:
            also(version)
        return version


def take_back_action(db, game_id, expected_version, seq, player, state):
    """Drop the game's last action (``seq``, by ``player``) and store ``state``, the game without it, in
    one transaction that moves the game from ``expected_version`` to the next version (a version
    never goes back: a state of the new version is never one a reader held before). StaleVersion if
    another writer moved the game on, or if ``seq`` is not the game's last action by ``player``: then
    nothing changes."""
    with transaction(db):
        version = bump(db, game_id, expected_version, state)
        cursor = db.conn.execute(
            "DELETE FROM game_actions WHERE game_id = ? AND seq = ? AND player = ? "
            "AND seq = (SELECT MAX(seq) FROM game_actions WHERE game_id = ?)", (game_id, seq, player, game_id))
        if cursor.rowcount != 1:
            raise StaleVersion(game_id, expected_version, version)  # rolled back with the bump
    return version


def last_action(db, game_id):
    """The game's last stored action (``seq``, ``player``, ``action`` decoded), or None."""
    row = db.conn.execute("SELECT seq, player, action FROM game_actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                          (game_id,)).fetchone()
    return None if row is None else {"seq": row[0], "player": row[1], "action": decoded(row[2])}


def list_actions(db, game_id, after=0):
    """The game's actions with ``seq`` above ``after``, in order, each action decoded."""
    rows = db.query("SELECT seq, player, action, at FROM game_actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                    [game_id, after])
    return [dict(r, action=decoded(r["action"])) for r in rows]


def list_games(db, user_id, status=None):
    """The games where the user holds a seat, most recently changed first (without state)."""
    sql = (f"SELECT {SUMMARY} FROM games WHERE (seat0_user_id = :u OR seat1_user_id = :u)"
           + (" AND status = :s" if status else "") + " ORDER BY updated DESC, id DESC")
    return [game_row(r) for r in db.query(sql, {"u": user_id, "s": status})]


def deck_ids_played(db, user_id):
    """The deck ids (None where a setup names none) the user sat down with in every game that started,
    at either seat, in no particular order."""
    used = []
    for seat in (0, 1):
        used += [deck_id for (deck_id,) in db.execute(
            f"SELECT json_extract(setup, '$.deck_ids[{seat}]') FROM games WHERE seat{seat}_user_id = ? AND status != 'waiting'",
            [user_id])]
    return used


def has_online_game(db, user_id):
    """Whether the user has had an online game of any status (an invitation counts)."""
    return db.execute("SELECT 1 FROM games WHERE mode = 'online' AND (seat0_user_id = ? OR seat1_user_id = ?) LIMIT 1",
                      [user_id, user_id]).fetchone() is not None


def count_active_games(db, user_id, modes):
    """How many games of the given modes the user has in progress at seat 0 (where a solo game's player sits)."""
    return db.execute("SELECT count(*) FROM games WHERE status = 'active' AND seat0_user_id = ? AND mode IN "
                      f"({', '.join('?' for _ in modes)})", [user_id, *modes]).fetchone()[0]


def stale_games(db, modes, before, user_id=None):
    """[(id, seat0 user id, seat1 user id)] of the games of ``modes`` in progress whose last write is
    older than ``before`` (the store's ISO 8601 text), the user's only (either seat) when given."""
    where = f"status = 'active' AND mode IN ({', '.join('?' for _ in modes)}) AND updated < ?"
    params = [*modes, before]
    if user_id is not None:
        where += " AND (seat0_user_id = ? OR seat1_user_id = ?)"
        params += [user_id, user_id]
    return [tuple(r) for r in db.execute(f"SELECT id, seat0_user_id, seat1_user_id FROM games WHERE {where}", params).fetchall()]
