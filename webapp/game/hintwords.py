"""The hint in words, in the player's language: the move, why, and the runner-up and why it is worse.

``words(game, player, hint)`` turns what ``webapp.ai.workers.suggest`` found (the move, its chance,
the facts of webapp/ai/reasons.py) into sentences through the gettext catalogs (the request's
language). Cards are named by their printed name in that language, lands as the board names them
("L4", "your base", "the enemy base"); no ids, no rule numbers. It names only cards the seat sees:
the facts name visible units' cards, and moves name the seat's own cards.
"""

from flask_babel import gettext

from webapp import i18n


def _card_name(pool, card_id, lang):
    card = pool.get(card_id) if hasattr(pool, "get") else pool[card_id]
    names = card.data.get("name", {}) if card is not None else {}
    return names.get(lang) or names.get("en") or gettext("a card")


class Words:
    """Names and sentences for one seat of one game, in ``lang``."""

    def __init__(self, game, player, lang=None):
        self.game, self.player = game, player
        self.lang = lang or i18n.current()
        self.pool = game.state.static.pool

    def inst(self, iid):
        st = self.game.state.static
        return _card_name(self.pool, st.cards[st.index[iid]].id, self.lang)

    def card(self, card_id):
        return _card_name(self.pool, card_id, self.lang)

    def names(self, parts):
        if not parts:
            return gettext("nobody")
        if self.lang == "ja":
            return "、".join(parts)
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def insts(self, ids):
        return self.names([self.inst(i) for i in ids])

    def land(self, code):
        if code == ("H0", "H1")[self.player]:
            return gettext("your base")
        if code == ("H1", "H0")[self.player]:
            return gettext("the enemy base")
        return code

    # ------------------------------------------------------------ moves

    def move(self, a):
        t = a["type"]
        if t == "summon":
            return gettext("Summon %(card)s", card=self.inst(a["card"]))
        if t == "march":
            return gettext("March %(units)s to %(land)s", units=self.insts(a["units"]), land=self.land(a["to"]))
        if t == "march_ability":
            return gettext("Use the [March] ability of %(card)s", card=self.inst(a["unit"]))
        if t == "discard":
            return gettext("Discard %(cards)s", cards=self.insts(a["cards"]))
        if t == "end_turn":
            return gettext("End your turn")
        if t == "choose_leaders":
            return gettext("Choose %(cards)s as your leaders", cards=self.insts(a["cards"]))
        if t == "quick_summon":
            return gettext("Quick summon %(cards)s", cards=self.insts(a["cards"]))
        if t == "formation":
            return gettext("Line up %(cards)s, in that order", cards=self.insts(a["order"]))
        if t in ("ability", "spell"):
            who = self.inst(a["unit"] if t == "ability" else a["card"])
            if a.get("targets"):
                return (gettext("Use the ability of %(card)s on %(targets)s", card=who, targets=self.insts(a["targets"]))
                        if t == "ability" else
                        gettext("Cast %(card)s on %(targets)s", card=who, targets=self.insts(a["targets"])))
            return gettext("Use the ability of %(card)s", card=who) if t == "ability" else gettext("Cast %(card)s", card=who)
        if t == "attack":
            return gettext("Attack")
        if t == "pass":
            return gettext("Pass")
        if t == "destroy_over_capacity":
            return gettext("Destroy %(units)s to make room", units=self.insts(a["units"]))
        return gettext("Resign")

    # ------------------------------------------------------------ facts

    def fact(self, key, p):
        if key == "attack":
            return gettext("it attacks %(land)s with %(power)s power against %(life)s life",
                           land=self.land(p["land"]), power=p["power"], life=p["their_life"])
        if key == "takes":
            return gettext("it takes %(land)s: you would hold %(mine)s lands to %(theirs)s at the judgment",
                           land=self.land(p["land"]), mine=p["mine"], theirs=p["theirs"])
        if key == "leader_exposed":
            if p.get("last"):
                return gettext("your last leader, %(card)s, would stand on %(land)s beside %(power)s enemy power "
                               "with %(life)s life", card=self.card(p["card"]), land=self.land(p["land"]),
                               power=p["power"], life=p["life"])
            return gettext("your leader %(card)s would stand on %(land)s beside %(power)s enemy power with "
                           "%(life)s life", card=self.card(p["card"]), land=self.land(p["land"]),
                           power=p["power"], life=p["life"])
        if key == "base_open":
            return gettext("it leaves your base open to %(power)s enemy power next to it", power=p["power"])
        if key == "summon":
            return gettext("it brings %(card)s onto the board", card=self.card(p["card"]))
        if key == "holds":
            return gettext("your base keeps %(life)s life against %(power)s enemy power next to it",
                           life=p["life"], power=p["power"])
        if key == "leader_falls":
            return gettext("in the CPU's look-ahead a leader of yours fell in %(this)s%% of the lines after "
                           "this move, %(other)s%% after the next best", this=p["this"], other=p["other"])
        if key == "losses":
            return gettext("in the CPU's look-ahead you lost %(this)s%% of the lines after this move, %(other)s%% "
                           "after the next best", this=p["this"], other=p["other"])
        if key == "land_lead":
            return gettext("two turns on you would lead by %(this)s lands on average, against %(other)s",
                           this=p["this"], other=p["other"])
        return ""

    def sentence(self, s):
        s = s.strip()
        if not s:
            return s
        if self.lang == "ja":
            return s if s.endswith("。") else s + "。"
        return s[0].upper() + s[1:] + ("" if s.endswith(".") else ".")


def words(game, player, hint, lang=None):
    """The hint's text as the board shows it: {"sentence", "why": [sentences], "runner_up": sentence
    or None}."""
    w = Words(game, player, lang)
    move = w.move(hint["action"])
    win = hint.get("win")
    if win is None:
        head = gettext("%(move)s: it is the move the CPU would make here.", move=move)
    else:
        head = gettext("%(move)s: the CPU puts your chance to win from here at about %(pct)s%%.", move=move,
                       pct=round(100 * win))
    why = hint.get("why") or {}
    reasons = [w.sentence(w.fact(k, p)) for k, p in why.get("facts", [])]
    reasons += [w.sentence(gettext("Mind: %(fact)s", fact=w.fact(k, p))) for k, p in why.get("risks", [])]
    runner = None
    if why.get("runner_up"):
        other = w.move(why["runner_up"])
        against = [w.fact(k, p) for k, p in why.get("against", [])]
        other_win = why.get("runner_up_win")
        if against:
            runner = gettext("Next best: %(move)s — worse, because %(why)s.", move=other,
                             why=("; " if w.lang != "ja" else "、").join(a for a in against if a))
        elif other_win is not None:
            runner = gettext("Next best: %(move)s, about %(pct)s%% in the CPU's look-ahead.", move=other,
                             pct=round(100 * other_win))
        else:
            runner = gettext("Next best: %(move)s.", move=other)
    return {"sentence": head, "why": [r for r in reasons if r], "runner_up": runner}
