// Keyboard play on the board: Space or Enter for the main button of the moment, 1–6 for the cards in
// hand, H for the hint, L for the log, U or Ctrl+Z to take back the last move, ? for the list of keys
// (Esc, handled by the board, cancels).
// Every key only clicks a control the page shows: nothing here decides what is legal.

import {h, t} from "./play-util.js";
import {v} from "./play-view.js";

/** The main button of each moment, first found first: the leader choice, the battle's decisions, the turn. */
const MAIN = ["[data-testid=leaders-ok]", "[data-key=quick-go]", "[data-key=form-go]", "[data-testid=attack]",
  "[data-key=pass]", "[data-key=end-turn]", "[data-key=show-end]"];

export class Keys {
  constructor(board) {
    this.b = board;
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  usable(el) {
    return el && !el.disabled && el.getClientRects().length > 0 && !el.closest("[hidden]");
  }

  first(selectors, within) {
    for (const sel of selectors) {
      for (const el of (within || this.b.root).querySelectorAll(sel)) if (this.usable(el)) return el;
    }
    return null;
  }

  onKey(e) {
    const B = this.b;
    if (e.altKey || B.replay || !B.view) return;
    const target = e.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (B.dialog.open) return;  // a dialog has the keyboard (Esc closes it)
    const undo = (e.ctrlKey || e.metaKey) ? !e.shiftKey && (e.key === "z" || e.key === "Z") : e.key === "u" || e.key === "U";
    if (undo) {  // the main-step panel's "Take back", when it is enabled
      const back = this.first(["[data-testid=take-back]"]);
      if (back) { e.preventDefault(); back.click(); }
      return;
    }
    if (e.ctrlKey || e.metaKey) return;
    if (e.key === "?") { e.preventDefault(); this.showKeys(); return; }
    if (e.key === " " || e.key === "Enter") {
      // a focused control answers the key itself (the browser clicks it)
      if (target && target.closest && target.closest("button, a[href], [role=button], summary")) return;
      const main = this.first(MAIN);
      if (main) { e.preventDefault(); main.click(); }
      return;
    }
    if (/^[1-6]$/.test(e.key)) {
      const i = Number(e.key) - 1;
      if (B.view.phase === "leaders") {
        const card = [...B.root.querySelectorAll(".pl-leader-card")][i];
        if (this.usable(card)) { e.preventDefault(); card.click(); }
        return;
      }
      const li = [...B.hand.querySelectorAll(".pl-hcard")][i];
      if (!li) return;
      const act = this.first(["[data-key^='hs:']", "[data-key^='hc:']", ".pl-hcard-face"], li);
      if (act) { e.preventDefault(); act.click(); }
      return;
    }
    if (e.key === "h" || e.key === "H") {
      const hint = this.first(["[data-testid=hint]"]);
      if (hint) { e.preventDefault(); hint.click(); }
      return;
    }
    if (e.key === "l" || e.key === "L") { e.preventDefault(); B.toggleLog(); }
  }

  /** The "?" list of keys. */
  showKeys() {
    const row = (keys, what) => v("tr", {}, v("th", {scope: "row"}, keys.map((k) => v("kbd", {}, k))), v("td", {}, what));
    this.b.openDialog("pl-keys",
      v("h2", {}, t("Keyboard")),
      v("table", {class: "pl-keys-table", "data-testid": "keys-table"}, v("tbody", {},
        row([t("Space"), t("Enter")], t("The main button of the moment: Choose leaders, Attack, Let it through, End turn")),
        row(["1–6"], t("The card in hand at that place: summon it, cast it, or read it (a leader to pick, during the leader choice)")),
        row(["H"], t("What would the CPU do?")),
        row(["U", t("Ctrl+Z")], t("Take back your last move (games against the CPU, while it showed you nothing new)")),
        row(["L"], t("Open or close the game log")),
        row([t("Esc")], t("Cancel: clear the selection, close a window")),
        row(["I"], t("On a monster of the map: its details")),
        row(["?"], t("This list")))),
      v("div", {class: "pl-dialog-body pl-row-btns"}, v("button", {class: "pl-btn", type: "button", onclick: () => this.b.dialog.close()}, t("Close"))));
  }

  /** The status bar's "?" (desktops: a phone has no keyboard to show). */
  button(make = h) {  // make: h (an element) or play-view.js's v (a virtual node: the board's status bar)
    return make("button", {key: "keys", class: "pl-btn pl-btn-quiet pl-keys-btn", type: "button", "data-key": "keys", "data-testid": "keys",
      "aria-label": t("Keyboard keys"), title: t("Keyboard keys"), onclick: () => this.showKeys()}, "?");
  }
}
