"""Card search in both scripts (issue 15, webapp/decks/search.py): kana and width folded, tribe synonyms."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from webapp.decks import search
from webapp.engine import load_pool
from webapp.web.collection import catalogue, matches

ROOT = Path(__file__).resolve().parents[2]


def found(query):
    """The ids of the cards the collection's search finds for ``query`` (the server's filter)."""
    return {e["id"] for e in catalogue(load_pool()) if matches(e, 0, {"q": query})}


def tribe(name):
    return {cid for cid, card in load_pool().items() if card.tribe == name}


def test_fold_width_and_kana():
    assert search.fold("ｺﾞﾌﾞﾘﾝ") == search.fold("ゴブリン") == search.fold("ごぶりん") == "ごぶりん"
    assert search.fold("ＤＲＡＧＯＮ") == "dragon"
    assert search.fold("ヴァンパイア") == "ゔぁんぱいあ"


@pytest.mark.parametrize("query", ["ドラゴン", "竜", "dragon", "DRAGON", "どらごん", "ﾄﾞﾗｺﾞﾝ", "龍"])
def test_every_dragon_tribe_card_is_found_by_each_word(query):
    dragons = tribe("Dragon")
    assert len(dragons) >= 4
    assert dragons <= found(query), sorted(dragons - found(query))


def test_the_three_dragon_words_find_the_same_cards():
    assert found("ドラゴン") == found("竜") == found("dragon")
    # the Rearworld Dragons (背界竜, tribe Rearworld) too: a word of the group in their names
    assert any(load_pool()[c].tribe == "Rearworld" for c in found("ドラゴン"))


def test_half_width_katakana_finds_goblins():
    goblins = tribe("Goblin") | tribe("Goblin Lord")
    assert goblins
    assert goblins <= found("ｺﾞﾌﾞﾘﾝ")
    assert found("ｺﾞﾌﾞﾘﾝ") == found("goblin") == found("ゴブリン")


def test_latin_synonyms_match_whole_words_only():
    # "elf" is a tribe word; "itself" in a rules text must not make a card an Elf.
    elves = found("エルフ")
    assert tribe("Elf") <= elves
    assert all("elf" in e["search"] for e in catalogue(load_pool()) if e["id"] in elves)
    assert re.search(r"\belf\b", " ".join(e["search"] for e in catalogue(load_pool()) if e["id"] in elves))


def test_collection_page_search_finds_dragons_by_each_word(alice_client):
    for query in ("ドラゴン", "竜", "dragon"):
        html = alice_client.get("/collection", query_string={"q": query}).get_data(as_text=True)
        shown = set(re.findall(r'<li class="coll-card[^"]*"\s+data-id="([^"]+)"', html))
        assert tribe("Dragon") <= shown, query


def test_the_script_folds_as_the_server_does(node):
    samples = ["ｺﾞﾌﾞﾘﾝ", "ＤＲＡＧＯＮ", "ヴァンパイア", "Crimson Dragon", "紅蓮のドラゴン", "ﾊﾟｰﾃｨ"]
    code = ("const i = require(process.argv[1]); const s = JSON.parse(process.argv[2]);"
            "process.stdout.write(JSON.stringify(s.map(i.fold)));")
    out = subprocess.run([node, "-e", code, str(ROOT / "static/js/i18n.js"), json.dumps(samples)],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [search.fold(s) for s in samples]
