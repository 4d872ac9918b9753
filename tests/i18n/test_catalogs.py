"""The translation catalogs (issue 15, webapp/i18n.py, docs/i18n.md).

- Completeness: every msgid of the Japanese catalog is translated, none fuzzy, its placeholders kept;
  the catalogs hold every msgid the sources use (a fresh ``pybabel extract`` finds nothing new).
- The JavaScript catalogs built from them hold the same keys in both languages.
- The extractor check: the files in CHECKED show a player no English outside the catalogs.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from webapp import i18n

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- completeness


def messages(lang):
    return [m for m in i18n.read_catalog(lang) if m.id]


def placeholders(text):
    return sorted(re.findall(r"%\(\w+\)s|\{\w+\}", text))


def test_every_msgid_is_translated_in_japanese_and_none_is_fuzzy():
    untranslated, fuzzy = [], []
    for m in messages("ja"):
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if not all(strings):
            untranslated.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
    assert not untranslated, f"untranslated in ja: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy in ja: {fuzzy[:10]}"


def test_japanese_translations_keep_the_placeholders():
    wrong = []
    for m in messages("ja"):
        ids = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        strings = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        wanted = set(placeholders(ids[-1])) | set(placeholders(ids[0]))
        for s in strings:
            # a plural form may leave out the count it reads as a word ("1 copy"), never add one
            if not set(placeholders(s)) <= wanted | {"{n}", "%(num)s"}:
                wrong.append((ids[0], s))
            if not isinstance(m.id, (list, tuple)) and sorted(placeholders(s)) != placeholders(ids[0]):
                wrong.append((ids[0], s))
    assert not wrong, wrong[:5]


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_the_catalogs_hold_every_msgid_the_sources_use(tmp_path):
    """A fresh extraction (what ``python -m webapp i18n extract`` runs) finds no msgid the catalogs lack."""
    pot = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-o", str(pot), "."], cwd=ROOT, check=True)
    with open(pot, "rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    for lang in i18n.LANGS:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(lang)}
        assert not wanted - have, (f"run `python -m webapp i18n extract` and translate; missing in {lang}: "
                                   f"{sorted(wanted - have)[:10]}")


def test_the_js_catalogs_hold_the_same_keys():
    i18n.build()
    catalogs = {lang: json.loads((i18n.JS_CATALOGS / f"{lang}.json").read_text(encoding="utf-8")) for lang in i18n.LANGS}
    en, ja = catalogs["en"]["messages"], catalogs["ja"]["messages"]
    assert en and set(en) == set(ja), (sorted(set(en) ^ set(ja)))[:10]
    assert catalogs["ja"]["plural"] == "0" and catalogs["en"]["plural"] == "(n != 1)"
    assert ja["Settings"] == "設定"
    # plural entries keep their forms: English two, Japanese one
    assert en["{n} card"] == ["{n} card", "{n} cards"] and ja["{n} card"] == ["{n}枚"]


# ---------------------------------------------------------------- the extractor check

#: The files whose every player-visible text must come from the catalogs (the templates still in
#: English are listed in docs/i18n.md).
CHECKED = [
    "templates/base.html",
    "templates/index.html",
    "templates/_deck_choice.html",
    "templates/collection/index.html",
    "templates/collection/_detail.html",
    "templates/collection/card.html",
    "templates/collection/packs.html",
    "templates/collection/pack.html",
    "templates/decks/index.html",
    "templates/decks/builder.html",
    "templates/decks/_charts.html",
    "templates/decks/_problems.html",
    "templates/lobby/index.html",
    "templates/lobby/_result.html",
    "templates/lobby/invitation.html",
    "templates/lobby/join.html",
    "templates/lobby/replay.html",
    "templates/auth/login.html",
    "templates/auth/register.html",
    "templates/errors/error.html",
    "templates/play/index.html",
    "templates/play/board.html",
    "templates/puzzles/index.html",
    "templates/puzzles/puzzle.html",
    "templates/gauntlet/index.html",
    "templates/puzzles/shared.html",
    "templates/puzzles/_from_replay.html",
    "templates/puzzles/from_replay.html",
    "templates/history/index.html",
    "templates/decks/loaner.html",
    "templates/decks/missing.html",
    "templates/about.html",
    "templates/story/index.html",
    "templates/story/chapter.html",
    "templates/story/done.html",
    "templates/story/_eringe.html",
    "templates/rules/index.html",
    "static/js/collection.js",
    "static/js/decks.js",
    "static/js/deck-rules.js",
    "static/js/deck-charts.js",
    "static/js/lobby.js",
    "static/js/play-cards.js",
    "static/js/play-words.js",
    "static/js/play-preview.js",
    "static/js/play-settings.js",
    "static/js/play-sound.js",
    "static/js/play-tips.js",
    "static/js/play-util.js",
    "static/js/play.js",
    "static/js/play-log.js",
    "static/js/play-map.js",
    "static/js/play-hand.js",
    "static/js/play-end.js",
    "static/js/play-panel.js",
    "static/js/play-analysis.js",
    "static/js/play-battle.js",
    "static/js/battle-words.js",
    "static/js/play-online.js",
    "static/js/play-chat.js",
    "static/js/play-transport.js",
    "static/js/play-hint.js",
    "static/js/play-keys.js",
    "static/js/play-replay.js",
]

#: Words a player may read in any language: names, codes, units.
ALLOWED = {"Brigade", "CPU", "English", "EN", "Lv", "BRG1", "K7QX2M9PRT", "SVG", "UTC"}

#: Attributes whose values a player reads (or hears).
VISIBLE_ATTRS = ("title", "placeholder", "aria-label", "alt", "data-confirm", "value")


def english_words(text):
    """The English-looking words of a text (two letters or more, no digits: not codes) that are not
    allowed names; HTML entities (&middot;) are not words."""
    text = re.sub(r"&#?\w+;", " ", text)
    words = re.findall(r"(?<![\w])[A-Za-z][A-Za-z']*[A-Za-z](?![\w])", text)
    return [w for w in words if w not in ALLOWED]


def jinja_texts(code):
    """String literals of a Jinja expression that read as words, outside _(), gettext() and ngettext()
    (their msgids) and the pages' own bilingual ``"…" if lang == "ja" else "…"`` texts."""
    if re.search(r"lang\s*==\s*['\"](ja|en)['\"]", code):
        return []
    code = re.sub(r"\b(?:_|gettext|ngettext)\(\s*" + STRING.pattern + r"(\s*,\s*" + STRING.pattern.replace("?P<q>", "?P<q2>")
                  .replace("(?P=q)", "(?P=q2)").replace("?P<s>", "?P<s2>") + ")?", "_(", code)
    out = []
    for m in STRING.finditer(code):
        s = m.group("s")
        if re.search(r"[A-Z][a-z]+|[a-z]+ [a-z]+", s) and not re.search(r"[/%.#_]|^\w+$", s.strip()) \
                and english_words(s) or re.fullmatch(r"[A-Z][a-z]+", s) and s not in ALLOWED:
            out.append(s)
    return out


def template_texts(source):
    """The texts of a Jinja template a player sees: text between tags and visible attributes, with
    every Jinja expression, statement and comment, and every script and style, taken out."""
    text = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    text = re.sub(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", " ", text, flags=re.S)  # catalog texts
    found = [s for code in re.findall(r"\{[{%](.*?)[}%]\}", text, flags=re.S) for s in jinja_texts(code)]
    text = re.sub(r"\{%.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    for tag in re.findall(r"<[^>]+>", text):
        for name, value in re.findall(r'([\w-]+)="([^"]*)"', tag):
            if name in VISIBLE_ATTRS and (name != "value" or re.search(r'type="(submit|button)"', tag)):
                found.append(value)
    found += re.split(r"<[^>]+>", text)
    return [t.strip() for t in found if t.strip()]


STRING = re.compile(r"""(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
#: A string literal that reads as words: a capitalised word, or two words with a space, and nothing
#: that marks it as code (class names, selectors, ids, URLs, event and key names).
CODE_LIKE = re.compile(r"^[\w.#\[\]=:\"'*^$>~+(), -]*[-_#.\[\]=/:]|^[a-z]+(?:[A-Z][a-z]+)+$|^\W*$")


def without_catalog_calls(code):
    """``code`` with the string arguments of t(...) and tn(...) taken out (they are msgids)."""
    out, i = [], 0
    for m in re.finditer(r"\btn?\(", code):
        if m.start() < i:
            continue
        out.append(code[i:m.end()])
        j = m.end()
        while True:
            rest = code[j:]
            lit = STRING.match(rest.lstrip())
            if not lit:
                break
            j += len(rest) - len(rest.lstrip()) + lit.end()
            sep = re.match(r"\s*[,+]\s*", code[j:])
            if not sep or not STRING.match(code[j + sep.end():]):
                break
            j += sep.end()
        i = j
    out.append(code[i:])
    return "".join(out)


def js_texts(source):
    """String literals of a script that read as player text, outside t()/tn() calls and comments;
    lines whose strings are bilingual data (an English text beside its ja: text) are the card
    language's own words and pass."""
    out = []
    source = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source, flags=re.S)
    # "a " +\n "b" is one text: joined, so a t( on the first line covers the rest
    source = re.sub(r"([\"'])\s*\+\s*\n\s*([\"'])", lambda m: m.group(1) + " + " + m.group(2), source)
    for number, line in enumerate(source.splitlines(), 1):
        code = re.sub(r"(^|[^:\"'])//.*$", r"\1", line)
        if re.search(r"\bja:\s*\"|\ben:\s*\{|lang === \"ja\" \?|ja \? ", code):
            continue
        code = without_catalog_calls(code)
        # keys compared, event names, directives and header names are code
        code = re.sub(r"[!=]==\s*" + STRING.pattern, " ", code)
        code = re.sub(r"(addEventListener|removeEventListener)\(\s*" + STRING.pattern, " ", code)
        code = re.sub(r"" + STRING.pattern + r"\s*:", " ", code)
        if code.strip() in ('"use strict";', "'use strict';"):
            continue
        for m in STRING.finditer(code):
            s = m.group("s")
            if "${" in s:
                s = re.sub(r"\$\{[^}]*\}", " ", s)
            if CODE_LIKE.search(s) and " " not in s.strip(" .:"):
                continue
            if re.fullmatch(r"[a-z_]+", s) or re.search(r"[-_]\w|[-_]$|\w[.#]\w|^[.#\[]|=>|[<>{}]|\\u", s):
                continue  # ids, keys, selectors, markup
            if re.search(r"[A-Z][a-z]+|[a-z]+ [a-z]+", s) and english_words(s):
                out.append((number, s))
    return out


@pytest.mark.parametrize("path", CHECKED)
def test_no_english_outside_the_catalogs(path):
    source = (ROOT / path).read_text(encoding="utf-8")
    html = path.endswith(".html")
    bad = [t for t in template_texts(source) if english_words(t)] if html else js_texts(source)
    assert not bad, f"{path}: English outside _()/t(): {bad[:8]}"


def test_the_extractor_check_finds_english():
    """The check itself: a sentence in a template or a script is found, the same wrapped is not."""
    assert template_texts('<p class="x">Deck saved.</p>') == ["Deck saved."]
    assert not [t for t in template_texts('<p class="x">{{ _("Deck saved.") }}</p>') if english_words(t)]
    assert template_texts('<button aria-label="Close">×</button>') == ["Close", "×"]
    assert template_texts('<b>{{ "Ready" if ok else "Draft" }}</b>') == ["Ready", "Draft"]
    assert template_texts('<b>{{ _("Ready") if ok else ngettext("%(num)s card", "%(num)s cards", n) }}</b>') == []
    assert template_texts("<a href=\"{{ url_for('static', filename='css/x.css') }}\">{{ x|default('en') }}</a>") == []
    assert js_texts('el.textContent = "Deck saved.";') == [(1, "Deck saved.")]
    assert js_texts('el.textContent = t("Deck saved.");') == []
    assert js_texts('h("button", {class: "pl-btn pl-btn-go"}, "Done")') == [(1, "Done")]
    assert js_texts('h("button", {class: "pl-btn pl-btn-go"}, t("Done"))') == []
    assert js_texts('root.addEventListener("pointerdown", f); q(".coll-card");') == []


def test_every_t_call_of_the_scripts_is_in_the_catalogs():
    """pybabel's JavaScript extractor skips calls inside template literals (`${t("…")}`) and inside the
    arguments of another t(): a msgid it missed would stay English in every language."""
    have = {m.id if isinstance(m.id, str) else m.id[0] for m in messages("ja")}
    missed = []
    for path in (p for p in CHECKED if p.endswith(".js")):
        source = re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", " ", (ROOT / path).read_text(encoding="utf-8"), flags=re.S)
        for m in re.finditer(r"\btn?\(\s*\"((?:[^\"\\]|\\.)*)\"(?!\s*\+)", source):
            if json.loads(f'"{m.group(1)}"') not in have:
                missed.append((path, m.group(1)))
    assert not missed, missed[:10]
