// The hand region of the board, and the leader choice over the map that the opening hand makes (R5.4).
// Both drawn with play-view.js, a card keyed by its instance id, so a card's buttons stay the same
// elements while the rest of the board changes. The board (static/js/play.js) owns the state (the view,
// the legal actions); these read it and send the player's choices back through the board.

import {h, add, bag, t, tn} from "./play-util.js";
import {v as vh, render as renderView} from "./play-view.js";

export class HandRegion {
  constructor(board) {
    this.b = board;
    this.el = h("section", {class: "pl-hand", "aria-label": t("Your hand")});
  }

  /** The hand (play-view.js): one <li> per card, keyed by its instance id, so a card's buttons stay the
   * same elements while the rest of the board changes. */
  render() {
    this.el.hidden = this.b.replay;  // a replay shows no hand at all (the counts are by the map)
    renderView(this.view(), this.el);
  }

  view() {
    const v = this.b.view;
    const me = v.players[this.b.me];
    if (this.b.seat === null) return vh("p", {class: "pl-hint", key: "spectator"}, t("Spectators do not see the hands."));
    const cards = me.hand || [];
    const inMain = v.phase === "main" && v.active === this.b.me;
    const leaderPick = v.phase === "leaders";
    const item = (c) => {
      const info = this.b.cards.get(c.card);
      const summon = inMain ? this.b.summonAction(c) : null;
      const spell = v.phase === "battle" ? this.b.battle.castFor(c.id) : null;
      let act = null;
      if (summon) {
        act = vh("button", {class: "pl-btn pl-btn-small pl-btn-go", type: "button", "data-key": `hs:${c.id}`, disabled: !this.b.can(),
          onclick: () => this.b.summon(summon)}, t("Summon"));
      } else if (spell) {
        act = vh("button", {class: "pl-btn pl-btn-small pl-btn-spell", type: "button", "data-key": `hc:${c.id}`, disabled: !this.b.can(),
          onclick: () => this.b.battle.startDeclaration(spell)}, t("Cast"));
      } else if (!leaderPick) {
        const why = inMain && info.kind !== "spell" ? this.b.summonBlocked(info.level) : null;
        const spellWhy = info.kind === "spell" && v.phase === "battle" ? this.b.battle.spellWhy(c.id) : null;
        act = vh("span", {class: ["pl-hcard-note", why || spellWhy ? "pl-hcard-why" : ""], "data-testid": why ? "summon-why" : spellWhy ? "spell-why" : null},
          spellWhy ? spellWhy : info.kind === "spell" ? t("spell · battle only")
            : why === "held" ? t("level {n} · base held by the enemy", {n: info.level ?? "?"})
              : why === "full" ? t("level {n} · no room at your base", {n: info.level ?? "?"})
                : t("level {n}", {n: info.level ?? "?"}));
      }
      return vh("li", {key: c.id, class: ["pl-hcard", summon ? "pl-can-summon" : "", spell ? "pl-can-cast" : "", info.kind === "spell" ? "pl-hspell" : ""], "data-card": c.card},
        vh("button", {class: "pl-hcard-face", type: "button", "data-key": `h:${c.id}`,
          "aria-label": t("{card} — details", {card: this.b.cards.name(c.card)}), onclick: () => this.b.showHandCard(c.id)}, vh("img", this.b.cards.imgAttrs(c.card))),
        act);
    };
    return [
      vh("h2", {class: "pl-hand-title", key: "title"}, t("Your hand") + " ", vh("span", {}, `${cards.length}/6`)),
      vh("ul", {class: "pl-hand-row", key: "row"}, cards.length ? cards.map(item) : vh("li", {class: "pl-hint", key: "none"}, t("No cards in hand."))),
    ];
  }
}

export class LeaderChoice {
  constructor(board) {
    this.b = board;
    this.el = null;   // the <section> over the map, while the leaders are chosen
    this.pick = [];   // the hand card ids picked so far
  }

  /** R5.4: the leader choice over the map — 1 to 3 monsters, total level 5 at most (legal sets only). */
  render() {
    const v = this.b.view;
    if (v.phase !== "leaders" || this.b.seat === null) {
      // the choice leaves the board once made: a region that goes (unmounted, then taken out), not a redraw
      if (this.el) { renderView(null, this.el); this.el.remove(); this.el = null; }
      this.pick = [];
      return;
    }
    if (!this.el) {
      this.el = h("section", {class: "pl-leaders", "aria-labelledby": "pl-leaders-title", "data-testid": "leaders"});
      add(this.b.arena, this.el);
    }
    renderView(this.view(), this.el);  // play-view.js: the cards keyed by their instance ids
  }

  view() {
    const v = this.b.view;
    const opts = this.b.actions("choose_leaders");
    const me = v.players[this.b.me];
    if (!opts.length) {
      const chosen = me.leader_choice || [];
      return [vh("h2", {id: "pl-leaders-title", key: "title-chosen"}, t("Leaders chosen")), this.b.openingLine(vh),
        vh("p", {class: "pl-hint pl-wait", key: "wait"}, vh("span", {class: "pl-spinner", "aria-hidden": "true"}), t("Waiting for {name} to choose…", {name: this.b.names[this.b.foe]})),
        vh("ul", {class: "pl-leader-list", key: "chosen"}, chosen.map((id) => {
          const hc = (me.hand || []).find((c) => c.id === id);
          return hc ? vh("li", {key: id}, vh("img", this.b.cards.imgAttrs(hc.card, "pl-card-small"))) : null;
        }))];
    }
    this.pick = (this.pick || []).filter((id) => (me.hand || []).some((c) => c.id === id));
    const pick = this.pick;
    const eligible = new Set(opts.flatMap((a) => a.cards));
    const valid = opts.find((a) => bag(a.cards) === bag(pick));
    const level = pick.reduce((n, id) => n + (this.b.cards.get(this.b.handCard(id).card).level || 0), 0);
    return [vh("h2", {id: "pl-leaders-title", key: "title"}, vh("span", {class: "pl-crown-ico", "aria-hidden": "true"}, "♛ "), t("Choose your leaders")),
      this.b.openingLine(vh),
      vh("p", {class: "pl-hint", key: "how"}, t("Pick 1 to 3 monsters from your opening hand, total level 5 at most. They start at your base and lead to the end: when every leader has fallen, the game is lost.")),
      this.b.foeChoosing(vh),
      vh("ul", {class: "pl-leader-list", key: "list"}, (me.hand || []).map((c) => {
        const on = pick.includes(c.id);
        const ok = eligible.has(c.id);
        const info = this.b.cards.get(c.card);
        return vh("li", {key: c.id}, vh("button", {class: ["pl-leader-card", on ? "pl-on" : ""], type: "button", "aria-pressed": String(on),
          "data-key": `lead:${c.id}`, "data-card": c.card, disabled: !ok || !this.b.can(),
          onclick: () => { const i = pick.indexOf(c.id); if (i >= 0) pick.splice(i, 1); else pick.push(c.id); this.b.render(); }},
        vh("img", this.b.cards.imgAttrs(c.card, "pl-card-mid")),
        vh("span", {class: "pl-leader-cap"}, on ? vh("span", {class: "pl-crown-ico", "aria-hidden": "true"}, "♛ ") : null,
          info.kind === "spell" ? t("spell — cannot lead") : t("{card} · level {n}", {card: this.b.cards.name(c.card), n: info.level}))));
      })),
      vh("p", {class: ["pl-leader-sum", pick.length && !valid ? "pl-bad" : ""], "aria-live": "polite", key: "sum"},
        tn("{n} leader · level {level} of 5", "{n} leaders · level {level} of 5", pick.length, {level}),
        pick.length && !valid ? " " + t("— not allowed (1–3 monsters, level 5 at most)") : ""),
      vh("div", {class: "pl-row-btns", key: "go"},
        vh("button", {class: "pl-btn pl-btn-go pl-btn-big", type: "button", "data-key": "lead-go", "data-testid": "leaders-ok",
          disabled: !valid || !this.b.can(), onclick: () => this.b.send({type: "choose_leaders", cards: pick.slice()})},
        pick.length ? tn("Lead with {n} monster", "Lead with {n} monsters", pick.length) : t("Choose leaders")))];
  }
}
