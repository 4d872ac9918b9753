// The move panel of the board (beside the map, above the hand): what the player may do now (the
// selection and its destinations, the [March] abilities, the summons, the hint, take-back and End
// turn), what a spectator or a replay is shown, and the result once the game is over. Drawn with
// play-view.js, its parts keyed where they come and go. The board owns the state (the view, the
// selection, the legal actions); this reads it and sends the player's choices back through the board.

import {h, t, tn} from "./play-util.js";
import {v as vh, render as renderView} from "./play-view.js";

export class PanelRegion {
  constructor(board) {
    this.b = board;
    this.el = h("section", {class: "pl-panel", "aria-label": t("Your move"), "aria-live": "polite"});
    this.ocPicks = null;  // R8.8: the monsters picked so far to destroy on an over-capacity land
  }

  /** The move panel: the player's own game (play-view.js, player) while it goes on, a replay's and a
   * spectator's (play-view.js, watching); the result's too (with play-online.js's rematch box). */
  render() {
    const v = this.b.view;
    const p = this.el;
    renderView(this.b.replay || !v.result ? (!this.b.replay && this.b.seat !== null ? this.player() : this.watching())
      : [vh("h2", {key: "title"}, this.b.end.title()), vh("p", {key: "reason"}, this.b.end.reason()),
        vh("button", {key: "show-end", class: ["pl-btn", this.b.online.on ? "" : "pl-btn-go"], type: "button", "data-key": "show-end", onclick: () => this.b.end.show()}, t("Show the result")),
        this.b.online.rematchBox()], p);
  }

  /** The panel of a replay (what the step shown did; the whole story so far is in the log drawer) or a
   * spectator, as virtual nodes. */
  watching() {
    const v = this.b.view;
    if (this.b.replay) {
      const lines = (this.b.payload && this.b.payload.log) || [];
      return [vh("h2", {key: "title", id: "replay-log-title"}, t("What happened")),
        vh("ol", {key: "log", class: "pl-replay-log", id: "replay-log", "aria-labelledby": "replay-log-title"}, lines.map((line, i) => vh("li", {key: i}, line))),
        v.result ? vh("p", {key: "result", class: "pl-replay-result"}, vh("b", {}, this.b.end.title()), ` · ${this.b.end.reason()}`) : null];
    }
    return [vh("h2", {key: "title"}, t("Watching")), vh("p", {key: "watching"}, t("You are watching this game.")),
      v.phase === "leaders" ? this.b.openingLine(vh) : null,
      v.phase === "leaders" ? vh("ul", {key: "leaders", class: "pl-hint"}, [0, 1].map((s) =>
        vh("li", {key: s}, this.b.names[s] + ": " + (v.players[s].leaders_chosen ? t("leaders chosen") : t("choosing leaders…"))))) : null];
  }

  /** The panel of the player's own game going on, as virtual nodes (keyed where parts come and go). */
  player() {
    const v = this.b.view;
    const mineToMove = (v.waiting_for || []).includes(this.b.me);
    if (v.phase === "leaders") {
      return [vh("h2", {}, t("Setting up")), vh("p", {class: "pl-hint"}, mineToMove
        ? t("Pick 1–3 monsters from your opening hand to lead your brigade (total level 5 at most).")
        : t("{name} is choosing leaders…", {name: this.b.names[this.b.foe]})), this.b.hint.box(vh)];
    }
    if (v.phase === "battle") {
      return [vh("h2", {}, t("Battle")), vh("p", {class: "pl-hint"}, mineToMove ? t("Your decision on the battle screen.")
        : t("{name} is deciding…", {name: this.b.names[v.battle ? this.b.waitingFor() : this.b.foe]}))];
    }
    if (!mineToMove) {
      return [vh("h2", {}, t("{name}’s turn", {name: this.b.names[this.b.foe]})),
        vh("p", {class: "pl-hint pl-wait"}, vh("span", {class: "pl-spinner", "aria-hidden": "true"}), t("{name} is thinking…", {name: this.b.names[this.b.foe]}))];
    }
    if (v.phase === "over_capacity") {
      // R8.8: the player destroys one unit at a time until the land fits; the picks so far are kept
      // here and sent as one set once they cover the excess (a compact `cover` entry: `from` the
      // non-leaders there, `levels` theirs, `excess` the level over capacity; docs/protocol.md).
      const land = v.pending ? v.pending.land : "";
      const entry = this.b.actions("destroy_over_capacity")[0];
      const key = `${land}:${v.version}`;
      if (!this.ocPicks || this.ocPicks.key !== key) this.ocPicks = {key, units: []};
      const picked = this.ocPicks.units;
      const levelOf = (id) => entry.choose ? entry.levels[entry.from.indexOf(id)] : 0;
      const total = picked.reduce((n, id) => n + levelOf(id), 0);
      const next = new Set();
      if (entry && entry.choose && total < entry.excess) entry.from.forEach((u) => picked.includes(u) || next.add(u));
      else if (entry && !entry.choose) entry.units.forEach((u) => next.add(u));
      const pick = (id) => {
        if (!entry.choose) { this.b.send(entry); return; }  // even all of them do not make it fit: all go
        const units = picked.concat([id]);
        if (total + levelOf(id) >= entry.excess) this.b.send({type: "destroy_over_capacity", units});
        else { this.ocPicks.units = units; this.b.render(); }
      };
      const label = (id) => t("{unit} (level {n})", {unit: this.b.unitName(id), n: (this.b.unit(id) || {}).level});
      return [vh("h2", {key: "title"}, t("Too crowded")),
        vh("p", {class: "pl-hint", key: "what"}, t("After the failed attack, {land} is over its capacity. Destroy your monsters there one at a time until it fits (leaders are never chosen).", {land: this.b.landLabel(land)})),
        picked.length ? vh("p", {class: "pl-hint", key: "picked"}, t("Destroying: {list}", {list: picked.map(label).join(", ")})) : null,
        picked.length ? vh("button", {class: "pl-btn pl-btn-quiet pl-btn-small", type: "button", "data-key": "oc-reset", key: "reset",
          onclick: () => { this.ocPicks.units = []; this.b.render(); }}, t("Start over")) : null,
        vh("div", {class: "pl-choices", key: "choices"}, [...next].map((id) => vh("button", {class: "pl-btn pl-btn-danger", type: "button",
          "data-key": `oc:${id}`, key: id, disabled: !this.b.can(), onclick: () => pick(id)}, t("Destroy {unit}", {unit: label(id)}))))];
    }
    const dests = this.b.destinations();
    const out = [vh("h2", {key: "title"}, t("Your turn"))];
    if (this.b.selected.length) {
      const level = this.b.selected.reduce((n, id) => n + ((this.b.unit(id) || {}).level || 0), 0);
      const chips = vh("ul", {class: "pl-selected", "aria-label": t("Selected monsters"), key: "chips"}, this.b.selected.map((id) => {
        const u = this.b.unit(id);
        return vh("li", {key: id},
          vh("button", {class: "pl-chip", type: "button", "data-key": `info:${id}`, onclick: () => this.b.showUnit(id)},
            vh("span", {class: "pl-art pl-art-chip"}, vh("img", this.b.cards.artAttrs(u.card))), t("{card} on {land}", {card: this.b.cards.name(u.card), land: this.b.landLabel(u.land)})),
          vh("button", {class: "pl-chip-x", type: "button", "data-key": `unsel:${id}`, "aria-label": t("Deselect {card}", {card: this.b.cards.name(u.card)}),
            onclick: () => this.b.toggle(id)}, "×"));
      }));
      out.push(vh("p", {class: "pl-hint", key: "selected"}, tn("{n} monster selected · level {level}", "{n} monsters selected · level {level}", this.b.selected.length, {level})), chips,
        vh("p", {class: ["pl-hint", dests.size ? "pl-ok" : "pl-bad"], key: "dests"}, dests.size
          ? t("Choose a glowing land: {lands}.", {lands: [...dests.keys()].map((l) => this.b.landLabel(l)).join(", ")})
          : t("These monsters cannot march together to any land.")),
        vh("div", {class: "pl-row-btns", key: "go"},
          ...[...dests.entries()].map(([to, a]) => vh("button", {class: "pl-btn pl-btn-small", type: "button", "data-key": `go:${to}`, key: to,
            disabled: !this.b.can(), onclick: () => this.b.send(this.b.marchWithSelection(a))},
            (this.b.view.units.some((u) => u.land === to && u.owner !== this.b.me) ? "⚔ " : "→ ") + (to === `H${this.b.foe}` ? t("enemy base") : to === `H${this.b.me}` ? t("base") : to))),
          vh("button", {class: "pl-btn pl-btn-quiet pl-btn-small", type: "button", "data-key": "clear", key: "clear", onclick: () => { this.b.selected = []; this.b.render(); }}, t("Clear"))),
        this.threats(dests));
    } else {
      const any = this.b.has("march");
      out.push(vh("p", {class: "pl-hint", key: "how"}, any
        ? t("Select monsters on the map to march (several, even on different lands, to converge), then pick a glowing land.")
        : t("No monster can march now.")));
    }
    const abil = this.b.marchAbilities();
    if (abil.length) {
      const seen = new Set();
      out.push(vh("div", {class: "pl-choices", key: "abilities"}, vh("h3", {}, t("[March] abilities")), abil.map((a) => {
        if (seen.has(a.unit)) return null;
        seen.add(a.unit);
        const u = this.b.unit(a.unit);
        return vh("button", {class: "pl-btn pl-btn-small", type: "button", "data-key": `ma:${a.unit}`, key: a.unit, disabled: !this.b.can(),
          onclick: () => this.b.useMarchAbility(a.unit)}, t("Use {card} ({land})", {card: this.b.cards.name(u.card), land: this.b.landLabel(u.land)}));
      })));
    }
    const summons = this.b.actions("summon").length;
    const blocked = this.b.summonBlocked();
    out.push(vh("p", {class: ["pl-hint", blocked ? "pl-bad" : ""], "data-testid": "summon-note", key: "summon"}, summons
      ? tn("You can summon {n} kind of monster from your hand to your base.", "You can summon {n} kinds of monster from your hand to your base.", summons)
      : blocked === "held" ? t("No summoning this turn: {name}’s monsters stand on your base. Drive them out, and you can summon there again.", {name: this.b.names[this.b.foe]})
        : blocked === "full" ? t("No summoning this turn: your base is full (level 5 of 5). March out to make room.")
          : ""));
    // the hint and the take-back share a row (it wraps when the hint speaks), so End turn stays in a
    // phone's panel without scrolling
    const hint = this.b.hint.box(vh);
    const takeBack = this.b.payload && "take_back" in this.b.payload  // games against the CPU (docs/protocol.md `take_back`)
      ? vh("button", {class: "pl-btn pl-btn-quiet pl-btn-small", type: "button", "data-key": "take-back", "data-testid": "take-back",
        disabled: !this.b.canTakeBack(), title: t("Undo your last move while it showed you nothing new (key: U)"),
        onclick: () => this.b.takeBack()}, "↶ " + t("Take back")) : null;
    if (hint || takeBack) out.push(vh("div", {class: "pl-tools", key: "tools"}, hint, takeBack));
    out.push(vh("button", {class: "pl-btn pl-btn-end", type: "button", "data-key": "end-turn", key: "end-turn", disabled: !this.b.can() || !this.b.has("end_turn"),
      onclick: () => this.b.endTurn()}, t("End turn")));
    return out;
  }

  /** Before a march into a battle, what the defence may still become, from public information only:
   * the cards in the foe's hand, and the levels that could still join its party there by quick summon
   * (R9.2: up to the land's capacity, less the levels of the foe's monsters on it). */
  threats(dests) {
    const attacks = [...dests.keys()].filter((to) => this.b.view.units.some((u) => u.land === to && u.owner !== this.b.me));
    if (!attacks.length) return null;
    const hand = this.b.view.players[this.b.foe].hand_count;
    return vh("ul", {class: "pl-threats", "data-testid": "threats", key: "threats"}, attacks.map((to) => {
      const land = this.b.view.lands[to];
      const room = Math.max(0, land.capacity - (land.used ? land.used[this.b.foe] : 0));
      const level = this.b.view.units.filter((u) => u.land === to && u.owner === this.b.foe).reduce((n, u) => n + (u.level || 0), 0);
      return vh("li", {"data-land": to, key: to},
        vh("strong", {}, `⚔ ${this.b.landLabel(to)}: `),
        t("defenders of level {level}; {name} holds {n} cards, and monsters of up to {room} levels more could still join the defence by quick summon.",
          {level, name: this.b.names[this.b.foe], n: hand, room}));
    }));
  }
}
