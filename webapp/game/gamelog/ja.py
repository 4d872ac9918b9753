"""The game log in Japanese (issue 15): the same events and readers as webapp/game/gamelog/en.py, in the
rulebook's words (docs/glossary.md: 旅団長, 進軍, 先攻, 隊列, スペル枠, 破棄 …).

``gamelog.describe(..., lang="ja")`` uses ``NarratorJa``; it names units, seats and lands the way
the English narrator does (``あなたのオーク``, ``CPUの2体目のオーク``, ``あなたの本陣``), from the same
instances and view, so it says nothing the English log would not.
"""

from webapp.game.gamelog import en as gamelog
from webapp.game.gamelog.en import dice_sum
from webapp.cards.art import ELEMENT_NAMES
from webapp.cards.text import tribe_ja

FIZZLE_REASONS = {
    "cancelled": "取り消された",
    "source_destroyed": "使ったモンスターがすでに破棄されている",
    "negated": "使ったモンスターの能力が無効にされている",
    "target_gone": "対象がすでに破棄されている",
    "slots_gone": "支払ったスペル枠がなくなった",
}
DESTROY_REASONS = {"sacrifice": "（犠牲）", "over_capacity": "（土地の上限に収めるため）"}
TIMINGS = {
    "strikes_first": "自分パーティが先攻のとき",
    "strikes_second": "自分パーティが後攻のとき",
    "on_destroy": "破棄時",
}
RESULT_REASONS = {
    "leaders": "相手の旅団長がすべて倒れた",
    "judgment": "12巡の判定",
    "draw": "",
    "resign": "降参",
    "timeout": "時間切れ",
    "disconnect": "相手が戻らなかった",
    "puzzle": "パズルの目標",
    "host": "管理者が終了",
}
STATS = {"power": "力", "life": "生命力", "speed": "速さ"}
COIN = {"heads": "表", "tails": "裏"}


def join(parts):
    return "、".join(parts)


def sentence(text):
    text = text.strip()
    return text if not text or text.endswith(("。", "！", "？")) else text + "。"


class NarratorJa(gamelog.Narrator):
    """Japanese words for one reader (see gamelog.Narrator)."""

    def who(self, p):
        return "あなた" if self.you(p) else self.names[p]

    def whose(self, p):
        return f"{self.who(p)}の"

    def land(self, land):
        text = str(land)
        if text in ("H0", "H1"):
            return f"{self.whose(int(text[1]))}本陣"
        return text

    def card_name(self, card_id):
        card = self.pool.get(card_id) if card_id else None
        if card is None:
            return card_id or "カード"
        names = card.data.get("name") or {}
        return names.get("ja") or names.get("en") or card_id

    def nth(self, uid, card=None):
        card = self.card_of(uid, card)
        if card is None:
            return ""
        twins = self.twins(uid, card)
        return f"{twins.index(uid) + 1}体目の" if len(twins) > 1 else ""

    def unit(self, uid, card=None):
        return self.bare(uid, card)

    def owned(self, uid, card=None):
        p = self.owner(uid)
        return f"{self.whose(p)}{self.bare(uid, card)}" if p is not None else self.unit(uid, card)

    def units(self, uids, owned=False):
        parts = [self.owned(u) if owned else self.bare(u) for u in uids]
        return join(parts) if parts else "なし"

    def party(self, p, uids):
        return f"{self.whose(p)}{self.units(uids)}" if uids else f"{self.whose(p)}側は誰もいない"

    # ------------------------------------------------------------ events

    COLON = "："

    @staticmethod
    def sentence(text):
        return sentence(text)

    def unknown(self, e):
        return f"（{e.get('type')}）"

    def damage_list(self, hits):
        return join(f"{self.owned(h['unit'])}に{h['amount']}ダメージ"
                    + (f"（残り生命力{h['life']}）" if h["life"] > 0 else "") for h in hits)

    def on_leaders_chosen(self, e):
        return f"{self.who(e['player'])}が旅団長を選びました"

    def on_leaders_revealed(self, e):
        sides = [f"{self.whose(int(p))}{self.units(ids)}" for p, ids in sorted(e["leaders"].items())]
        return "旅団長の公開：" + "／".join(sides)

    def on_turn_started(self, e):
        return f"{e['round']}巡目：{self.whose(e['player'])}手番"

    def on_turn_ended(self, e):
        return f"{self.whose(e['player'])}手番が終わりました"

    def on_drew(self, e):
        return f"{self.who(e['player'])}がカードを{e['count']}枚引きました"

    def on_summoned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        return f"{self.who(p)}が{self.unit(e['unit'], e.get('card'))}を{self.land(e['land'])}に召喚しました"

    def on_marched(self, e):
        p, uids = e["player"], e["units"]
        origins = join(self.land(x) for x in sorted(set(e["from"])))
        text = f"{self.whose(p)}{self.units(uids)}が{origins}から{self.land(e['to'])}へ進軍しました"
        return text + ("、戦闘です" if e.get("battle") else "")

    def on_land_taken(self, e):
        return f"{self.who(e['player'])}が{self.land(e['land'])}を自分の土地にしました"

    def on_battle_started(self, e):
        att = e["attacker"]
        parties = e["parties"]
        return (f"{self.land(e['land'])}で戦闘：{self.party(att, parties[str(att)])} 対 "
                f"{self.party(1 - att, parties[str(1 - att)])}")

    def on_quick_summoned(self, e):
        p = e["player"]
        if not e["units"]:
            return f"{self.who(p)}は即時召喚しませんでした"
        named = join(self.unit(u, c) for u, c in zip(e["units"], e.get("cards") or [None] * len(e["units"]),
                                                       strict=False))
        return f"{self.who(p)}が{named}を戦闘に即時召喚しました"

    def on_formation(self, e):
        return f"{self.whose(e['player'])}隊列（先頭から）：{self.units(e['order'])}"

    def on_initiative(self, e):
        rolls = e["rolls"]
        order = [self.viewer, 1 - self.viewer] if self.viewer in (0, 1) else [0, 1]

        def roll(p):
            r = rolls[str(p)]
            return f"{self.who(p)} {dice_sum(r)}"

        first = e.get("first")
        tail = "同点：同時攻撃" if first is None else f"{self.who(first)}が先攻"
        return f"先攻決め：{roll(order[0])} 対 {roll(order[1])}。{tail}"

    def on_triggered(self, e):
        timing = TIMINGS.get(e.get("timing"), str(e.get("timing", "")))
        return f"{self.owned(e['unit'], e.get('card'))}の能力が働きます（{timing}）"

    def on_declared(self, e):
        p, kind = e["player"], e["kind"]
        notes = []
        if e.get("targets"):
            notes.append(f"対象：{self.units(e['targets'], owned=True)}")
        if e.get("responds_to") is not None:
            notes.append("対抗")
        if e.get("coin"):
            notes.append(f"コイン：{COIN.get(e['coin'], e['coin'])}")
        tail = f"（{'、'.join(notes)}）" if notes else ""
        if kind == "attack":
            return f"{self.who(p)}が{self.units(e.get('units', []))}で攻撃を宣言しました{tail}"
        if kind == "spell":
            return f"{self.who(p)}が{self.card_name(e.get('card'))}を使いました{tail}"
        return f"{self.owned(e['unit'], e.get('card'))}が能力を使いました{tail}"

    def on_passed(self, e):
        return f"{self.who(e['player'])}は見送りました"

    def source(self, e):
        if e.get("kind") == "attack":
            return f"{self.whose(e['player'])}攻撃"
        if e.get("kind") == "spell":
            return self.card_name(e.get("card"))
        return f"{self.card_name(e.get('card'))}の能力"

    def on_resolved(self, e):
        return f"{self.source(e)}が解決しました"

    def on_fizzled(self, e):
        return f"{self.source(e)}は不発：{FIZZLE_REASONS.get(e.get('reason'), e.get('reason'))}"

    def on_cancelled(self, e):
        return f"{self.whose(e['player'])}{self.card_name(e.get('card'))}は取り消されました"

    def on_attack(self, e):
        lead = "同時に、" if e.get("simultaneous") else ""
        return f"{lead}{self.whose(e['player'])}{self.units(e.get('units', []))}が力{e['power']}で攻撃"

    def on_damage(self, e):
        left = f"（残り生命力{e['life']}）" if e["life"] > 0 else ""
        return f"{self.owned(e['unit'])}が{e['amount']}ダメージを受けました{left}"

    def on_boosted(self, e):
        parts = [f"{STATS[k]}{gamelog.signed(e[k])}" for k in ("power", "life", "speed") if e.get(k)]
        return f"{self.owned(e['unit'])}は{join(parts)}" if parts else f"{self.owned(e['unit'])}は変化なし"

    def on_negated(self, e):
        return f"{self.owned(e['unit'])}はこの戦闘の間、能力を失いました"

    def on_slots_granted(self, e):
        def kind(k):
            return "なんでも" if k == "wild" else ELEMENT_NAMES.get(k, (k, k))[1]
        parts = [f"{kind(k)}のスペル枠{n}" for k, n in sorted(e.get("slots", {}).items())]
        return f"{self.owned(e['unit'])}は{join(parts)}を得ました"

    def on_tribe_changed(self, e):
        tribe = tribe_ja(e["tribe"]) if e.get("tribe") else None
        return f"{self.owned(e['unit'])}は種族{tribe}になりました" if tribe else f"{self.owned(e['unit'])}は種族を失いました"

    def on_level_changed(self, e):
        by = e.get("by", 0)
        return f"{self.owned(e['unit'])}のレベルが{abs(by)}{'上がって' if by >= 0 else '下がって'}{e.get('level')}になりました"

    def on_returned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        if e.get("to") == "hand":
            return f"{self.owned(e['unit'], e.get('card'))}が{self.whose(p)}手札に戻りました"
        return f"{self.owned(e['unit'], e.get('card'))}は{self.whose(p)}捨て札に置かれました（手札がいっぱい）"

    def on_destroyed(self, e):
        text = f"{self.owned(e['unit'], e.get('card'))}が破棄されました{DESTROY_REASONS.get(e.get('reason'), '')}"
        return text + ("：旅団長が倒れました" if e.get("leader") else "")

    def on_no_attack(self, e):
        return f"{self.who(e['player'])}は攻撃せずに進みました"

    def on_battle_ended(self, e):
        att = e["attacker"]
        if e.get("success"):
            return f"{self.who(att)}が{self.land(e['land'])}の戦闘に勝ちました"
        text = f"{self.whose(att)}{self.land(e['land'])}への攻撃は失敗しました"
        back = [f"{self.unit(r['unit'])}は{self.land(r['land'])}へ" for r in e.get("returned", [])]
        return text + (f"。{join(back)}戻ります" if back else "")

    def on_refill(self, e):
        return f"{self.who(e['player'])}は手札を補充しました：相手の旅団長が倒れました"

    def on_capacity_restored(self, e):
        return f"{self.land(e['land'])}の上限が元に戻りました"

    def on_discarded(self, e):
        p = e["player"]
        ids = e.get("ids") or [None] * len(e.get("cards", []))
        named = join(self.card_name(c or self.card_of(i)) for i, c in zip(ids, e.get("cards", []), strict=False))
        return f"{self.who(p)}が{named}を捨てました"

    def on_march_ability(self, e):
        return f"{self.owned(e['unit'], e.get('card'))}が【進軍】の能力を使いました"

    def on_judgment(self, e):
        a, b = e["lands"]
        return f"12巡の判定：{self.who(0)}の土地{a}、{self.who(1)}の土地{b}"

    def on_resigned(self, e):
        return f"{self.who(e['player'])}が降参しました"

    def on_taken_back(self, e):
        return f"{self.who(e['player'])}が直前の一手を戻しました"

    def on_game_over(self, e):
        w = e.get("winner")
        why = RESULT_REASONS.get(e.get("reason"), e.get("reason") or "")
        head = "対戦終了：引き分け" if w is None else f"対戦終了：{self.who(w)}の勝ち"
        return head + (f"（{why}）" if why else "")
