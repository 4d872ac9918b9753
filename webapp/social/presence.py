"""Who is online, and in which game: the friends list's presence.

The sockets layer tells this module of every socket's life (``connect``, ``enter_game`` when the
socket's user sits down at a seat, ``leave_game``, ``disconnect``); the friends list and the match
queue ask ``status``. A user's state is the best of their sockets': "playing" (a socket at a seat of
a game in progress; the newest such game is named), else "online" (any socket), else "offline".

Where it is kept depends on how the server runs (docs/deploy.md):

* **one process** (the default): in this process's memory (``Local``). A crash of the process loses
  it together with every socket, so nobody stays "online" after one; a restart starts empty.
* **several processes** (``MESSAGE_QUEUE``): in the cluster's Redis (``Shared``), one sorted set per
  user whose members are that user's sockets (with the game they sit in) scored by when they
  expire. The cluster's heartbeat (webapp/hosting/cluster.py, every ``BEAT`` s) pushes back the expiry
  of this process's sockets; a process that dies without closing them stops counting ``TTL`` s after
  its last beat, so a crash leaves nobody "online" for longer than that. Time is the app's
  (webapp/clock.py): tests advance it.

The sockets layer chooses the backend for its app with ``attach(app)`` (one per app: each test's app
starts with nobody online).
"""

import threading

from redis.exceptions import RedisError

from webapp import clock
from webapp.hosting.cluster import TTL

OFFLINE, ONLINE, PLAYING = "offline", "online", "playing"


def best(entries):
    """(state, game id) of a user from their sockets' games ([game id or None]); newest game wins."""
    games = [g for g in entries if g is not None]
    if games:
        return PLAYING, max(games)
    return (ONLINE, None) if entries else (OFFLINE, None)


class Local:
    """Presence in this process's memory: {socket id: (user id, game id or None)}."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sockets = {}
        self.by_user = {}  # user id -> {socket id}

    def set(self, user_id, sid, game_id):
        with self.lock:
            self.sockets[sid] = (user_id, game_id)
            self.by_user.setdefault(user_id, set()).add(sid)

    def drop(self, user_id, sid):
        with self.lock:
            entry = self.sockets.pop(sid, None)
            user_id = entry[0] if entry else user_id
            sids = self.by_user.get(user_id)
            if sids is not None:
                sids.discard(sid)
                if not sids:
                    del self.by_user[user_id]

    def status(self, user_ids):
        with self.lock:
            return {u: best([self.sockets[s][1] for s in self.by_user.get(u, ())]) for u in user_ids}


class Shared:
    """Presence in the cluster's Redis: ``presence:<user>`` sorted sets of ``<sid>|<game>`` scored by
    expiry (ms of the app's clock); the heartbeat renews this process's members (``beat``)."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.lock = threading.Lock()
        self.mine = {}  # sid -> (user id, member): this process's sockets
        cluster.beats.append(self.beat)

    def key(self, user_id):
        return self.cluster.key("presence", user_id)

    def set(self, user_id, sid, game_id):
        member = f"{sid}|{'' if game_id is None else game_id}"
        expiry = clock.now_ms() + int(TTL * 1000)
        with self.lock:
            old = self.mine.get(sid)
            self.mine[sid] = (user_id, member)
        try:
            pipe = self.cluster.redis.pipeline(transaction=False)
            if old is not None and old[1] != member:
                pipe.zrem(self.key(old[0]), old[1])
            pipe.zadd(self.key(user_id), {member: expiry})
            pipe.pexpire(self.key(user_id), int(TTL * 1000) * 4)
            pipe.execute()
        except RedisError as exc:
            self.cluster.trouble("presence", exc)

    def drop(self, user_id, sid):
        with self.lock:
            old = self.mine.pop(sid, None)
        if old is None:
            return
        try:
            self.cluster.redis.zrem(self.key(old[0]), old[1])
        except RedisError as exc:
            self.cluster.trouble("presence", exc)

    def beat(self, pipe, expiry):
        """Part of the cluster's heartbeat: push back the expiry of this process's sockets."""
        with self.lock:
            mine = list(self.mine.values())
        for user_id, member in mine:
            pipe.zadd(self.key(user_id), {member: expiry})
            pipe.pexpire(self.key(user_id), int(TTL * 1000) * 4)

    def status(self, user_ids):
        user_ids = list(user_ids)
        now = clock.now_ms()
        try:
            pipe = self.cluster.redis.pipeline(transaction=False)
            for u in user_ids:
                pipe.zrangebyscore(self.key(u), now, "+inf")
            answers = pipe.execute()
        except RedisError as exc:
            self.cluster.trouble("presence", exc)
            return {u: (OFFLINE, None) for u in user_ids}
        out = {}
        for u, members in zip(user_ids, answers, strict=True):
            games = []
            for m in members:
                game = m.decode().rpartition("|")[2]
                games.append(int(game) if game else None)
            out[u] = best(games)
        return out


_backend = Local()


def attach(app):
    """Keep the presence of ``app``'s sockets: in Redis with several processes, else in memory."""
    global _backend
    cluster = app.extensions.get("brigade_cluster")
    _backend = Shared(cluster) if cluster is not None else Local()
    return _backend


def connect(user_id, sid):
    """A socket of the user connected."""
    _backend.set(user_id, sid, None)


def disconnect(user_id, sid):
    """A socket of the user disconnected."""
    _backend.drop(user_id, sid)


def enter_game(user_id, sid, game_id):
    """The user's socket sat down at a seat of game ``game_id`` (a spectator's socket does not count)."""
    _backend.set(user_id, sid, game_id)


def leave_game(user_id, sid):
    """The user's socket left the game it sat in (it stays connected)."""
    _backend.set(user_id, sid, None)


def status(user_ids):
    """{user id: (state, game id)}: state "offline", "online" or "playing" (game id set only then)."""
    return _backend.status(list(dict.fromkeys(user_ids)))
