"""What the log and the messages for players must not show: instance ids (``p0c17``) and rule numbers
(``R8.7``). ``mentioned`` finds the ids an event names (the log counts them for its ordinals);
``plain`` takes ids and rule numbers out of a message; ``signed`` and ``dice_sum`` write numbers the
same way in every language."""

import re

INSTANCE = re.compile(r"^p([01])c(\d+)$")
MINUS = "\u2212"


def instance_number(uid):
    m = INSTANCE.match(uid or "")
    return int(m.group(2)) if m else 0


def mentioned(value):
    """Every instance-id-like string in an event (its units, targets, parties, returns)."""
    out = set()
    _mention(value, out)
    return out


def _mention(value, out):
    if isinstance(value, str):
        if value[:1] == "p" and INSTANCE.match(value):
            out.add(value)
        return
    if isinstance(value, dict):  # "ids" of discarded cards name cards from a hand, not units
        items = [v for k, v in value.items() if k != "ids"]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return
    for v in items:  # each item at once when it is a string or a number (most are), else deeper
        kind = type(v)
        if kind is str:
            if v[:1] == "p" and INSTANCE.match(v):
                out.add(v)
        elif kind is not int and kind is not bool and v is not None:
            _mention(v, out)


def signed(n):
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"


def dice_sum(roll):
    """An initiative roll (R9.1, step 5) as a sum a player reads: "5 + 1 = 6", "5 − 1 = 4" (never "5+-1")."""
    speed = roll["speed"]
    sign = "+" if speed >= 0 else MINUS
    return f"{roll['die']} {sign} {abs(speed)} = {roll['total']}"


# ---------------------------------------------------------------- messages in plain words

#: A rule number such as R8.7 or R13.5a (and a bare chapter, R16, inside a list of them).
RULE = r"R\d{1,2}(?:\.\d{1,2}[a-z]?)?"
RULE_NUMBER = re.compile(r"\bR\d{1,2}\.\d{1,2}[a-z]?\b")
RULE_LIST = re.compile(rf"\s*[(（]\s*(?:see\s+)?{RULE}(?:\s*(?:,|、|;|and|or|–|-)\s*{RULE})*\s*[)）]")
RULE_LEAD = re.compile(rf"(?:(?<=^)|(?<=[\s(]))(?:{RULE}(?:\s*,\s*{RULE})*)\s*:\s*")
INSTANCE_ANYWHERE = re.compile(r"\bp[01]c\d+\b")


def rule_numbers(text):
    """The rule numbers a text cites, in order (for a "Why?" link or a tooltip)."""
    return list(dict.fromkeys(RULE_NUMBER.findall(text or "")))


def without_rule_numbers(text):
    """The text with its rule citations taken out: "(R8.7)", "(R5.1, R5.7)", "R8.7: ", a bare R8.7."""
    text = RULE_LIST.sub("", text or "")
    text = RULE_LEAD.sub("", text)
    text = RULE_NUMBER.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"([(（])\s+", r"\1", text)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def plain(text, name=None):
    """A message for a player: no rule numbers, and every instance id replaced by ``name(uid)``
    (a card name the reader may know) or "that card"."""
    def named(m):
        word = name(m.group(0)) if name is not None else None
        return word or "that card"
    return without_rule_numbers(INSTANCE_ANYWHERE.sub(named, text or ""))
