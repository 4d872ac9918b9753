"""The game log: the engine's public events as sentences a player reads, in the game's language
(webapp/game/gamelog/narrator.py: one narrator, its words from the gettext catalogs under an explicit
locale), and the helpers that keep instance ids and rule numbers out of what players read
(webapp/game/gamelog/ids.py: ``plain``, ``rule_numbers``, ``mentioned`` …).
"""

from webapp.game.gamelog.ids import instance_number, mentioned, plain, rule_numbers, signed, without_rule_numbers
from webapp.game.gamelog.narrator import EVENT_TYPES, Narrator, join, words_of

__all__ = ["EVENT_TYPES", "Narrator", "describe", "instance_number", "join", "mentioned", "plain", "rule_numbers",
           "signed", "without_rule_numbers", "words_of"]


def describe(events, instances=None, names=None, viewer=None, pool=None, public=None, lang="en", seen=None):
    """The events as a list of sentences for ``viewer`` (0, 1, or None for a spectator) in ``lang``
    ("en" or "ja"; English for any other). ``seen`` as in ``Narrator.describe``."""
    return Narrator(instances, names, viewer, pool, public, lang=lang).describe(events, seen)
