"""The hint in words, in the player's language: the move, why, and the runner-up and why it is worse.

``words(game, player, hint, lang)`` turns what ``webapp.ai.workers.suggest`` found (the move, its
chance, the facts of webapp/ai/reasons.py) into sentences through the gettext catalogs under the
explicit locale ``lang`` (default: the request's language), as the game log does (webapp/game/gamelog).
Cards are named by their printed name in that language, lands as the board names them ("L4", "your
base", "the enemy base"); no ids, no rule numbers. It names only cards the seat sees:
the facts name visible units' cards, and moves name the seat's own cards.
"""

from webapp import i18n
from webapp.game.gamelog import join, words_of


class Words:
    """Names and sentences for one seat of one game, in ``lang``."""

    def __init__(self, game, player, lang=None):
        self.game, self.player = game, player
        self.lang = lang or i18n.current()
        self.pool = game.state.static.pool
        self._words = words_of(self.lang)

    def _(self, msgid, **params):
        """``msgid`` in this seat's language, filled with ``params``."""
        text = self._words[msgid]
        return text % params if params else text

    def inst(self, iid):
        st = self.game.state.static
        return self.card(st.cards[st.index[iid]].id)

    def card(self, card_id):
        pool = self.pool
        card = pool.get(card_id) if hasattr(pool, "get") else pool[card_id]
        names = card.data.get("name", {}) if card is not None else {}
        return names.get(self.lang) or names.get("en") or self._("a card")

    def names(self, parts):
        return join(self._, parts) if parts else self._("nobody")

    def insts(self, ids):
        return self.names([self.inst(i) for i in ids])

    def land(self, code):
        if code == ("H0", "H1")[self.player]:
            return self._("your base")
        if code == ("H1", "H0")[self.player]:
            return self._("the enemy base")
        return code

    # ------------------------------------------------------------ moves

    def move(self, a):
        t = a["type"]
        if t == "summon":
            return self._("Summon %(card)s", card=self.inst(a["card"]))
        if t == "march":
            return self._("March %(units)s to %(land)s", units=self.insts(a["units"]), land=self.land(a["to"]))
        if t == "march_ability":
            return self._("Use the [March] ability of %(card)s", card=self.inst(a["unit"]))
        if t == "discard":
            return self._("Discard %(cards)s", cards=self.insts(a["cards"]))
        if t == "end_turn":
            return self._("End your turn")
        if t == "choose_leaders":
            return self._("Choose %(cards)s as your leaders", cards=self.insts(a["cards"]))
        if t == "quick_summon":
            return self._("Quick summon %(cards)s", cards=self.insts(a["cards"]))
        if t == "formation":
            return self._("Line up %(cards)s, in that order", cards=self.insts(a["order"]))
        if t in ("ability", "spell"):
            who = self.inst(a["unit"] if t == "ability" else a["card"])
            if a.get("targets"):
                return (self._("Use the ability of %(card)s on %(targets)s", card=who, targets=self.insts(a["targets"]))
                        if t == "ability" else
                        self._("Cast %(card)s on %(targets)s", card=who, targets=self.insts(a["targets"])))
            return self._("Use the ability of %(card)s", card=who) if t == "ability" else self._("Cast %(card)s", card=who)
        if t == "attack":
            return self._("Attack")
        if t == "pass":
            return self._("Pass")
        if t == "destroy_over_capacity":
            return self._("Destroy %(units)s to make room", units=self.insts(a["units"]))
        return self._("Resign")

    # ------------------------------------------------------------ facts

    def fact(self, key, p):
        if key == "attack":
            return self._("it attacks %(land)s with %(power)s power against %(life)s life",
                           land=self.land(p["land"]), power=p["power"], life=p["their_life"])
        if key == "takes":
            return self._("it takes %(land)s: you would hold %(mine)s lands to %(theirs)s at the judgment",
                           land=self.land(p["land"]), mine=p["mine"], theirs=p["theirs"])
        if key == "leader_exposed":
            if p.get("last"):
                return self._("your last leader, %(card)s, would stand on %(land)s beside %(power)s enemy power "
                               "with %(life)s life", card=self.card(p["card"]), land=self.land(p["land"]),
                               power=p["power"], life=p["life"])
            return self._("your leader %(card)s would stand on %(land)s beside %(power)s enemy power with "
                           "%(life)s life", card=self.card(p["card"]), land=self.land(p["land"]),
                           power=p["power"], life=p["life"])
        if key == "base_open":
            return self._("it leaves your base open to %(power)s enemy power next to it", power=p["power"])
        if key == "summon":
            return self._("it brings %(card)s onto the board", card=self.card(p["card"]))
        if key == "holds":
            return self._("your base keeps %(life)s life against %(power)s enemy power next to it",
                           life=p["life"], power=p["power"])
        if key == "leader_falls":
            return self._("in the CPU's look-ahead a leader of yours fell in %(this)s%% of the lines after "
                           "this move, %(other)s%% after the next best", this=p["this"], other=p["other"])
        if key == "losses":
            return self._("in the CPU's look-ahead you lost %(this)s%% of the lines after this move, %(other)s%% "
                           "after the next best", this=p["this"], other=p["other"])
        if key == "land_lead":
            return self._("two turns on, your land lead would average %(this)s after this move and %(other)s "
                           "after the next best", this=signed(p["this"]), other=signed(p["other"]))
        return ""

    def sentence(self, s):
        """A fact as a sentence: its first letter capitalized, and the language's full stop."""
        s = s.strip()
        if not s:
            return s
        s = s[0].upper() + s[1:]
        if self._words.stops is None:
            self._words.stops = tuple(self._(".!?"))
        return s if s.endswith(self._words.stops) else self._("%(sentence)s.", sentence=s)


def words(game, player, hint, lang=None):
    """The hint's text as the board shows it: {"sentence", "why": [sentences], "runner_up": sentence
    or None}."""
    w = Words(game, player, lang)
    move = w.move(hint["action"])
    win = hint.get("win")
    if win is None:
        head = w._("%(move)s: it is the move the CPU would make here.", move=move)
    else:
        head = w._("%(move)s: the CPU puts your chance to win from here at about %(pct)s%%.", move=move,
                       pct=round(100 * win))
    why = hint.get("why") or {}
    reasons = [w.sentence(w.fact(k, p)) for k, p in why.get("facts", [])]
    reasons += [w.sentence(w._("Mind: %(fact)s", fact=w.fact(k, p))) for k, p in why.get("risks", [])]
    runner = None
    if why.get("runner_up"):
        other = w.move(why["runner_up"])
        against = [w.fact(k, p) for k, p in why.get("against", [])]
        other_win = why.get("runner_up_win")
        if against:
            said = [a for a in against if a]
            why_worse = said[0] if said else ""
            for more in said[1:]:
                why_worse = w._("%(reason)s; %(more)s", reason=why_worse, more=more)
            runner = w._("Next best: %(move)s — worse, because %(why)s.", move=other, why=why_worse)
        elif other_win is not None:
            runner = w._("Next best: %(move)s, about %(pct)s%% in the CPU's look-ahead.", move=other,
                             pct=round(100 * other_win))
        else:
            runner = w._("Next best: %(move)s.", move=other)
    return {"sentence": head, "why": [r for r in reasons if r], "runner_up": runner}


def signed(x):
    """A lead as the board would say it: ``+1.5``, ``−0.5`` (a true minus), ``0.0``."""
    return f"{x:+.1f}".replace("-", "\u2212") if x else "0.0"
