// The battle screen (R9–R14): an overlay over the map with the step track, both parties in
// formation order, the initiative dice, the declaration chain and the choices of the moment.
// Between states it replays the engine's events (damage, destruction, resolution from the right).
// The screen is drawn with play-view.js (preact): keyed children keep their elements across renders.

import {h, add, sleep, pace, crownSvg, t, tn, uiLang} from "./play-util.js";
import {slotMark, ELEMENT_COLOUR} from "./play-cards.js";
import {elementName, landName} from "./play-words.js";
import {v, render as renderView} from "./play-view.js";
import {FIGHT, stepIndex as stepIndexOf, stepAt, eventStep, skippedLine, spellWhy} from "./battle-words.js";

/** How long (ms, at normal speed: the speed setting scales them) the screen lingers on each thing a
 * battle does. A battle the player does not decide in reads in about 5 s, no step over 1.5 s
 * (bench/attack_to_decision.py --no-decision measures it; docs/performance.md has the figures). */
const PACE = {  // ms at normal speed; a battle that asks the player nothing stays within 5 s (bench/attack_to_decision.py --no-decision)
  start: 60, open: 180, quick: 240, formation: 150, skipped: 150, spin: 180, rolled: 210, trigger: 180,
  declared: 180, passed: 90, resolving: 150, leave: 60, empty: 120, cancelled: 180, simultaneous: 210,
  attack: 150, damage: 110, boost: 90, dying: 180, negated: 150, slots: 150, float: 120, noAttack: 180,
  outcome: 700,
  together: 40,  // events of one kind in a row (the damage of one attack, its deaths, a trigger's boosts) follow at once
};

const FIZZLE = {
  cancelled: t("cancelled"), source_destroyed: t("its source fell"), negated: t("its source lost its abilities"),
  target_gone: t("its target is gone"), slots_gone: t("its spell slots are gone"),
};
const kindWord = (k) => { const w = landName(k, uiLang); return w ? (uiLang === "ja" ? w : w.toLowerCase()) : k; };
/** An element's word in the page's language ("fire", 火). */
const elementWord = (e) => (uiLang === "ja" ? elementName(e, "ja") || e || "" : e || "");
const optionWord = (i) => t("option {n}", {n: i + 1});
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

/** A die's face showing `n` (0: a question mark), as a virtual node. */
function dieSvg(n) {
  return v("svg:svg", {viewBox: "0 0 60 60", class: "pl-die-svg", "aria-hidden": "true"},
    v("svg:rect", {x: 3, y: 3, width: 54, height: 54, rx: 11, class: "pl-die-face"}),
    n ? null : v("svg:text", {x: 30, y: 41, "text-anchor": "middle", class: "pl-die-q"}, "?"),
    (PIPS[n] || []).map((i) => v("svg:circle", {cx: 15 + (i % 3) * 15, cy: 15 + Math.floor(i / 3) * 15, r: 5.2, class: "pl-die-pip"})));
}

/** The classes an animation puts by hand on an element render() keeps: taken off before each render
 * (a rebuild took them off when the screen was rebuilt on each render). */
const TRANSIENT = ["pl-arrive", "pl-glow", "pl-hit", "pl-dying", "pl-leaving", "pl-decl-arrive", "pl-decl-leave", "pl-dragging", "pl-drop"];
const TRANSIENT_SELECTOR = TRANSIENT.map((c) => "." + c).join(",");

export class BattleScreen {
  constructor(board) {
    this.b = board;
    this.el = h("section", {class: "pl-battle", hidden: true, "aria-label": t("Battle"), "data-testid": "battle"});
    add(board.arena, this.el);
    this.scene = null;
    this.ui = null;
    this.uiVersion = -1;
    this.caption = "";
    this.lines = [];  // this battle's narration, oldest first (one line per thing that happened)
    this.scrolled = {step: null, lines: 0};  // what render() last scrolled into view
  }

  /** Narrate one line: the caption of the moment and the battle's narration list. */
  tell(text) {
    this.caption = text;
    if (text && this.lines[this.lines.length - 1] !== text) this.lines.push(text);
  }

  // ------------------------------------------------------------------ scene model

  sceneFromView(bt) {
    const order = bt.order || null;
    let strikerIdx = 0;
    if (order && bt.step === "fight") strikerIdx = bt.striker !== null && bt.striker !== undefined ? order.indexOf(bt.striker) : (bt.done || []).length;
    return {
      land: bt.land, attacker: bt.attacker, step: bt.step, stepPlayer: bt.step_player,
      parties: {0: bt.parties["0"].slice(), 1: bt.parties["1"].slice()},
      chain: bt.chain.map((c) => Object.assign({}, c, {state: c.cancelled ? "cancelled" : ""})),
      initiative: bt.initiative ? Object.assign({}, bt.initiative, {rolls: bt.initiative.rolls}) : null,
      order, strikerIdx: Math.max(0, strikerIdx), simultaneous: !!bt.simultaneous,
      acted: new Set(bt.acted || []), negated: new Set(bt.negated || []), slots: bt.slots || null,
      responder: bt.responder, lock: !!bt.spell_lock, quick: new Set(bt.quick || []), stats: {},
      fallen: {0: (bt.fallen && bt.fallen["0"]) || [], 1: (bt.fallen && bt.fallen["1"]) || []},
      outcome: null, live: true,
    };
  }

  info(id) {
    const sc = this.scene;
    const u = this.b.unit(id) || {card: null, owner: null, leader: false, life: 0, max_life: 0, power: 0, speed: 0};
    const st = (sc && sc.stats[id]) || {};
    return Object.assign({}, u, st);
  }

  setStat(id, patch) {
    const cur = this.info(id);
    this.scene.stats[id] = Object.assign({life: cur.life, max_life: cur.max_life, power: cur.power}, this.scene.stats[id] || {}, patch);
  }

  who(p) { return this.b.who(p); }

  verb(p, you, they) { return p === this.b.me && this.b.seat !== null ? you : they; }

  // ------------------------------------------------------------------ open / close / sync

  open() {
    if (this.el.hidden) {
      this.el.hidden = false;
      const top = this.b.stage.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight * 0.5) this.b.stage.scrollIntoView({block: "start", behavior: pace.scale ? "smooth" : "auto"});
    }
    this.b.root.classList.add("pl-in-battle");
  }

  close() {
    this.scene = null;
    this.lines = [];
    this.ui = null;
    this.spinning = null;
    this.scrolled = {step: null, lines: 0};
    this.el.hidden = true;
    renderView(null, this.el);
    for (const f of this.el.querySelectorAll(".pl-float")) f.remove();
    this.b.root.classList.remove("pl-in-battle");
  }

  /** After a state is applied: draw the battle of the view (or close the screen). */
  sync(view, again) {
    if (!view.battle || view.result) { if (this.scene) this.close(); return; }
    if (again && !this.scene) return;
    const hadFocus = this.el.contains(document.activeElement);
    this.scene = this.sceneFromView(view.battle);
    if (this.uiVersion !== this.b.version) { this.ui = null; this.uiVersion = this.b.version; }
    this.caption = "";
    this.open();
    this.render();
    if (this.b.can() && (view.waiting_for || []).includes(this.b.me) && (hadFocus || document.activeElement === document.body)) {
      const first = this.el.querySelector(".pl-bbar button:not([disabled])");
      if (first) first.focus({preventScroll: true});
    }
  }

  interactive() {
    const v = this.b.view;
    return this.scene && this.scene.live && !this.b.animating && v && v.battle && this.b.can() &&
      (v.waiting_for || []).includes(this.b.me);
  }

  // ------------------------------------------------------------------ drawing
  // The screen is a description (play-view.js's v(), preact): each render brings the section to it, and
  // what did not change keeps its element: the parties' members by unit id, the declarations by their
  // place in the chain, the narration by line, the steps by number, the bar's buttons by their data-key
  // (docs/decisions/0139). Classes an animation puts on a kept element by hand (TRANSIENT) are taken
  // off before each render, as a rebuild did.

  render() {
    if (!this.scene) return;
    for (const el of this.el.querySelectorAll(TRANSIENT_SELECTOR)) el.classList.remove(...TRANSIENT);
    for (const f of this.el.querySelectorAll(".pl-float")) f.remove();  // as a rebuild did: a float lasts until the next render
    this.draw();
  }

  /** render() without taking off the animations' classes: a line said or a number changed while the
   * marks of the moment (a glowing trigger, a hit) stay on. */
  draw() {
    const sc = this.scene;
    if (!sc) return;
    const B = this.b;
    const key = document.activeElement && this.el.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const land = (B.view || {}).lands ? B.view.lands[sc.land] : null;
    this.el.classList.toggle("pl-battle-mine", sc.attacker === B.me);
    const attackWord = this.verb(sc.attacker, t("You attack"), t("{name} attacks", {name: B.names[sc.attacker]}));
    renderView([
      v("header", {class: "pl-bhead"},
        v("h2", {}, v("span", {class: "pl-bhead-swords", "aria-hidden": "true"}, "⚔"), t("Battle at {land}", {land: B.landLabel(sc.land)})),
        v("p", {}, [attackWord].concat(land ? [kindWord(land.kind), t("capacity {n}", {n: land.capacity})] : []).join(" · ")),
        B.hint.chip(v)),
      this.steps(),
      v("div", {class: "pl-bfield"},
        this.party(B.foe),
        v("div", {class: "pl-bcenter"}, this.dice(), this.chain()),
        this.party(B.me)),
      this.bar(),
      sc.outcome ? this.outcomeBox() : null,
    ], this.el);
    B.hint.mark(this.el);
    // Scrolled only when they changed (the lists are kept, and so is their scroll): reading a size
    // forces a layout, and a battle's animation draws the screen twice an event.
    const step = this.stepIndex();
    const steps = this.el.querySelector(".pl-steps");
    const now = steps && steps.querySelector(".pl-step-now");
    if (now && this.scrolled.step !== step && steps.scrollWidth > steps.clientWidth) steps.scrollLeft = now.offsetLeft - (steps.clientWidth - now.offsetWidth) / 2;
    this.scrolled.step = step;
    const narr = this.el.querySelector(".pl-narr");
    if (narr && this.scrolled.lines !== narr.childElementCount) narr.scrollTop = narr.scrollHeight;  // the newest line in view
    this.scrolled.lines = narr ? narr.childElementCount : 0;
    if (key) {
      const el = this.el.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (el && el !== document.activeElement) el.focus({preventScroll: true});
    }
    this.showOwnParty();
  }

  /** While the player decides in the battle (orders or joins their party, answers, attacks), keep
   * their own party in view: on a phone the field scrolls inside itself when the decision bar is tall,
   * and the party can lie below its fold. */
  showOwnParty() {
    if (!this.interactive()) return;
    const field = this.el.querySelector(".pl-bfield");
    const mine = field && field.querySelector(".pl-party-me");
    if (!mine || field.scrollHeight <= field.clientHeight + 1) return;
    const f = field.getBoundingClientRect(), m = mine.getBoundingClientRect();
    if (m.top < f.top) field.scrollTop -= f.top - m.top;
    else if (m.bottom > f.bottom) field.scrollTop += Math.min(m.bottom - f.bottom, m.top - f.top);
  }

  stepIndex() {
    const sc = this.scene;
    if (sc.outcome) return 7;
    if (sc.step === "quick") return sc.stepPlayer === sc.attacker ? 0 : 2;
    if (sc.step === "formation") return sc.stepPlayer === sc.attacker ? 1 : 3;
    if (sc.step === "initiative") return 4;
    return sc.simultaneous ? 5 : 5 + Math.min(1, sc.strikerIdx);
  }

  steps() {
    const sc = this.scene;
    const B = this.b;
    const att = sc.attacker;
    const def = 1 - att;
    const quick = (p) => this.verb(p, t("Your quick summon"), t("{name}’s quick summon", {name: B.names[p]}));
    const form = (p) => this.verb(p, t("Your formation"), t("{name}’s formation", {name: B.names[p]}));
    const strike = (p) => this.verb(p, t("Your abilities → attack"), t("{name}’s abilities → attack", {name: B.names[p]}));
    const first = sc.order ? sc.order[0] : null;
    const labels = [
      quick(att), form(att), quick(def), form(def),
      t("Initiative roll"),
      sc.simultaneous ? t("Simultaneous attack") : first === null ? t("First striker: abilities → attack") : strike(first),
      sc.simultaneous ? null : first === null ? t("Second striker: abilities → attack") : strike(1 - first),
    ];
    const cur = this.stepIndex();
    return v("ol", {class: "pl-steps", "aria-label": t("Battle steps"), tabindex: "0"},  // scrollable: reachable by keyboard (axe)
      labels.map((label, i) => {
        if (label === null) return null;
        const state = i < cur ? "done" : i === cur ? "now" : "todo";
        return v("li", {key: i, class: `pl-step pl-step-${state}`, title: label, "aria-current": state === "now" ? "step" : null},
          v("span", {class: "pl-step-n", "aria-hidden": "true"}, state === "done" ? "✓" : i + 1), v("span", {class: "pl-step-label"}, label));
      }));
  }

  slots(p) {
    const sc = this.scene;
    let pools = sc.slots ? sc.slots[String(p)] : null;
    if (!pools) {
      pools = {};
      for (const id of sc.parties[p]) {
        const c = this.b.cards.get(this.info(id).card);
        for (const [k, n] of Object.entries(c.slots || {})) pools[k] = {total: (pools[k] ? pools[k].total : 0) + n, used: 0};
      }
    }
    const kinds = Object.keys(pools).filter((k) => pools[k].total || pools[k].used);
    return v("ul", {class: "pl-slots", "aria-label": t("Spell slots")},
      sc.lock ? v("li", {key: "lock", class: "pl-slot pl-slot-lock"}, t("no spells this battle")) : null,
      kinds.map((k) => {
        const {total, used} = pools[k];
        const free = Math.max(0, total - used);
        return v("li", {key: k, class: "pl-slot", title: t("{kind}: {free} free of {total}", {kind: k, free, total}), "aria-label": t("{kind} slots: {free} free of {total}", {kind: k, free, total})},
          slotMark(k, v), v("span", {class: "pl-slot-gems", "aria-hidden": "true"},
            Array.from({length: total}, (_, i) => v("i", {class: i < free ? "pl-gem-on" : "pl-gem-off", style: {"--gem": ELEMENT_COLOUR[k] || "#ddd"}}))),
          v("span", {class: "pl-slot-n"}, `${free}/${total}`));
      }),
      !kinds.length && !sc.lock ? v("li", {key: "none", class: "pl-slot pl-slot-none"}, t("no spell slots")) : null);
  }

  party(p) {
    const sc = this.scene;
    const B = this.b;
    const mine = p === B.me;
    const forming = this.ui && this.ui.kind === "formation" && mine;
    const ids = forming ? this.ui.order : sc.parties[p];
    const role = p === sc.attacker ? t("attacking") : t("defending");
    const speed = ids.reduce((n, id) => n + (this.info(id).speed || 0), 0);
    const power = ids.filter((id) => !sc.acted.has(id)).reduce((n, id) => n + Math.max(0, this.info(id).power || 0), 0);
    const targets = this.targetSet();
    return v("div", {class: ["pl-party", mine ? "pl-party-me" : "pl-party-foe", forming ? "pl-forming" : ""], "data-side": p},
      v("div", {class: "pl-party-head"},
        v("h3", {}, mine && B.seat !== null ? t("Your party") : t("{name}’s party", {name: B.names[p]}), v("span", {class: "pl-role"}, ` · ${role}`)),
        v("span", {class: "pl-party-sum", title: t("Power of the members who have not acted · total speed")}, "⚔ " + power + " · " + t("speed {n}", {n: (speed >= 0 ? "+" : "") + speed})),
        this.slots(p)),
      v("ol", Object.assign({class: "pl-prow", "aria-label": mine ? t("Your formation, front first") : t("{name}’s formation, front first", {name: B.names[p]})},
        forming ? this.dragHandlers() : {}),
      ids.map((id, i) => this.member(id, i, ids.length, p, forming, targets)),
      ids.length ? null : v("li", {key: "none", class: "pl-hint"}, t("No one is left standing."))));
  }

  member(id, i, n, p, forming, targets) {
    const sc = this.scene;
    const B = this.b;
    const u = this.info(id);
    const name = B.cards.name(u.card);
    const acted = sc.acted.has(id);
    const negated = sc.negated.has(id);
    const isTarget = targets && targets.has(id);
    const bits = [name, i === 0 ? t("front") : i === n - 1 ? t("rear") : t("position {n}", {n: i + 1})];
    if (u.leader) bits.push(t("leader"));
    bits.push(t("life {life} of {max}", {life: u.life, max: u.max_life}), t("power {n}", {n: u.power}));
    if (acted) bits.push(t("has acted"));
    if (negated) bits.push(t("abilities negated"));
    if (isTarget) bits.push(t("choose as target"));
    const pct = Math.max(0, Math.min(100, 100 * u.life / Math.max(1, u.max_life)));
    const btn = v("button", {
      class: ["pl-bunit", acted ? "pl-acted" : "", isTarget ? "pl-target" : "", u.leader ? "pl-leader" : "", sc.quick.has(id) ? "pl-quick" : ""],
      type: "button", "data-unit": id, "data-key": `b:${id}`, "aria-label": bits.join(", "),
      onclick: () => {
        if (isTarget) this.pickTarget(id);
        else if (!forming) B.showUnit(id);
      },
      onkeydown: forming ? (e) => {
        if (e.key === "ArrowLeft") { e.preventDefault(); this.move(id, -1); }
        if (e.key === "ArrowRight") { e.preventDefault(); this.move(id, 1); }
      } : null,
    },
    B.cards.img(u.card, "pl-bunit-img", v),
    u.leader ? v("span", {class: "pl-crown", "aria-hidden": "true"}, crownSvg(v)) : null,
    acted ? v("span", {class: "pl-tag pl-tag-acted", "aria-hidden": "true"}, t("acted")) : null,
    negated ? v("span", {class: "pl-tag pl-tag-neg", "aria-hidden": "true"}, t("negated")) : null,
    v("span", {class: "pl-bstats", "aria-hidden": "true"},
      v("b", {class: "pl-pow"}, u.power), v("b", {class: "pl-hp"}, `${u.life}/${u.max_life}`),
      v("span", {class: "pl-life"}, v("span", {style: {width: `${pct}%`}}))));
    return v("li", {key: id, class: ["pl-member", i === 0 ? "pl-front" : "", forming ? "pl-draggable" : ""], "data-unit": id, draggable: forming ? true : undefined},
      i === 0 ? v("span", {class: "pl-front-tag"}, t("front")) : i === n - 1 && n > 1 ? v("span", {class: "pl-rear-tag"}, t("rear")) : null, btn,
      forming ? v("span", {class: "pl-move-btns"},
        v("button", {class: "pl-btn pl-btn-icon", type: "button", "data-key": `fwd:${id}`, "aria-label": t("Move {name} toward the front", {name}),
          disabled: i === 0, onclick: () => this.move(id, -1)}, "◀"),
        v("button", {class: "pl-btn pl-btn-icon", type: "button", "data-key": `back:${id}`, "aria-label": t("Move {name} toward the rear", {name}),
          disabled: i === n - 1, onclick: () => this.move(id, 1)}, "▶")) : null);
  }

  dice() {
    const sc = this.scene;
    const B = this.b;
    const ini = sc.initiative;
    let verdict = t("Higher total strikes first");
    if (ini) verdict = ini.first === null || ini.first === undefined ? t("A tie: simultaneous attack!")
      : this.verb(ini.first, t("You strike first"), t("{name} strikes first", {name: this.b.names[ini.first]}));
    return v("div", {class: "pl-dice", "aria-label": t("Initiative")},
      [B.foe, B.me].map((p) => {
        const r = ini ? ini.rolls[String(p)] : null;
        const win = ini && ini.first === p;
        const spin = this.spinning ? this.spinning[p] : null;  // a face of the rolling die (on_initiative)
        return v("div", {class: ["pl-dieset", win ? "pl-die-win" : "", p === B.me ? "pl-dieset-me" : "pl-dieset-foe"], "data-side": p},
          v("span", {class: "pl-die-who"}, this.who(p)),
          v("span", {class: ["pl-die", spin ? "pl-rolling" : ""], "data-die": r ? r.die : "", style: spin ? {transform: `rotate(${spin.angle}deg)`} : {}},
            dieSvg(spin ? spin.face : r ? r.die : 0)),
          v("span", {class: "pl-die-sum"}, r ? t("{die} {sign} {n} speed = ", {die: r.die, sign: r.speed >= 0 ? "+" : "−", n: Math.abs(r.speed)}) : t("die + speed"), r ? v("b", {}, r.total) : null));
      }),
      v("p", {class: "pl-dice-verdict", "data-testid": "initiative"}, verdict));
  }

  chain() {
    const sc = this.scene;
    return v("div", {class: "pl-chain-wrap"},
      v("h3", {class: "pl-chain-title"}, t("Declarations"),
        sc.chain.length > 1 ? v("span", {class: "pl-chain-dir"}, " · " + t("resolve from the right ←")) : null),
      v("ol", {class: "pl-chain", tabindex: "0", "aria-label": t("Declarations, oldest first; they resolve from the right")},
        sc.chain.map((d, i) => this.decl(d, i)),
        sc.chain.length ? null : v("li", {key: "empty", class: "pl-chain-empty"}, sc.step === "fight" ? t("Nothing declared yet.") : t("The fight has not begun."))),
      this.narration());
  }

  /** The battle's narration: every line so far, the newest last and in view (it scrolls inside its
   * own few lines, in the flow of the screen: it covers nothing; render() scrolls it). */
  narration() {
    const shown = this.lines.length ? this.lines : this.caption ? [this.caption] : [];
    return v("ol", {class: "pl-narr", "data-testid": "battle-narration", "aria-live": "polite", tabindex: 0, "aria-label": t("What happened in this battle")},
      shown.map((line, i) => v("li", {key: i, class: i === shown.length - 1 ? "pl-caption" : null}, line)));
  }

  decl(d, i) {
    const B = this.b;
    const mine = d.player === B.me;
    let cid = d.card || null;
    if (!cid && d.unit) cid = this.info(d.unit).card;
    let title;
    if (d.kind === "attack") title = t("Attack");
    else title = cid ? B.cards.name(cid) : d.kind;
    const kindWord = d.kind === "attack" ? t("attack") : d.kind === "spell" ? t("spell") : t("ability");
    const extra = [];
    if (d.targets && d.targets.length) extra.push(v("span", {class: "pl-decl-target"}, "→ " + d.targets.map((t) => B.unitName(t)).join(", ")));
    if (d.kind === "attack" && d.units) {
      const pow = d.units.reduce((n, u) => n + Math.max(0, this.info(u).power || 0), 0);
      extra.push(v("span", {class: "pl-decl-units"}, tn("{n} unit", "{n} units", d.units.length) + " · ⚔ " + (d.power !== undefined ? d.power : pow)));
    }
    if (d.choice !== undefined && d.choice !== null && cid) {
      const opts = B.cards.choices(cid);
      extra.push(v("span", {class: "pl-decl-choice"}, t("Chose: {option}", {option: opts[d.choice] || optionWord(d.choice)})));
    }
    if (d.coin) {
      const c = cid ? B.cards.coin(cid) : null;
      extra.push(v("span", {class: `pl-coin pl-coin-${d.coin}`}, v("i", {"aria-hidden": "true"}, d.coin === "heads" ? t("H") : t("T")),
        (d.coin === "heads" ? t("Heads") : t("Tails")) + (c ? ": " + c[d.coin] : "")));
    }
    if (d.paid) {
      const parts = [];
      if (d.paid.element) parts.push(`${d.paid.element} ${B.cards.get(cid).element || ""}`);
      if (d.paid.wild) parts.push(`${d.paid.wild} wild`);
      if (parts.length) extra.push(v("span", {class: "pl-decl-paid"}, t("paid {what}", {what: parts.join(" + ")})));
    }
    const said = mine ? t("your {kind} {title}", {kind: kindWord, title}) : t("{name}’s {kind} {title}", {name: B.names[d.player], kind: kindWord, title});
    return v("li", {key: i, class: ["pl-decl", `pl-decl-${d.kind}`, mine ? "pl-decl-me" : "pl-decl-foe", d.state ? `pl-decl-${d.state}` : ""],
      "data-index": i, "data-kind": d.kind, "aria-label": (i + 1) + ": " + said + (d.state === "cancelled" ? t(", cancelled") : "")},
    i > 0 ? v("span", {class: "pl-decl-arrow", "aria-hidden": "true"}, "↩") : null,
    v("div", {class: "pl-decl-card", "data-card": d.kind === "attack" ? null : cid},
      d.kind === "attack" ? v("span", {class: "pl-art pl-art-attack", "aria-hidden": "true"}, "⚔") : B.cards.art(cid, "pl-art-decl", v),
      v("div", {class: "pl-decl-body"},
        v("span", {class: "pl-decl-who"}, `${this.who(d.player)} · ${kindWord}`),
        v("b", {class: "pl-decl-title"}, title), ...extra)),
    d.stamp ? v("span", {class: `pl-stamp pl-stamp-${d.stampKind || "ok"}`}, d.stamp) : null,
    d.state === "cancelled" && !d.stamp ? v("span", {class: "pl-stamp pl-stamp-bad"}, t("cancelled")) : null);
  }

  // ------------------------------------------------------------------ choices of the moment

  bar() {
    const sc = this.scene;
    const B = this.b;
    const v0 = B.view;
    const wrap = (...kids) => v("div", {class: "pl-bbar", "data-testid": "battle-bar"}, ...kids);
    const waiting = (words) => v("p", {key: "wait", class: "pl-prompt pl-wait"}, v("span", {class: "pl-spinner", "aria-hidden": "true"}), words);
    if (sc.outcome || !sc.live || B.animating || !v0 || !v0.battle) return wrap(waiting(this.caption || "…"));
    if (!this.interactive()) {
      const w = (v0.waiting_for || [])[0];
      const who = w === undefined ? B.names[B.foe] : B.names[w];
      if (B.replay) return wrap(v("p", {key: "next", class: "pl-prompt"}, t("Next: {name} decides.", {name: who})));  // a replay's step: whose decision comes next
      return wrap(waiting(B.sent ? t("Sending…") : t("{name} is deciding…", {name: who})));
    }
    const types = new Set(B.legal.map((a) => a.type));
    const kids = types.has("quick_summon") ? this.quickBar() : types.has("formation") ? this.formationBar() : this.fightBar();
    return wrap(...kids, B.hint.answer(v));
  }

  quickBar() {
    const B = this.b;
    const opts = B.actions("quick_summon");
    if (!this.ui || this.ui.kind !== "quick") this.ui = {kind: "quick", picked: []};
    const ui = this.ui;
    // one compact entry (docs/protocol.md): any non-empty set of `from` whose `levels` fit `room`
    const set = opts.find((a) => a.choose === "set");
    const cands = set ? set.from : [];
    const pickedLevels = ui.picked.map((c) => cands.includes(c) ? set.levels[cands.indexOf(c)] : Infinity);
    const valid = set && pickedLevels.reduce((n, l) => n + l, 0) <= set.room;
    const land = B.view.lands[this.scene.land];
    const level = this.scene.parties[B.me].reduce((n, id) => n + (B.cards.get(this.info(id).card).level || 0), 0);
    const pickedLevel = ui.picked.reduce((n, c) => n + (B.cards.get((B.handCard(c) || {}).card).level || 0), 0);
    const none = opts.find((a) => a.cards && !a.cards.length);
    return [
      v("p", {key: "quick", class: "pl-prompt"}, v("b", {}, t("Quick summon.") + " "),
        t("Add Quick monsters from your hand to the front of your party. Party level {level} of capacity {capacity}.",
          {level: level + pickedLevel, capacity: land ? land.capacity : "?"})),
      v("ul", {key: "quick-list", class: "pl-quick-list"}, cands.map((c) => {
        const hc = B.handCard(c);
        const on = ui.picked.includes(c);
        return v("li", {key: c}, v("button", {class: ["pl-quick-card", on ? "pl-on" : ""], type: "button", "aria-pressed": String(on), "data-key": `q:${c}`, "data-card": hc.card,
          onclick: () => { const i = ui.picked.indexOf(c); if (i >= 0) ui.picked.splice(i, 1); else ui.picked.push(c); this.render(); }},
        B.cards.img(hc.card, "pl-card-small", v), v("span", {}, `${B.cards.name(hc.card)} · ${t("level {n}", {n: B.cards.get(hc.card).level})}`),
        on ? v("span", {class: "pl-quick-n"}, ui.picked.indexOf(c) + 1) : null));
      })),
      v("div", {key: "quick-btns", class: "pl-row-btns"},
        v("button", {class: "pl-btn pl-btn-go", type: "button", "data-key": "quick-go", disabled: !(valid && ui.picked.length),
          onclick: () => B.send({type: "quick_summon", cards: ui.picked.slice()})},
        ui.picked.length ? tn("Quick summon {n} monster", "Quick summon {n} monsters", ui.picked.length) : t("Quick summon")),
        none ? v("button", {class: "pl-btn", type: "button", "data-key": "quick-none", onclick: () => B.send(none)}, t("No quick summon")) : null,
        ui.picked.length && !valid ? v("span", {class: "pl-bad"}, t("Not allowed together (capacity).")) : null),
    ];
  }

  formationBar() {
    const B = this.b;
    const opts = B.actions("formation");
    if (!this.ui || this.ui.kind !== "formation") {
      // R9.5: start from the suggested order (the plain formation entry; the compact one, `choose:
      // "order"`, allows any order of its `from`), and re-render the party.
      const standing = (opts.find((a) => a.order) || {order: opts[0].from}).order;
      this.ui = {kind: "formation", order: standing.slice(), suggested: standing.slice()};
      queueMicrotask(() => this.render());
    }
    const ui = this.ui;
    return [
      v("p", {key: "formation", class: "pl-prompt"}, v("b", {}, t("Formation.") + " "),
        t("The front (left) takes damage first. Drag the cards, or use the arrows (or ← → on a card). Starts from the suggested order: non-leaders in front, leaders at the rear.")),
      v("div", {key: "formation-btns", class: "pl-row-btns"},
        v("button", {class: "pl-btn pl-btn-go", type: "button", "data-key": "form-go", onclick: () => B.send({type: "formation", order: ui.order.slice()})}, t("Confirm formation")),
        v("button", {class: "pl-btn", type: "button", "data-key": "form-reset", disabled: ui.order.join() === ui.suggested.join(),
          onclick: () => { ui.order = ui.suggested.slice(); this.render(); }}, t("Suggested order"))),
    ];
  }

  move(id, delta) {
    const o = this.ui.order;
    const i = o.indexOf(id);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= o.length) return;
    [o[i], o[j]] = [o[j], o[i]];
    this.render();
    const el = this.el.querySelector(`[data-key="b:${CSS.escape(id)}"]`);
    if (el) el.focus({preventScroll: true});
  }

  /** The player's row's drag and drop while they set the formation (handlers of the <ol>). */
  dragHandlers() {
    const row = (e) => e.currentTarget;
    return {
      ondragstart: (e) => {
        const li = e.target.closest(".pl-member");
        if (!li) return;
        this.dragging = li.dataset.unit;
        li.classList.add("pl-dragging");
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", this.dragging);
      },
      ondragover: (e) => {
        if (!this.dragging) return;
        e.preventDefault();
        const li = e.target.closest(".pl-member");
        row(e).querySelectorAll(".pl-drop").forEach((x) => x.classList.remove("pl-drop"));
        if (li && li.dataset.unit !== this.dragging) li.classList.add("pl-drop");
      },
      ondrop: (e) => {
        e.preventDefault();
        const li = e.target.closest(".pl-member");
        const id = this.dragging || e.dataTransfer.getData("text/plain");
        this.dragging = null;
        if (!li || !id || li.dataset.unit === id) { this.render(); return; }
        const o = this.ui.order;
        const from = o.indexOf(id);
        const to = o.indexOf(li.dataset.unit);
        o.splice(from, 1);
        o.splice(to, 0, id);
        this.render();
      },
      ondragend: (e) => {
        this.dragging = null;
        row(e).querySelectorAll(".pl-dragging,.pl-drop").forEach((x) => x.classList.remove("pl-dragging", "pl-drop"));
      },
    };
  }

  /** Declarations grouped per unit (abilities) or per card kind (spells: copies act alike). */
  groups() {
    const B = this.b;
    const out = new Map();
    for (const a of B.legal) {
      if (a.type !== "ability" && a.type !== "spell") continue;
      let key;
      let cid;
      if (a.type === "ability") { key = `a:${a.unit}`; cid = this.info(a.unit).card; }
      else {
        const hc = B.handCard(a.card);
        cid = hc ? hc.card : a.card;
        key = `s:${cid}`;
      }
      let g = out.get(key);
      if (!g) { g = {key, type: a.type, cid, source: a.type === "ability" ? a.unit : a.card, actions: []}; out.set(key, g); }
      if (a.type === "spell" && a.card !== g.source) continue;
      g.actions.push(a);
    }
    return [...out.values()];
  }

  /** The spell group a hand card can start now, or null (for the hand's "Cast" buttons). */
  castFor(handId) {
    if (!this.interactive()) return null;
    const hc = this.b.handCard(handId);
    if (!hc) return null;
    return this.groups().find((g) => g.type === "spell" && g.cid === hc.card) || null;
  }

  /** Auto-pass (the settings): the opponent's declaration is let through after a moment unless the
   * player steps in; the box switches it for this battle only. */
  autoPass(pass) {
    const B = this.b;
    const sc = this.scene;
    const battleKey = `${B.view.round}:${sc.land}:${sc.attacker}`;
    const effective = () => (this.autoOverride && this.autoOverride.key === battleKey ? this.autoOverride.on : !!B.settings.get("autopass"));
    const on = effective();
    const box = v("label", {key: "autopass", class: "pl-autopass"},
      v("input", {type: "checkbox", checked: on, "data-testid": "autopass-battle",
        onchange: (e) => { this.autoOverride = {key: battleKey, on: e.target.checked}; clearTimeout(this.autoTimer); this.autoFor = null; this.render(); }}),
      " " + t("Auto-pass in this battle"));
    if (!on) { clearTimeout(this.autoTimer); this.autoFor = null; return [box]; }
    const wait = {normal: 1500, fast: 600, instant: 0}[B.settings.get("anim")] ?? 1500;
    const note = v("p", {key: "autopass-note", class: "pl-hint", "data-testid": "autopass-note"},
      wait ? t("Letting it through in a moment — untick auto-pass to answer.") : t("Letting it through."));
    if (this.autoFor === B.version) return [box, note];
    clearTimeout(this.autoTimer);
    this.autoFor = B.version;
    const version = B.version;
    const fire = () => {
      if (B.version !== version || !B.legal.includes(pass)) return;
      if (!effective()) return;
      if (B.busy || B.sent || B.animating) { this.autoTimer = setTimeout(fire, 150); return; }
      B.autoPassed = (B.autoPassed || 0) + 1;
      this.autoPassFor = B.version;
      B.send(pass);
    };
    this.autoTimer = setTimeout(fire, wait);
    return [box, note];
  }

  fightBar() {
    const B = this.b;
    const bt = B.view.battle;
    const sc = this.scene;
    const attack = B.legal.find((a) => a.type === "attack");
    const pass = B.legal.find((a) => a.type === "pass");
    if (this.ui && this.ui.kind === "pick") return this.pickBar();
    const latest = bt.chain.length ? bt.chain[bt.chain.length - 1] : null;
    const kids = [];
    if (latest) {
      const name = this.b.names[latest.player];
      const card = latest.card ? B.cards.name(latest.card) : latest.unit ? B.unitName(latest.unit) : "";
      const said = latest.kind === "attack" ? this.verb(latest.player, t("You declared an attack."), t("{name} declared an attack.", {name}))
        : latest.kind === "spell" ? this.verb(latest.player, t("You declared the spell {card}.", {card}), t("{name} declared the spell {card}.", {name, card}))
          : this.verb(latest.player, t("You declared the ability of {card}.", {card}), t("{name} declared the ability of {card}.", {name, card}));
      kids.push(v("p", {key: "answer", class: "pl-prompt"}, v("b", {}, said + " "),
        t("Answer with a [Counter], or let it through.")));
    } else {
      kids.push(v("p", {key: "window", class: "pl-prompt"}, v("b", {}, t("Your window.") + " "),
        attack ? t("Use [Normal] abilities or spells first if you like, then attack.") : t("Nobody in your party can attack.")));
    }
    const power = sc.parties[B.me].filter((id) => !sc.acted.has(id)).reduce((n, id) => n + Math.max(0, this.info(id).power || 0), 0);
    kids.push(v("div", {key: "fight-btns", class: "pl-row-btns pl-fight-btns"},
      attack ? v("button", {key: "attack", class: "pl-btn pl-btn-danger pl-btn-big", type: "button", "data-key": "attack", "data-testid": "attack",
        onclick: () => B.send(attack)}, t("Attack") + " · ⚔ " + power) : null,
      pass ? v("button", {key: "pass", class: "pl-btn pl-btn-big", type: "button", "data-key": "pass", "data-testid": latest ? "let-through" : "no-attack",
        onclick: () => B.send(pass)}, latest ? t("Let it through") : t("Go on without attacking")) : null));
    if (latest && pass) kids.push(...this.autoPass(pass));
    const groups = this.groups();
    if (groups.length) {
      kids.push(v("ul", {key: "decls", class: "pl-decls", "aria-label": latest ? t("Counters you can declare") : t("Abilities and spells you can declare")},
        groups.map((g) => {
          const c = B.cards.get(g.cid);
          const label = g.type === "spell" ? t("Cast {card}", {card: B.cards.name(g.cid)}) : t("Use {card}", {card: B.cards.name(g.cid)});
          const slotWord = tn("{n} {element} slot", "{n} {element} slots", c.mana ?? 0, {element: elementWord(c.element)});
          const cost = g.type === "spell" ? t("spell") + " · " + slotWord
            : t("ability · it will not attack");
          return v("li", {key: g.key}, v("button", {class: ["pl-decl-btn", g.type === "spell" ? "pl-dbtn-spell" : "pl-dbtn-ability"], type: "button",
            "data-key": `g:${g.key}`, "data-testid": g.type, title: B.cards.text(g.cid), onclick: () => this.startDeclaration(g)},
          B.cards.art(g.cid, "pl-art-chip", v),
          v("span", {class: "pl-decl-btn-text"}, v("b", {}, label), v("span", {class: "pl-decl-cost"}, cost),
            v("span", {}, B.cards.text(g.cid).replace(/^\[[^\]]+\]\s*/, "")))));
        })));
    }
    return kids;
  }

  startDeclaration(g) {
    if (!g) return;
    if (g.actions.length === 1) { this.b.send(g.actions[0]); return; }
    this.ui = {kind: "pick", group: g, target: undefined, choice: undefined, sacrifice: undefined};
    this.render();
    const first = this.el.querySelector(".pl-bbar button");
    if (first) first.focus({preventScroll: true});
  }

  remaining() {
    const ui = this.ui;
    return ui.group.actions.filter((a) =>
      (ui.target === undefined || (a.targets || []).join(",") === ui.target) &&
      (ui.choice === undefined || (a.choice ?? null) === ui.choice) &&
      (ui.sacrifice === undefined || (a.sacrifice ?? null) === ui.sacrifice));
  }

  /** What the current pick asks for: "target", "choice", "sacrifice", or null when one action is left. */
  asking() {
    const ui = this.ui;
    if (!ui || ui.kind !== "pick") return null;
    const rest = this.remaining();
    const vary = (f) => new Set(rest.map(f)).size > 1;
    if (ui.target === undefined && vary((a) => (a.targets || []).join(","))) return "target";
    if (ui.choice === undefined && vary((a) => a.choice ?? null)) return "choice";
    if (ui.sacrifice === undefined && vary((a) => a.sacrifice ?? null)) return "sacrifice";
    return null;
  }

  targetSet() {
    if (this.asking() !== "target") return null;
    const s = new Set();
    for (const a of this.remaining()) for (const t of a.targets || []) s.add(t);
    return s;
  }

  pickTarget(id) {
    this.ui.target = id;
    this.advancePick();
  }

  advancePick() {
    const ask = this.asking();
    const rest = this.remaining();
    if (!ask && rest.length) {
      this.ui = null;
      this.b.send(rest[0]);
      return;
    }
    this.render();
    const first = this.el.querySelector(".pl-bbar .pl-pick button");
    if (first) first.focus({preventScroll: true});
  }

  cancelPick() {
    if (this.ui && this.ui.kind === "pick") { this.ui = null; this.render(); return true; }
    return false;
  }

  pickBar() {
    const B = this.b;
    const ui = this.ui;
    const g = ui.group;
    const ask = this.asking();
    const rest = this.remaining();
    const name = B.cards.name(g.cid);
    const box = [];
    if (ask === "target") {
      box.push(v("span", {key: "hint", class: "pl-hint"}, t("Choose a target (glowing) — or here:")));
      const seen = new Set();
      for (const a of rest) {
        const key = (a.targets || []).join(",");
        if (seen.has(key)) continue;
        seen.add(key);
        const u = this.info(a.targets[0]);
        box.push(v("button", {key: `t:${key}`, class: "pl-btn pl-btn-choice", type: "button", "data-key": `t:${key}`, onclick: () => this.pickTarget(key)},
          B.cards.art(u.card, "pl-art-chip", v), u.owner === B.me ? t("{card} (yours)", {card: B.cards.name(u.card)}) : B.cards.name(u.card)));
      }
    } else if (ask === "choice") {
      const opts = B.cards.choices(g.cid);
      const seen = new Set();
      for (const a of rest) {
        if (seen.has(a.choice)) continue;
        seen.add(a.choice);
        box.push(v("button", {key: `c:${a.choice}`, class: "pl-btn pl-btn-choice", type: "button", "data-key": `c:${a.choice}`,
          onclick: () => { ui.choice = a.choice ?? null; this.advancePick(); }}, opts[a.choice] || t("Option {n}", {n: a.choice + 1})));
      }
    } else if (ask === "sacrifice") {
      box.push(v("span", {key: "hint", class: "pl-hint"}, t("Sacrifice which ally?")));
      const seen = new Set();
      for (const a of rest) {
        if (seen.has(a.sacrifice)) continue;
        seen.add(a.sacrifice);
        const u = this.info(a.sacrifice);
        box.push(v("button", {key: `sac:${a.sacrifice}`, class: "pl-btn pl-btn-choice pl-btn-danger", type: "button", "data-key": `sac:${a.sacrifice}`,
          onclick: () => { ui.sacrifice = a.sacrifice ?? null; this.advancePick(); }}, B.cards.art(u.card, "pl-art-chip", v), B.cards.name(u.card)));
      }
    }
    box.push(v("button", {key: "pick-cancel", class: "pl-btn pl-btn-quiet", type: "button", "data-key": "pick-cancel", onclick: () => this.cancelPick()}, t("Back (Esc)")));
    return [
      v("p", {key: "pick", class: "pl-prompt"}, v("b", {}, (g.type === "spell" ? t("Cast {card}.", {card: name}) : t("Use {card}.", {card: name})) + " "), B.cards.text(g.cid)),
      v("div", {key: "pick-box", class: "pl-pick pl-row-btns"}, box),
    ];
  }

  // ------------------------------------------------------------------ outcome

  outcomeBox() {
    const sc = this.scene;
    const B = this.b;
    const e = sc.outcome;
    const meAtt = sc.attacker === B.me;
    let title;
    let cls;
    const land = B.landLabel(sc.land);
    if (B.seat === null) {
      title = e.success ? t("{name} takes {land}", {name: B.names[sc.attacker], land}) : t("{name} holds {land}", {name: B.names[1 - sc.attacker], land});
      cls = "neutral";
    } else if (meAtt) { title = e.success ? t("Victory! {land} is yours", {land}) : t("The attack on {land} failed", {land}); cls = e.success ? "good" : "bad"; }
    else { title = e.success ? t("{land} has fallen to {name}", {land, name: B.names[sc.attacker]}) : t("You held {land}!", {land}); cls = e.success ? "bad" : "good"; }
    const lost = (p) => (sc.fallen[p] || []);
    const row = (p) => v("li", {}, v("span", {}, this.verb(p, t("You lost"), t("{name} lost", {name: B.names[p]})) + " "),
      lost(p).length ? lost(p).map((cid) => B.cards.art(cid, "pl-art-chip pl-fallen", v)) : t("nobody"));
    const back = e.returned && e.returned.length ? v("p", {class: "pl-hint"}, t("Back to where they came from: {list}.", {list:
      e.returned.map((r) => `${B.unitName(r.unit)} → ${B.landLabel(r.land)}`).join(", ")})) : null;
    return v("div", {class: `pl-outcome pl-outcome-${cls}`, role: "status", "data-testid": "battle-outcome"},
      v("h3", {}, title), v("ul", {class: "pl-outcome-lost"}, row(B.me), row(B.foe)), back,
      v("button", {class: "pl-btn pl-btn-go", type: "button", "data-key": "outcome-ok", onclick: () => this.release && this.release()}, t("Back to the map")));
  }

  // ------------------------------------------------------------------ events → animation

  async animate(events, prev, next) {
    const B = this.b;
    if (!this.scene && prev && prev.battle) { this.scene = this.sceneFromView(prev.battle); this.open(); }
    if (this.scene) this.scene.live = false;
    // The player's own decision this update answers (its step), if the last view waited for them;
    // every other action of theirs in these events the engine took by itself (R9.6, R10.7).
    const asked = prev && prev.battle && (prev.waiting_for || []).includes(B.me) && B.seat !== null;
    this.chose = asked ? {step: stepIndexOf(prev.battle.step, prev.battle.step_player, prev.battle.attacker), auto: this.autoPassFor === B.version} : null;
    for (const [i, e] of events.entries()) {
      if (!this.scene && e.type !== "battle_started") continue;
      this.nextType = i + 1 < events.length ? events[i + 1].type : null;
      this.thisType = e.type;
      const at = this.scene ? eventStep(e, this.scene.attacker) : null;
      if (at !== null) await this.catchUp(at);
      const fn = this["on_" + e.type];
      if (fn) await fn.call(this, e);
    }
    if (this.scene && next && next.battle && !next.result) await this.catchUp(stepIndexOf(next.battle.step, next.battle.step_player, next.battle.attacker));
    this.chose = null;
    if (this.scene) { this.scene.live = true; }
    B.animating = false;
  }

  /** Linger `ms` (at normal speed) on what an event showed; only a moment when the next event is of
   * the same kind, so one attack's damage, deaths or boosts come together. */
  pause(ms) {
    return sleep(this.nextType && this.nextType === this.thisType ? Math.min(ms, PACE.together) : ms);
  }

  /** Was this action of the player's their own choice (the decision the last view asked of them)?
   * Consumes that decision; false: the engine (or the page's auto-pass) took it for them. */
  ownChoice(step) {
    const c = this.chose;
    if (!c || c.used || c.step !== step) return false;
    c.used = true;
    return true;
  }

  /** Narrate the preparation steps that went by with no event up to step `to` (R9.1): a quick
   * summon nobody added to, a formation skipped (R9.6). */
  async catchUp(to) {
    const sc = this.scene;
    if (!sc || sc.outcome) return;
    let i = stepIndexOf(sc.step, sc.stepPlayer, sc.attacker);
    for (; i < Math.min(to, FIGHT); i++) {
      if (i === 4) continue;  // the initiative always comes as an event
      const player = i < 2 ? sc.attacker : 1 - sc.attacker;
      const chose = player === this.b.me && this.ownChoice(i);
      const line = skippedLine(i, {player, me: this.b.seat === null ? null : this.b.me, name: this.b.names[player], chose,
        party: sc.parties[player].map((id) => this.info(id).card)}, t);
      Object.assign(sc, stepAt(i + 1, sc.attacker));
      this.tell(line);
      this.render();
      await sleep(PACE.skipped);
    }
    if (to < FIGHT && stepIndexOf(sc.step, sc.stepPlayer, sc.attacker) < to) Object.assign(sc, stepAt(to, sc.attacker));
  }

  /** Why the hand card `handId`, a spell, cannot be cast now (words for its card), or null. */
  spellWhy(handId) {
    const B = this.b;
    const v = B.view;
    const hc = B.handCard(handId);
    if (!v || !hc || this.castFor(handId)) return null;
    const card = B.cards.get(hc.card);
    if (!card || card.kind !== "spell") return null;
    return spellWhy(card, {phase: v.phase, battle: v.battle || null, me: B.me, waiting: (v.waiting_for || []).includes(B.me),
      foeName: B.names[B.foe], elementWord}, t, tn);
  }

  /** Narrate a line as it happens (the narration and the waiting bar's words). */
  say(text) {
    this.tell(text);
    this.draw();
  }

  unitEl(id) {
    return this.el.querySelector(`.pl-bunit[data-unit="${CSS.escape(id)}"]`);
  }

  float(id, text, cls) {
    const el = id ? this.unitEl(id) : null;
    const box = this.el.getBoundingClientRect();
    const f = h("span", {class: `pl-float ${cls || ""}`, "aria-hidden": "true"}, text);
    if (el) {
      const r = el.getBoundingClientRect();
      f.style.left = `${r.left - box.left + r.width / 2}px`;
      f.style.top = `${r.top - box.top + r.height * 0.35}px`;
    } else {
      f.style.left = "50%";
      f.style.top = "45%";
    }
    f.style.animationDuration = `${Math.max(300, 1300 * pace.scale)}ms`;
    add(this.el, f);
    setTimeout(() => f.remove(), Math.max(350, 1400 * pace.scale));
  }

  async on_battle_started(e) {
    const B = this.b;
    B.mapView.flashLand(e.land, "pl-battle-flash");
    await sleep(PACE.start);
    this.scene = {
      land: e.land, attacker: e.attacker, step: "quick", stepPlayer: e.attacker,
      parties: {0: e.parties["0"].slice(), 1: e.parties["1"].slice()}, chain: [], initiative: null, order: null,
      strikerIdx: 0, simultaneous: false, acted: new Set(), negated: new Set(), slots: null, responder: null,
      lock: false, quick: new Set(), stats: {}, fallen: {0: [], 1: []}, outcome: null, live: false,
    };
    this.ui = null;
    this.lines = [];
    const land = this.b.landLabel(e.land);
    this.tell(this.verb(e.attacker, t("You march into {land}: battle!", {land}), t("{name} marches into {land}: battle!", {name: this.b.names[e.attacker], land})));
    this.open();
    this.render();
    this.el.animate([{opacity: 0, transform: "scale(.97)"}, {opacity: 1, transform: "none"}], {duration: Math.max(1, 350 * pace.scale)});
    B.tips.show("battle");
    await sleep(PACE.open);
  }

  async on_quick_summoned(e) {
    const sc = this.scene;
    const B = this.b;
    e.units.forEach((id, i) => {
      const c = B.cards.get(e.cards[i]);
      B.known.set(id, Object.assign({id, card: e.cards[i], owner: e.player, leader: false, life: c.life, max_life: c.life,
        power: c.power, speed: c.speed || 0, level: c.level}, B.known.get(id) || {}));
      sc.quick.add(id);
    });
    sc.parties[e.player] = e.units.concat(sc.parties[e.player].filter((u) => !e.units.includes(u)));
    sc.step = "formation";
    sc.stepPlayer = e.player;
    if (e.player === B.me) this.ownChoice(e.player === sc.attacker ? 0 : 2);
    const units = e.units.map((u) => B.unitName(u)).join(", ");
    const n = e.units.length;
    this.tell(this.verb(e.player, tn("You quick summon {n} monster: {units}.", "You quick summon {n} monsters: {units}.", n, {units}),
      tn("{name} quick summons {n} monster: {units}.", "{name} quick summons {n} monsters: {units}.", n, {name: B.names[e.player], units})));
    this.render();
    for (const id of e.units) { const el = this.unitEl(id); if (el) el.classList.add("pl-arrive"); }
    await sleep(PACE.quick);
  }

  async on_formation(e) {
    const sc = this.scene;
    sc.parties[e.player] = e.order.slice();
    if (e.player === sc.attacker) { sc.step = "quick"; sc.stepPlayer = 1 - sc.attacker; }
    else { sc.step = "initiative"; sc.stepPlayer = null; }
    if (e.player === this.b.me) this.ownChoice(e.player === sc.attacker ? 1 : 3);
    this.tell(this.verb(e.player, t("You set the formation."), t("{name} sets the formation.", {name: this.b.names[e.player]})));
    this.render();
    await sleep(PACE.formation);
  }

  async on_initiative(e) {
    const sc = this.scene;
    sc.step = "initiative";
    sc.initiative = null;
    this.tell(t("Initiative roll!"));
    this.render();
    const spin = pace.scale > 0 ? PACE.spin * pace.scale : 0;
    const t0 = performance.now();
    while (performance.now() - t0 < spin) {
      const face = () => ({face: 1 + Math.floor(Math.random() * 6), angle: Math.floor(Math.random() * 50 - 25)});
      this.spinning = {0: face(), 1: face()};
      this.render();
      await new Promise((r) => setTimeout(r, 70));
    }
    this.spinning = null;
    sc.initiative = {rolls: e.rolls, first: e.first};
    sc.simultaneous = e.first === null || e.first === undefined;
    sc.order = sc.simultaneous ? null : [e.first, 1 - e.first];
    sc.step = "fight";
    sc.strikerIdx = 0;
    const r = e.rolls;
    this.tell(sc.simultaneous ? t("Tie at {n}: both attack at once!", {n: r["0"].total}) : this.verb(e.first,
      t("You strike first ({n} against {m}).", {n: r[String(e.first)].total, m: r[String(1 - e.first)].total}),
      t("{name} strikes first ({n} against {m}).", {name: this.b.names[e.first], n: r[String(e.first)].total, m: r[String(1 - e.first)].total})));
    this.render();
    for (const d of this.el.querySelectorAll(".pl-die")) d.animate([{transform: "scale(1.35)"}, {transform: "scale(1)"}], {duration: Math.max(1, 400 * pace.scale)});
    await sleep(PACE.rolled);
  }

  async on_triggered(e) {
    const el = this.unitEl(e.unit);
    if (el) el.classList.add("pl-glow");
    this.say(e.timing === "on_destroy" ? t("{unit}: on destroy!", {unit: this.b.unitName(e.unit)}) : t("{unit}: triggered!", {unit: this.b.unitName(e.unit)}));
    this.float(e.unit, "✦", "pl-float-spell");
    await this.pause(PACE.trigger);
  }

  async on_declared(e) {
    const sc = this.scene;
    const B = this.b;
    const d = Object.assign({}, e, {state: "new"});
    sc.chain.push(d);
    if (e.kind === "attack") (e.units || []).forEach((u) => sc.acted.add(u));
    if (e.kind === "ability" && e.unit) sc.acted.add(e.unit);
    if (e.kind === "spell" && sc.slots && e.paid) {
      const pools = sc.slots[String(e.player)];
      const el = B.cards.get(e.card).element;
      if (pools && pools[el] && e.paid.element) pools[el].used += e.paid.element;
      if (pools && pools.wild && e.paid.wild) pools.wild.used += e.paid.wild;
    }
    const name = B.names[e.player];
    const reply = e.responds_to !== undefined;
    const card = e.kind === "spell" ? B.cards.name(e.card) : e.kind === "attack" ? "" : B.unitName(e.unit);
    const said = {
      attack: reply ? [t("You attack in response."), t("{name} attacks in response.", {name})] : [t("You attack."), t("{name} attacks.", {name})],
      spell: reply ? [t("You cast {card} in response.", {card}), t("{name} casts {card} in response.", {name, card})]
        : [t("You cast {card}.", {card}), t("{name} casts {card}.", {name, card})],
      ability: reply ? [t("You use {card} in response.", {card}), t("{name} uses {card} in response.", {name, card})]
        : [t("You use {card}.", {card}), t("{name} uses {card}.", {name, card})],
    }[e.kind === "attack" || e.kind === "spell" ? e.kind : "ability"];
    const forced = e.player === B.me && B.seat !== null && !this.ownChoice(FIGHT);
    this.tell(forced && e.kind === "attack" && !reply ? t("Nothing else you can declare: your party attacks.") : this.verb(e.player, said[0], said[1]));
    if (e.kind === "spell") B.tips.show("spell");
    this.render();
    const li = this.el.querySelector(`.pl-decl[data-index="${sc.chain.length - 1}"]`);
    if (li) li.classList.add("pl-decl-arrive");
    await sleep(PACE.declared);
  }

  async on_passed(e) {
    const B = this.b;
    let words = this.verb(e.player, t("You let it through."), t("{name} lets it through.", {name: B.names[e.player]}));
    if (e.player === B.me && B.seat !== null) {
      const auto = this.chose && this.chose.auto;
      if (!this.ownChoice(FIGHT)) words = t("You have nothing to answer with: it goes through.");
      else if (auto) words = t("Auto-pass lets it through for you.");
    }
    this.say(words);
    await sleep(PACE.passed);
  }

  top() {
    const ch = this.scene.chain;
    for (let i = ch.length - 1; i >= 0; i--) if (!ch[i].gone) return i;
    return -1;
  }

  async resolveTop(stamp, kind, words) {
    const sc = this.scene;
    const i = this.top();
    if (i < 0) { if (words) this.say(words); await sleep(PACE.empty); return null; }
    const d = sc.chain[i];
    d.stamp = stamp;
    d.stampKind = kind;
    d.state = "resolving";
    if (words) this.tell(words);
    this.render();
    await sleep(PACE.resolving);
    d.gone = true;
    const li = this.el.querySelector(`.pl-decl[data-index="${i}"]`);
    if (li) {
      li.classList.add("pl-decl-leave");
      await sleep(PACE.leave);
    }
    sc.chain.splice(i, 1);
    this.render();
    return d;
  }

  async on_resolved(e) {
    const name = e.card ? this.b.cards.name(e.card) : e.kind;
    await this.resolveTop(t("resolves"), "ok", t("{card} resolves.", {card: name}));
  }

  async on_fizzled(e) {
    const name = e.card ? this.b.cards.name(e.card) : e.kind;
    await this.resolveTop(t("fizzles"), "bad", t("{card} fizzles: {reason}.", {card: name, reason: FIZZLE[e.reason] || e.reason}));
  }

  async on_cancelled(e) {
    const d = this.scene.chain[e.index];
    if (d) { d.state = "cancelled"; d.stamp = t("cancelled"); d.stampKind = "bad"; }
    this.say(e.card ? t("{card} is cancelled.", {card: this.b.cards.name(e.card)}) : t("The spell is cancelled."));
    this.render();
    await sleep(PACE.cancelled);
  }

  async on_attack(e) {
    const sc = this.scene;
    const words = this.verb(e.player, t("You attack with ⚔ {n}.", {n: e.power}), t("{name} attacks with ⚔ {n}.", {name: this.b.names[e.player], n: e.power}));
    const side = this.el.querySelector(`.pl-party[data-side="${e.player}"] .pl-prow`);
    if (side) side.animate([{transform: "none"}, {transform: `translateY(${e.player === this.b.me ? -14 : 14}px)`}, {transform: "none"}],
      {duration: Math.max(1, 500 * pace.scale)});
    if (e.simultaneous) {
      this.say(words);
      this.float(null, `⚔ ${e.power}`, "pl-float-attack");
      await sleep(PACE.simultaneous);
      return;
    }
    const i = this.top();
    if (i >= 0 && sc.chain[i].kind === "attack") {
      sc.chain[i].power = e.power;
      await this.resolveTop(`⚔ ${e.power}`, "attack", words);
    } else {
      this.say(words);
      await sleep(PACE.attack);
    }
    if (!sc.chain.length) sc.strikerIdx = Math.min(1, sc.strikerIdx + 1);
  }

  async on_damage(e) {
    this.setStat(e.unit, {life: e.life});
    this.say(t("{unit} takes {n} damage.", {unit: this.b.unitName(e.unit), n: e.amount}));
    this.float(e.unit, `−${e.amount}`, "pl-float-dmg");
    const el = this.unitEl(e.unit);
    if (el) {
      el.classList.add("pl-hit");
      setTimeout(() => el.classList.remove("pl-hit"), 450);
    }
    await this.pause(PACE.damage);
  }

  async on_boosted(e) {
    const u = this.info(e.unit);
    const patch = {};
    const bits = [];
    if (e.power) { patch.power = u.power + e.power; bits.push(`${e.power > 0 ? "+" : "−"}${Math.abs(e.power)} ⚔`); }
    if (e.life) { patch.life = u.life + e.life; patch.max_life = u.max_life + e.life; bits.push(`${e.life > 0 ? "+" : "−"}${Math.abs(e.life)} ♥`); }
    if (e.speed) bits.push(t("{sign}{n} speed", {sign: e.speed > 0 ? "+" : "−", n: Math.abs(e.speed)}));
    this.setStat(e.unit, patch);
    this.float(e.unit, bits.join(" "), "pl-float-boost");
    // a trigger's boosts come in a row: the numbers change in place, then one line and one rebuild for them all
    this.boosts = (this.boosts || []).concat([`${this.b.unitName(e.unit)} ${bits.join(" ")}`]);
    if (this.nextType === "boosted") { this.draw(); await this.pause(PACE.boost); return; }
    this.render();
    this.say(t("Boosts: {list}.", {list: this.boosts.join(uiLang === "ja" ? "、" : ", ")}));
    this.boosts = null;
    await this.pause(PACE.boost);
  }

  async removeUnit(id, cls, words) {
    const sc = this.scene;
    const el = this.unitEl(id);
    this.say(words);
    if (el) { el.classList.add(cls); await this.pause(PACE.dying); }
    for (const p of [0, 1]) {
      if (sc.parties[p].includes(id)) {
        sc.parties[p] = sc.parties[p].filter((u) => u !== id);
        if (cls === "pl-dying") sc.fallen[p] = sc.fallen[p].concat([this.info(id).card]);
      }
    }
    this.render();
  }

  async on_destroyed(e) {
    const inBattle = [0, 1].some((p) => this.scene.parties[p].includes(e.unit));
    if (!inBattle) return;
    await this.removeUnit(e.unit, "pl-dying", e.leader ? t("{unit} (a leader!) is destroyed.", {unit: this.b.unitName(e.unit)}) : t("{unit} is destroyed.", {unit: this.b.unitName(e.unit)}));
  }

  async on_returned(e) {
    await this.removeUnit(e.unit, "pl-leaving", e.to === "hand" ? t("{unit} returns to its owner’s hand.", {unit: this.b.unitName(e.unit)}) : t("{unit} returns to the discard pile.", {unit: this.b.unitName(e.unit)}));
  }

  async on_negated(e) {
    this.scene.negated.add(e.unit);
    this.render();
    this.float(e.unit, t("negated"), "pl-float-spell");
    await this.pause(PACE.negated);
  }

  async on_slots_granted(e) {
    const sc = this.scene;
    const owner = this.info(e.unit).owner;
    if (sc.slots && owner !== null && owner !== undefined) {
      const pools = sc.slots[String(owner)] || (sc.slots[String(owner)] = {});
      for (const [k, n] of Object.entries(e.slots)) pools[k] = {total: (pools[k] ? pools[k].total : 0) + n, used: pools[k] ? pools[k].used : 0};
    }
    this.render();
    this.float(e.unit, Object.entries(e.slots).map(([k, n]) => `+${n} ${k}`).join(" "), "pl-float-spell");
    await this.pause(PACE.slots);
  }

  async on_tribe_changed(e) {
    this.float(e.unit, e.tribe, "pl-float-spell");
    await this.pause(PACE.float);
  }

  async on_level_changed(e) {
    this.float(e.unit, t("level {n}", {n: e.level}), "pl-float-spell");
    await this.pause(PACE.float);
  }

  async on_no_attack(e) {
    const forced = e.player === this.b.me && this.b.seat !== null && !this.ownChoice(FIGHT);
    this.say(forced ? t("Everyone in your party has acted: you go on without attacking.")
      : this.verb(e.player, t("You go on without attacking."), t("{name} goes on without attacking.", {name: this.b.names[e.player]})));
    this.scene.strikerIdx = Math.min(1, this.scene.strikerIdx + 1);
    this.render();
    await sleep(PACE.noAttack);
  }

  async on_battle_ended(e) {
    const B = this.b;
    const sc = this.scene;
    sc.outcome = e;
    sc.chain = [];
    this.tell(t("The battle is over."));
    this.render();
    const ok = this.el.querySelector('[data-key="outcome-ok"]');
    if (ok && (this.el.contains(document.activeElement) || document.activeElement === document.body)) ok.focus({preventScroll: true});
    if (!e.success && e.attacker === B.me) B.tips.show("failed");
    await new Promise((resolve) => {
      const t = setTimeout(done, Math.max(250, PACE.outcome * pace.scale));
      function done() { clearTimeout(t); resolve(); }
      this.release = done;
    });
    this.release = null;
    this.close();
  }
}

