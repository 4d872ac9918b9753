"""Rules text in English and Japanese, generated from card data (the engine's effect vocabulary).

The Japanese uses the rulebook's own terms: 【普通】【対抗】【戦闘時】【破棄時】【進軍】, スペル枠, 旅団長.
"""

import os
import tomllib

from webapp.cards import words
from webapp.engine import Amount

#: Element and keyword names, from cards/words.toml (webapp/cards/words.py, the one place they are written).
ELEMENT_JA = {k: ja for k, (_en, ja) in words.pairs("element").items()}
KEYWORD = words.pairs("keyword")
TIMING = {"battle": ("[Battle]", "【戦闘時】"), "normal": ("[Normal]", "【普通】"),
          "counter": ("[Counter]", "【対抗】"), "on_destroy": ("[On destroy]", "【破棄時】"),
          "march": ("[March]", "【進軍】"), "strikes_first": ("[Battle]", "【戦闘時】"),
          "strikes_second": ("[Battle]", "【戦闘時】")}


def tribes_path():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "cards", "tribes.toml")


_TRIBES = {}


def tribes():
    """{English tribe name: record} from cards/tribes.toml."""
    if not _TRIBES:
        with open(tribes_path(), "rb") as fh:
            for t in tomllib.load(fh)["tribe"]:
                _TRIBES[t["en"]] = t
    return _TRIBES


def tribe_ja(name):
    t = tribes().get(name)
    return t["ja"] if t else name


# ---------------------------------------------------------------- pieces

def filter_words(f, lang):
    """(adjectives before "unit", the tribe noun or None) of a filter."""
    en, ja = [], []
    if f.leader is False:
        en.append("non-leader"), ja.append("旅団長以外の")
    if f.leader is True:
        en.append("leader"), ja.append("旅団長の")
    if f.elements:
        els = sorted(f.elements)
        en.append("/".join(els))
        ja.append("・".join(ELEMENT_JA[e] for e in els) + "属性の")
    if f.max_level is not None and f.min_level is not None:
        en.append(f"@of level {f.min_level}–{f.max_level}"), ja.append(f"レベル{f.min_level}〜{f.max_level}の")
    elif f.max_level is not None:
        en.append(f"@of level {f.max_level} or less"), ja.append(f"レベル{f.max_level}以下の")
    elif f.min_level is not None:
        en.append(f"@of level {f.min_level} or more"), ja.append(f"レベル{f.min_level}以上の")
    tribe = None
    if f.tribes:
        names = sorted(f.tribes)
        en_names = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        tribe = (en_names, "・".join(tribe_ja(t) for t in names))
    return (en, tribe[0] if tribe else None) if lang == "en" else (ja, tribe[1] if tribe else None)


IRREGULAR_PLURAL = {"Undead": "Undead", "Merfolk": "Merfolk", "Harpy": "Harpies", "Cyclops": "Cyclopes",
                    "Kitsune": "Kitsune", "Tengu": "Tengu", "Kappa": "Kappa", "Tonttu": "Tonttu",
                    "Rearworld": "Rearworld units", "Fairy": "Fairies", "Dwarf": "Dwarves", "Elf": "Elves",
                    "Lamia": "Lamiae", "Gnome": "Gnomes", "Lizardman": "Lizardmen"}


def plural(word):
    if word in IRREGULAR_PLURAL:
        return IRREGULAR_PLURAL[word]
    last = word.split()[-1]
    if last in IRREGULAR_PLURAL:
        return word[: -len(last)] + IRREGULAR_PLURAL[last]
    return word + "es" if word.endswith(("s", "x", "ch")) else word + "s"


def article(word):
    w = word.lower()
    return "an" if w[:1] in "aeiou" and not w.startswith(("uni", "use", "one")) else "a"


def noun(f, lang, plural_form=False, base=None):
    adj, tribe = filter_words(f, lang)
    if lang == "en":
        if tribe:
            head = tribe
            if plural_form:
                parts = tribe.replace(" or ", ", ").split(", ")
                head = ", ".join(plural(t) for t in parts[:-1]) + (" or " if len(parts) > 1 else "") + plural(parts[-1])
        else:
            head = base or "unit"
            head = plural(head) if plural_form else head
        before = [a for a in adj if not a.startswith("@")]
        after = [a[1:] for a in adj if a.startswith("@")]  # "of level 2 or less" follows the noun
        return " ".join(before + [head] + after)
    return "".join(adj) + (tribe or base or "ユニット")


def has_filter(f):
    return any(getattr(f, k) is not None for k in ("tribes", "elements", "max_level", "min_level", "leader"))


SEL = {
    "self": ("this unit", "このユニット"),
    "chosen": ("the chosen unit", "選んだユニット"),
    "enemy_front": ("the enemy's front unit", "相手の先頭1体"),
    "enemy_rear": ("the enemy's rear unit", "相手の最後尾1体"),
    "ally_front": ("your front unit", "自分の先頭1体"),
    "ally_rear": ("your rear unit", "自分の最後尾1体"),
    "allies": ("each unit in your party", "自分パーティ全員"),
    "other_allies": ("each of your other units", "ほかの味方全員"),
    "enemies": ("each enemy unit", "相手パーティ全員"),
    "all": ("each unit in the battle", "戦闘中の両軍全員"),
}
GROUP_EN = {"allies": "each {} in your party", "other_allies": "each of your other {}",
            "enemies": "each enemy {}", "all": "each {} in the battle"}
GROUP_JA = {"allies": "自分パーティの{}全員", "other_allies": "ほかの味方の{}全員", "enemies": "相手パーティの{}全員",
            "all": "戦闘中の{}全員"}


def selector(sel, lang):
    if not has_filter(sel.filter):
        return SEL[sel.name][0 if lang == "en" else 1]
    if sel.name in GROUP_EN:
        if lang == "en":
            return GROUP_EN[sel.name].format(noun(sel.filter, "en", plural_form=sel.name == "other_allies"))
        return GROUP_JA[sel.name].format(noun(sel.filter, "ja"))
    base = SEL[sel.name][0 if lang == "en" else 1]
    if lang == "en":
        n = noun(sel.filter, "en")
        return f"{base} (if it is {article(n)} {n})"
    return f"{base}（{noun(sel.filter, 'ja')}なら）"


def count_phrase(a, lang):
    if a.count is not None:
        sel = a.count
        if lang == "en":
            return f"the number of {noun(sel.filter, 'en', plural_form=True)} in " + (
                "your party" if sel.name in ("allies", "other_allies") else
                "the enemy party" if sel.name == "enemies" else "the battle")
        where = {"allies": "自分パーティ", "other_allies": "ほかの味方", "enemies": "相手パーティ"}.get(sel.name, "戦闘中")
        return f"{where}の{noun(sel.filter, 'ja')}の数"
    who = {"allies": ("your", "味方"), "enemies": ("enemy", "敵"), "all": ("", "両軍の")}[a.fallen]
    if lang == "en":
        either = " of either side" if a.fallen == "all" else ""
        whose = who[0] + " " if who[0] else ""
        return f"the number of {whose}{noun(a.fallen_filter, 'en', plural_form=True)}{either} destroyed this battle"
    return f"この戦闘で破棄された{who[1]}{noun(a.fallen_filter, 'ja')}の数"


TIMES_EN = {2: "twice", 3: "three times", 4: "four times"}


def amount(a, lang):
    """(short form for the sentence, a following sentence explaining X, or '')."""
    if not isinstance(a, Amount):
        return str(a), ""
    what = count_phrase(a, lang)
    if lang == "en":
        if a.times != 1:
            what = f"{TIMES_EN.get(a.times, f'{a.times} times')} {what}"
        if a.plus:
            what = f"{a.plus} plus {what}" if a.plus > 0 else f"{what} minus {-a.plus}"
        return "X", f" X is {what}."
    if a.times != 1:
        what = f"{what}の{a.times}倍"
    if a.plus:
        what = f"{what}に{a.plus}を足した数" if a.plus > 0 else f"{what}から{-a.plus}を引いた数"
    return "X", f"Xは{what}。"


def signed(n):
    """+2 / −2 with a real minus sign."""
    text = str(n)
    return "\u2212" + text[1:] if text.startswith("-") else "+" + text


def effect(e, lang, continuous=False):
    op = e.op
    en = lang == "en"
    to = selector(e.to, lang) if e.to is not None and op != "summon" else ""
    if op == "damage":
        n, tail = amount(e.amount, lang)
        return f"Deal {n} damage to {to}.{tail}" if en else f"{to}に{n}ダメージを与える。{tail}"
    if op == "boost":
        parts, tails = [], []
        for stat, ja in (("power", "力"), ("life", "生命力"), ("speed", "速さ")):
            v = getattr(e, stat)
            if v == 0:
                continue
            n, tail = amount(v, lang)
            parts.append(f"{signed(n)} {stat}" if en else f"{ja}{signed(n)}")
            if tail and tail not in tails:
                tails.append(tail)
        if en:
            when = "" if continuous else " this battle"
            return f"{to[0].upper() + to[1:]} gets {' and '.join(parts)}{when}.{''.join(tails)}"
        return f"{to}の{'、'.join(parts)}{'' if continuous else '（この戦闘中）'}。{''.join(tails)}"
    if op == "grant_slots":
        slots = sorted(e.slots.items())
        if en:
            return f"{to[0].upper() + to[1:]} gains " + \
                " and ".join(f"{n} {k} slot{'s' if n > 1 else ''}" for k, n in slots) + "."
        return f"{to}に" + "と".join(f"{ELEMENT_JA[k]}のスペル枠{n}" for k, n in slots) + "を加える。"
    if op == "negate":
        return f"Negate the abilities of {to} this battle." if en else f"{to}の能力を無効にする（この戦闘中）。"
    if op == "set_tribe":
        return (f"{to[0].upper() + to[1:]} becomes tribe {e.tribe} this battle." if en
                else f"{to}の種族を{tribe_ja(e.tribe)}にする（この戦闘中）。")
    if op == "change_level":
        return (f"{to[0].upper() + to[1:]} gets level {signed(e.by)} this battle." if en
                else f"{to}のレベル{signed(e.by)}（この戦闘中）。")
    if op == "return_to_hand":
        leaders = "" if e.to.name == "chosen" else (" Leaders stay." if en else "旅団長は戻らない。")
        return f"Return {to} to its owner's hand.{leaders}" if en else f"{to}を持ち主の手札に戻す。{leaders}"
    if op == "destroy":
        return f"Destroy {to}." if en else f"{to}を破棄する。"
    if op == "cancel_spell":
        return "Cancel that spell." if en else "その魔法を打ち消す。"
    if op == "spell_lock":
        return "Neither side may use spells." if en else "両軍とも魔法を使えない。"
    if op == "allow_quick_summon":
        return (f"Your party may quick summon {noun(e.filter, 'en', plural_form=True, base='monster')} from your hand, "
                f"even without the Quick mark and whatever their level, within the land's capacity." if en else
                f"手札の{noun(e.filter, 'ja', base='モンスター')}を、即時召喚の印が無くてもレベルを問わず即時召喚できる"
                f"（土地の上限は守る）。")
    if op == "draw":
        return (f"Draw {e.count} card{'s' if e.count > 1 else ''}." if en else f"カードを{e.count}枚引く。")
    if op == "summon":
        src = ("your hand", "手札") if e.source == "hand" else ("your discard pile", "捨て札")
        dst = ("this unit's land", "このユニットのいる土地") if e.dest == "here" else \
            ("a land next to this unit", "このユニットの隣の土地")
        if en:
            what = noun(e.filter, 'en', base='monster')
            return f"Summon {article(what)} {what} from {src[0]} to {dst[0]}."
        return f"{src[1]}から{noun(e.filter, 'ja', base='モンスター')}1体を{dst[1]}に召喚する。"
    raise ValueError(f"no text for effect {op!r}")


def effects(lst, lang, continuous=False):
    out = []
    for i, e in enumerate(lst):
        text = effect(e, lang, continuous)
        prev = lst[i - 1] if i else None
        if prev is not None and e.to is not None and prev.to is not None and e.to.name == prev.to.name == "chosen":
            if lang == "en":
                text = text.replace("The chosen unit", "It", 1).replace("the chosen unit", "it", 1)
                text = text.replace("It gets", "It also gets").replace("It becomes", "It also becomes")
            else:
                text = text.replace("選んだユニット", "そのユニット", 1)
        out.append(text)
    return (" " if lang == "en" else "").join(out)


def condition(c, lang):
    en = lang == "en"
    parts = []
    if c.role is not None:
        parts.append(("while attacking" if c.role == "attacker" else "while defending") if en else
                     ("攻撃側のとき" if c.role == "attacker" else "守備側のとき"))
    a = c.amount
    if a is not None:
        if a.count is not None and a.times == 1 and a.plus == 0 and c.at_least is not None and c.at_most is None:
            sel = a.count
            who = {"allies": ("your party has", "自分パーティに"), "other_allies": ("you have", "ほかの味方に"),
                   "enemies": ("the enemy party has", "相手パーティに"), "all": ("the battle has", "戦闘中に")}[sel.name]
            what_en = noun(sel.filter, "en", plural_form=c.at_least != 1)
            if sel.name == "other_allies":
                what_en = "other " + what_en
            parts.append(f"while {who[0]} {c.at_least} or more {what_en}" if en
                         else f"{who[1]}{noun(sel.filter, 'ja')}が{c.at_least}体以上いるとき")
        elif a.fallen is not None and a.times == 1 and a.plus == 0 and c.at_least is not None and c.at_most is None:
            side = {"allies": (("of your units", "of your units"), "味方"),
                    "enemies": (("enemy unit", "enemy units"), "敵"),
                    "all": (("unit of either side", "units of either side"), "両軍の")}[a.fallen]
            what = noun(a.fallen_filter, "ja")
            if en:
                n = c.at_least
                many = "one" if n == 1 else f"{n} or more"
                subject = f"{many} {side[0][0 if n == 1 else 1]}"
                if a.fallen_filter is not None and has_filter(a.fallen_filter):
                    subject += f" ({noun(a.fallen_filter, 'en', plural_form=True)})"
                parts.append(f"once {subject} {'has' if n == 1 else 'have'} been destroyed this battle")
            else:
                parts.append(f"この戦闘で{side[1]}{what}が{c.at_least}体以上破棄されているとき")
        else:
            what = count_phrase(a, lang)
            if c.at_least is not None:
                parts.append(f"while {what} is {c.at_least} or more" if en else f"{what}が{c.at_least}以上のとき")
            if c.at_most is not None:
                parts.append(f"while {what} is {c.at_most} or less" if en else f"{what}が{c.at_most}以下のとき")
    if en:
        s = " and ".join(parts)
        return s[0].upper() + s[1:] + ", "
    return "、".join(parts) + "、"


RESPOND = {"spell": ("In response to an enemy spell: ", "相手の魔法に対抗して："),
           "attack": ("In response to an enemy attack: ", "相手の攻撃に対抗して："),
           "ability": ("In response to an enemy ability: ", "相手の能力に対抗して：")}


def ability(ab, lang, is_spell=False):
    """One ability (or a spell body) as a sentence with its timing mark."""
    en = lang == "en"
    mark = TIMING[ab.timing][0 if en else 1]
    body = ""
    if ab.timing == "strikes_first":
        body += "When your party strikes first, " if en else "自分パーティが先攻のとき、"
    elif ab.timing == "strikes_second":
        body += "When your party strikes second, " if en else "自分パーティが後攻のとき、"
    if ab.condition is not None:
        body += condition(ab.condition, lang)
    respond = RESPOND[ab.respond_to][0 if en else 1] if ab.timing == "counter" and ab.respond_to in RESPOND else ""
    if ab.sacrifice is not None:
        if respond:  # one lead-in: "In response to an enemy spell, sacrifice …:"
            respond = respond[:-2] + ", " if en else respond[:-1] + "、"
        sac = noun(ab.sacrifice, 'en', base='ally')
        body += respond + (f"{'s' if respond else 'S'}acrifice {article(sac)} {sac}: " if en
                           else f"{noun(ab.sacrifice, 'ja', base='味方')}1体を犠牲にして：")
    else:
        body += respond
    if ab.target is not None:
        side = {"enemy": ("enemy", "相手の"), "ally": ("allied", "味方の"), "any": ("", "どちらかの軍の")}[ab.target.side]
        what = noun(ab.target.filter, lang)
        phrase = f"{side[0]} {what}" if side[0] else f"{what} of either side"
        body += (f"Choose {article(phrase)} {phrase}. "
                 if en else f"{side[1]}{what}1体を選ぶ。")
    if ab.choose_one is not None:
        opts = [effects(o, lang) for o in ab.choose_one]
        if en:
            opts = [o[0].lower() + o[1:] if not o.startswith(("X ",)) else o for o in opts]
            opts = [o[:-1] if o.endswith(".") and o.count(". ") == 0 else o for o in opts]
            body += "Choose one — " + "; or ".join(opts) + "."
        else:
            body += "次から1つ選ぶ：" + "／".join(opts)
    elif ab.coin is not None:
        body += (f"Flip a coin. Heads: {effects(ab.coin[0], lang)} Tails: {effects(ab.coin[1], lang)}" if en
                 else f"コインを投げる。表：{effects(ab.coin[0], lang)}裏：{effects(ab.coin[1], lang)}")
    else:
        text = effects(ab.effects, lang, continuous=ab.timing == "battle")
        if en and body and not body.endswith((". ", ": ")):
            text = text[0].lower() + text[1:]
        body += text
    if ab.unrespondable:
        body += " This declaration cannot be responded to." if en else "この宣言には対抗できない。"
    if en and body:
        body = body[0].upper() + body[1:]
    return f"{mark} {body}" if en else f"{mark}{body}"


def rules_text(card, lang):
    """The full rules text of a card in one language ('en' or 'ja')."""
    en = lang == "en"
    lines = []
    if card.keywords:
        kws = [KEYWORD[k][0 if en else 1] for k in card.keywords]
        lines.append(" ".join(k + "." for k in kws) if en else "".join(kws))
    if card.kind == "spell":
        lines.append(ability(card.spell, lang, is_spell=True))
    else:
        for ab in card.abilities:
            lines.append(ability(ab, lang))
    return "\n".join(lines)
