"""The game's names in one place (cards/words.toml, webapp/cards/words.py): the engine's keywords,
elements and kinds of land, each in English and the rulebook's Japanese, read by the card text, the
card faces, the game log and (with the card list) the board."""

import re

import pytest

from webapp.cards import art, text, words
from webapp.engine.board import LAND_KINDS
from webapp.engine.carddefs import ELEMENTS, KEYWORDS
from webapp.game import gamelog
from webapp.serving import ROOT

RULEBOOK = (ROOT / "docs" / "rules" / "rulebook-ja.txt").read_text(encoding="utf-8")


def test_the_vocabulary_holds_the_engines_ids():
    v = words.vocabulary()
    assert set(v["keyword"]) == set(KEYWORDS)
    assert set(v["element"]) == {*ELEMENTS, "wild"}
    assert set(v["land"]) == {"base", *LAND_KINDS}


def test_the_japanese_names_are_the_rulebooks():
    for section in ("keyword", "element", "land"):
        for key, entry in words.vocabulary()[section].items():
            assert entry["ja"] in RULEBOOK, (section, key, entry["ja"])


def test_the_card_code_reads_the_vocabulary():
    assert text.KEYWORD["far_march"] == ("Far March", "【進軍時：相手本陣以外どこでも進軍可能】")
    assert text.ELEMENT_JA["wild"] == "なんでも" and art.ELEMENT_NAMES["dark"] == ("Dark", "闇")
    assert [b[:2] for b in art.KEYWORD_BADGE.values()] == [(words.keyword_short(k, "en"), words.keyword_short(k, "ja"))
                                                          for k in art.KEYWORD_BADGE]


@pytest.mark.parametrize("lang, line", [("en", "Your Orc gains 1 water slot and 2 wild slots."),
                                        ("ja", "あなたのオークは水のスペル枠1、なんでものスペル枠2を得ました。")])
def test_the_log_names_elements_from_the_vocabulary(lang, line):
    event = {"type": "slots_granted", "unit": "p0c3", "slots": {"water": 1, "wild": 2}}
    assert gamelog.describe([event], {"p0c3": ("orc", 0)}, ["Alice", "CPU"], 0, lang=lang) == [line]


def test_the_board_reads_the_names_in_both_languages():
    board = words.for_board()
    assert board["land"]["ja"]["rearworld"] == "背界" and board["element"]["en"]["wild"] == "Wild"
    assert board["keyword"]["ja"] == {"haste": "速攻", "double_march": "2回移動", "far_march": "どこでも進軍",
                                      "spellproof": "魔法無効"}


def test_a_broken_vocabulary_is_refused_at_load(tmp_path, monkeypatch):
    bad = tmp_path / "words.toml"
    bad.write_text(words.PATH.read_text(encoding="utf-8").replace('ja = "沼"', 'jp = "沼"'), encoding="utf-8")
    monkeypatch.setattr(words, "PATH", bad)
    words.vocabulary.cache_clear()
    try:
        with pytest.raises(words.WordsError, match=r"land.swamp"):
            words.vocabulary()
    finally:
        monkeypatch.undo()
        words.vocabulary.cache_clear()


def test_the_card_list_serves_the_names_in_both_languages(app, client):
    """The board reads the names from the card list it loads ({cards, words}: webapp/web/cardfiles.py,
    static/js/play-words.js): every id of cards/words.toml in English and Japanese, the badge words for
    keywords, as the file writes them."""
    from webapp.web import cardfiles
    with app.test_request_context():
        url = cardfiles.pool_url()
    served = client.get(url).get_json()["words"]
    v = words.vocabulary()
    assert set(served) == set(words.IDS)
    for lang in words.LANGS:
        assert served["keyword"][lang] == {k: e["short"][lang] for k, e in v["keyword"].items()}
        assert served["element"][lang] == {k: e[lang] for k, e in v["element"].items()}
        assert served["land"][lang] == {k: e[lang] for k, e in v["land"].items()}
    assert served["element"]["ja"]["wild"] == "なんでも" and served["land"]["ja"]["rearworld"] == "背界"
    assert served["keyword"]["en"]["far_march"] == "Far March" and served["keyword"]["ja"]["far_march"] == "どこでも進軍"


#: The board's scripts: they read the names from the card list (play-words.js), never a copy of their own.
BOARD_SCRIPTS = sorted([*(ROOT / "static" / "js").glob("play*.js"), ROOT / "static" / "js" / "battle-words.js",
                        ROOT / "static" / "js" / "replay-puzzle.js"])


def test_the_board_scripts_keep_no_copy_of_the_names():
    """No board script writes a keyword, element or land name as a string of its own (in addition to the
    check above that the served names are the file's)."""
    v = words.vocabulary()
    names = {e["short"][lang] for e in v["keyword"].values() for lang in words.LANGS}
    names |= {e[lang] for section in ("element", "land") for e in v[section].values() for lang in words.LANGS}
    found = []
    for path in BOARD_SCRIPTS:
        code = re.sub(r"/\*.*?\*/|(?<![:\\])//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)  # not the comments
        found += [(path.name, m.group(0)) for m in re.finditer(r'"([^"\n]*)"', code) if m.group(1) in names]
        found += [(path.name, m.group(0)) for m in re.finditer(r"/([^/\n]+)/", code)
                  if any(part in names for part in m.group(1).split("|"))]
    assert len(BOARD_SCRIPTS) > 10 and not found, found


def test_the_catalogs_say_what_the_vocabulary_says():
    """The catalogs' "Fire" … "Wild" and "Road" … "Base", which templates and the deck pages still word
    themselves, match cards/words.toml."""
    from webapp import i18n
    ja = {m.id: m.string for m in i18n.read_catalog("ja") if isinstance(m.id, str)}
    checked = 0
    for section in ("element", "land"):
        for entry in words.vocabulary()[section].values():
            if entry["en"] in ja:
                assert ja[entry["en"]] == entry["ja"], (section, entry)
                checked += 1
    assert checked >= 7
