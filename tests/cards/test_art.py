"""Card faces (webapp/cards/art.py): every card of the pool draws as well-formed SVG showing its data,
and `python -m webapp.cards gallery` writes a page and one SVG per card."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from webapp.cards import art
from webapp.engine import load_pool, parse_card
from webapp.engine.carddefs import ELEMENTS

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
POOL = load_pool()
IDS = sorted(POOL)


def last_baseline(root):
    """The lowest baseline of the rules and flavour text."""
    ys = [float(e.get("y")) for cls in ("rules", "flavor") for t in with_class(root, cls)
          for e in t.iter() if e.get("y") is not None]
    return max(ys, default=0.0)


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "0 0 250 350"
    return root


def with_class(root, cls):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def text_of(e):
    return "".join(e.itertext())


def squash(s):
    return re.sub(r"\s+", "", s)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("card_id", IDS)
def test_every_card_draws_with_its_name_level_rarity_and_text(card_id, lang):
    card = POOL[card_id]
    root = parse(art.card_svg(card, lang))
    [name] = with_class(root, "card-name")
    assert squash(text_of(name)) == squash(card.data["name"][lang])
    if card.kind == "monster":
        [level] = with_class(root, "card-level")
        assert text_of(level) == str(card.level)
    else:
        assert not with_class(root, "card-level")
    [mark] = with_class(root, "rarity")
    assert f"rarity-{card.rarity}" in mark.get("class") and card.rarity in text_of(mark)
    # element and tribe under the name, in the card's language
    [type_line] = with_class(root, "card-type")
    element = art.ELEMENT_NAMES[card.element][0 if lang == "en" else 1]
    assert element in text_of(type_line)
    if card.kind == "monster":
        from webapp.cards.text import tribe_ja
        assert (card.tribe if lang == "en" else tribe_ja(card.tribe)) in text_of(type_line)
    # every word of the rules text is on the card (nothing cut off)
    rules = "".join(text_of(e) for e in with_class(root, "rules"))
    assert squash(rules) == squash(art.card_rules(card, lang))
    # at a size that reads when the card is shown 200 px wide, inside the text box
    for e in with_class(root, "rules"):
        assert float(e.get("font-size")) >= art.RULES_MIN
    assert last_baseline(root) <= art.TEXT_BOTTOM - 3


@pytest.mark.parametrize("card_id", IDS)
def test_slot_gems_match_the_data(card_id):
    card = POOL[card_id]
    root = parse(art.card_svg(card))
    gems = with_class(root, "gem")
    assert len(gems) == sum(card.slots.values())
    for kind, n in card.slots.items():
        assert sum(1 for g in gems if g.get("data-slot") == kind) == n
    for g in gems:
        sectors = with_class(g, "wild-sector")
        if g.get("data-slot") == "wild":  # R3.2a: a mark split into six colours
            assert [s.get("data-element") for s in sectors] == list(ELEMENTS)
            assert len({s.get("fill") for s in sectors}) == 6
        else:
            assert not sectors


@pytest.mark.parametrize("card_id", IDS)
def test_monsters_show_stats_marks_and_keywords_spells_show_mana_and_timing(card_id):
    card = POOL[card_id]
    root = parse(art.card_svg(card))
    if card.kind == "monster":
        for stat in ("power", "speed", "life"):
            [chip] = with_class(root, f"stat-{stat}")
            assert chip.get("data-value") == str(getattr(card, stat))
        assert bool(with_class(root, "quick-mark")) == card.quick
        badges = " ".join(text_of(b) for b in with_class(root, "badge"))
        for kw in card.keywords:
            assert art.KEYWORD_BADGE[kw][0] in badges
    else:
        assert len(with_class(root, "mana-gem")) == card.mana
        [timing] = with_class(root, "card-timing")
        assert text_of(timing) == {"normal": "[Normal]", "counter": "[Counter]"}[card.spell.timing]
        assert not with_class(root, "stats")


def test_a_wild_slot_card_has_the_six_colour_mark():
    wild = [c for c in POOL.values() if c.slots.get("wild")]
    assert wild, "the rulebook names wild-slot cards (seraphim, vampire, …)"
    root = parse(art.card_svg(wild[0]))
    assert len(with_class(root, "wild-sector")) == 6 * wild[0].slots["wild"]


def scenario_card(**over):
    data = {"id": "test-card", "kind": "monster", "name": {"en": 'Fiend <&> "Quoted"', "ja": "悪魔<&>'引用'"},
            "level": 2, "element": "dark", "tribe": "Demon", "power": 2, "life": 3, "rarity": "U",
            "flavor": {"en": "Less < more & more > less.", "ja": "少なさ<多さ&多さ>少なさ。"}}
    data.update(over)
    return parse_card(data, "<test>")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_text_is_escaped(lang):
    card = scenario_card()
    svg = art.card_svg(card, lang)
    root = parse(svg)
    [name] = with_class(root, "card-name")
    assert squash(text_of(name)) == squash(card.data["name"][lang])
    assert "<&>" not in svg
    [flavor] = with_class(root, "flavor")
    assert squash(text_of(flavor)) == squash(card.data["flavor"][lang])


def test_the_same_card_always_draws_the_same_and_cards_differ():
    a, b = POOL[IDS[0]], POOL[IDS[1]]
    assert art.card_svg(a) == art.card_svg(a)
    assert art.card_svg(a) != art.card_svg(b)


def test_any_valid_card_draws_even_an_overloaded_one():
    """The pool grows: a card with every keyword, many slots, a long name and long text still fits."""
    ability = {"timing": "battle", "condition": {"count": {"select": "allies", "filter": {"tribe": "Goblin"}},
                                                  "at_least": 2},
               "effects": [{"do": "boost", "to": "allies", "power": 1, "life": 1, "speed": 1}]}
    card = scenario_card(
        name={"en": "Grand High Overlord of the Thousand Burning Rearworld Gates",
              "ja": "千の燃え盛る背界門を統べる大いなる至高の覇王"},
        level=6, tribe="Unheard-of Tribe", speed=-9, power=20, life=30, quick=True,
        keywords=["haste", "double_march", "far_march", "spellproof"],
        slots={e: 2 for e in ELEMENTS} | {"wild": 3},
        abilities=[ability,
                   {"timing": "normal", "target": {"side": "enemy", "filter": {"max_level": 3}},
                    "choose_one": [[{"do": "damage", "to": "chosen", "amount": 3}],
                                   [{"do": "return_to_hand", "to": "chosen"}]], "unrespondable": True},
                   {"timing": "on_destroy", "effects": [{"do": "damage", "to": "enemies", "amount": 2}]},
                   {"timing": "march", "effects": [{"do": "summon", "from": "discard", "to": "adjacent",
                                                    "filter": {"max_level": 2}}]}])
    for lang in ("en", "ja"):
        root = parse(art.card_svg(card, lang))
        assert len(with_class(root, "gem")) == 15
        rules = "".join(text_of(e) for e in with_class(root, "rules"))
        assert squash(rules) == squash(art.card_rules(card, lang))
        assert last_baseline(root) <= art.TEXT_BOTTOM - 3  # smaller type rather than overflow


def test_wrapped_lines_fit_the_text_box():
    width = art.BOX_W - 2 * art.PAD
    for card in POOL.values():
        for lang in ("en", "ja"):
            for par in art.card_rules(card, lang).split("\n"):
                for size in (art.RULES_MAX, art.RULES_MIN):
                    for line in art.wrap(par, size, width, lang == "ja"):
                        assert art._line_width(line, size) <= width + 0.01, (card.id, lang, line)


def test_markup_for_pages_and_the_jinja_macro():
    from jinja2 import DictLoader, Environment, FileSystemLoader, ChoiceLoader
    from markupsafe import Markup

    card = POOL["seraphim"] if "seraphim" in POOL else POOL[IDS[0]]
    markup = art.card_svg_markup(card, "ja")
    assert isinstance(markup, Markup)
    parse(str(markup))
    env = Environment(autoescape=True, loader=ChoiceLoader([
        DictLoader({"page.html": '{% from "cards/_card.html" import card %}'
                                 '{{ card(card_svg_markup(c, "en"), 200) }}|{{ card(card_svg_markup(c, "en"), "12rem") }}'}),
        FileSystemLoader(str(ROOT / "templates"))]))
    env.globals["card_svg_markup"] = art.card_svg_markup
    html = env.get_template("page.html").render(c=card)
    first, second = html.split("|")
    assert "width: 200px" in first and "width: 12rem" in second
    assert "<figure" in first and "<svg" in first and "&lt;svg" not in first


def run_cards(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "webapp.cards", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gallery_writes_index_and_one_svg_per_card(tmp_path, lang):
    out = tmp_path / "gallery"
    args = ["gallery", str(out)] + (["--lang", lang] if lang != "en" else [])
    res = run_cards(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    files = sorted(p.name for p in (out / "cards").iterdir())
    assert files == sorted(f"{i}.svg" for i in POOL)
    for f in (out / "cards").iterdir():
        parse(f.read_text(encoding="utf-8"))
    html = (out / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in html
    assert html.count('class="card-svg"') == len(POOL)
    assert sorted(re.findall(r'data-card="([^"]+)"', html)) == IDS
    assert str(len(POOL)) in html.split("</header>")[0]
    # grouped by element, in rule order
    starts = [html.index(f'<section class="element" id="{el}"') for el in ELEMENTS
              if any(c.element == el for c in POOL.values())]
    assert starts == sorted(starts)


def test_list_still_lists_every_card(tmp_path):
    res = run_cards("list", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == len(POOL)
    assert {ln.split()[0] for ln in lines} == set(POOL)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_extreme_names_and_tribes_still_draw(lang):
    for name, tribe in ((("W" * 90, "ー" * 40), "T" * 60), (("X", "字"), "Orc Lord"), (("A B", "あ"), "Dragon")):
        card = scenario_card(name={"en": name[0], "ja": name[1]}, tribe=tribe, level=6, abilities=[])
        root = parse(art.card_svg(card, lang))
        [shown] = with_class(root, "card-name")
        assert squash(text_of(shown)) == squash(card.data["name"][lang])
