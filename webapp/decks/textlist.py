"""Deck lists as text: "2 Merfolk Spearman" lines in English or Japanese (docs/decks.md "Deck lists").

- **Export** (``export``): one line per card, ``<count> <name>``, in the language asked, monsters first
  (by element, level and name), then spells.
- **Import** (``parse``): a pasted list in either language, or both mixed. A line is a count (digits,
  full-width too, with an optional ``x`` or ``×`` after it) and a card's name, or the name alone (one
  copy); ``Merfolk Spearman x2`` works too. Names are matched as the collection search matches text
  (webapp/decks/search.py ``fold``: NFKC, lower case, katakana as hiragana), with spaces and the
  middle dots of Japanese names left out, so ﾏｰﾌｫｰｸ and MERFOLK spearman both find their card; the
  card's id works as well. Blank lines and lines starting with ``#`` or ``//`` are skipped.
  What cannot be read is reported line by line (``Parsed.unknown``, ``Parsed.bad``); whether the deck
  may be stored (R2.1, R2.2) is the deck check's (webapp/decks/check.py), as for every deck.
"""

import re
from typing import NamedTuple

from webapp.decks.check import DECK_SIZE, facts
from webapp.decks.search import fold
from webapp.engine import ELEMENTS

#: The longest list read, in characters and in lines (anything longer is refused, not cut).
MAX_CHARS, MAX_LINES = 8000, 200
#: The most copies one line may ask for (a deck's worth).
MOST = DECK_SIZE
LANGS = ("en", "ja")

LEADING = re.compile(r"^(\d{1,4})\s*(?:[x×*]\s*|\s)\s*(.+)$", re.IGNORECASE)
TRAILING = re.compile(r"^(.+?)\s*(?:\s[x×*]|[x×*])\s*(\d{1,4})$", re.IGNORECASE)
SKIP = str.maketrans("", "", " \t\u3000・･·.'’\"")


def key(text):
    """The form a name is matched in: folded (``fold``), with spaces, dots and quotes left out."""
    return fold(text).translate(SKIP)


_TABLES = {}


def names(pool):
    """{matching key: card id} for every card's English and Japanese names and its id (built once per pool)."""
    cached = _TABLES.get(id(pool))
    if cached and cached[0] is pool:
        return cached[1]
    table = {}
    for cid, card in pool.items():
        names_of = facts(card)["name"]
        for text in (cid, *(names_of.get(lang) for lang in LANGS)):
            if text:
                table.setdefault(key(text), cid)
    _TABLES[id(pool)] = (pool, table)
    return table


def sort_key(card_id, pool):
    d = facts(pool[card_id])
    element = ELEMENTS.index(d["element"]) if d["element"] in ELEMENTS else len(ELEMENTS)
    return (d["kind"] != "monster", element, d.get("level") or 0, d["name"]["en"].lower())


def export(counts, pool, lang="en"):
    """The deck list of ``counts`` ({card id: copies}) in ``lang``; cards no longer in the pool are left out."""
    lang = lang if lang in LANGS else "en"
    known = [cid for cid in counts if cid in pool]
    lines = [f"{counts[cid]} {facts(pool[cid])['name'][lang]}" for cid in sorted(known, key=lambda c: sort_key(c, pool))]
    return "\n".join(lines) + ("\n" if lines else "")


class Line(NamedTuple):
    number: int  # 1-based line of the pasted text
    text: str  # the line as pasted (cut to 80 characters)


class Parsed(NamedTuple):
    """What a pasted list holds: ``counts`` of the cards found; ``unknown`` lines naming no card;
    ``bad`` lines whose count is 0 or more than a deck holds; ``too_long`` when the text was refused whole."""

    counts: dict
    unknown: list
    bad: list
    too_long: bool = False

    @property
    def clean(self):
        return not (self.unknown or self.bad or self.too_long)


PLAIN = re.compile(r"^(\d{1,4})\s+(.+)$")


def readings(line):
    """The ways to read one line, most likely first: (copies, name) pairs; the name alone (one copy) last."""
    normal = fold(" ".join(line.split()))  # full-width digits and letters to their plain forms
    out = []
    for pattern, count, name in ((PLAIN, 1, 2), (LEADING, 1, 2), (TRAILING, 2, 1)):
        m = pattern.match(normal)
        if m and m.group(name).strip():
            out.append((int(m.group(count)), m.group(name)))
    out.append((1, normal))
    return out


def parse(text, pool):
    """The Parsed list of a pasted ``text`` against ``pool`` (never raises on any string)."""
    text = text if isinstance(text, str) else ""
    if len(text) > MAX_CHARS or text.count("\n") >= MAX_LINES:
        return Parsed({}, [], [], too_long=True)
    table = names(pool)
    counts, unknown, bad = {}, [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        shown = Line(number, line[:80])
        found = next(((copies, table[key(name)]) for copies, name in readings(line) if key(name) in table), None)
        if found is None:
            unknown.append(shown)
            continue
        copies, cid = found
        if not 1 <= copies <= MOST:
            bad.append(shown)
            continue
        counts[cid] = counts.get(cid, 0) + copies
    return Parsed(counts, unknown, bad)
