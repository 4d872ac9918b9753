"""Each card's own picture (issue 14): a game-icons.net icon per card, chosen in
cards/art/card-icons.toml and vendored (only those used) in cards/art/icons.json."""

import collections
import json

from webapp import ROOT
from webapp.cards import art
from webapp.engine import load_pool

POOL = load_pool()


def test_every_card_has_its_own_icon_and_no_two_share_one():
    mapping, bodies = art.card_icons()
    assert set(mapping) == set(POOL)  # no card without a subject, no stale entry
    shared = {icon: n for icon, n in collections.Counter(mapping.values()).items() if n > 1}
    assert shared == {}
    assert set(bodies) == set(mapping.values())  # only the icons used are vendored
    assert all(body.startswith("<") and 'd="' in body for body in bodies.values())


def test_every_card_face_draws_its_icon():
    mapping, _ = art.card_icons()
    for cid, card in POOL.items():
        svg = art.card_svg(card, "en")
        assert f'class="subject" data-icon="{mapping[cid]}"' in svg, cid


def test_the_vendored_icons_say_where_they_come_from_and_their_licence():
    data = json.loads((ROOT / "cards" / "art" / "icons.json").read_text(encoding="utf-8"))
    assert "@iconify-json/game-icons@" in data["source"]
    assert data["license"].startswith("CC BY 3.0")
    assert "game-icons.net" in data["attribution"]


def test_a_card_without_an_icon_still_draws_its_tribe_emblem():
    from tests.cards.test_art import scenario_card

    card = scenario_card(name={"en": "Nameless", "ja": "名無し"}, tribe="Orc")
    svg = art.card_svg(card, "en")
    assert 'class="subject"' not in svg and 'class="emblem" data-tribe="Orc"' in svg


def test_the_credits_page_names_the_icons_licence_and_is_linked_from_every_page(client):
    text = client.get("/about").get_data(as_text=True)
    assert "game-icons.net" in text and "creativecommons.org/licenses/by/3.0" in text
    assert "<td>Crimson Dragon</td><td>dragon-breath</td>" in text
    assert 'href="/about"' in client.get("/").get_data(as_text=True)
