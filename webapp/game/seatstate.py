"""What a seat sees: the protocol's ``state`` payload for a seat or a spectator (``state_for``), built
only from ``Game.view`` (R18.6), with the log's instance map (``instances``) and the ids its ordinals
count (``public_units``, ``log_sight``)."""

from webapp.game import gamelog
from webapp.game.bounded import Bounded
from webapp.game.cpuseats import cpu_seats
from webapp.game.gamecache import PER_GAME
from webapp.game.seatnames import opponent_name, seat_lang


def instances(game):
    """{instance id: (card id, owner)} for naming units in the log (only ids in public events are looked up).
    Made once per game (its instances never change) and kept in ``PER_GAME``; callers only read it."""
    st = game.state.static
    made = PER_GAME.get(st, "instances")
    if made is None:
        made = PER_GAME.put(st, "instances", {name: (card.id, owner) for name, card, owner
                                              in zip(st.names, st.cards, st.owner, strict=True)})
    return made


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
    names = s.static.names  # the units on the board (``public_units`` without its order: a set)
    seen = frozenset([names[u] for u in s.land]) | gamelog.mentioned(events)
    SIGHT.put(id(s), (s, events, seen))
    return seen


#: ``log_sight`` of the states written last, by the state's id: {id: (state, events, ids)}. An entry holds
#: its state (so the id is nobody else's while it lives); beyond 16 entries the one used longest ago goes.
SIGHT = Bounded(16)


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
