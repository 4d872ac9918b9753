// Read any card at once (issue 14): hovering a card (mouse) or pressing on it for half a second
// (touch) shows it large beside the pointer, with its rules in readable type (15 px) and every
// keyword and timing mark explained in plain words. No modal: the pointer passes through it, and a
// click on the card still does what it always did (details, select, summon).

import {h} from "./play-util.js";
import {v, render} from "./play-view.js";
import {elementName, keywordName} from "./play-words.js";

/** A keyword's entry: its names (en, ja) are the card list's words (play-words.js), read when first
 * needed (the list arrives after this module loads); `match` finds either in a card's rules text. */
function keyword(key, say) {
  let match = null;
  return {
    key, say,
    get en() { return keywordName(key, "en") || key; },
    get ja() { return keywordName(key, "ja") || key; },
    get match() {
      const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const source = `${esc(this.en)}|${esc(this.ja)}`;
      if (!match || match.source !== source) match = new RegExp(source);
      return match;
    },
  };
}

/** Keywords and timing marks in plain words; `match` finds them in a card's rules text. */
export const GLOSSARY = [
  keyword("haste", {en: "Can march on the turn it is summoned.", ja: "召喚した手番にすぐ進軍できる。"}),
  keyword("double_march", {en: "May march twice in one turn.", ja: "1手番に2回進軍できる。"}),
  keyword("far_march", {en: "Besides its usual march next door, may march to any land but the enemy base, even one that is not next to it.", ja: "相手の本陣以外なら、隣でない土地にも進軍できる。"}),
  keyword("spellproof", {en: "Spells do nothing to it, helpful or harmful. Abilities still work on it.", ja: "魔法は（味方のものも）効かない。能力は効く。"}),
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
    // a scroll that moves the card shown puts the preview away (another box scrolling leaves it)
    window.addEventListener("scroll", (e) => {
      if (this.target && (!e.target.contains || e.target.contains(this.target))) this.hide();
    }, true);
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
    this.undock();
    this.el.hidden = true;
    if (this.target) this.target.removeAttribute("aria-describedby");
    this.target = null;
  }

  show({host, card, unit}, x, y) {
    const B = this.b;
    const C = B.cards;
    const c = C.get(card);
    const lang = C.lang;  // the card language (board settings), which may differ from the page's
    const element = (lang === "ja" && elementName(c.element, "ja")) || c.element || "";
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
    // drawn with play-view.js: the next card's preview changes what differs in the same elements
    render([C.img(card, "pl-preview-img", v),
      v("div", {class: "pl-preview-body"},
        v("p", {class: "pl-preview-name"}, C.name(card)),
        ...facts.filter(Boolean).map((f) => v("p", {class: "pl-preview-facts"}, f)),
        text ? v("p", {class: "pl-preview-text", "data-testid": "preview-text"}, ...this.marked(text)) : null,
        found.length ? v("dl", {class: "pl-preview-kw"}, ...found.flatMap((g) => [
          v("dt", {}, g[lang] || g.en), v("dd", {}, g.say[lang] || g.say.en)])) : null)], this.el);
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
      out.push(text.slice(at, m.index), v("span", {class: "pl-kw", title: g.say[lang] || g.say.en}, m[0]));
      at = m.index + m[0].length;
    }
    out.push(text.slice(at));
    return out;
  }

  /** Near the card it shows, in free space (issue 27): never over an enabled control, the card itself,
   * a glowing land or Eringe's tip. It tries its full size, then without the picture, then without the
   * keyword list; where no place is free even then (a phone), it takes the move panel's place, the panel
   * stepping aside while it shows; with no panel shown, the smallest at the place that covers the least. */
  place(x, y) {
    this.undock();
    const host = this.target ? this.target.getBoundingClientRect() : {left: x, right: x, top: y, bottom: y};
    const anchor = [(host.left + host.right) / 2, (host.top + host.bottom) / 2];
    const blocks = obstacles(this.el, this.target);
    let spot = null;
    for (const size of SIZES) {
      this.el.dataset.size = size;
      const r = this.el.getBoundingClientRect();
      spot = bestSpot(r.width, r.height, blocks, anchor, size === SIZES[SIZES.length - 1]);
      if (spot.free) break;
    }
    const panel = this.b.panel;
    const p = !spot.free && panel && panel.getClientRects().length ? panel.getBoundingClientRect() : null;
    if (p && p.height >= 64 && !(this.target && panel.contains(this.target))) {
      this.docked = true;
      this.b.root.classList.add("pl-panel-stepped-aside");
      Object.assign(this.el.style, {width: `${Math.round(p.width)}px`, maxHeight: `${Math.round(p.height)}px`});
      spot = {x: p.left, y: p.top};
    }
    this.el.style.left = `${Math.round(spot.x)}px`;
    this.el.style.top = `${Math.round(spot.y)}px`;
  }

  /** The move panel back in view, the preview's own size back. */
  undock() {
    if (!this.docked) return;
    this.docked = false;
    this.b.root.classList.remove("pl-panel-stepped-aside");
    this.el.style.width = this.el.style.maxHeight = "";
  }
}

const SIZES = ["full", "small", "tiny"];
const GAP = 6;
const CONTROLS = "button, a[href], input, select, textarea, summary, [role=button], .pl-dest, .pl-tip";

/** The boxes the preview must leave free: every enabled control shown in the window (the part of it a
 * scrolling box lets show), every glowing land, Eringe's tip, and the card the preview is for. */
function obstacles(preview, host) {
  const out = [];
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (el.disabled || preview.contains(el) || el.closest("[hidden], dialog:not([open])")) continue;
    const box = visibleBox(el);
    if (box) out.push(box);
  }
  if (host) {
    const r = host.getBoundingClientRect();
    out.push({l: r.left, t: r.top, r: r.right, b: r.bottom});
  }
  return out;
}

function visibleBox(el) {
  if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") return null;
  const r = el.getBoundingClientRect();
  const box = {l: Math.max(r.left, 0), t: Math.max(r.top, 0), r: Math.min(r.right, innerWidth), b: Math.min(r.bottom, innerHeight)};
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.display === "contents" || (cs.overflowX === "visible" && cs.overflowY === "visible")) continue;  // no box of its own
    const q = p.getBoundingClientRect();
    box.l = Math.max(box.l, q.left); box.t = Math.max(box.t, q.top); box.r = Math.min(box.r, q.right); box.b = Math.min(box.b, q.bottom);
  }
  return box.r - box.l > 1 && box.b - box.t > 1 ? box : null;
}

/** The free place for a w×h box nearest the anchor: any free place slides up and left until it meets
 * an obstacle's edge or the window's, so those edges are the only places tried. With ``fallback``
 * and no free place, the one that covers the least area (never the card itself: the last obstacle). */
function bestSpot(w, h, blocks, [ax, ay], fallback) {
  const W = innerWidth, H = innerHeight;
  const xs = new Set([4, Math.max(4, W - w - 4)]);
  const ys = new Set([4, Math.max(4, H - h - 4)]);
  for (const o of blocks) {
    xs.add(Math.round(o.r + GAP)); xs.add(Math.round(o.l - w - GAP));
    ys.add(Math.round(o.b + GAP)); ys.add(Math.round(o.t - h - GAP));
  }
  const inX = [...xs].filter((x) => x >= 4 && x + w <= W - 4 + 0.5 || x === 4);
  const inY = [...ys].filter((y) => y >= 4 && y + h <= H - 4 + 0.5 || y === 4);
  let best = null;
  let least = null;
  const host = blocks[blocks.length - 1];
  for (const x of inX) {
    for (const y of inY) {
      const d = Math.hypot(x + w / 2 - ax, y + h / 2 - ay);
      let free = true;
      for (const o of blocks) {
        if (o.l < x + w && o.r > x && o.t < y + h && o.b > y) { free = false; break; }
      }
      if (free) {
        if (!best || d < best.d) best = {x, y, d, free: true};
      } else if (fallback && !best && !(host.l < x + w && host.r > x && host.t < y + h && host.b > y)) {
        let area = 0;
        for (const o of blocks) area += Math.max(0, Math.min(o.r, x + w) - Math.max(o.l, x)) * Math.max(0, Math.min(o.b, y + h) - Math.max(o.t, y));
        if (!least || area < least.area || (area === least.area && d < least.d)) least = {x, y, d, area, free: false};
      }
    }
  }
  return best || least || {x: 4, y: 4, free: false};
}
