"""The game's own names as data: keywords, elements and kinds of land in English and Japanese, from
cards/words.toml (the one place they are written; the Japanese follows the rulebook).

``keyword_name(k, lang)`` is the rules text's word (【進軍時：速攻】), ``keyword_short`` the badge's
(速攻); ``element_name`` covers "wild" (なんでも) too; ``land_name`` names a kind of land. ``for_board()``
is the part the board reads, served with the card list (webapp/web/cardfiles.py; static/js/play-words.js).
Validated at load:
every entry has both languages, and each section holds exactly its ids (``IDS``).
"""

import functools
import tomllib

from webapp.serving import ROOT

PATH = ROOT / "cards" / "words.toml"
LANGS = ("en", "ja")
#: The ids each section holds (the engine's: tests/cards/test_words.py checks them against it).
IDS = {"keyword": ("haste", "double_march", "far_march", "spellproof"),
       "element": ("fire", "water", "earth", "wind", "light", "dark", "wild"),
       "land": ("base", "road", "rearworld", "swamp")}


class WordsError(ValueError):
    pass


@functools.cache
def vocabulary():
    """{"keyword": {id: {en, ja, short: {en, ja}}}, "element": {id: {en, ja}}, "land": {id: {en, ja}}}."""
    with open(PATH, "rb") as f:
        data = tomllib.load(f)
    expected = {section: set(ids) for section, ids in IDS.items()}
    if set(data) != set(expected):
        raise WordsError(f"{PATH.name}: sections {sorted(data)}, expected {sorted(expected)}")
    for section, ids in expected.items():
        if set(data[section]) != ids:
            raise WordsError(f"{PATH.name}: [{section}] has {sorted(data[section])}, expected {sorted(ids)}")
        for key, entry in data[section].items():
            forms = [entry] + ([entry.get("short") or {}] if section == "keyword" else [])
            for form in forms:
                if not all(isinstance(form.get(lang), str) and form[lang] for lang in LANGS):
                    raise WordsError(f"{PATH.name}: [{section}.{key}] needs en and ja")
    return data


def _lang(lang):
    return "ja" if lang == "ja" else "en"


def keyword_name(keyword, lang):
    """A keyword as the rules text writes it ("Haste", 【進軍時：速攻】); None for an unknown one."""
    entry = vocabulary()["keyword"].get(keyword)
    return entry[_lang(lang)] if entry else None


def keyword_short(keyword, lang):
    """A keyword as its badge says it ("Haste", 速攻); None for an unknown one."""
    entry = vocabulary()["keyword"].get(keyword)
    return entry["short"][_lang(lang)] if entry else None


def element_name(element, lang):
    """An element's name ("Fire", 火; "wild": "Wild", なんでも); None for an unknown one."""
    entry = vocabulary()["element"].get(element)
    return entry[_lang(lang)] if entry else None


def land_name(kind, lang):
    """A kind of land's name ("Rearworld", 背界); None for an unknown one."""
    entry = vocabulary()["land"].get(kind)
    return entry[_lang(lang)] if entry else None


def pairs(section):
    """{id: (English, Japanese)} of a section (the shape the card code reads)."""
    return {k: (v["en"], v["ja"]) for k, v in vocabulary()[section].items()}


def for_board():
    """What the board reads with the card list: {"keyword": {lang: {id: badge word}}, "element": {lang:
    {id: name}}, "land": {lang: {id: name}}}."""
    v = vocabulary()
    return {"keyword": {lang: {k: e["short"][lang] for k, e in v["keyword"].items()} for lang in LANGS},
            "element": {lang: {k: e[lang] for k, e in v["element"].items()} for lang in LANGS},
            "land": {lang: {k: e[lang] for k, e in v["land"].items()} for lang in LANGS}}
