"""Flood control of socket events (docs/protocol.md "Flood control"): the events-a-second limits of a
socket, of its user's sockets together and of its address's; a socket whose refusals go on is closed."""

import threading

from webapp.hosting.ratelimit import Window

#: Refused events (over the rate limit) within FLOOD_WINDOW seconds that end the connection.
FLOOD_WINDOW, FLOOD_REFUSALS = 5.0, 60

#: The flood limits derived from RATE_LIMIT when their key is None (webapp/config.py, docs/protocol.md
#: "Flood control"): a test that lifts RATE_LIMIT lifts them all.
DERIVED = {"RATE_LIMIT_USER": 2.0, "RATE_LIMIT_ADDRESS": 5.0, "STATES_PER_SECOND": 0.5}


def limit(config, key):
    """A flood-limit setting (webapp/config.py), derived from RATE_LIMIT when None (DERIVED)."""
    value = config.get(key)
    if value is None:
        value = max(1, int(config["RATE_LIMIT"] * DERIVED[key]))
    return value


class Floods:
    """The rate limiters of one app's sockets, at their current settings. ``cluster`` (with several
    processes, webapp/hosting/cluster.py) counts the user's and the address's events over them all."""

    def __init__(self, config, cluster=None):
        self.config, self.cluster = config, cluster
        self.lock = threading.Lock()
        self.windows = {}  # (name, limit, seconds) -> Window: the flood limits at their current settings

    def limit(self, key):
        return limit(self.config, key)

    def window(self, name, limit, seconds=1.0):
        key = (name, limit, seconds)
        w = self.windows.get(key)
        if w is None:
            w = self.windows.setdefault(key, Window(limit, seconds))
        return w

    def admit(self, member, sid):
        """"ok" within the events-a-second limits of the socket ``sid`` (RATE_LIMIT), of its user's sockets
        together (RATE_LIMIT_USER) and of its address's (RATE_LIMIT_ADDRESS); else "limited" with the
        limit that refused it; "flood" when this socket's refusals go on."""
        checks = [(self.window("socket", self.limit("RATE_LIMIT")), sid, "on this connection"),
                  (self.window("user", self.limit("RATE_LIMIT_USER")), member.user_id, "over all your connections"),
                  (self.window("address", self.limit("RATE_LIMIT_ADDRESS")), member.address, "from your address")]
        if self.cluster is not None:
            return self.admit_shared(member, sid, checks)
        with self.lock:  # the three counts move together: no event is counted by one and refused by another
            for window, key, where in checks:
                if window.wait(key):
                    refused = self.window("refused", FLOOD_REFUSALS, FLOOD_WINDOW)
                    return ("limited", f"more than {window.limit} events a second {where}") \
                        if refused.take(sid) else ("flood", where)
            for window, key, _ in checks:
                window.hit(key)
        return "ok", None

    def admit_shared(self, member, sid, checks):
        """``admit`` with several processes: the socket's own limit here (a socket lives in one
        process, and its events are handled one after another), the user's and the address's over
        every process's events in Redis (webapp/hosting/cluster.py)."""
        socket_window, _, where = checks[0]
        refused_by = 0 if socket_window.wait(sid) else None
        if refused_by is None:
            refused_by = {0: None, 1: 1, 2: 2}[self.cluster.admit(member.user_id, member.address, checks[1][0].limit,
                                                                   checks[2][0].limit)]
        if refused_by is None:
            socket_window.hit(sid)
            return "ok", None
        window, _, where = checks[refused_by]
        if self.window("refused", FLOOD_REFUSALS, FLOOD_WINDOW).take(sid):
            return "limited", f"more than {window.limit} events a second {where}"
        return "flood", where
