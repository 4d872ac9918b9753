// The end screen of the board: the result (who won, and why, in the reader's words), the figures of the
// game, and once /play/<id>/end.json has answered, the packs it earned, the quests it advanced and the
// next steps; the after-game analysis (play-analysis.js) and an online game's rematch box
// (play-online.js) in it. Drawn in the board's dialog with play-view.js (Board.openDialog), so a second
// answer or a rematch event draws it again in place. The board owns the state (the view, the story).

import {t, cap} from "./play-util.js";
import {v as vh} from "./play-view.js";
import {showAnalysis} from "./play-analysis.js";

const RESULT_WORDS = {
  leaders: t("every leader of the losing side has fallen"),
  judgment: t("decided by the round-12 judgment (lands, then the nearest front)"),
  draw: t("both sides lost their last leaders together"),
  resign: t("by resignation"),
  timeout: t("a game clock ran out"),
  disconnect: t("a player stayed away too long"),
  puzzle: t("the puzzle's goal decided it"),
  host: t("the host ended the game"),
};

export class EndScreen {
  constructor(board) {
    this.b = board;
    this.shown = false;   // shown once by itself when the game ends (the panel's button shows it again)
    this.info = null;     // /play/<id>/end.json's answer
  }

  title() {
    const r = this.b.view.result;
    if (!r) return "";
    if (r.reason === "host") return t("Ended by the host");
    if (r.winner === null || r.winner === undefined) return t("A draw");
    if (this.b.seat === null) return t("{name} wins", {name: this.b.names[r.winner]});
    return r.winner === this.b.me ? t("Victory!") : t("Defeat");
  }

  reason() {
    const r = this.b.view.result;
    const foe = this.b.names[this.b.foe];
    const won = r.winner === this.b.me && this.b.seat !== null;
    const lost = r.winner === this.b.foe && this.b.seat !== null;
    const sentence = (words) => t("{words}.", {words: cap(words)});
    if (r.reason === "puzzle" || (this.b.story && this.b.story.kind === "puzzle")) return won ? t("Puzzle solved: the goal is met.") : t("The goal was missed this time: try the puzzle again.");
    if (r.reason === "host") {
      return r.note ? t("The host ended this game: “{note}”. Nobody wins, and nothing is rewarded.", {note: r.note})
        : t("The host ended this game. Nobody wins, and nothing is rewarded.");
    }
    if (r.reason === "leaders") return won ? t("Every one of {name}’s leaders has fallen.", {name: foe}) : lost ? t("All your leaders have fallen.") : sentence(RESULT_WORDS.leaders);
    const loser = r.winner === 0 || r.winner === 1 ? this.b.names[1 - r.winner] : null;
    if (r.reason === "resign") {
      return won ? t("{name} resigned.", {name: foe}) : lost ? t("You resigned.") : loser ? t("{name} resigned.", {name: loser}) : t("A player resigned.");
    }
    if (r.reason === "timeout") {
      if (!loser) return t("Both clocks ran out during the leader choice.");
      return won ? t("{name}’s clock ran out.", {name: foe}) : lost ? t("Your clock ran out.") : t("{name}’s clock ran out.", {name: loser});
    }
    if (r.reason === "disconnect") {
      return won ? t("{name} left the game; you win.", {name: foe}) : lost ? t("You stayed away too long; {name} wins.", {name: foe})
        : loser ? t("{name} left the game.", {name: loser}) : sentence(RESULT_WORDS.disconnect);
    }
    if (r.reason === "judgment") {
      const j = this.b.standing(this.b.view);
      if (!j) return sentence(RESULT_WORDS.judgment);
      if (!j.tie) return t("Round 12 is over and the judgment counted the lands: {n} against {m}.", {n: j.mine, m: j.theirs});
      if (j.leading === null) return t("Round 12 is over: {n} lands each, and the fronts just as near: a draw.", {n: j.mine});
      return t("Round 12 is over: {n} lands each, so the nearer front decided: {a} steps from the enemy base against {b}.", {n: j.mine, a: j.near[0], b: j.near[1]});
    }
    return sentence(RESULT_WORDS[r.reason] || r.reason);
  }

  show() {
    this.shown = true;
    this.b.openDialog(this.cls(), ...this.view());
    const rematch = this.b.dialog.querySelector(".pl-rematch button");
    if (rematch) rematch.focus();
    if (this.b.seat !== null && this.b.root.dataset.endUrl) this.load();
    if (this.b.seat !== null) showAnalysis(this.b.dialog.querySelector(".pl-analysis"), `/games/${this.b.game}/analysis.json`);
  }

  cls() {
    const r = this.b.view.result;
    const outcome = r.winner === null || r.winner === undefined ? "draw" : r.winner === this.b.me || this.b.seat === null ? "win" : "loss";
    return `pl-end pl-end-${outcome}`;
  }

  /** The end screen, as virtual nodes: the result, and once /play/<id>/end.json has answered
   * (this.info), the packs this game earned ("Open now") and the next steps. */
  view() {
    const v = this.b.view;
    const r = v.result;
    const outcome = this.cls().slice("pl-end pl-end-".length);
    const lands = (p) => v.players[p].lands;
    const leaders = (p) => v.units.filter((u) => u.owner === p && u.leader).length;
    const stat = (key, label, a, b) => vh("tr", {key}, vh("th", {scope: "row"}, label), vh("td", {}, a), vh("td", {}, b));
    const info = this.info;
    const packs = (info && info.packs) || [];
    const steps = (info && info.next) || [];
    const look = vh("button", {key: "look", class: "pl-btn", type: "button", onclick: () => this.b.dialog.close()}, t("Look at the board"));
    return [
      vh("div", {key: "banner", class: "pl-end-banner", "aria-hidden": "true"}, outcome === "win" ? "♛" : outcome === "loss" ? "✝" : "⚖"),
      vh("h2", {key: "title", class: "pl-end-title", "data-testid": "end-title"}, this.title()),
      vh("p", {key: "reason", class: "pl-end-reason"}, this.reason()),
      vh("table", {key: "table", class: "pl-end-table"},
        vh("thead", {}, vh("tr", {}, vh("td"), vh("th", {scope: "col"}, this.b.seat === null ? this.b.names[0] : t("You")), vh("th", {scope: "col"}, this.b.names[this.b.foe]))),
        vh("tbody", {},
          stat("leaders", t("Leaders standing"), leaders(this.b.me), leaders(this.b.foe)),
          stat("lands", t("Lands held"), lands(this.b.me), lands(this.b.foe)),
          r.reason === "judgment" && v.standing ? stat("fronts", t("Steps to the enemy base, nearest first"),
            v.standing.fronts[this.b.me].join(", "), v.standing.fronts[this.b.foe].join(", ")) : null,
          stat("discard", t("Cards in discard"), v.players[this.b.me].discard.length, v.players[this.b.foe].discard.length))),
      vh("p", {key: "round", class: "pl-hint"}, t("The game ended in round {n}.", {n: v.round})),
      this.b.story ? vh("p", {key: "goal", class: "pl-end-goal", "data-testid": "end-goal"}, this.b.story.kind === "puzzle" ? t("Puzzle {n} goal: {goal}", {n: this.b.story.order, goal: this.b.story.goal})
        : t("Chapter {n} goal: {goal}", {n: this.b.story.order, goal: this.b.story.goal})) : null,
      vh("section", {key: "earned", class: "pl-end-earned", "aria-label": t("What you earned"), "data-testid": "end-earned", hidden: !info}, info ? [
        vh("h3", {key: "earned"}, t("What you earned")),
        packs.length
          ? vh("ul", {key: "packs", class: "pl-end-packs"}, packs.map((p) => vh("li", {key: p.id, class: "pl-end-pack", "data-testid": "end-pack"},
              vh("span", {class: "pl-end-pack-ico", "aria-hidden": "true"}, "✦"),
              vh("span", {class: "pl-end-pack-name"}, p.label),
              vh("a", {class: "pl-btn pl-btn-small" + (p.opened ? "" : " pl-btn-go"), href: p.url, "data-testid": "end-pack-open"},
                p.opened ? t("See its cards") : t("Open now")))))
          : vh("p", {key: "no-pack", class: "pl-hint", "data-testid": "end-no-pack"}, info.no_pack ||
              (info.result && info.result.winner === this.b.me ? t("Nothing new this time.") :
                t("No pack this time: every won battle gives one."))),
        // the daily quests this game advanced (webapp/game/quests.py); words from the server
        info.quests ? vh("h3", {key: "quests-title"}, vh("a", {href: info.quests.url}, info.quests.title)) : null,
        info.quests ? vh("ul", {key: "quests", class: "pl-end-quests"}, info.quests.items.map((q) => vh("li", {key: q.slot, class: "pl-end-quest" + (q.done ? " is-done" : ""), "data-testid": "end-quest"},
          vh("span", {class: "pl-end-quest-text"}, q.text), " ", vh("span", {class: "pl-hint"}, q.status)))) : null,
      ] : null),
      // filled by play-analysis.js (its own elements: preact leaves a child it did not draw alone)
      vh("section", {key: "analysis", class: "pl-analysis", "data-testid": "end-analysis", hidden: true}),
      this.b.online.rematchBox(),
      vh("div", {key: "next", class: "pl-dialog-body pl-row-btns pl-end-next", "data-testid": "end-next"}, steps.length
        ? [...steps.map((n, i) => n.post
            ? vh("button", {key: n.kind, class: ["pl-btn", i === 0 ? "pl-btn-go" : ""], type: "button", "data-testid": `end-${n.kind}`, onclick: () => this.b.post(n.url)}, n.label)
            : vh("a", {key: n.kind, class: ["pl-btn", i === 0 ? "pl-btn-go" : ""], href: n.url, "data-testid": `end-${n.kind}`}, n.label)), look]
        : [this.b.online.on
            ? vh("a", {key: "lobby", class: "pl-btn", href: this.b.root.dataset.lobbyUrl || "/lobby"}, t("Back to the lobby"))
            : vh("a", {key: "again", class: "pl-btn pl-btn-go", href: this.b.root.dataset.playUrl || "/play"}, t("Play again")), look]),
    ];
  }

  /** Draw the end screen again in place, if it is the dialog's (after end.json or a rematch event). */
  redraw() {
    if (this.b.view.result && this.b.dialog.viewCls === this.cls()) this.b.drawDialog(this.cls(), this.view());
  }

  /** The end screen's second half, from /play/<id>/end.json: the packs this game earned ("Open now")
   * and the next steps (rematch, the chapter's end, the lobby). */
  async load(tries = 0) {
    if (!this.info) {
      try {
        const r = await fetch(this.b.root.dataset.endUrl, {headers: {Accept: "application/json"}, credentials: "same-origin"});
        if (r.status === 409 && tries < 5) { setTimeout(() => this.load(tries + 1), 400); return; }  // the last write is on its way
        if (!r.ok) return;
        this.info = await r.json();
      } catch (e) { return; }
    }
    if (this.b.dialog.viewCls !== this.cls()) return;
    // drawn with play-view.js: the first half's elements (and a second answer's) are kept
    this.redraw();
    const next = this.b.dialog.querySelector(".pl-end-next");
    if ((this.info.next || []).length && next && !this.b.dialog.querySelector(".pl-rematch button")) next.firstElementChild.focus();
  }
}
