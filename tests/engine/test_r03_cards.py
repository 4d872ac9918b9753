"""R3: what a card is (R3.1 monsters, R3.2 spells, R3.2a the card face, R3.3 keywords)."""

import pytest

from webapp.engine import CardDataError, load_pool, parse_card

from .helpers import VANILLA, card, do, events_of, find, scenario, unit, unit_view

ELEMENTS = {"fire", "water", "earth", "wind", "light", "dark"}
RARITIES = {"C", "U", "R", "SR"}
KEYWORDS = {"haste", "double_march", "far_march", "spellproof"}

POOL = load_pool()
MONSTERS = [c for c in POOL.values() if c.kind == "monster"]
SPELLS = [c for c in POOL.values() if c.kind == "spell"]


def monster(**fields):
    data = dict(VANILLA, id="t-mon")
    data.update(fields)
    return data


def spell(**fields):
    data = {"id": "t-spell", "kind": "spell", "name": {"en": "T", "ja": "T"}, "element": "fire",
            "mana": 1, "timing": "normal", "rarity": "C",
            "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}
    data.update(fields)
    return data


# ------------------------------------------------------------------ R3.1 monsters

def test_r3_1_pool_has_monsters_and_spells():
    """R3.1 / R3.2: the pool holds monsters and spells, nothing else."""
    assert MONSTERS and SPELLS
    assert len(MONSTERS) + len(SPELLS) == len(POOL)


@pytest.mark.parametrize("c", MONSTERS, ids=lambda c: c.id)
def test_r3_1_every_pool_monster_has_all_monster_fields(c):
    """R3.1: level, element, tribe, slots, power, speed, life, abilities, keywords, rarity, Quick mark."""
    assert isinstance(c.level, int) and 1 <= c.level <= 6
    assert c.element in ELEMENTS
    assert isinstance(c.tribe, str) and c.tribe
    assert isinstance(c.slots, dict)
    assert set(c.slots) <= ELEMENTS | {"wild"}
    assert all(isinstance(n, int) and n > 0 for n in c.slots.values())
    assert isinstance(c.power, int) and c.power >= 0
    assert isinstance(c.speed, int)
    assert isinstance(c.life, int) and c.life >= 1
    assert isinstance(c.abilities, tuple)
    assert set(c.keywords) <= KEYWORDS
    assert c.rarity in RARITIES
    assert isinstance(c.quick, bool)
    assert c.mana is None


def test_r3_1_speed_may_be_negative_in_the_pool():
    """R3.1: speed may be negative (e.g. Fire Giant)."""
    assert POOL["fire-giant"].speed == -2
    assert any(c.speed < 0 for c in MONSTERS)


def test_r3_1_negative_speed_is_added_to_the_initiative_roll():
    """R3.1 / R9.7: speed is added to the initiative roll, negative speed too: 4 + (-2) = 2 > 1 + 0."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("fire-giant", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]},
                 dice=[4, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    ini = events_of(ev, "initiative")[0]
    assert ini["rolls"]["0"] == {"die": 4, "speed": -2, "total": 4 - 2}
    assert ini["rolls"]["1"] == {"die": 1, "speed": 0, "total": 1 + 0}
    assert ini["first"] == 0


def test_r3_1_negative_speed_can_lose_the_initiative():
    """R3.1: with speed -2 a die of 2 totals 0 and loses to a die of 1 (1 + 0 = 1)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("fire-giant", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]},
                 dice=[2, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    assert events_of(ev, "initiative")[0]["first"] == 1


def test_r3_1_unit_shows_its_printed_values_outside_battle():
    """R3.1: on the map a unit has its printed level, power, speed, life and tribe."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("fire-giant", "L1", "a1")]})
    u = unit_view(g, "a1")
    giant = POOL["fire-giant"]
    assert (u["level"], u["power"], u["speed"], u["life"], u["max_life"], u["tribe"]) == \
        (giant.level, giant.power, giant.speed, giant.life, giant.life, giant.tribe)


def test_r3_1_quick_mark_decides_what_may_be_quick_summoned():
    """R3.1: the Quick mark says a monster may be quick summoned (R9.2): Salamander yes, Orc no."""
    assert POOL["salamander"].quick and not POOL["orc"].quick
    g = scenario({"hand": [{"card": "salamander", "id": "sal"}, {"card": "orc", "id": "orc"}],
                  "units": [unit("orc", "H0", "a0", leader=True), unit("orc", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]})
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    options = sorted(a["cards"] for a in find(g, 0, "quick_summon"))
    assert options == [[], ["sal"]]


def test_r3_1_life_reaching_zero_destroys():
    """R3.1: a monster is destroyed at 0 life: 3 power against an Orc's life 3."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("three", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]},
                 cards={"three": card(power=3, life=9)}, dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    dmg = [e for e in events_of(ev, "damage") if e["unit"] == "b1"]
    assert dmg[0]["life"] == 3 - 3
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b1"]


@pytest.mark.parametrize("field,value", [("level", 0), ("level", 7), ("life", 0), ("power", -1),
                                         ("speed", "fast"), ("quick", "yes"), ("tribe", "")])
def test_r3_1_monster_field_out_of_range_is_refused(field, value):
    """R3.1: card data is checked at load: a bad monster field names the card and the field."""
    with pytest.raises(CardDataError, match=f"'t-mon'.*{field}"):
        parse_card(monster(**{field: value}), "test")


@pytest.mark.parametrize("missing", ["level", "element", "tribe", "power", "life", "rarity"])
def test_r3_1_monster_field_missing_is_refused(missing):
    """R3.1: every monster has these fields; a card without one is refused."""
    data = monster()
    del data[missing]
    with pytest.raises(CardDataError, match=missing):
        parse_card(data, "test")


def test_r3_1_speed_defaults_to_zero():
    """R3.1 / docs/cards.md: speed may be omitted (0); negative values are allowed."""
    data = monster()
    del data["speed"]
    assert parse_card(data, "test").speed == 0
    assert parse_card(monster(speed=-3), "test").speed == -3


# ------------------------------------------------------------------ R3.2 spells

@pytest.mark.parametrize("c", SPELLS, ids=lambda c: c.id)
def test_r3_2_every_pool_spell_has_element_mana_timing_effect(c):
    """R3.2: a spell has an element, a mana number, a timing ([Normal]/[Counter]) and an effect."""
    assert c.element in ELEMENTS
    assert isinstance(c.mana, int) and 0 <= c.mana <= 6
    assert c.spell.timing in ("normal", "counter")
    assert c.spell.all_effects()
    assert c.rarity in RARITIES
    assert c.level is None and c.power is None and c.life is None and c.slots == {}


@pytest.mark.parametrize("missing", ["element", "mana", "timing"])
def test_r3_2_spell_field_missing_is_refused(missing):
    """R3.2: element, mana and timing are required of a spell."""
    data = spell()
    del data[missing]
    with pytest.raises(CardDataError, match=missing):
        parse_card(data, "test")


def test_r3_2_spell_without_effect_is_refused():
    """R3.2: a spell has an effect."""
    data = spell()
    del data["effects"]
    with pytest.raises(CardDataError, match="effects"):
        parse_card(data, "test")


@pytest.mark.parametrize("timing", ["battle", "on_destroy", "march", "strikes_first"])
def test_r3_2_spell_timing_is_normal_or_counter(timing):
    """R3.2: a spell's timing is [Normal] or [Counter] only."""
    with pytest.raises(CardDataError, match="timing"):
        parse_card(spell(timing=timing), "test")


@pytest.mark.parametrize("field,value", [("level", 1), ("power", 2), ("slots", {"fire": 1}), ("quick", True)])
def test_r3_2_spell_has_no_monster_fields(field, value):
    """R3.2: level, power, slots and the Quick mark belong to monsters, not spells."""
    with pytest.raises(CardDataError, match=field):
        parse_card(spell(**{field: value}), "test")


def test_r3_2_monster_has_no_mana():
    """R3.2: mana is a spell's number; a monster with one is refused."""
    with pytest.raises(CardDataError, match="mana"):
        parse_card(monster(mana=1), "test")


@pytest.mark.parametrize("mana", [-1, 7, "2"])
def test_r3_2_mana_out_of_range_is_refused(mana):
    """R3.2: mana is a number of slots, 0..6."""
    with pytest.raises(CardDataError, match="mana"):
        parse_card(spell(mana=mana), "test")


# ------------------------------------------------------------------ R3.2a the card face

@pytest.mark.parametrize("c", list(POOL.values()), ids=lambda c: c.id)
def test_r3_2a_pool_card_face_fields(c):
    """R3.2a: every card shows a name (en, ja), an element and a rarity; monsters a level and a tribe."""
    assert set(c.data["name"]) == {"en", "ja"} and all(c.data["name"].values())
    assert c.element in ELEMENTS
    assert c.rarity in RARITIES
    if c.kind == "monster":
        assert 1 <= c.level <= 6 and c.tribe


def test_r3_2a_wild_slots_are_their_own_kind():
    """R3.2a / R12.7: the six-coloured mark is wild slots, kept apart from element slots."""
    seraphim = POOL["seraphim"]
    assert seraphim.slots == {"light": 1, "wild": 2}
    c = parse_card(monster(slots={"wild": 1, "fire": 2}), "test")
    assert c.slots == {"fire": 2, "wild": 1}


@pytest.mark.parametrize("slots", [{"colorless": 1}, {"fire": -1}, {"wild": "2"}])
def test_r3_2a_bad_slots_are_refused(slots):
    """R3.2a: slots are counts per element or wild."""
    with pytest.raises(CardDataError, match="slots"):
        parse_card(monster(slots=slots), "test")


@pytest.mark.parametrize("field,value", [("element", "metal"), ("rarity", "SSR"), ("rarity", "c")])
def test_r3_2a_unknown_element_or_rarity_is_refused(field, value):
    """R3.2a: six elements; rarities C, U, R, SR."""
    with pytest.raises(CardDataError, match=field):
        parse_card(monster(**{field: value}), "test")


def test_r3_2a_pool_uses_all_six_elements_and_four_rarities():
    """R3.2a / R17.1: the six elements and the rarities appear in the pool."""
    assert {c.element for c in POOL.values()} == ELEMENTS
    assert {c.rarity for c in POOL.values()} <= RARITIES


# ------------------------------------------------------------------ R3.3 keywords

def test_r3_3_keywords_are_not_abilities():
    """R3.3: keywords head the ability text but are not abilities: Goblin Raider has Haste and no ability."""
    raider = POOL["goblin-raider"]
    assert raider.keywords == ("haste",) and raider.haste
    assert raider.abilities == ()
    unicorn = POOL["unicorn"]
    assert unicorn.keywords == ("spellproof",) and unicorn.abilities == ()


@pytest.mark.parametrize("c", [c for c in MONSTERS if c.keywords], ids=lambda c: c.id)
def test_r3_3_pool_keywords_are_known(c):
    """R3.3: Haste, Double March, Far March, Spellproof are the keywords."""
    assert set(c.keywords) <= KEYWORDS
    for kw in KEYWORDS:
        assert getattr(c, kw) == (kw in c.keywords)


def test_r3_3_unknown_or_repeated_keyword_is_refused():
    """R3.3: only the four keywords exist, each at most once."""
    with pytest.raises(CardDataError, match="keywords"):
        parse_card(monster(keywords=["flying"]), "test")
    with pytest.raises(CardDataError, match="keywords"):
        parse_card(monster(keywords=["haste", "haste"]), "test")


@pytest.mark.parametrize("kw", sorted(KEYWORDS))
def test_r3_3_a_keyword_is_not_an_ability_timing(kw):
    """R3.3: a keyword cannot be written as an ability."""
    with pytest.raises(CardDataError, match="timing"):
        parse_card(monster(abilities=[{"timing": kw, "effects": [{"do": "draw", "count": 1}]}]), "test")


NEGATOR = card(power=0, life=9, slots={"fire": 1}, abilities=[
    {"timing": "normal", "target": {"side": "enemy"}, "effects": [{"do": "negate", "to": "chosen"}]}])


def test_r3_3_spellproof_survives_negation():
    """R3.3 / R13.1: keywords are not lost when abilities are negated: a negated Unicorn is still
    Spellproof, so a Fireball (3 to the front) does nothing to it."""
    g = scenario({"hand": [{"card": "fireball", "id": "f0"}],
                  "units": [unit("orc", "H0", "a0", leader=True), unit("negator", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("unicorn", "L5", "b1")]},
                 cards={"negator": NEGATOR}, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    ev = do(g, 0, {"type": "ability", "unit": "a1", "targets": ["b1"]})
    assert {"type": "negated", "unit": "b1"} in ev
    assert g.view(0)["battle"]["negated"] == ["b1"]
    ev = do(g, 0, {"type": "spell", "card": "f0", "targets": []})
    assert len(events_of(ev, "resolved")) == 1
    assert [e for e in events_of(ev, "damage") if e["unit"] == "b1"] == []
    assert unit_view(g, "b1")["life"] == 4


def test_r3_3_contrast_negation_removes_abilities():
    """R3.3 (contrast): negation does take abilities away: a negated unit cannot declare its ability."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("negator", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("negator", "L5", "b1")]},
                 cards={"negator": NEGATOR}, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    ev = do(g, 0, {"type": "ability", "unit": "a1", "targets": ["b1"]})
    assert {"type": "negated", "unit": "b1"} in ev
    # player 1's window: with its ability negated, b1 could only attack, so the engine attacked
    # for it (docs/engine.md) and the battle ended without player 1 ever being asked
    p1_decl = [e for e in events_of(ev, "declared") if e["player"] == 1]
    assert [e["kind"] for e in p1_decl] == ["attack"]
    assert len(events_of(ev, "battle_ended")) == 1


def test_r3_3_double_march_survives_negation():
    """R3.3 / R13.1: a Pegasus negated in battle keeps Double March: after winning it may march again."""
    hexer = card(power=0, life=1, abilities=[
        {"timing": "normal", "effects": [{"do": "negate", "to": "enemies"}]}])
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("pegasus", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("hexer", "L5", "b1")]},
                 cards={"hexer": hexer}, dice=[1, 6])  # 1 + 2 < 6 + 0: the defender goes first
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    assert g.waiting_for() == {1}
    ev = do(g, 1, {"type": "ability", "unit": "b1", "targets": []})
    assert {"type": "negated", "unit": "a1"} in ev
    ended = events_of(ev, "battle_ended")
    assert ended and ended[0]["success"] is True
    u = unit_view(g, "a1")
    assert u["land"] == "L5" and not u["exhausted"]
    assert u["marches_left"] == 2 - 1
    assert find(g, 0, "march", units=["a1"], to="L6")
