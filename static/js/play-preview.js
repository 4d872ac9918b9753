// Read any card at once (issue 14): hovering a card (mouse) or pressing on it for half a second
// (touch) shows it large beside the pointer, with its rules in readable type (15 px) and every
// keyword and timing mark explained in plain words. No modal: the pointer passes through it, and a
// click on the card still does what it always did (details, select, summon).

import {h, add} from "./play-util.js";
import {ELEMENT_JA} from "./play-cards.js";

/** Keywords and timing marks in plain words; `match` finds them in a card's rules text. */
export const GLOSSARY = [
  {key: "haste", en: "Haste", ja: "速攻", match: /Haste|速攻/,
    say: {en: "Can march on the turn it is summoned.", ja: "召喚した手番にすぐ進軍できる。"}},
  {key: "double_march", en: "Double March", ja: "2回移動", match: /Double March|2回移動/,
    say: {en: "May march twice in one turn.", ja: "1手番に2回進軍できる。"}},
  {key: "far_march", en: "Far March", ja: "どこでも進軍", match: /Far March|どこでも進軍/,
    say: {en: "Besides its usual march next door, may march to any land but the enemy base, even one that is not next to it.", ja: "相手の本陣以外なら、隣でない土地にも進軍できる。"}},
  {key: "spellproof", en: "Spellproof", ja: "魔法無効", match: /Spellproof|魔法無効/,
    say: {en: "Spells do nothing to it, helpful or harmful. Abilities still work on it.", ja: "魔法は（味方のものも）効かない。能力は効く。"}},
  {key: "quick", en: "Quick", ja: "即時召喚", match: /\bQuick\b|即時召喚/,
    say: {en: "Can join a battle straight from your hand, if the land has room for its level.", ja: "土地の上限に余裕があれば、手札から直接戦闘に加われる。"}},
  {key: "normal", en: "[Normal]", ja: "【普通】", match: /\[Normal\]|【普通】/,
    say: {en: "Used in a battle in your own turn to act, when nothing is waiting to happen.", ja: "戦闘中、自分の番で何も待っていないときに使う。"}},
  {key: "counter", en: "[Counter]", ja: "【対抗】", match: /\[Counter\]|【対抗】/,
    say: {en: "An answer: used in a battle right after the opponent declares something.", ja: "相手が何かを宣言した直後に、それへの応答として使う。"}},
  {key: "battle", en: "[Battle]", ja: "【戦闘時】", match: /\[Battle\]|【戦闘時】/,
    say: {en: "Works by itself while this monster fights (not when both sides strike at once).", ja: "このモンスターが戦う間、自動で働く（同時攻撃のときは働かない）。"}},
  {key: "march", en: "[March]", ja: "【進軍】", match: /\[March\]|【進軍】/,
    say: {en: "Used on the map in your turn; the monster then rests until your next turn.", ja: "自分の手番に盤面で使う。使ったモンスターは次の自分の手番まで休む。"}},
  {key: "on_destroy", en: "[On destroy]", ja: "【破棄時】", match: /\[On destroy\]|【破棄時】/,
    say: {en: "Happens when this monster is destroyed.", ja: "このモンスターが破棄されたときに起こる。"}},
];

const KW_BY_KEY = Object.fromEntries(GLOSSARY.map((g) => [g.key, g]));
const HOVER_MS = 220;
const LONG_PRESS_MS = 450;

export class Preview {
  constructor(board) {
    this.b = board;
    this.el = h("div", {class: "pl-preview", role: "tooltip", id: "pl-preview", hidden: true, "data-testid": "preview"});
    this.timer = 0;
    this.target = null;
    this.pressed = false;
    const root = board.root;
    root.addEventListener("pointerover", (e) => this.over(e));
    root.addEventListener("pointerout", (e) => this.out(e));
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("pointermove", (e) => this.move(e));
    for (const t of ["pointerup", "pointercancel"]) root.addEventListener(t, () => clearTimeout(this.timer));
    // the click that ends a long press only shows the card: it does not also select or open it
    root.addEventListener("click", (e) => { if (this.pressed) { e.preventDefault(); e.stopPropagation(); this.pressed = false; } }, true);
    root.addEventListener("contextmenu", (e) => { if (this.cardAt(e.target)) e.preventDefault(); });
    document.addEventListener("pointerdown", (e) => { if (e.pointerType !== "mouse" && !this.el.hidden && !this.cardAt(e.target)) this.hide(); }, true);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.hide(); });
    window.addEventListener("scroll", () => this.hide(), true);
  }

  /** The card id an element on the board stands for (a hand card, a unit, a leader, a declaration). */
  cardAt(el) {
    const host = el && el.closest ? el.closest("[data-card], [data-unit]") : null;
    if (!host || !this.b.root.contains(host)) return null;
    if (host.dataset.card) return {host, card: host.dataset.card, unit: null};
    const u = this.b.unit(host.dataset.unit);
    return u ? {host, card: u.card, unit: u} : null;
  }

  over(e) {
    if (e.pointerType !== "mouse") return;
    const found = this.cardAt(e.target);
    if (!found) return;
    if (this.target === found.host && !this.el.hidden) return;
    clearTimeout(this.timer);
    const {clientX: x, clientY: y} = e;
    this.timer = setTimeout(() => this.show(found, x, y), HOVER_MS);
  }

  out(e) {
    if (e.pointerType !== "mouse") return;
    const found = this.cardAt(e.target);
    const to = this.cardAt(e.relatedTarget);
    if (found && to && found.host === to.host) return;
    clearTimeout(this.timer);
    this.hide();
  }

  down(e) {
    if (e.pointerType === "mouse") return;
    this.pressed = false;
    const found = this.cardAt(e.target);
    if (!found) return;
    this.start = [e.clientX, e.clientY];
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.pressed = true; this.show(found, e.clientX, e.clientY); }, LONG_PRESS_MS);
  }

  move(e) {
    if (e.pointerType === "mouse" || !this.start) return;
    if (Math.hypot(e.clientX - this.start[0], e.clientY - this.start[1]) > 10) clearTimeout(this.timer);
  }

  hide() {
    clearTimeout(this.timer);
    this.el.hidden = true;
    if (this.target) this.target.removeAttribute("aria-describedby");
    this.target = null;
  }

  show({host, card, unit}, x, y) {
    const B = this.b;
    const C = B.cards;
    const c = C.get(card);
    const lang = C.lang;  // the card language (board settings), which may differ from the page's
    const element = (lang === "ja" && ELEMENT_JA[c.element]) || c.element || "";
    this.el.textContent = "";
    const facts = [];
    if (c.kind === "spell") {
      facts.push(`${lang === "ja" ? "魔法" : "Spell"} · ${element}`, c.mana !== undefined ? `${lang === "ja" ? "魔力" : "mana"} ${c.mana}` : null);
    } else {
      facts.push(`${lang === "ja" ? "レベル" : "Level"} ${c.level ?? "?"} · ${element}${c.tribe ? " · " + c.tribe : ""}`);
      const pw = unit ? unit.power : c.power;
      const life = unit ? `${unit.life}/${unit.max_life}` : c.life;
      facts.push(`⚔ ${pw ?? "?"}  ·  ${lang === "ja" ? "速さ" : "speed"} ${(unit ? unit.speed : c.speed) ?? 0}  ·  ♥ ${life ?? "?"}`);
    }
    const text = C.text(card);
    const found = [];
    for (const k of c.keywords || []) if (KW_BY_KEY[k]) found.push(KW_BY_KEY[k]);
    if (c.quick && !found.includes(KW_BY_KEY.quick)) found.push(KW_BY_KEY.quick);
    for (const g of GLOSSARY) if (!found.includes(g) && g.match.test(text)) found.push(g);
    add(this.el,
      C.img(card, "pl-preview-img"),
      h("div", {class: "pl-preview-body"},
        h("p", {class: "pl-preview-name"}, C.name(card)),
        ...facts.filter(Boolean).map((f) => h("p", {class: "pl-preview-facts"}, f)),
        text ? h("p", {class: "pl-preview-text", "data-testid": "preview-text"}, ...this.marked(text)) : null,
        found.length ? h("dl", {class: "pl-preview-kw"}, ...found.flatMap((g) => [
          h("dt", {}, g[lang] || g.en), h("dd", {}, g.say[lang] || g.say.en)])) : null));
    if (!this.el.isConnected) document.body.append(this.el);
    this.el.hidden = false;
    this.target = host;
    host.setAttribute("aria-describedby", "pl-preview");
    this.place(x, y);
  }

  /** The rules text with each mark or keyword in a span whose title says what it means. */
  marked(text) {
    const lang = this.b.cards.lang;
    const all = new RegExp(GLOSSARY.map((g) => g.match.source).join("|"), "g");
    const out = [];
    let at = 0;
    for (const m of text.matchAll(all)) {
      const g = GLOSSARY.find((x) => x.match.test(m[0]));
      out.push(text.slice(at, m.index), h("span", {class: "pl-kw", title: g.say[lang] || g.say.en}, m[0]));
      at = m.index + m[0].length;
    }
    out.push(text.slice(at));
    return out;
  }

  /** Beside the pointer: to its right if there is room, else to its left; inside the window. */
  place(x, y) {
    const r = this.el.getBoundingClientRect();
    const gap = 18;
    let left = x + gap + r.width <= innerWidth - 4 ? x + gap : x - gap - r.width;
    if (left < 4) left = Math.max(4, (innerWidth - r.width) / 2);
    const top = Math.min(Math.max(4, y - r.height / 2), innerHeight - r.height - 4);
    this.el.style.left = `${Math.round(left)}px`;
    this.el.style.top = `${Math.round(Math.max(4, top))}px`;
  }
}
