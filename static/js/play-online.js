// Online games between friends (R18; docs/protocol.md "Online games between friends"): both clocks,
// the opponent's presence (the "disconnected" banner and the claim), emotes and the rematch offer.
// Everything here comes from `state.online` and the `presence`, `emote` and `rematch` events. The
// board calls in (take, sideBits, isAway, emoteToggle, emoteBar, rematchBox, closeEmotes); the
// banner and the countdowns are drawn here, ticking every 250 ms. All of it is drawn with play-view.js
// (the side bars' parts as the board's, keyed): a tick or a presence event changes the numbers and
// lines that changed, and a control under the pointer (the emote button, Claim the win) stays.

import {h, add, t, tparts} from "./play-util.js";
import {v, render} from "./play-view.js";

/** The words and pictures of the fixed emote ids (the server relays ids only; clients choose what
 * they show). The pictures are plain text symbols that common fonts have, not colour emoji. */
export const EMOTES = {
  greet: ["☺", t("Hello!")], well_played: ["★", t("Well played")], oops: ["☹", t("Oops")], thinking: ["✎", t("Thinking…")],
  thanks: ["♥", t("Thanks")], wow: ["✦", t("Wow!")], good_game: ["⚔", t("Good game")], hurry: ["◷", t("Hurry up")],
};

function emoteWords(id) {
  return EMOTES[id] ? EMOTES[id][1] : String(id);
}

function emoteFace(id) {
  const [pic, words] = EMOTES[id] || ["", String(id)];
  return [pic ? v("span", {class: "pl-emote-pic", "aria-hidden": "true"}, pic) : null, words];
}

const BUBBLE_MS = 3000;
const URGENT_MS = 60000;
const TICK_MS = 250;

/** 893120 → "14:53" (whole seconds left, rounded down; never below 0:00). */
export function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function secs(ms) {
  return Math.max(0, Math.ceil(ms / 1000));
}

export class Online {
  constructor(board) {
    this.b = board;
    this.on = false;            // the game is an online one (its states carry `online`)
    this.over = false;
    this.version = -1;
    this.clock = null;          // {left: [ms, ms], running: [bool, bool], at: performance.now()}
    this.presence = null;       // {list: [per seat], at: performance.now()}
    this.rematch = {offered_by: null, game: null};
    this.emotes = [];
    this.emotesOpen = false;
    this.bubbles = [null, null];
    this.bannerKey = "";
    this.sidesKey = "";         // what the last tick drew by the names (the clocks' texts)
    this.claiming = false;      // Claim the win pressed, its answer awaited
    this.bubbleCount = 0;
    this.timer = null;
    this.banner = h("div", {class: "pl-presence", "data-testid": "presence", hidden: true});
    this.said = h("p", {class: "pl-sr", "aria-live": "polite"});  // emotes and absences, for screen readers
    board.status.after(this.banner);
    add(board.root, this.said);
  }

  get game() { return this.b.game; }
  get seat() { return this.b.seat; }

  emit(event, payload) {
    const tr = this.b.transport;
    if (tr && typeof tr.emit === "function") tr.emit(event, payload);
  }

  // ------------------------------------------------------------------ what arrives

  /** A `state` payload, as it arrives (before the board's queue): the server's figures win. */
  take(p) {
    if (!p || !p.online || (p.version < this.version)) return;
    const o = p.online;
    const now = performance.now();
    this.on = true;
    this.version = p.version;
    this.over = p.status !== "active" || !!(p.view && p.view.result);
    if (o.clock) this.clock = {left: o.clock.left_ms.slice(), running: o.clock.running.slice(), at: now};
    if (o.presence) this.presence = {list: o.presence, at: now};
    if (o.rematch && !(this.rematch.game && !o.rematch.game)) {
      this.rematch = Object.assign({}, o.rematch);
      this.paintRematch();
    }
    this.rematchOf = o.rematch_of || null;
    this.emotes = o.emotes || this.emotes;
    this.start();
  }

  onPresence(msg) {
    if (!msg || Number(msg.game) !== this.game || !Array.isArray(msg.presence)) return;
    this.presence = {list: msg.presence, at: performance.now()};
    this.on = true;
    this.paint();
    if (this.b.view) this.b.renderSides();
  }

  onEmote(msg) {
    if (!msg || Number(msg.game) !== this.game || (msg.seat !== 0 && msg.seat !== 1)) return;
    const words = emoteWords(msg.emote);
    const id = ++this.bubbleCount;
    this.bubbles[msg.seat] = {emote: msg.emote, id};
    this.said.textContent = `${this.b.who(msg.seat)}: ${words}`;
    if (this.b.view) this.b.renderSides();
    setTimeout(() => {
      if (this.bubbles[msg.seat] && this.bubbles[msg.seat].id === id) {
        this.bubbles[msg.seat] = null;
        if (this.b.view) this.b.renderSides();
      }
    }, BUBBLE_MS);
  }

  onRematch(msg) {
    if (!msg || Number(msg.game) !== this.game) return;
    this.rematch = {offered_by: msg.offered_by, game: msg.new_game || null};
    this.paintRematch();
    if (msg.url && this.seat !== null) {
      this.leaving = true;
      window.location.assign(msg.url);
    }
  }

  // ------------------------------------------------------------------ clocks

  leftMs(seat, now) {
    const c = this.clock;
    if (!c) return 0;
    return c.running[seat] && !this.over ? Math.max(0, c.left[seat] - (now - c.at)) : c.left[seat];
  }

  /** A seat's clock by its name, as a virtual node (drawn again by each tick whose text changed). */
  clockView(seat, now) {
    if (!this.on || !this.clock) return null;
    const ms = this.leftMs(seat, now);
    const running = !!this.clock.running[seat] && !this.over;
    const text = clockText(ms);
    const label = seat === this.b.me
      ? (running ? t("Your clock: {time} left, running") : t("Your clock: {time} left"))
      : (running ? t("{name}’s clock: {time} left, running") : t("{name}’s clock: {time} left"));
    return v("span", {key: "clock", class: ["pl-clock", running && "pl-clock-run", ms < URGENT_MS && "pl-clock-low", ms <= 0 && "pl-clock-out"],
      "data-clock": seat, role: "timer", "aria-label": label.replace("{time}", text).replace("{name}", this.b.names[seat])},
    v("span", {class: "pl-clock-ico", "aria-hidden": "true"}), v("b", {class: "pl-clock-t"}, text));
  }

  /** What a tick would change by the names: the clocks' texts and states. */
  clocksKey(now) {
    if (!this.clock) return "";
    return [0, 1].map((s) => `${clockText(this.leftMs(s, now))}:${this.clock.running[s] && !this.over}`).join("|");
  }

  // ------------------------------------------------------------------ presence

  /** {claimIn, autoIn} (ms now, or null) of an away seat; null while the seat is connected. */
  away(seat, now) {
    const pr = this.presence;
    if (!this.on || this.over || !pr || !pr.list[seat] || pr.list[seat].connected) return null;
    const e = pr.list[seat];
    const gone = now - pr.at;
    return {
      claimIn: e.claim_in_ms === null || e.claim_in_ms === undefined ? null : Math.max(0, e.claim_in_ms - gone),
      autoIn: e.auto_in_ms === null || e.auto_in_ms === undefined ? null : Math.max(0, e.auto_in_ms - gone),
    };
  }

  /** The seats whose absence this reader is told about: the opponent, or either seat for a spectator. */
  watchedSeats() {
    return this.seat === null ? [0, 1] : [1 - this.seat];
  }

  paintBanner(now) {
    // the players' names come with the board's first state: a presence heard before it (a page loading
    // while a player is away) waits for it, never says "Player 1" (the ticker paints once it is there)
    if (!this.b.view) return;
    const away = this.watchedSeats().map((s) => [s, this.away(s, now)]).filter(([, a]) => a);
    // the names are in the key: a page that loads while a player is away hears the presence before their names
    const key = away.map(([s, a]) => `${s}:${a.claimIn === null ? "n" : a.claimIn > 0 ? "w" : "c"}:${a.autoIn === null ? "n" : "a"}:${this.b.names[s]}`).join("|");
    if (key !== this.bannerKey) {
      this.bannerKey = key;
      this.banner.hidden = !away.length;
      // Screen readers hear the change, not every second of the countdowns.
      this.said.textContent = away.map(([s, a]) => (a.claimIn === 0 ? t("{name} is still away.", {name: this.b.names[s]})
        : t("{name} disconnected.", {name: this.b.names[s]}))
        + (a.claimIn === 0 && this.seat !== null ? " " + t("You may claim the win.") : "")).join(" ");
    }
    render(away.map(([s, a]) => this.bannerLine(s, a)), this.banner);
  }

  bannerLine(s, a) {
    const name = this.b.names[s];
    const player = this.seat !== null;
    const count = (what) => v("b", {class: "pl-presence-n", "data-count": `${what}${s}`}, String(secs(what === "claim" ? a.claimIn : a.autoIn)));
    const auto = a.autoIn !== null ? tparts("The game ends by itself in {n} s.", {n: count("auto")}) : null;
    let text;
    if (a.claimIn !== null && a.claimIn > 0) {
      text = [v("strong", {}, t("{name} disconnected", {name})), " ", tparts("— they have {n} s to come back.", {n: count("claim")})];
    } else if (a.claimIn !== null) {
      text = [v("strong", {}, t("{name} is still away.", {name})), player ? " " + t("You may claim the win now.") + " " : " ", auto];
    } else if (player) {
      text = [v("strong", {}, t("{name} disconnected", {name})), " " + t("— the game waits for your move; their time to come back runs once it is theirs.")];
    } else {
      text = [v("strong", {}, t("{name} disconnected.", {name})), " ", auto || t("Waiting for them to come back.")];
    }
    // keyed by seat and by what it says (a countdown's line and a claim's are different lines)
    const kind = a.claimIn === null ? "n" : a.claimIn > 0 ? "w" : "c";
    return v("div", {key: `${s}:${kind}`, class: "pl-presence-line", "data-seat": s},
      v("span", {class: "pl-presence-ico", "aria-hidden": "true"}),
      v("p", {class: "pl-presence-text"}, text),
      player && a.claimIn === 0 ? v("button", {class: "pl-btn pl-btn-go pl-btn-small", type: "button", "data-key": "claim", "data-testid": "claim",
        disabled: this.claiming, onclick: () => this.claim()}, t("Claim the win")) : null);
  }

  claim() {
    this.claiming = true;
    this.emit("claim", {game: this.game});
    this.paintBanner(performance.now());
    setTimeout(() => { this.claiming = false; this.paintBanner(performance.now()); }, 2000);  // an error came back (shown as a toast), or the end did
  }

  /** True while another seat than the reader's own has no socket in the game (R18.4). */
  isAway(seat) {
    const pr = this.presence;
    return this.on && !this.over && seat !== this.seat && !!pr && !!pr.list[seat] && !pr.list[seat].connected;
  }

  /** A small pill by an away player's name. */
  awayPill(seat) {
    return this.isAway(seat) ? v("span", {key: "away", class: "pl-away", title: t("Not connected to this game")}, t("disconnected")) : null;
  }

  // ------------------------------------------------------------------ the ticker

  start() {
    if (this.timer === null) this.timer = setInterval(() => this.paint(), TICK_MS);
  }

  paint() {
    const now = performance.now();
    const key = this.clocksKey(now);
    if (key !== this.sidesKey && this.b.view) this.b.renderSides();  // records sidesKey (sideBits)
    this.paintBanner(now);
    if (this.over && this.timer !== null) { clearInterval(this.timer); this.timer = null; }
  }

  // ------------------------------------------------------------------ by the names

  /** What the board shows by a player's name: the clock, "disconnected", the latest emote. */
  sideBits(seat) {
    if (!this.on) return [];
    const now = performance.now();
    this.sidesKey = this.clocksKey(now);
    const bubble = this.bubbles[seat];
    return [this.clockView(seat, now), this.awayPill(seat),
      // a new emote is a new element (it pops in), kept while it shows
      bubble ? v("span", {key: `bubble${bubble.id}`, class: ["pl-bubble", `pl-bubble-${seat === this.b.me ? "me" : "foe"}`, "pl-bubble-new"],
        "data-testid": "emote-bubble", "data-seat": seat}, emoteFace(bubble.emote)) : null];
  }

  /** The player's emote button (by their own name); the row it opens is `emoteBar`. */
  emoteToggle() {
    if (!this.on || this.seat === null || !this.emotes.length) return null;
    return v("button", {key: "emote-toggle", class: ["pl-emote-toggle", this.emotesOpen ? "pl-on" : ""], type: "button", "data-key": "emote-toggle",
      "data-testid": "emote-toggle", "aria-expanded": String(this.emotesOpen), "aria-controls": "pl-emotes",
      title: t("Send an emote"), onclick: () => this.toggleEmotes()},
    v("span", {class: "pl-emote-ico", "aria-hidden": "true"}), v("span", {class: "pl-emote-label"}, t("Emote")));
  }

  emoteBar() {
    if (!this.on || this.seat === null || !this.emotesOpen) return null;
    return v("div", {key: "emotes", class: "pl-emotes", id: "pl-emotes", role: "group", "aria-label": t("Emotes")},
      this.emotes.map((id) => v("button", {key: id, class: "pl-emote", type: "button", "data-emote": id, "data-key": `emote:${id}`,
        onclick: () => this.sendEmote(id)}, emoteFace(id))));
  }

  toggleEmotes(open) {
    this.emotesOpen = open === undefined ? !this.emotesOpen : open;
    this.b.renderSides();
    const el = this.b.root.querySelector(this.emotesOpen ? ".pl-emote" : "[data-key=emote-toggle]");
    if (el) el.focus({preventScroll: true});
  }

  sendEmote(id) {
    this.emit("emote", {game: this.game, emote: id});
    this.toggleEmotes(false);
  }

  /** Escape closes the emote row; true if it did. */
  closeEmotes() {
    if (!this.emotesOpen) return false;
    this.toggleEmotes(false);
    return true;
  }

  // ------------------------------------------------------------------ rematch

  /** The rematch part of the end screen (and of the panel once the game is over), as a virtual node
   * (play-view.js): a new rematch event draws it again in place. */
  rematchBox() {
    if (!this.on) return null;
    const r = this.rematch || {};
    const me = this.seat;
    const foe = this.b.names[this.b.foe];
    let parts;
    if (r.game) {
      parts = [v("p", {key: "begun"}, this.leaving ? t("The rematch is starting…") : t("The rematch has begun.")),
        v("a", {key: "go", class: "pl-btn pl-btn-go", href: `/play/${r.game}`, "data-testid": "rematch-go"},
          me === null ? t("Watch the rematch") : t("Go to the rematch"))];
    } else if (me === null) {
      parts = [r.offered_by === 0 || r.offered_by === 1 ? v("p", {key: "offer"}, t("{name} offers a rematch.", {name: this.b.names[r.offered_by]})) : null];
    } else if (r.offered_by === me) {
      parts = [v("p", {key: "wait", class: "pl-wait"}, v("span", {class: "pl-spinner", "aria-hidden": "true"}), t("Rematch offered. Waiting for {name}…", {name: foe}))];
    } else if (r.offered_by === 0 || r.offered_by === 1) {
      parts = [v("p", {key: "offer", class: "pl-rematch-offer"}, t("{name} offers a rematch.", {name: foe})),
        v("button", {key: "accept", class: "pl-btn pl-btn-go", type: "button", "data-testid": "rematch-accept", "data-key": "rematch",
          onclick: (e) => this.offer(e.currentTarget)}, t("Accept rematch"))];
    } else {
      parts = [v("button", {key: "rematch", class: "pl-btn pl-btn-go", type: "button", "data-testid": "rematch-offer", "data-key": "rematch",
        onclick: (e) => this.offer(e.currentTarget)}, t("Rematch"))];
    }
    return v("div", {key: "rematch", class: "pl-rematch", "data-testid": "rematch"}, parts);
  }

  /** Draw the rematch boxes again (the panel's and the end screen's), the focus kept in its box. */
  paintRematch() {
    const had = [...this.b.root.querySelectorAll(".pl-rematch")].find((box) => box.contains(document.activeElement));
    if (this.b.view && this.b.view.result) {
      this.b.panelView.render();
      this.b.end.redraw();
    }
    if (had && had.isConnected && !had.contains(document.activeElement)) {
      const el = had.querySelector("button, a");
      if (el) el.focus({preventScroll: true});
    }
  }

  offer(button) {
    button.disabled = true;
    this.emit("rematch", {game: this.game});
    setTimeout(() => { if (button.isConnected) button.disabled = false; }, 3000);
  }
}
