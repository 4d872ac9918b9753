"""Loaner decks (R2.3) as data, validated like the pool."""

import pytest

from webapp.cards.decks import DeckDataError, load_decks, parse_deck
from webapp.engine import Game, load_pool

POOL = load_pool()
DECKS = load_decks(POOL)
GOOD = {"id": "test-deck", "name": {"en": "T", "ja": "T"}, "description": {"en": "d", "ja": "d"},
        "loaner": True, "cards": {"orc": 28, "stone-skin": 2}}


def test_r2_3_the_princes_brigade_is_a_30_card_loaner_deck():
    """R2.3: the Prince's Brigade, mostly monsters, with spells its monsters can pay."""
    deck = DECKS["princes-brigade"]
    ids = deck.card_ids()
    assert deck.loaner and len(ids) == 30
    assert sum(POOL[c].kind == "monster" for c in ids) >= 24
    Game.new(ids, ids, seed=1, first=0)  # a legal deck for the engine (R2.1)


@pytest.mark.parametrize("change, problem", [
    ({"cards": {"orc": 29}}, "exactly 30"),
    ({"cards": {"orc": 30, "nope": 1}}, "no such card"),
    ({"cards": {"fireball": 30}}, "at least one monster"),
    ({"cards": {"orc": 28, "dispel": 2}}, "water or wild slots"),
    ({"cards": {"orc": 30.0}}, "count"),
    ({"loaner": "yes"}, "true or false"),
    ({"name": {"en": "only English"}}, "en = ..., ja"),
    ({"colour": "red"}, "unknown key"),
])
def test_bad_deck_data_names_deck_and_field(change, problem):
    data = dict(GOOD, **change)
    with pytest.raises(DeckDataError, match=problem) as err:
        parse_deck(data, POOL, "cards/decks/x.toml")
    assert "'test-deck'" in str(err.value) and "cards/decks/x.toml" in str(err.value)


def test_a_good_deck_parses():
    deck = parse_deck(GOOD, POOL)
    assert deck.card_ids().count("orc") == 28 and deck.to_dict()["cards"] == GOOD["cards"]
