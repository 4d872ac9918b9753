"""Issue 26 N1, written as the attack: a refusal never says more than the asker's view shows.

Every game holds the instance ids p0c0 … p1c29, so an attacker can send an action for each of them
and read the refusals: before the fix, `{"type": "spell", "card": id}` answered "You cannot cast Ice
Golem that way now." for a card still in a deck or in the opponent's hand, naming the opponent's whole
deck. Over seeded random games, at many states, for every id of the game and every action slot that
names a card, the refusal of an id the seat cannot see must equal the refusal of an id that does not
exist: the same English sentence, the same rule (so the same sentence in every other language), in
both seats, whoever's move it is.
"""

import json
import random
import re

import pytest

from webapp import refusals
from webapp.engine import IllegalAction
from webapp.engine.randomplay import random_action, random_game

NOWHERE = "p9c99"  # no game has it

# One probe per slot of the action vocabulary that names a card or a unit.
PROBES = (
    lambda x: {"type": "spell", "card": x},
    lambda x: {"type": "spell", "card": x, "targets": [x]},
    lambda x: {"type": "summon", "card": x},
    lambda x: {"type": "ability", "unit": x},
    lambda x: {"type": "ability", "unit": x, "sacrifice": x},
    lambda x: {"type": "march_ability", "unit": x},
    lambda x: {"type": "march_ability", "unit": x, "targets": [x, "L1"]},
    lambda x: {"type": "march", "units": [x], "to": "L1"},
    lambda x: {"type": "discard", "cards": [x]},
    lambda x: {"type": "quick_summon", "cards": [x]},
    lambda x: {"type": "formation", "order": [x]},
    lambda x: {"type": "destroy_over_capacity", "units": [x]},
    lambda x: {"type": "choose_leaders", "cards": [x]},
)


def named_in_view(game, seat):
    """Every instance id the seat's view shows anywhere (read from its JSON, not from the engine's own
    notion of what is seen)."""
    return set(re.findall(r'"(p[01]c[0-9]+)"', json.dumps(game.view(seat))))


def answer(game, seat, action):
    """(English sentence, rule, Japanese sentence) of the refusal; None if the action is legal."""
    try:
        game.copy().apply(seat, action)  # a copy: a legal probe changes nothing of the game probed
    except IllegalAction as exc:
        return str(exc), exc.rule, refusals.words("ja", exc.rule, action["type"])
    return None


def hidden_refusals_match(game):
    """Assert, for both seats and every id of the game, that an unseen id is refused as NOWHERE is;
    return how many unseen ids were probed."""
    names = game.state.static.names
    probed = 0
    for seat in (0, 1):
        seen = named_in_view(game, seat)
        for probe in PROBES:
            nowhere = answer(game, seat, probe(NOWHERE))
            assert nowhere is not None
            for name in names:
                if name in seen:
                    continue
                probed += 1
                got = answer(game, seat, probe(name))
                assert got == nowhere, (seat, probe(name), got, nowhere)
    return probed


@pytest.mark.parametrize("seed", range(6))
def test_n1_a_hidden_card_is_refused_as_a_card_that_does_not_exist(seed):
    """Random legal games from fixed seeds, probed at every 9th state until the end (the leader
    choice, main steps and battles among them)."""
    game, rng = random_game(seed)
    probe_rng = random.Random(seed)
    probed = steps = 0
    phases = set()
    while game.result is None and steps < 400:
        if steps % 9 == probe_rng.randrange(9) or steps == 0:
            probed += hidden_refusals_match(game)
            phases.add(game.state.phase)
        player, action = random_action(game, rng)
        game.apply(player, action)
        steps += 1
    assert probed > 1000  # decks and hidden hands are large: the attack really ran
    assert {"leaders", "main"} <= phases


def test_n1_the_sentence_that_named_the_card_is_gone():
    """The refusal the attack read (a spell id from the opponent's deck) named the card; now it is the
    sentence of a card that is not in this game, and never a card's name."""
    game, _rng = random_game(3)
    s = game.state
    pool_names = {c.data.get("name", {}).get("en") for c in s.static.cards}
    for seat in (0, 1):
        hidden = [s.static.names[c] for c in s.deck[1 - seat]]
        assert hidden
        for name in hidden:
            text, _rule, _ja = answer(game, seat, {"type": "spell", "card": name})
            assert text.endswith(": the card named is not in this game."), text
            assert not any(n and n in text for n in pool_names), text
