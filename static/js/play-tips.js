// Eringe's tips: a word from the guide at first-time moments, each shown once (localStorage).
// A story game brings its chapter's own tips (/story/game/<id>.json: {when, target, text}); they
// replace the general ones there, each shown once per game, at the first time its moment comes,
// and each lights up the part of the board it speaks of (its `target`).

import {h, t} from "./play-util.js";
import {v, render as renderView} from "./play-view.js";

/** A phone's width (static/css/play.css "@media (max-width: 600px)"): the board grows while a tip shows. */
const PHONE = window.matchMedia("(max-width: 600px)");
const KEY = "brigade.tips.seen";

export const TIPS = {
  leaders: {
    title: t("Choosing leaders"),
    text: t("Your leaders stand at your base from the start, and the game is lost when the last one falls. " +
      "Many leaders are hard to wipe out, but each one that falls lets your opponent refill their hand. Weigh both."),
  },
  battle: {
    title: t("Your first battle"),
    text: t("Each side may quick summon monsters with the Quick mark, then sets its formation: damage always hits the front first. " +
      "Then both roll a die and add their party's speed. The higher total strikes first; a tie means both attack at once, with no abilities or spells."),
  },
  spell: {
    title: t("Spells"),
    text: t("Spells are cast only in battle, paid with spell slots of your battle party: a spell needs as many slots of its element " +
      "as its mana. Wild slots pay for any element. Slots come back when the battle ends."),
  },
  chain: {
    title: t("Answering a declaration"),
    text: t("Only the newest declaration can be answered. When both sides let it through, the chain works from the last one back — " +
      "from the right end. Waiting for your opponent to play their trump card before you answer is a fine plan."),
  },
  failed: {
    title: t("A failed attack"),
    text: t("The attack failed: the survivors went back where they came from. You may not attack that land again this turn while enemies remain there. " +
      "Try again with a bigger party, better speed, or after softening it with spells."),
  },
};

export class Tips {
  constructor(board, portrait) {
    this.board = board;
    this.portrait = portrait;
    this.queue = [];
    this.current = null;
    try { this.seen = new Set(JSON.parse(localStorage.getItem(KEY) || "[]")); } catch (e) { this.seen = new Set(); }
    this.el = h("aside", {class: "pl-tip", "aria-live": "polite", hidden: true});
  }

  save() {
    try { localStorage.setItem(KEY, JSON.stringify([...this.seen])); } catch (e) { /* storage blocked */ }
  }

  show(id) {
    if (this.chapter) return;  // a chapter's own tips speak instead
    if (!TIPS[id] || this.seen.has(id) || this.queue.includes(id) || this.current === id) return;
    this.queue.push(id);
    if (!this.current) this.next();
  }

  /** A story game's tips: [{when, target, text}], keyed per game so a reload does not repeat them. */
  useChapter(game, info) {
    this.chapter = info;
    this.chapterKey = `brigade.story.tips.${game}`;
    try { this.chapterSeen = new Set(JSON.parse(localStorage.getItem(this.chapterKey) || "[]")); } catch (e) { this.chapterSeen = new Set(); }
    this.moments = new Set();
  }

  /** The chapter's tips for a moment ("start", "first_battle", ...), queued in their order. */
  moment(when) {
    if (!this.chapter || !this.moments || this.moments.has(when)) return;
    this.moments.add(when);
    (this.chapter.tips || []).forEach((tip, i) => {
      const id = `story:${i}`;
      if (tip.when !== when || this.chapterSeen.has(id) || this.queue.includes(id)) return;
      TIPS[id] = {title: this.chapter.title || t("Eringe"), text: tip.text, target: tip.target};
      this.queue.push(id);
    });
    if (!this.current) this.next();
  }

  next() {
    this.mark(null);
    const id = this.queue.shift();
    this.current = id || null;
    // drawn with play-view.js: the next tip keeps the box's elements (its "Got it" button among them)
    if (!id) { renderView(null, this.el); this.el.hidden = true; return; }
    const tip = TIPS[id];
    this.el.dataset.tip = id;
    this.mark(tip.target);
    renderView([
      this.portrait ? v("img", {class: "pl-tip-face", src: this.portrait, alt: ""}) : null,
      v("div", {class: "pl-tip-body"},
        v("p", {class: "pl-tip-who"}, t("Eringe"), v("span", {}, " · " + tip.title)),
        v("p", {class: "pl-tip-text"}, tip.text),
        v("button", {class: "pl-btn pl-btn-small", type: "button", "data-testid": "tip-ok", onclick: () => this.done()}, t("Got it"))),
    ], this.el);
    this.el.hidden = false;
  }

  done() {
    if (this.current && this.current.startsWith("story:")) {
      this.chapterSeen.add(this.current);
      try { localStorage.setItem(this.chapterKey, JSON.stringify([...this.chapterSeen])); } catch (e) { /* storage blocked */ }
    } else if (this.current) { this.seen.add(this.current); this.save(); }
    this.next();
  }

  /** Light up the part of the board a tip speaks of (docs/story.md, tip targets); null clears it. */
  mark(target) {
    for (const el of document.querySelectorAll(".pl-tip-target")) el.classList.remove("pl-tip-target");
    this.target = target || null;
    if (!target) return;
    const el = this.targetElement(target);
    if (!el) return;
    el.classList.add("pl-tip-target");
    if (this.revealed !== this.current) {  // once per tip: a player who scrolls away is not pulled back
      this.revealed = this.current;
      this.reveal(el);
    }
  }

  /** Bring what a tip speaks of into view: on a phone the map's box (and the page, which grows while a
   * tip shows, static/css/play.css, at the same width as PHONE) scroll to it, after the layout the tip
   * itself changed. */
  reveal(el) {
    if (!PHONE.matches) return;  // a desktop shows the whole map, and its side column keeps its own scroll
    if (this.board.map && this.board.map.contains(el)) this.board.mapView.atOwnBase = false;  // held there, not at the base
    const id = this.current;
    requestAnimationFrame(() => {
      // the element of now: the board may have drawn the region again since (it replaces a region's elements)
      const now = this.current === id && this.target ? this.targetElement(this.target) : null;
      if (now) now.scrollIntoView({block: "nearest", inline: "nearest"});
    });
  }

  /** Keep the mark on after the board is drawn again. */
  remark() {
    if (this.target && this.current) this.mark(this.target);
  }

  targetElement(target) {
    const b = this.board;
    const land = /^land:(.+)$/.exec(target);
    if (land) return b.map.querySelector(`[data-land="${land[1]}"]`);
    const sel = {
      hand: ".pl-hand", "end-turn": "[data-key=end-turn]", "battle-steps": ".pl-steps", formation: ".pl-formation, .pl-steps",
      initiative: ".pl-dice, .pl-steps", chain: ".pl-decls, .pl-steps", slots: ".pl-slots, .pl-bbar", "quick-summon": ".pl-quick-list, .pl-steps",
      leaders: ".pl-side-me", round: ".pl-round", map: ".pl-map", log: ".pl-log", deck: ".pl-side-me .pl-count",
    }[target];
    return sel ? b.root.querySelector(sel) : null;
  }

  /** First-time moments, judged from the newest state and the events that led to it. */
  afterState(view, legal, events) {
    const b = this.board;
    if (b.seat === null) return;
    if (this.chapter) {
      const ev = (t, f) => events.some((e) => e.type === t && (!f || f(e)));
      this.moment("start");
      if (view.battle || ev("battle_started")) this.moment("first_battle");
      if (ev("declared", (e) => e.kind === "spell")) this.moment("first_spell");
      if (ev("battle_ended", (e) => !e.success && e.attacker === b.me)) this.moment("first_failed_attack");
      if (ev("quick_summoned", (e) => e.units && e.units.length) || legal.some((a) => a.type === "quick_summon" && (a.choose === "set" || (a.cards || []).length))) this.moment("first_quick_summon");
      if (ev("refill")) this.moment("first_refill");
      if (ev("judgment") || view.round >= 12) this.moment("judgment");
      this.remark();
      return;
    }
    if (view.phase === "leaders" && legal.some((a) => a.type === "choose_leaders")) this.show("leaders");
    if (view.battle || events.some((e) => e.type === "battle_started")) this.show("battle");
    if (legal.some((a) => a.type === "spell") || events.some((e) => e.type === "declared" && e.kind === "spell")) this.show("spell");
    if (view.battle && view.battle.chain.length && view.battle.responder === b.me && legal.some((a) => a.type === "ability" || a.type === "spell")) this.show("chain");
    if (events.some((e) => e.type === "battle_ended" && !e.success && e.attacker === b.me)) this.show("failed");
  }
}
