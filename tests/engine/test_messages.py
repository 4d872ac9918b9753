"""IllegalAction messages are for players: plain words, card names, never a rule number or an
instance id; the rule that refused is kept in `exc.rule` (for tests and logs)."""

import re

import pytest

from webapp.engine import IllegalAction

from .helpers import card, do, scenario, unit

HIDDEN = re.compile(r"\bR\d+\.\d+|\b[pP]\d+c\d+\b")


def refusal(g, player, action):
    before = g.to_json()
    with pytest.raises(IllegalAction) as caught:
        g.apply(player, action)
    assert g.to_json() == before
    exc = caught.value
    assert not HIDDEN.search(str(exc)), str(exc)
    return exc


def test_illegal_action_is_constructible_from_a_message():
    exc = IllegalAction("nope")
    assert str(exc) == "nope" and exc.rule is None and isinstance(exc, ValueError)
    assert IllegalAction("nope", "R6.7").rule == "R6.7"


def test_discard_refusal_in_plain_words():
    """R6.7: the old message echoed ids and the rule ("discard ['p0c1']: ... (R6.7)")."""
    g = scenario({"hand": ["orc"], "units": [unit("orc", "H0", "a0", leader=True)]},
                 {"hand": [{"card": "orc", "id": "p1c1"}], "units": [unit("orc", "H1", "b0", leader=True)]})
    exc = refusal(g, 0, {"type": "discard", "cards": ["a0"]})  # a unit the player sees, not in hand
    assert exc.rule == "R6.7"
    assert "discard only cards from your own hand" in str(exc)
    # The opponent's hidden hand card is answered as an id that does not exist (R18.6, docs/security.md "Hidden information and the seed").
    hidden = refusal(g, 0, {"type": "discard", "cards": ["p1c1"]})
    assert (str(hidden), hidden.rule) == (str(refusal(g, 0, {"type": "discard", "cards": ["p9c99"]})), None)


def test_march_refusals_name_the_card_and_the_reason():
    cards = {"slowpoke": card(name={"en": "Slow Poke", "ja": "のろま"}),
             "heavy": card(level=5, name={"en": "Heavy Ogre", "ja": "重鬼"})}
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("slowpoke", "L1", "a1", exhausted=True),
                            unit("heavy", "L3", "a2"), unit("slowpoke", "L3", "a5"), unit("slowpoke", "L4", "a3"),
                            unit("orc", "L2", "a4")]},
                 cards=cards)
    exc = refusal(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert exc.rule == "R8.1" and str(exc) == "Slow Poke cannot march again this turn."
    exc = refusal(g, 0, {"type": "march", "units": ["a4"], "to": "L6"})
    assert exc.rule == "R8.1" and "Orc cannot reach L6" in str(exc)
    exc = refusal(g, 0, {"type": "march", "units": ["a3"], "to": "L3"})
    assert exc.rule == "R8.4" and "no room on L3" in str(exc)
    exc = refusal(g, 1, {"type": "march", "units": ["b0"], "to": "L6"})
    assert exc.rule == "R6.1" and "not your move" in str(exc)


def test_summon_refusals_name_the_card():
    g = scenario({"hand": ["fireball", {"card": "heavy", "id": "h"}],
                  "units": [unit("orc", "H0", "a0", leader=True)]},
                 cards={"heavy": card(level=5, name={"en": "Heavy Ogre", "ja": "重鬼"})})
    spell = [h["id"] for h in g.view(0)["players"][0]["hand"] if h["card"] == "fireball"][0]
    exc = refusal(g, 0, {"type": "summon", "card": spell})
    assert exc.rule == "R7.5" and str(exc).startswith("Fireball is a spell")
    exc = refusal(g, 0, {"type": "summon", "card": "h"})
    assert exc.rule == "R7.2" and "no room for Heavy Ogre" in str(exc)
    exc = refusal(g, 0, {"type": "summon", "card": "b0"})
    assert exc.rule == "R7.1"


def test_unknown_ids_and_malformed_actions_are_not_echoed():
    g = scenario()
    for action in ({"type": "summon", "card": "p7c99"}, {"type": "march", "units": ["p0c12"], "to": "L1"},
                   {"type": "march", "units": "p0c1", "to": "L1"}, {"type": "fly"}, None,
                   {"type": "end_turn", "extra": "p0c3"}, {"type": "ability", "unit": "a0", "choice": "x"}):
        refusal(g, 0, action)


def test_refusals_in_battle_and_over_capacity_keep_their_rule():
    cards = {"lv2": card(level=2), "wall": card(power=0, life=20), "q2": card(level=2, quick=True, power=0, life=5)}
    g = scenario({"units": [unit("lv2", "L4", "a0", leader=True), unit("lv2", "L4", "x")],
                  "hand": [{"card": "q2", "id": "q"}]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("wall", "L3", "w")]},
                 cards=cards, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["x"], "to": "L3"})
    exc = refusal(g, 0, {"type": "quick_summon", "cards": ["x"]})
    assert exc.rule == "R9.2"
    do(g, 0, {"type": "quick_summon", "cards": ["q"]})
    exc = refusal(g, 0, {"type": "formation", "order": ["q"]})
    assert exc.rule == "R9.4"
    do(g, 0, {"type": "formation", "order": ["q", "x"]})
    assert g.view(0)["phase"] == "over_capacity"
    exc = refusal(g, 0, {"type": "destroy_over_capacity", "units": ["a0"]})
    assert exc.rule == "R8.8" and "never leaders" in str(exc)
    exc = refusal(g, 0, {"type": "end_turn"})
    assert str(exc) == "Ending the turn is not possible now."
