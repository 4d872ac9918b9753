"""The clocks of an online game (R18.3), as pure maths over the stored clock dict: per seat the
milliseconds left and the wall-clock time (ms since the epoch, ``webapp.clock.now_ms``) its current
wait began, or null while the game does not wait for that seat; ``version``, the game version they
belong to. Stored with the game (webapp/game/invitations.py ``write_clock``), so they survive a restart.
"""

import math

from flask_babel import gettext  # the request's language; English outside a request

from webapp.clock import now_ms
from webapp.config import DEFAULTS
from webapp.game.playerrors import BadRequest


def clock_new(limit_ms, waiting=(), now=None, version=0):
    """Fresh clocks of ``limit_ms`` each, running for the seats in ``waiting``."""
    now = now_ms() if now is None else now
    return {"limit_ms": limit_ms, "left": [limit_ms, limit_ms],
            "from": [now if s in waiting else None for s in (0, 1)], "version": version}


def clock_left(clock, now):
    """Milliseconds left on each seat's clock at ``now`` (negative once run out)."""
    return [clock["left"][s] - (now - clock["from"][s]) if clock["from"][s] is not None else clock["left"][s]
            for s in (0, 1)]


def clock_moved(clock, waiting, now, version):
    """The clocks after the game moved to ``version``, which waits for ``waiting``: a seat that stops
    being waited for is charged the time since its wait began; one that starts being waited for starts
    now; one still waited for runs on from when its wait began."""
    left, since = list(clock["left"]), list(clock["from"])
    for s in (0, 1):
        if since[s] is not None and s not in waiting:
            left[s] = max(0, left[s] - (now - since[s]))
            since[s] = None
        elif since[s] is None and s in waiting:
            since[s] = now
    return {"limit_ms": clock["limit_ms"], "left": left, "from": since, "version": version}


def timed_out(clock, now):
    """(winner, "timeout") if a waited-for seat's clock ran out, else None. Both out at once (the
    simultaneous leader choice, R5.7): a draw (R18.4)."""
    left = clock_left(clock, now)
    out = [s for s in (0, 1) if clock["from"][s] is not None and left[s] <= 0]
    if len(out) == 2:
        return None, "timeout"
    if out:
        return 1 - out[0], "timeout"
    return None


def public_clock(clock, now):
    """The clocks as a ``state`` shows them: ms left now, and which are running."""
    return {"limit_ms": clock["limit_ms"], "left_ms": [max(0, x) for x in clock_left(clock, now)],
            "running": [clock["from"][s] is not None for s in (0, 1)]}


def clock_ms_from_minutes(minutes, config):
    """The clock a form's minutes ask for, checked against the configured range; BadRequest otherwise."""
    low = float(config.get("ONLINE_CLOCK_MIN_MINUTES", DEFAULTS["ONLINE_CLOCK_MIN_MINUTES"]))
    high = float(config.get("ONLINE_CLOCK_MAX_MINUTES", DEFAULTS["ONLINE_CLOCK_MAX_MINUTES"]))
    try:
        value = float(minutes)
    except (TypeError, ValueError):
        raise BadRequest(gettext("The clock is a number of minutes.")) from None
    if not (math.isfinite(value) and low <= value <= high and value > 0):
        raise BadRequest(gettext("The clock is between %(low)s and %(high)s minutes.", low=f"{low:g}", high=f"{high:g}"))
    return int(round(value * 60_000))
