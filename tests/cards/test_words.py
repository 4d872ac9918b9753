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


def test_the_copies_left_elsewhere_say_what_the_vocabulary_says():
    """The names some pages still word themselves (the catalogs' "Fire" … "Wild" and "Road" … "Base" for
    templates and scripts, the board's element and keyword names in play-cards.js, the preview's keyword
    glossary) match cards/words.toml; a copy that is gone (it reads the vocabulary) has nothing left to
    check."""
    from webapp import i18n
    ja = {m.id: m.string for m in i18n.read_catalog("ja") if isinstance(m.id, str)}
    checked = 0
    for section in ("element", "land"):
        for entry in words.vocabulary()[section].values():
            if entry["en"] in ja:
                assert ja[entry["en"]] == entry["ja"], (section, entry)
                checked += 1
    preview = (ROOT / "static" / "js" / "play-preview.js").read_text(encoding="utf-8")
    for key, en, jp in re.findall(r'\{key: "(\w+)", en: "([^"]+)", ja: "([^"]+)"', preview):
        if key in words.IDS["keyword"]:
            assert (en, jp) == (words.keyword_short(key, "en"), words.keyword_short(key, "ja")), key
            checked += 1
    cards = (ROOT / "static" / "js" / "play-cards.js").read_text(encoding="utf-8")
    for line in re.findall(r"ELEMENT_JA = \{([^}]*)\}", cards):
        for key, jp in re.findall(r'(\w+): "([^"]+)"', line):
            assert jp == words.element_name(key, "ja"), key
            checked += 1
    for lang, line in re.findall(r"\b(en|ja): \{(haste[^}]*)\}", cards):
        for key, name in re.findall(r'(\w+): "([^"]+)"', line):
            assert name == words.keyword_short(key, lang), (lang, key)
            checked += 1
    assert checked >= 23
