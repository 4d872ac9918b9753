"""Several server processes on one host (docs/deploy.md "Several processes"): what they share in Redis.

Off by default: one process needs no other service. With ``MESSAGE_QUEUE = "redis://…"`` (config.py,
or the environment variable of that name) every process gives it to Flask-SocketIO as its
``message_queue`` (the library's documented way: an emit to a room reaches the room's sockets on
every process), and ``Cluster`` (one per app, ``app.extensions["brigade_cluster"]``) keeps in the
same Redis what one process used to keep in its memory:

* **leases** (redis-py's ``Lock``, ``SET NX PX`` with a token): one clock ticker for all processes
  (``ticker``), one CPU task per game (``cpu:<game>``). A lease has a time to live and is renewed
  while its holder works, so a process that dies frees it by itself;
* **sockets** per user and per address (sorted sets of socket ids, scored by when they expire): the
  connection caps count every process's sockets;
* **seats**: which sockets sit at each seat of an online game, and since when a seat has had none
  (presence, claims and the automatic claim judge every process's sockets, R18.4);
* **event windows** per user and per address (sorted sets of hit times): the events-a-second limits
  count every process's events. The per-socket limit stays ``webapp.hosting.ratelimit.Window`` in the
  socket's own process.

A socket's entries live until ``TTL`` seconds after the last heartbeat of its process (every
``BEAT`` seconds), so a process killed without closing its sockets stops counting within ``TTL``.
Game data never goes to Redis: SQLite stays the one store, its versions guard every write.
"""

import contextlib
import logging
import os
import threading
import uuid

import redis
from redis.exceptions import LockError, RedisError

from webapp import clock

log = logging.getLogger(__name__)

#: Seconds a socket's entries outlive its process's last heartbeat; seconds between heartbeats.
TTL, BEAT = 30.0, 10.0
#: Keys of a game's seats expire this long after their last write (a finished game's are forgotten).
GAME_KEYS_TTL_MS = 24 * 3600 * 1000

#: Caps: KEYS user set, address set; ARGV now, expiry, sid, per-user cap, per-address cap.
#: Adds the socket to both when both are under their cap; returns {added, user's count, address's count}.
OPEN_SOCKET = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local mine, here = redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2])
if mine < tonumber(ARGV[4]) and here < tonumber(ARGV[5]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  redis.call('PEXPIREAT', KEYS[2], ARGV[2])
  return {1, mine, here}
end
return {0, mine, here}
"""

#: Sliding windows: KEYS the windows; ARGV now, window ms, a unique member, then one limit per key.
#: Counts the hit in every window when all are under their limit (0), else returns the 1-based index
#: of the first full one and counts nothing: no event is counted by one window and refused by another.
ADMIT = """
local now, width = tonumber(ARGV[1]), tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - width)
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, width)
end
return 0
"""

#: A seat's socket arrives: KEYS seat set, away key; ARGV now, expiry, sid, keys' ttl. Returns 1 if
#: the seat had no live socket before (it is back).
SEAT_JOIN = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local before = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[2])
if before == 0 then return 1 end
return 0
"""

#: A seat's socket leaves: KEYS seat set, away key; ARGV now, sid, keys' ttl. Returns 1 if it was the
#: seat's last live socket (the seat is away from now).
SEAT_LEAVE = """
local now = tonumber(ARGV[1])
local removed = redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if removed == 1 and redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('SET', KEYS[2], now, 'PX', ARGV[3])
  return 1
end
return 0
"""

#: A seat as presence judges it: KEYS seat set, away key; ARGV now, keys' ttl. Returns
#: {live sockets, away since (ms)}; a seat with none and no away time is away from now on.
SEAT_STATE = """
local now = tonumber(ARGV[1])
local live = redis.call('ZCOUNT', KEYS[1], now, '+inf')
if live > 0 then return {live, -1} end
redis.call('SET', KEYS[2], now, 'NX', 'PX', ARGV[2])
return {0, tonumber(redis.call('GET', KEYS[2]))}
"""


def url_of(config):
    """The message queue's URL from the app's config, else the environment; None for one process."""
    return config.get("MESSAGE_QUEUE") or os.environ.get("MESSAGE_QUEUE") or None


now_ms = clock.now_ms


class Cluster:
    """This process's view of what the processes share (module docstring)."""

    def __init__(self, url, prefix="brigade"):
        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5, health_check_interval=30)
        self.prefix = prefix
        self.process = uuid.uuid4().hex[:12]  # names this process in the log and its lease tokens
        self.scripts = {name: self.redis.register_script(text) for name, text in
                        (("open", OPEN_SOCKET), ("admit", ADMIT), ("join", SEAT_JOIN), ("leave", SEAT_LEAVE),
                         ("seat", SEAT_STATE))}
        self.lock = threading.Lock()
        self.sockets = {}  # sid -> (user id, address): this process's sockets, refreshed by ``beat``
        self.seats = {}    # (game, seat, sid) -> True: this process's sockets at game seats
        self.complained = 0.0
        #: More of this process's keys to renew at each heartbeat: callables (pipeline, expiry ms), e.g.
        #: the friends' presence (webapp/social/presence.py).
        self.beats = []

    def key(self, *parts):
        return ":".join([self.prefix, *(str(p) for p in parts)])

    def trouble(self, what, exc):
        """A Redis call failed: log it at most once every 30 s (the game goes on where it can)."""
        now = clock.monotonic()
        if now - self.complained > 30:
            self.complained = now
            log.warning("Redis failed (%s): %s", what, exc)

    # ------------------------------------------------------------ leases

    def lease(self, name, seconds):
        """A lease (redis-py Lock) named ``name`` living ``seconds`` unless renewed; not yet taken."""
        return self.redis.lock(self.key("lease", name), timeout=seconds, blocking=False, thread_local=False)

    def take(self, lease):
        """Take the lease if it is free (or already ours): True when held."""
        try:
            if lease.local.token is not None and lease.owned():
                lease.reacquire()
                return True
            lease.local.token = None
            return bool(lease.acquire(blocking=False))
        except (LockError, RedisError) as exc:
            self.trouble("lease", exc)
            return False

    def renew(self, lease):
        """Give a held lease its full time again; False if it was lost (it lapsed and another took it)."""
        try:
            lease.reacquire()
            return True
        except (LockError, RedisError) as exc:
            self.trouble("lease renewal", exc)
            return False

    def give_back(self, lease):
        with contextlib.suppress(LockError, RedisError):  # it lapsed: another's lease is untouched (its token differs)
            lease.release()

    # ------------------------------------------------------------ sockets and caps

    def open_socket(self, sid, user_id, address, per_user, per_address):
        """Count the socket against its user's and address's caps over every process:
        (admitted, the user's sockets before, the address's sockets before)."""
        now = now_ms()
        try:
            added, mine, here = self.scripts["open"](
                keys=[self.key("user", user_id), self.key("addr", address)],
                args=[now, now + int(TTL * 1000), sid, per_user, per_address])
        except RedisError as exc:
            self.trouble("socket caps", exc)
            added, mine, here = 1, 0, 0  # Redis down: the process's own caps are all that hold
        if added:
            with self.lock:
                self.sockets[sid] = (user_id, address)
        return bool(added), mine, here

    def close_socket(self, sid):
        with self.lock:
            entry = self.sockets.pop(sid, None)
            seats = [k for k in self.seats if k[2] == sid]
        if entry is None:
            return
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(self.key("user", entry[0]), sid)
            pipe.zrem(self.key("addr", entry[1]), sid)
            pipe.execute()
        except RedisError as exc:
            self.trouble("socket close", exc)
        for game, seat, _ in seats:
            self.seat_leave(game, seat, sid)

    def admit(self, user_id, address, per_user, per_address, seconds=1.0):
        """One event of a socket of ``user_id`` from ``address``: 0 if within both limits over every
        process (and counted), 1 if the user's limit refused it, 2 the address's (nothing counted)."""
        now = clock.now()
        try:
            return int(self.scripts["admit"](
                keys=[self.key("rate", "user", user_id), self.key("rate", "addr", address)],
                args=[int(now * 1000), int(seconds * 1000), f"{now:.6f}:{uuid.uuid4().hex[:8]}", per_user,
                      per_address]))
        except RedisError as exc:
            self.trouble("event limits", exc)
            return 0

    # ------------------------------------------------------------ seats of online games (presence)

    def seat_keys(self, game, seat):
        return [self.key("seat", game, seat), self.key("away", game, seat)]

    def seat_join(self, game, seat, sid):
        """A socket took its seat; True if the seat had no live socket on any process before."""
        with self.lock:
            self.seats[(game, seat, sid)] = True
        now = now_ms()
        try:
            return bool(self.scripts["join"](keys=self.seat_keys(game, seat),
                                             args=[now, now + int(TTL * 1000), sid, GAME_KEYS_TTL_MS]))
        except RedisError as exc:
            self.trouble("presence", exc)
            return True

    def seat_leave(self, game, seat, sid):
        """A socket left its seat; True if it was the seat's last live socket on any process."""
        with self.lock:
            if self.seats.pop((game, seat, sid), None) is None:
                return False
        try:
            return bool(self.scripts["leave"](keys=self.seat_keys(game, seat), args=[now_ms(), sid, GAME_KEYS_TTL_MS]))
        except RedisError as exc:
            self.trouble("presence", exc)
            return True

    def seat_states(self, pairs):
        """For each (game, seat): (connected on any process, away since in ms or None)."""
        if not pairs:
            return []
        now = now_ms()
        try:
            pipe = self.redis.pipeline(transaction=False)
            for game, seat in pairs:
                self.scripts["seat"](keys=self.seat_keys(game, seat), args=[now, GAME_KEYS_TTL_MS], client=pipe)
            answers = pipe.execute()
        except RedisError as exc:
            self.trouble("presence", exc)
            return [None] * len(pairs)
        return [(live > 0, None if since < 0 else since) for live, since in answers]

    # ------------------------------------------------------------ heartbeat

    def beat(self):
        """Push back the expiry of this process's sockets and seats (every BEAT seconds)."""
        expiry = now_ms() + int(TTL * 1000)
        with self.lock:
            sockets, seats = list(self.sockets.items()), list(self.seats)
        try:
            pipe = self.redis.pipeline(transaction=False)
            for sid, (user_id, address) in sockets:
                for key in (self.key("user", user_id), self.key("addr", address)):
                    pipe.zadd(key, {sid: expiry})
                    pipe.pexpireat(key, expiry)
            for game, seat, sid in seats:
                pipe.zadd(self.key("seat", game, seat), {sid: expiry})
            for renew in self.beats:
                renew(pipe, expiry)
            pipe.execute()
        except RedisError as exc:
            self.trouble("heartbeat", exc)

    def run(self, sleep):
        """The heartbeat loop (a background task of the socket server)."""
        while True:
            sleep(BEAT)
            self.beat()
