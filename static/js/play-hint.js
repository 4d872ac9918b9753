// The hint button of CPU and story games: t("What would the CPU do?") asks the server
// (POST /play/<id>/hint.json, docs/protocol.md "Hint") for the Hard CPU's move in the player's
// place; the answer is one sentence, the reasons that set it apart from the next best move and that
// move (webapp/game/hintwords.py), the cards it names glow on the board, and t("Do it") plays it.
// A hint belongs to one version of the game: anything that moves the game on clears it.

import {h, t} from "./play-util.js";

export class Hint {
  constructor(board) {
    this.b = board;
    this.url = board.root.dataset.hintUrl || "";
    this.csrf = board.root.dataset.csrf || "";
    this.got = null;       // {version, action, sentence} of the last answer
    this.asking = null;    // the version a request is out for
    this.asked = 0;        // answers received (tests wait for it)
  }

  /** Whether the button belongs on the board now: the player's own move in a game still going. */
  offered() {
    const B = this.b;
    const v = B.view;
    return Boolean(this.url) && B.seat !== null && v && !v.result && (v.waiting_for || []).includes(B.me);
  }

  current() {
    return this.got && this.got.version === this.b.version ? this.got : null;
  }

  /** The hint's part of a panel or battle bar: the button, or the sentence with t("Do it"). */
  box(make = h) {  // make: h (an element) or play-view.js's v (a virtual node, the board's panel)
    if (!this.offered()) return null;
    const B = this.b;
    const got = this.current();
    if (got) {
      const why = (got.why || []).length ? make("ul", {class: "pl-hint-why", "data-testid": "hint-why"},
        got.why.map((w) => make("li", {}, w))) : null;
      const next = got.runner_up ? make("p", {class: "pl-hint-next", "data-testid": "hint-next"}, got.runner_up) : null;
      return make("div", {class: "pl-hintbox", "data-testid": "hint-box"},  // the move, what to do with it, then why
        make("p", {class: "pl-hint-text", "data-testid": "hint-text", role: "status"}, got.sentence),
        make("div", {class: "pl-row-btns"},
          make("button", {class: "pl-btn pl-btn-small pl-btn-go", type: "button", "data-key": "hint-do", "data-testid": "hint-do",
            disabled: !B.can(), onclick: () => B.send(got.action)}, t("Do it")),
          make("button", {class: "pl-btn pl-btn-small pl-btn-quiet", type: "button", "data-key": "hint-hide", "data-testid": "hint-hide",
            onclick: () => { this.got = null; this.redraw(); }}, t("Hide"))), why, next);
    }
    const busy = this.asking === B.version;
    return make("div", {class: "pl-hintbox", "data-testid": "hint-box"},
      make("button", {class: "pl-btn pl-btn-small pl-btn-quiet pl-btn-hint", type: "button", "data-key": "hint", "data-testid": "hint",
        disabled: busy || !B.can(), "aria-busy": busy ? "true" : "false", onclick: () => this.ask()},
      busy ? make("span", {class: "pl-spinner", "aria-hidden": "true"}) : null, busy ? " " + t("The CPU is thinking…") : t("What would the CPU do?")));
  }

  /** The battle screen's small form: a "Hint" button in its head (the bar's room is the decision's). */
  chip(make = h) {  // make: as box()'s
    if (!this.offered() || this.current()) return null;
    const B = this.b;
    const busy = this.asking === B.version;
    return make("button", {class: "pl-btn pl-btn-small pl-btn-quiet pl-btn-icon pl-btn-hint", type: "button", "data-key": "hint",
      "data-testid": "hint", disabled: busy || !B.can(), "aria-busy": busy ? "true" : "false",
      "aria-label": t("What would the CPU do?"), title: t("What would the CPU do?"), onclick: () => this.ask()},
    busy ? make("span", {class: "pl-spinner", "aria-hidden": "true"}) : t("Hint"));
  }

  /** The answer alone (in the battle bar, once asked for), or null. */
  answer(make = h) {
    return this.offered() && this.current() ? this.box(make) : null;
  }

  async ask() {
    const B = this.b;
    const version = B.version;
    if (this.asking === version) return;
    this.asking = version;
    this.redraw();
    let answer = null;
    let words = "";
    try {
      const r = await fetch(this.url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": this.csrf}, body: "{}"});
      const body = await r.json().catch(() => ({}));
      if (r.ok) answer = body;
      else words = body.error || t("The CPU could not think about this move.");
    } catch (e) {
      words = t("No answer from the server: try again.");
    }
    if (this.asking === version) this.asking = null;
    this.asked += 1;
    if (answer && answer.version === B.version) this.got = {version: answer.version, action: answer.action, sentence: answer.sentence,
      why: answer.why || [], runner_up: answer.runner_up || null};
    else if (words) B.toast(words);
    this.redraw();
    if (this.current()) this.reveal();
  }

  /** Bring the answer into sight, its top first (the move and its buttons, then the reasons): on a
   * phone the side panel scrolls and the answer may open below its fold. Only the box that scrolls
   * moves; the page itself only if the answer is off the screen. */
  reveal() {
    const button = [...this.b.root.querySelectorAll("[data-testid=hint-do]")].find((el) => el.offsetParent);
    const box = button && button.closest(".pl-hintbox");
    if (!box) return;
    let scroller = box.parentElement;
    while (scroller && !(/(auto|scroll)/.test(getComputedStyle(scroller).overflowY) && scroller.scrollHeight > scroller.clientHeight)) {
      scroller = scroller.parentElement;
    }
    const r = box.getBoundingClientRect();
    if (scroller && scroller !== document.scrollingElement && scroller !== document.body) {
      const s = scroller.getBoundingClientRect();
      if (r.top < s.top || r.bottom > s.bottom) scroller.scrollTop += r.top - s.top - 4;
    } else if (r.top < 0 || r.bottom > window.innerHeight) {
      box.scrollIntoView({block: "nearest"});
    }
  }

  redraw() {
    this.b.render();
    if (this.b.view && this.b.view.battle) this.b.battle.render();
  }

  /** Make the cards the hint names glow (after each drawing of the board). */
  mark(root) {
    for (const el of root.querySelectorAll(".pl-hinted")) el.classList.remove("pl-hinted");
    const got = this.current();
    if (!got) return;
    const a = got.action;
    const units = [].concat(a.units || [], a.unit ? [a.unit] : [], a.targets || [], a.order || []);
    for (const id of units) {
      for (const el of root.querySelectorAll(`[data-unit="${CSS.escape(id)}"], [data-key="b:${CSS.escape(id)}"]`)) el.classList.add("pl-hinted");
    }
    if (a.to) for (const el of root.querySelectorAll(`.pl-land[data-land="${CSS.escape(a.to)}"]`)) el.classList.add("pl-hinted");
    for (const id of [].concat(a.card || [], a.cards || [])) {
      const face = root.querySelector(`[data-key="h:${CSS.escape(id)}"]`);
      if (face && face.parentElement) face.parentElement.classList.add("pl-hinted");
      for (const el of root.querySelectorAll(`[data-key="lead:${CSS.escape(id)}"]`)) el.classList.add("pl-hinted");
    }
  }
}
