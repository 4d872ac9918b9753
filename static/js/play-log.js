// The game log: a drawer (the "Log" button in the status bar, key L) listing what happened, and the
// feed, the latest line shown for a moment in the status bar so the log can stay closed. Both are drawn
// with play-view.js, the lines keyed by their number in the page: a new line adds one <li>, and the
// lines already there stay the same elements (the one under the pointer, the one being read). This
// browser keeps the last 400 lines of a game (localStorage), since a reloaded page gets no past events.

import {h, t} from "./play-util.js";
import {v, render} from "./play-view.js";

const KEEP = 400;          // lines in the drawer, and lines this browser keeps per game
const KEPT_GAMES = 5;      // games whose lines this browser keeps
const FEED_MS = 6000;
const TURN = /^Round \d+|turn begins|\u2019s turn|\x27s turn|s\x27 turn|your turn|巡目|の手番/i;
const BATTLE = /battle|attack|戦闘|攻撃/i;

export class GameLog {
  constructor(board) {
    this.b = board;
    this.lines = [];       // {n, text, fresh, note}: what the drawer shows, oldest first
    this.count = 0;        // the number of the next line (its key: its place in the game's log)
    this.kept = null;      // the lines this browser keeps for the game (null until read)
    this.feedAt = null;    // the line the feed shows, or null
    this.feedEl = null;    // the status bar's feed (drawn by Board.statusParts)
    // role=log on a wrapper, not on the list: the list keeps its list semantics (axe: listitem)
    this.list = h("ol", {class: "pl-log-list"});
    this.scroll = h("div", {class: "pl-log-lines", role: "log", "aria-live": "polite", "aria-relevant": "additions",
      "aria-labelledby": "pl-log-title", tabindex: "-1"}, this.list);
    this.close = h("button", {class: "pl-btn pl-btn-quiet pl-btn-icon", type: "button", "aria-label": t("Close the log"),
      "data-testid": "log-close", tabindex: "-1", onclick: () => this.toggle(false)}, "✕");
    this.el = h("section", {class: "pl-log", id: "pl-log", "aria-labelledby": "pl-log-title"},
      h("div", {class: "pl-log-head"}, h("h2", {id: "pl-log-title"}, t("Game log")), this.close), this.scroll);
    // the status bar's <p> for the feed, once drawn (its content is this region's own render)
    this.feedRef = (el) => { if (el && el !== this.feedEl) { this.feedEl = el; this.drawFeed(); } };
  }

  get open() {
    return this.b.root.classList.contains("pl-log-open");
  }

  /** Open or close the drawer; closed, it is off screen but still read by screen readers (role=log),
   * out of the tab order. */
  toggle(open) {
    const on = open === undefined ? !this.open : open;
    this.b.root.classList.toggle("pl-log-open", on);
    for (const el of [this.close, this.scroll]) el.tabIndex = on ? 0 : -1;
    const b = this.b.status.querySelector("[data-testid=log-toggle]");
    if (b) b.setAttribute("aria-expanded", String(on));
    if (on) { this.scroll.scrollTop = this.scroll.scrollHeight; this.close.focus(); }
    else if (b) b.focus();
  }

  /** A state's lines (`first`: the page's first state, after the lines this browser kept). */
  add(lines, first) {
    if (first) this.restore();
    for (const line of lines) this.push(line, !first);
    this.draw();
    if (!lines.length) return;
    this.kept = (this.kept || []).concat(lines).slice(-KEEP);
    if (this.b.replay) return;  // a replay's log is rebuilt from its steps: nothing is kept
    const game = this.b.game;
    try {
      localStorage.setItem(`brigade.log.${game}`, JSON.stringify(this.kept));
      const games = JSON.parse(localStorage.getItem("brigade.log.games") || "[]").filter((g) => g !== game);
      games.push(game);
      for (const old of games.splice(0, Math.max(0, games.length - KEPT_GAMES))) localStorage.removeItem(`brigade.log.${old}`);
      localStorage.setItem("brigade.log.games", JSON.stringify(games));
    } catch (e) { /* storage full or blocked: the log just is not kept */ }
  }

  /** A replay's jump: the drawer starts again from the step's history, nothing kept. The lines are
   * numbered from 0 again, so those the steps share (the game's history up to the earlier one) keep
   * their elements: a line is keyed by its place in the game's log. */
  reset() {
    this.lines = [];
    this.count = 0;
    this.kept = [];
  }

  /** The lines this browser kept for this game (a reloaded page gets no past events from the server). */
  restore() {
    if (this.kept) return;
    try { this.kept = JSON.parse(localStorage.getItem(`brigade.log.${this.b.game}`) || "[]"); } catch (e) { this.kept = []; }
    if (!this.kept.length && this.b.version > 0) {
      this.lines.push({n: this.count++, text: t("Moves made before this page was opened are not listed here."), note: true});
    }
    for (const line of this.kept) this.push(line, false);
  }

  push(text, fresh) {
    const n = this.count++;
    this.lines.push({n, text, fresh});
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
    if (fresh) this.feed(n, text);
  }

  draw() {
    render(this.lines.map((l) => v("li", {key: l.n, class: l.note ? "pl-log-note"
      : [l.fresh && "pl-log-new", TURN.test(l.text) && "pl-log-turn", BATTLE.test(l.text) && "pl-log-battle"]}, l.text)), this.list);
    this.scroll.scrollTop = this.scroll.scrollHeight;
  }

  /** A fresh line shows in the status bar for a few seconds (a new line is a new element: it fades in). */
  feed(n, text) {
    this.feedAt = {n, text};
    this.drawFeed();
    setTimeout(() => { if (this.feedAt && this.feedAt.n === n) { this.feedAt = null; this.drawFeed(); } }, FEED_MS);
  }

  drawFeed() {
    const f = this.feedAt;
    if (this.feedEl) render(f ? v("span", {key: f.n, class: "pl-feed-line", title: f.text}, f.text) : null, this.feedEl);
  }
}
