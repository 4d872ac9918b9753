"""Card data: validated once at load, with the file, card id and field named (docs/cards.md)."""

import json
import subprocess
import sys

import pytest

from webapp.engine import CardDataError, load_pool, parse_card

from .helpers import card


def test_the_pool_loads_and_every_card_has_both_names():
    pool = load_pool()
    assert len(pool) >= 20
    for c in pool.values():
        assert c.data["name"]["en"] and c.data["name"]["ja"]


@pytest.mark.parametrize("field, value, problem", [
    ("level", 0, "outside"),
    ("level", "2", "integer"),
    ("element", "metal", "not one of"),
    ("rarity", "X", "not one of"),
    ("keywords", ["flying"], "not one of"),
    ("slots", {"fire": 1, "mana": 2}, "unknown key"),
    ("quick", "yes", "true or false"),
    ("power", -1, "outside"),
    ("colour", "red", "unknown key"),
    ("abilities", [{"timing": "sometimes", "effects": [{"do": "draw"}]}], "not one of"),
    ("abilities", [{"timing": "normal", "effects": [{"do": "explode"}]}], "not one of"),
    ("abilities", [{"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front"}]}], "missing"),
    ("abilities", [{"timing": "normal", "effects": [{"do": "damage", "to": "chosen", "amount": 1}]}], "target"),
    ("abilities", [{"timing": "battle", "effects": [{"do": "return_to_hand", "to": "self"}]}], "cannot be used"),
    ("abilities", [{"timing": "normal", "effects": [{"do": "draw"}]},
                   {"timing": "counter", "effects": [{"do": "draw"}]}], "R13.4"),
    ("abilities", [{"timing": "counter", "effects": [{"do": "cancel_spell"}]}], "respond to 'spell'"),
])
def test_a_bad_field_is_refused_naming_card_and_field(field, value, problem):
    data = card(**{field: value})
    data["id"] = "bad-card"
    with pytest.raises(CardDataError, match=problem) as err:
        parse_card(data, "cards/pool/test.toml")
    message = str(err.value)
    assert "cards/pool/test.toml" in message and "'bad-card'" in message
    assert f"'{field}" in message


def test_a_bad_file_names_the_file(tmp_path):
    (tmp_path / "broken.toml").write_text("[[card]]\nid = 'x'\nkind = \n")
    with pytest.raises(CardDataError, match="broken.toml: not valid TOML"):
        load_pool(str(tmp_path))


def test_a_pool_card_needs_names(tmp_path):
    (tmp_path / "a.toml").write_text(
        "[[card]]\nid = 'nameless'\nkind = 'monster'\nlevel = 1\nelement = 'fire'\ntribe = 'Orc'\n"
        "power = 1\nlife = 1\nrarity = 'C'\n")
    with pytest.raises(CardDataError, match="'nameless': field 'name'"):
        load_pool(str(tmp_path))


def test_a_card_defined_twice_is_refused(tmp_path):
    rec = ("[[card]]\nid = 'twin'\nkind = 'spell'\nname = { en = 'T', ja = 'T' }\nelement = 'fire'\n"
           "mana = 1\ntiming = 'normal'\neffects = [{ do = 'draw' }]\nrarity = 'C'\n")
    (tmp_path / "a.toml").write_text(rec)
    (tmp_path / "b.toml").write_text(rec)
    with pytest.raises(CardDataError, match="'twin': field 'id': defined twice"):
        load_pool(str(tmp_path))


def test_cli_lists_the_pool_as_json():
    out = subprocess.run([sys.executable, "-m", "webapp.cards", "list", "--json"], capture_output=True,
                         text=True, check=True).stdout
    cards = json.loads(out)
    assert {c["id"] for c in cards} == set(load_pool())
    hexer = next(c for c in cards if c["id"] == "goblin-hexer")
    assert hexer["tribe"] == "Goblin" and hexer["abilities"][0]["effects"][0]["do"] == "spell_lock"
