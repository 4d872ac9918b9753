"""The shape of a client event's payload: ``check_payload`` with one check per kind of field, the
size limits, and the event names a client may not send (``RESERVED``, ``REFUSED``)."""

import json
import re

import orjson

from webapp.game import play
from webapp.social.chat import CHANNELS

#: The largest payload a handler reads, as compact JSON (real ones are a few hundred bytes).
MAX_PAYLOAD = 4096
#: Limits on the action dict inside an ``action`` payload.
MAX_KEYS, MAX_STRING, MAX_LIST = 8, 64, 40
MAX_INT = 2**53  # what a browser's numbers hold exactly

#: Event names Socket.IO keeps for itself (python-socketio's ``connect``/``disconnect``, the
#: JavaScript client's ``connect_error``, ``disconnecting``, ``newListener``, ``removeListener``) and
#: ``*``, python-socketio's catch-all. A client that sends one as an event is refused by the packet
#: reader (``webapp.sockets.JsonPacket``): it never reaches the server's connect or disconnect handler
#: (docs/protocol.md, docs/security.md).
RESERVED = frozenset({"connect", "disconnect", "connect_error", "disconnecting", "newListener",
                      "removeListener", "*"})
#: The event a refused packet is turned into; only ``register``'s handler of this name reads it, and
#: it answers ``bad_request`` with the reason (a client sending this name is refused too).
REFUSED = "\x00refused"


def check_payload(name, payload, keys, extra):
    """The payload's fields as keyword arguments, or BadRequest saying what is wrong."""
    if extra:
        raise play.BadRequest(f"{name}: send one payload object, got {1 + len(extra)} arguments")
    if not isinstance(payload, dict):
        raise play.BadRequest(f"{name}: the payload is an object like {example(keys)}, got {type(payload).__name__}")
    size = payload_size(payload)
    if size is None:
        raise play.BadRequest(f"{name}: the payload is not plain JSON") from None
    if size > MAX_PAYLOAD:
        raise play.BadRequest(f"{name}: the payload is {size} bytes; at most {MAX_PAYLOAD}")
    names = {key.rstrip("?") for key in keys}
    missing = sorted(key for key in keys if not key.endswith("?") and key not in payload)
    unknown = sorted(str(k)[:20] for k in set(payload) - names)
    if missing or unknown:
        raise play.BadRequest(f"{name}: expected {example(keys)}"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    for key, kind in keys.items():
        if key.rstrip("?") in payload:
            CHECKS[kind](name, key.rstrip("?"), payload[key.rstrip("?")])
    return dict(payload)


#: Where orjson's text of a payload may differ in length from the standard module's compact, ASCII-escaped
#: text: a number with a fraction or exponent (a float: "1e16" against "1e+16"), DEL (escaped by the
#: standard module), and any byte beyond ASCII (escaped as \uXXXX by it).
NOT_LIKE_JSON = re.compile(rb"[0-9][.eE]|[\x7f-\xff]")


def payload_size(payload):
    """The length of the payload as compact JSON (``json.dumps(payload, separators=(",", ":"))``), or
    None if it is not plain JSON. orjson's text has that length when it holds no float and only ASCII
    below DEL (what every real payload is); otherwise the standard module measures it. (A NaN would
    read as orjson's null, but the packet reader refuses NaN before any handler: ``JsonPacket``.)"""
    try:
        text = orjson.dumps(payload)
        if not NOT_LIKE_JSON.search(text):
            return len(text)
    except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard module decides
        pass
    try:
        return len(json.dumps(payload, separators=(",", ":")))
    except (TypeError, ValueError):
        return None


def example(keys):
    """The payload's shape for a message: ``{"game": …}``, an optional key as ``"updates"?: …``."""
    return "{" + ", ".join(f'"{k[:-1]}"?: …' if k.endswith("?") else f'"{k}": …' for k in keys) + "}"


def check_id(name, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_INT:
        raise play.BadRequest(f"{name}: {key!r} is a game id (a positive integer), got {short(value)}")


def check_version(name, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_INT:
        raise play.BadRequest(f"{name}: {key!r} is the version of your last state (an integer), got {short(value)}")


def check_flag(name, key, value):
    if not isinstance(value, bool):
        raise play.BadRequest(f"{name}: {key!r} is true or false, got {short(value)}")


def check_emote(name, key, value):
    if not isinstance(value, str) or not 0 < len(value) <= MAX_STRING:
        raise play.BadRequest(f"{name}: {key!r} is an emote id (a short string), got {short(value)}")


def check_message(name, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_INT:
        raise play.BadRequest(f"{name}: {key!r} is a message's id (a positive integer), got {short(value)}")


def check_text(name, key, value):
    """A chat message's text: a string (the chat service checks its length in the reader's words)."""
    if not isinstance(value, str):
        raise play.BadRequest(f"{name}: {key!r} is the message's text (a string), got {short(value)}")


def check_channel(name, key, value):
    if value not in CHANNELS:
        raise play.BadRequest(f"{name}: {key!r} is one of {', '.join(CHANNELS)}, got {short(value)}")


def check_action(name, key, action):
    """An action dict: a ``type`` and a few ids, ints or lists of ids (the engine checks the rest)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise play.BadRequest(f"{name}: 'action' is an object with a 'type', got {short(action)}")
    if len(action) > MAX_KEYS:
        raise play.BadRequest(f"{name}: an action has at most {MAX_KEYS} keys")
    for k, v in action.items():
        if len(k) > MAX_STRING:
            raise play.BadRequest(f"{name}: action key {short(k)} is too long")
        if isinstance(v, str):
            ok = len(v) <= MAX_STRING
        elif isinstance(v, bool):
            ok = False
        elif isinstance(v, int):
            ok = abs(v) < MAX_INT
        elif isinstance(v, list):
            ok = len(v) <= MAX_LIST and all(isinstance(x, str) and len(x) <= MAX_STRING for x in v)
        else:
            ok = False
        if not ok:
            raise play.BadRequest(f"{name}: action field {k!r} must be an id, a number or a list of ids, "
                                  f"got {short(v)}")


def short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


CHECKS = {"id": check_id, "version": check_version, "action": check_action, "emote": check_emote, "flag": check_flag,
          "text": check_text, "message": check_message, "channel": check_channel}
