"""The engine's refusals in the player's language (docs/i18n.md "Refusals").

The engine words a refusal in English (webapp/engine: ``IllegalAction(message, rule)``); English
players read that sentence as ``play.plain_refusal`` makes it plain. Players of another language read
a sentence chosen here by the refusal's rule (and the action's kind where one rule has several
cases), translated through the gettext catalogs: the engine stays free of the web's languages, and
the sentence names no card, so it can never name a hidden one.
"""

from webapp import i18n


def N_(text):
    """Marks a msgid for pybabel extract; translated in ``words``."""
    return text


#: (rule, action kind) → sentence; a rule alone (kind None) covers the kinds not listed.
BY_RULE = {
    ("R1.1", None): N_("The game is over."),
    ("R6.1", None): N_("It is not your move: the game waits for your opponent."),
    ("R4.1", None): N_("There is no such land."),
    ("R5.4", None): N_("Choose 1 to 3 monsters from your opening hand, total level 5 at most."),
    ("R6.3", "summon"): N_("You may summon only in your own main step."),
    ("R6.3", None): N_("You may march only in your own main step."),
    ("R6.7", None): N_("You may discard only cards from your own hand, each once, in your main step (not during a battle)."),
    ("R7.1", None): N_("You may summon only monsters from your own hand."),
    ("R7.2", None): N_("There is no room on your base: its total level would be over 5."),
    ("R7.3", None): N_("You may not summon while an enemy monster stands on your base."),
    ("R7.5", None): N_("Spells are cast in battle, not summoned."),
    ("R8.1", None): N_("Those monsters cannot march there now."),
    ("R8.4", None): N_("There is no room on that land: your monsters' total level there would be over its capacity."),
    ("R8.7", None): N_("Your attack on that land failed this turn: you may not attack it again while enemies remain."),
    ("R8.8", None): N_("Destroy your monsters there (never leaders) one at a time, and stop as soon as the land fits."),
    ("R9.2", None): N_("Those cards cannot be quick summoned together: each needs the Quick mark (or an ability that "
                       "allows it), and the party's total level must fit the land."),
    ("R9.4", None): N_("A formation puts your whole battle party in order, each monster once."),
}

#: action kind → sentence, for the refusals without a rule (a move not among the legal ones now).
BY_KIND = {
    "ability": N_("That ability cannot be used that way now."),
    "march_ability": N_("That [March] ability cannot be used that way now."),
    "spell": N_("That spell cannot be cast that way now."),
}
OTHER = N_("That move is not possible now.")


#: The compiled catalog of a language (webapp/i18n.py ``catalog``).
translations = i18n.catalog


def sentence(rule, kind):
    """The English msgid for a refusal of ``rule`` (or None) to an action of ``kind``."""
    return BY_RULE.get((rule, kind)) or BY_RULE.get((rule, None)) or BY_KIND.get(kind) or OTHER


def words(lang, rule, kind):
    """The refusal in ``lang``; None for English (the engine's own sentence is shown then)."""
    if lang == i18n.DEFAULT or lang not in i18n.LANGS:
        return None
    return translations(lang).gettext(sentence(rule, kind))
