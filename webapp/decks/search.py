"""Card search that reads both scripts (docs/i18n.md): the collection and the deckbuilder match a query
against ``card_search_text`` word by word; static/js/i18n.js ``fold`` folds the query the same way.

- **Folding** (``fold``): NFKC (full-width Latin and half-width katakana become the usual forms, so
  ｺﾞﾌﾞﾘﾝ is ゴブリン and ＤＲＡＧＯＮ is dragon), lower case, katakana as hiragana (ゴブリン and ごぶりん
  match each other).
- **Synonyms** (``synonym_groups``): each tribe of cards/tribes.toml is one group of words, its English
  and Japanese names and its ``aliases`` (ドラゴン, 竜, 龍, dragon). A card whose text holds any word of
  a group (a Latin word as a whole word) is found by every word of it: every Dragon-tribe card, and
  the Rearworld Dragons named 背界竜, are found by "dragon", "ドラゴン" and "竜" alike.
"""

import functools
import re
import unicodedata

from webapp.cards.text import tribes

KATAKANA = re.compile("[\u30a1-\u30f6]")


def fold(text):
    """The search form of a text: NFKC, lower case, katakana as hiragana."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    return KATAKANA.sub(lambda m: chr(ord(m.group(0)) - 0x60), text)


@functools.cache
def synonym_groups():
    """[(folded words, matcher), ...]: one group per tribe of the tribe table with its aliases."""
    groups = []
    for record in tribes().values():
        words = [record["en"], record["ja"], *record.get("aliases", ())]
        folded = tuple(dict.fromkeys(fold(w) for w in words if w))
        # Latin words match as whole words ("elf" is not in "itself"); Japanese words anywhere.
        parts = [rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in folded]
        groups.append((folded, re.compile("|".join(parts))))
    return groups


def with_synonyms(folded):
    """``folded`` text with the words of every synonym group it touches added."""
    extra = [word for words, matcher in synonym_groups() if matcher.search(folded) for word in words]
    return f"{folded} {' '.join(extra)}" if extra else folded


def card_search_text(parts):
    """The folded search text of a card from its texts (names, type lines, rules, keywords, id)."""
    return with_synonyms(fold(" ".join(p for p in parts if p)))


def matches(search_text, query):
    """Whether every word of ``query`` is in a card's ``search_text``."""
    return all(word in search_text for word in fold(query).split())
