"""The log's faster lookups (issue 16: ``mentioned``, ``Narrator.twins`` by (card, owner) on demand,
``Narrator.land`` without a regular expression) say exactly what the plain ones said: the same sentences
in English and Japanese, for both seats and a spectator, over every action of random games (random legal
actions, and the baseline CPU's, whose games hold more battles and twins), and for hand-made cases
(a unit the instances do not know, a land name the regular expression matched before a newline)."""

import re

import pytest
from hypothesis import strategies as st

from tests.lanes import check, lanes
from webapp.ai import PLAYERS
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game
from webapp.game import gamelog, seatstate
from webapp.game.gamelog import en

POOL = load_pool()
READERS = (0, 1, None)
NAMES = (["Alice", "CPU"], ["The River Kappa", "Bob"])


# ---------------------------------------------------------------- the plain lookups (before issue 16)


def plain_mentioned(value):
    out = set()
    _plain_mention(value, out)
    return out


def _plain_mention(value, out):
    if isinstance(value, str):
        if value[:1] == "p" and en.INSTANCE.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "ids":
                _plain_mention(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _plain_mention(v, out)


class Plain:
    """The plain ``twins`` and ``land`` over a narrator class's other words (``mentioned`` is checked alone)."""

    def twins(self, uid, card):
        groups = {}
        for u in self.seen:
            groups.setdefault((self.card_of(u), self.owner(u)), set()).add(u)
        members = groups.get((card, self.owner(uid)), set())
        if uid not in members and self.card_of(uid) == card:
            members = members | {uid}
        return sorted(members, key=en.instance_number)

    def land(self, land):
        if isinstance(self, gamelog.NarratorJa):
            return super().land(land)
        m = re.match(r"^H([01])$", str(land))
        return f"{self.whose(int(m.group(1)))} base" if m else str(land)


class PlainEn(Plain, gamelog.Narrator):
    pass


class PlainJa(Plain, gamelog.NarratorJa):
    pass


PLAIN = {"en": PlainEn, "ja": PlainJa}


def same_log(events, instances, public):
    assert gamelog.mentioned(list(events)) == plain_mentioned(list(events))
    for lang in ("en", "ja"):
        for names in NAMES:
            for reader in READERS:
                made = gamelog.describe(events, instances, names, reader, POOL, public, lang=lang)
                plain = PLAIN[lang](instances, names, reader, POOL, public).describe(events)
                assert made == plain, (lang, reader, events)


# ---------------------------------------------------------------- the properties


def random_game_logs(seed):
    game, rng = random_game(seed, POOL)
    steps = 0
    while game.result is None and steps < 300:
        events = game.apply(*random_action(game, rng))
        same_log(events, seatstate.instances(game), seatstate.public_units(game))
        steps += 1


def baseline_game_logs(seed):
    game, _ = random_game(seed, POOL)
    players = [PLAYERS["baseline"](seed=seed + p, pool=POOL) for p in (0, 1)]
    while game.result is None:
        player = sorted(game.waiting_for())[0]
        events = game.apply(player, players[player].choose(game, player))
        same_log(events, seatstate.instances(game), seatstate.public_units(game))


@lanes(fast=4, full=30)
def test_the_log_of_random_games_is_the_plain_one(examples):
    check(random_game_logs, examples, seed=st.integers(0, 10_000))


@lanes(fast=2, full=12)
def test_the_log_of_baseline_games_is_the_plain_one(examples):
    check(baseline_game_logs, examples, seed=st.integers(0, 10_000))


def test_odd_cases_read_as_before():
    instances = {"p0c3": ("orc", 0), "p0c4": ("orc", 0), "p1c7": ("orc", 1), "p1c2": ["salamander", 1]}
    events = [
        {"type": "summoned", "unit": "p1c9", "card": "salamander", "owner": 1, "land": "H0\n"},  # unknown to instances
        {"type": "marched", "player": 0, "units": ["p0c3", "p0c4"], "from": ["H0", "L2"], "to": "H1", "battle": True},
        {"type": "destroyed", "unit": "p1c2", "card": "salamander", "reason": "sacrifice", "leader": True},
        {"type": "discarded", "player": 1, "cards": ["orc"], "ids": ["p1c7"]},
        {"type": "battle_ended", "attacker": 1, "land": "L3", "success": False,
         "returned": [{"unit": "p1c7", "land": "H1"}, {"unit": "p0c5", "land": "L2"}]},
        {"type": "triggered", "unit": "p0c4", "card": "orc", "timing": "on_destroy", "nested": [("p1c7", 3.5, None)]},
    ]
    for public in ((), ["p0c3"], ["p0c4", "p1c7", "p0c3"]):
        same_log(events, instances, public)
    assert gamelog.mentioned(events[5]) == {"p0c4", "p1c7"} and gamelog.mentioned(events[3]) == set()
    twin = [{"type": "summoned", "unit": "p0c9", "card": "orc", "owner": 0, "land": "L1"}]  # a twin it cannot count
    for narrator in (gamelog.Narrator, PlainEn, gamelog.NarratorJa, PlainJa):
        with pytest.raises(ValueError):
            narrator(instances, NAMES[0], 0, POOL, ["p0c3", "p0c4"]).describe(twin)


def test_state_for_writes_each_readers_log_as_before():
    """``seatstate.state_for`` makes the ids on view once for every reader of an action (``log_sight``): each
    reader's log is the one ``describe`` writes from the board's units, in both languages."""
    row = {"id": 1, "version": 0, "mode": "online", "status": "active", "seats": [1, 2],
           "setup": {"seats": [{"user": 1}, {"user": 2}]}}
    game, rng = random_game(11, POOL)
    logs = 0
    while game.result is None and logs < 400:
        events = game.apply(*random_action(game, rng))
        row["version"] = game.version
        parts = (game.view(0), [], sorted(game.waiting_for()))
        for lang in ("en", "ja"):
            for reader in READERS:
                log = seatstate.state_for(row, game, reader, events, NAMES[0], parts=parts, lang=lang)["log"]
                assert log == gamelog.describe(events, seatstate.instances(game), NAMES[0], reader,
                                               public=seatstate.public_units(game), lang=lang)
                logs += 1
        assert seatstate.log_sight(game, list(events)) is seatstate.log_sight(game, events)
    other = [{"type": "destroyed", "unit": "p1c99", "card": "orc", "reason": "attack"}]  # other events, same state
    assert seatstate.log_sight(game, other) == frozenset(seatstate.public_units(game)) | {"p1c99"}
