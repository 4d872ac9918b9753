// The map region of the board: the lands in their rows, the unit tokens on them, the lines between the
// lands (the links, an <svg> drawn at the map's size) and the moves' animations on it (a token's slide
// from where it was, a taken land's flash). Drawn with play-view.js, lands keyed by land id and tokens by
// unit id, so a token stays the same element while it stays on its land, whatever else changed. The
// board (static/js/play.js) owns the state; this reads it (the view, the selection, the legal marches)
// and sends the player's choices back through the board.

import {h, pace, ROWS, LINKS, crownSvg, t, tn, uiLang} from "./play-util.js";
import {landName} from "./play-words.js";
import {v as vh, render as renderView} from "./play-view.js";
import {TokenFit} from "./play-fit.js";

export class MapRegion {
  constructor(board) {
    this.b = board;
    this.el = h("div", {class: "pl-map", role: "group", "aria-label": t("The map")});
    this.links = h("svg:svg", {class: "pl-links", "aria-hidden": "true"});  // the map's own, once drawn (render)
    this.linksRef = (el) => { if (el) this.links = el; };
    this.atOwnBase = false;  // a phone's map held at the player's base (showOwnBase)
    this.scrolledFor = null;
    this.fit = new TokenFit();  // the tokens' size on each land (play-fit.js)
    // held at the base, it stays there when its box grows or shrinks (until the player scrolls it themselves)
    for (const type of ["wheel", "touchmove"]) this.el.addEventListener(type, () => { this.atOwnBase = false; }, {passive: true});
    new ResizeObserver(() => { if (this.atOwnBase) this.el.scrollTop = this.el.scrollHeight; this.drawLinks(); }).observe(this.el);
  }

  /** A map taller than its box (a phone): at the start of the player's turn it shows their own base
   * and the lands beside it (the bottom rows), where their monsters start from; they scroll up for more. */
  showOwnBase() {
    const v = this.b.view;
    const turn = `${v.round}:${v.active}`;
    if (this.b.seat === null || v.phase !== "main" || v.active !== this.b.me || this.scrolledFor === turn) return;
    if (this.el.scrollHeight <= this.el.clientHeight + 4) return;
    this.scrolledFor = turn;
    this.el.scrollTop = this.el.scrollHeight;
    this.atOwnBase = true;
  }

  rowsForViewer() {
    // R4.2: the viewer's own base at the bottom; seat 1 sees the board turned around.
    const rows = ROWS.map((r) => r.slice());
    if (this.b.me === 0) return rows.reverse();
    return rows.map((r) => r.reverse());
  }

  /** The map (play-view.js): rows of lands keyed by land id, tokens keyed by unit id, so a token stays
   * the same element while it stays on its land, whatever else changed. */
  render() {
    const v = this.b.view;
    const dests = this.b.destinations();
    const selectable = this.b.selectable();
    const joinable = this.b.joinable();
    const pending = v.pending ? v.pending.land : null;
    const battleLand = v.battle ? v.battle.land : null;
    const scrolled = this.el.scrollTop;  // a map that scrolls in its box (a phone) stays where it was
    renderView([
      // drawLinks() draws the lines into it; the view never gives it children of its own
      vh("svg", {key: "links", class: "pl-links", "aria-hidden": "true", ref: this.linksRef}),
      ...this.rowsForViewer().map((row, i) => vh("div", {key: `row${i}`, class: ["pl-row", row.length === 1 ? "pl-row-base" : ""]},
        row.map((land) => this.land(land, dests.get(land), selectable, joinable, pending === land, battleLand === land)))),
    ], this.el);
    this.fit.recount(this.el);
    this.el.scrollTop = this.atOwnBase ? this.el.scrollHeight : scrolled;
  }

  land(id, dest, selectable, joinable, pending, battling) {
    const v = this.b.view;
    const land = v.lands[id];
    const units = v.units.filter((u) => u.land === id);
    const owner = land.owner === null || land.owner === undefined ? "none" : land.owner === this.b.me ? "me" : "foe";
    const enemies = units.filter((u) => u.owner !== this.b.me);
    const used = land.used ? land.used[this.b.me] : 0;
    const foeUsed = land.used ? land.used[this.b.foe] : 0;
    // a spectator (or a replay) sees both bases by their players' names: neither is "yours"
    const mineWord = this.b.seat === null ? t("{name}’s base", {name: this.b.names[this.b.me]}) : t("Your base");
    const kind = land.kind === "base" ? (id === `H${this.b.me}` ? mineWord : t("{name}’s base", {name: this.b.names[this.b.foe]})) : landName(land.kind, uiLang) || land.kind;
    const failed = (v.failed_lands || []).includes(id);
    const attack = dest && enemies.length > 0;
    const ownerWord = owner === "me" ? (this.b.seat === null ? t("held by {name}", {name: this.b.names[this.b.me]}) : t("yours"))
      : owner === "foe" ? t("held by {name}", {name: this.b.names[this.b.foe]}) : t("unclaimed");
    return vh("div", {
      key: id,
      class: ["pl-land", `pl-kind-${land.kind}`, `pl-own-${owner}`, dest ? "pl-dest" : "", attack ? "pl-dest-attack" : "",
        pending ? "pl-pending" : "", battling ? "pl-battling" : "", failed ? "pl-failed" : ""],
      "data-land": id,
      onclick: dest ? (e) => { if (!e.target.closest("button")) this.b.send(this.b.marchWithSelection(dest)); } : null,
      "aria-label": [land.kind === "base" ? kind : `${id}, ${kind}`, ownerWord, tn("{n} unit", "{n} units", units.length),
        t("your capacity {used} of {capacity}", {used, capacity: land.capacity})].join(", "),
      role: "group",
    },
    vh("div", {class: "pl-land-head"},
      vh("span", {class: "pl-land-icon", "aria-hidden": "true"}),
      vh("span", {class: "pl-land-name"}, land.kind === "base" ? kind : `${id} · ${kind}`),
      vh("span", {class: "pl-land-owner"}, ownerWord),
      vh("span", {class: "pl-cap", title: t("Your monsters here: total level {used} of capacity {capacity}", {used, capacity: land.capacity})},
        vh("span", {class: "pl-cap-bar", "aria-hidden": "true"},
          vh("span", {style: {width: `${Math.min(100, 100 * used / land.capacity)}%`}})),
        `${used}/${land.capacity}`,
        foeUsed && enemies.length ? vh("span", {class: "pl-cap-foe", title: t("{name}’s monsters: level {n}", {name: this.b.names[this.b.foe], n: foeUsed})}, " · " + t("foe {n}", {n: foeUsed})) : null)),
    vh("div", {class: "pl-units", ref: this.fit.ref}, units.length ? units.map((u) => this.token(u, selectable.has(u.id), joinable.has(u.id)))
      : vh("span", {class: "pl-empty", key: "empty"}, failed ? t("attack failed here") : "")),
    failed && units.length ? vh("span", {class: "pl-failed-tag", title: t("An attack on this land failed: no second attack here this turn while enemies remain")}, t("attack failed")) : null,
    dest ? vh("button", {class: ["pl-btn", "pl-march-here", attack ? "pl-btn-danger" : "pl-btn-go"], type: "button",
      "data-key": `march:${id}`, onclick: () => this.b.send(this.b.marchWithSelection(dest))},
    attack ? (land.kind === "base" ? t("Attack the enemy base") : t("Attack {land}", {land: id})) : land.kind === "base" ? (id === `H${this.b.me}` ? t("March to your base") : t("March to the enemy base"))
      : t("March to {land}", {land: id})) : null);
  }

  token(u, selectable, joinable) {
    const mine = u.owner === this.b.me;
    const sel = this.b.selected.includes(u.id);
    const name = this.b.cards.name(u.card);
    const inBattle = this.b.view.battle && (this.b.view.battle.parties[String(u.owner)] || []).includes(u.id);
    const bits = [name, mine ? (this.b.seat === null ? this.b.names[u.owner] : t("yours")) : this.b.names[u.owner]];
    if (u.leader) bits.push(t("leader"));
    bits.push(t("life {life} of {max}", {life: u.life, max: u.max_life}), t("power {n}", {n: u.power}));
    if (u.exhausted) bits.push(t("exhausted"));
    else if (mine) bits.push(tn("{n} march left", "{n} marches left", u.marches_left));
    // a long press (touch) shows the unit; the token remembers it on itself until its click
    const stop = (e) => clearTimeout(e.currentTarget.pressTimer);
    return vh("button", {
      key: u.id,
      class: ["pl-unit", mine ? "pl-unit-me" : "pl-unit-foe", u.exhausted ? "pl-exh" : "", sel ? "pl-sel" : "",
        selectable ? "pl-can" : "", joinable ? "pl-join" : "", u.leader ? "pl-leader" : "", inBattle ? "pl-inbattle" : ""],
      type: "button", "data-unit": u.id, "data-key": `u:${u.id}`, "aria-label": bits.join(", "),
      "aria-pressed": selectable ? String(sel) : null, title: name,
      onpointerdown: (e) => {
        if (e.pointerType === "mouse") return;
        const tok = e.currentTarget;
        tok.longPressed = false;
        clearTimeout(tok.pressTimer);
        tok.pressTimer = setTimeout(() => { tok.longPressed = true; this.b.showUnit(u.id); }, 550);
      },
      onpointerup: stop,
      onpointerleave: stop,
      oncontextmenu: (e) => { e.preventDefault(); this.b.showUnit(u.id); },
      onkeydown: (e) => { if (e.key === "i" || e.key === "I") { e.preventDefault(); this.b.showUnit(u.id); } },
      onclick: (e) => {
        if (e.currentTarget.longPressed) { e.currentTarget.longPressed = false; return; }
        if (selectable) this.b.toggle(u.id);
        else this.b.showUnit(u.id);
      },
    },
    vh("span", {class: "pl-art"}, vh("img", this.b.cards.artAttrs(u.card))),
    u.leader ? vh("span", {class: "pl-crown", "aria-hidden": "true"}, crownSvg(vh)) : null,
    vh("span", {class: "pl-lvl", "aria-hidden": "true"}, u.level),
    mine && !u.exhausted && u.marches_left > 0
      ? vh("span", {class: "pl-pips", "aria-hidden": "true"}, Array.from({length: u.marches_left}, () => vh("i"))) : null,
    u.exhausted ? vh("span", {class: "pl-zz", "aria-hidden": "true"}, "z") : null,
    vh("span", {class: "pl-ustats", "aria-hidden": "true"}, vh("b", {class: "pl-pow"}, u.power), vh("b", {class: "pl-hp"}, u.life)),
    vh("span", {class: "pl-life", "aria-hidden": "true"},
      vh("span", {style: {width: `${Math.max(0, Math.min(100, 100 * u.life / Math.max(1, u.max_life)))}%`}})));
  }

  /** Where each unit token lies in the map's own content (not the window): a map that scrolls in its
   * box (a phone's, scrolled to the player's base at the start of their turn) moves no token. */
  tokenRects() {
    const out = new Map();
    for (const t of this.el.querySelectorAll(".pl-unit")) out.set(t.dataset.unit, this.inMap(t));
    return out;
  }

  inMap(token) {
    const m = this.el.getBoundingClientRect();
    const r = token.getBoundingClientRect();
    return {left: r.left - m.left + this.el.scrollLeft, top: r.top - m.top + this.el.scrollTop};
  }

  /** Slide moved units from where they were (FLIP); pop in new ones; flash taken lands. */
  flip(before, events) {
    if (!before.size || pace.scale === 0) return;
    const ms = Math.round(480 * Math.max(0.3, pace.scale));
    for (const t of this.el.querySelectorAll(".pl-unit")) {
      const old = before.get(t.dataset.unit);
      if (!old) {
        if (events.length) {  // a kept token must not keep the class (its next update would not take it off)
          t.classList.add("pl-enter");
          t.addEventListener("animationend", () => t.classList.remove("pl-enter"), {once: true});
        }
        continue;
      }
      const now = this.inMap(t);
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 3 && Math.abs(dy) < 3) continue;
      t.animate([{transform: `translate(${dx}px, ${dy}px)`, zIndex: 5}, {transform: "translate(0, 0)", zIndex: 5}],
        {duration: ms, easing: "cubic-bezier(.2,.8,.2,1)"});
    }
    for (const e of events) {
      if (e.type === "land_taken") {
        const land = this.el.querySelector(`[data-land="${e.land}"]`);
        if (land) land.animate([{boxShadow: "0 0 0 4px var(--pl-flash)"}, {boxShadow: "0 0 0 0 transparent"}], {duration: 1200});
      }
    }
  }

  drawLinks() {
    const svg = this.links;
    if (!svg.isConnected) return;
    const box = this.el.getBoundingClientRect();
    svg.setAttribute("viewBox", `0 0 ${Math.max(1, box.width)} ${Math.max(1, box.height)}`);
    svg.setAttribute("width", box.width);
    svg.setAttribute("height", box.height);
    const centre = (id) => {
      const el = this.el.querySelector(`[data-land="${id}"]`);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2];
    };
    const dests = this.b.destinations();
    const from = new Set(this.b.selected.map((id) => (this.b.unit(id) || {}).land));
    // drawn with play-view.js into the view's <svg> (its content is this render's own), a line keyed by its lands
    renderView(LINKS.map(([a, b]) => {
      const pa = centre(a);
      const pb = centre(b);
      if (!pa || !pb) return null;
      const hot = (from.has(a) && dests.has(b)) || (from.has(b) && dests.has(a));
      return vh("line", {key: `${a}-${b}`, x1: pa[0], y1: pa[1], x2: pb[0], y2: pb[1], class: hot ? "pl-link pl-link-hot" : "pl-link"});
    }), svg);
  }

  flashLand(land, cls) {
    const el = this.el.querySelector(`[data-land="${land}"]`);
    if (!el) return;
    el.classList.add(cls);
    setTimeout(() => el.classList.remove(cls), 1500);
  }
}
