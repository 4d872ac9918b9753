"""The game log: the engine's public events as sentences a player reads, in English
(webapp/game/gamelog/en.py, which also holds the shared helpers: ``plain``, ``rule_numbers`` …) or in
Japanese (webapp/game/gamelog/ja.py, the rulebook's terms). ``describe`` picks the narrator of a language.
"""

from webapp.game.gamelog.en import (EVENT_TYPES, Narrator, instance_number, mentioned, plain, rule_numbers, signed,
                               without_rule_numbers)
from webapp.game.gamelog.ja import NarratorJa

NARRATORS = {"en": Narrator, "ja": NarratorJa}

__all__ = ["EVENT_TYPES", "NARRATORS", "Narrator", "NarratorJa", "describe", "instance_number", "mentioned",
           "narrator", "plain", "rule_numbers", "signed", "without_rule_numbers"]


def describe(events, instances=None, names=None, viewer=None, pool=None, public=None, lang="en", seen=None):
    """The events as a list of sentences for ``viewer`` (0, 1, or None for a spectator), in English or
    (``lang="ja"``) Japanese. ``seen`` as in ``Narrator.describe``."""
    return narrator(lang)(instances, names, viewer, pool, public).describe(events, seen)


def narrator(lang="en"):
    """The Narrator class of a language (English for any other)."""
    return NARRATORS.get(lang, Narrator)
