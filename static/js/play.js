// The Brigade board: map, hands, panels, log and tips, driven by the server's `state` payloads.
// Nothing here decides what is legal: every control offers one of the payload's `legal_actions`.

import {h, add, pace, sleep, focusKey, restoreFocus, cap, t, tn, uiLang} from "./play-util.js";
import {Cards, cardPool, loadPool} from "./play-cards.js";
import {elementName} from "./play-words.js";
import {connect} from "./play-transport.js";
import {BattleScreen} from "./play-battle.js";
import {Tips} from "./play-tips.js";
import {Online} from "./play-online.js";
import {Chat} from "./play-chat.js";
import {Preview} from "./play-preview.js";
import {Settings} from "./play-settings.js";
import {Sound} from "./play-sound.js";
import {Hint} from "./play-hint.js";
import {Keys} from "./play-keys.js";
import {GameLog} from "./play-log.js";
import {MapRegion} from "./play-map.js";
import {HandRegion, LeaderChoice} from "./play-hand.js";
import {EndScreen} from "./play-end.js";
import {PanelRegion} from "./play-panel.js";
import {v as vh, render as renderView, Fragment} from "./play-view.js";

const TIMING = {normal: t("[Normal]"), counter: t("[Counter]")};
const RARITY = {C: t("Common"), U: t("Uncommon"), R: t("Rare"), SR: t("Super rare")};


class Board {
  constructor(root) {
    this.root = root;
    this.game = Number(root.dataset.game);
    const seat = root.dataset.seat;
    this.seat = seat === "" || seat === undefined ? null : Number(seat);
    this.me = this.seat === null ? 0 : this.seat;
    this.foe = 1 - this.me;
    this.lang = root.dataset.lang || "en";
    // a finished game's replay (static/js/play-replay.js): the states come from replay.json through
    // window.BrigadeTransport; a step's payload may say `reset` (a jump: drawn at once, no animation)
    this.replay = !!root.dataset.replay;
    this.cards = new Cards(cardPool(), this.lang);
    this.sound = new Sound();
    this.settings = new Settings(this);
    this.view = null;
    this.payload = null;
    this.legal = [];
    this.version = -1;
    this.known = new Map();        // unit id → last seen unit (kept after it leaves the board)
    this.selected = [];            // unit ids, in the order they were picked
    this.sent = false;             // an action is on its way
    this.queue = [];
    this.busy = false;
    this.names = [t("Player 1"), t("Player 2")];
    this.tally = {battles: [0, 0], won: [0, 0], failed: [0, 0], spells: 0, longestChain: 0, states: 0};  // what this page saw
    this.tips = new Tips(this, root.dataset.eringe);
    this.end = new EndScreen(this);
    this.story = null;             // a story game's chapter: /story/game/<id>.json
    this.build();
    if (root.dataset.storyUrl) {
      this.tips.chapter = {tips: []};  // a story game: the chapter's tips, not the general ones, even before they arrive
      this.loadStory();
    }
    this.battle = new BattleScreen(this);
    this.preview = new Preview(this);
    this.hint = new Hint(this);
    this.keys = new Keys(this);
    this.online = new Online(this);
    this.transport = connect(this.game, {
      state: (p) => this.onState(p),
      error: (e) => this.onError(e),
      status: (s, msg) => this.setConnection(s, msg),
      presence: (m) => this.online.onPresence(m),
      emote: (m) => { this.sound.play("emote"); this.online.onEmote(m); },
      rematch: (m) => this.online.onRematch(m),
    });
    this.chat = new Chat(this);
  }

  // ------------------------------------------------------------------ skeleton

  build() {
    this.root.textContent = "";  // first mount only: the page's text for a browser without scripts goes
    this.root.classList.add("pl-ready");
    this.status = h("header", {class: "pl-status"});
    this.foeSide = h("div", {class: "pl-side pl-side-foe"});
    this.mySide = h("div", {class: "pl-side pl-side-me"});
    this.mapView = new MapRegion(this);
    this.map = this.mapView.el;
    this.arena = h("div", {class: "pl-arena"}, this.map);
    this.stage = h("section", {class: "pl-stage", "aria-label": t("Board")}, this.foeSide, this.arena, this.mySide);
    this.panelView = new PanelRegion(this);
    this.panel = this.panelView.el;
    this.handView = new HandRegion(this);
    this.hand = this.handView.el;
    this.leaders = new LeaderChoice(this);
    // The log is a drawer (the "Log" button in the status bar): what happens is shown on the board
    // itself (animations, the feed over the map); closed, it stays readable to screen readers.
    this.log = new GameLog(this);
    this.toasts = h("div", {class: "pl-toasts", role: "alert"});
    this.layout = h("div", {class: "pl-layout"},
      // Eringe's tips take their own place under the map, which gives up that room while one shows
      // (issue 27): a tip never lies over a control
      h("div", {class: "pl-main"}, this.stage, this.tips.el),
      h("div", {class: "pl-aside"}, this.panel, this.hand));
    this.dialog = h("dialog", {class: "pl-dialog"});
    // A dialog replaced by another one closes first: its close event comes after the new one opened.
    this.dialog.addEventListener("close", () => {
      if (!this.dialog.open) this.clearDialog();
    });
    this.goalBar = h("section", {class: "pl-goal", "aria-label": t("Chapter goal"), "data-testid": "story-goal-bar", hidden: true});
    const heading = h(this.replay ? "h2" : "h1", {class: "pl-sr", id: "pl-heading"}, t("The board"));  // a replay's page has its own h1
    add(this.root, heading, this.status, this.goalBar, this.layout, this.log.el, this.toasts, this.dialog);
    // The board fills the window below the site header: the page itself does not scroll.
    const fit = () => this.root.style.setProperty("--pl-top", `${Math.max(0, this.root.getBoundingClientRect().top + window.scrollY)}px`);
    fit();
    window.addEventListener("resize", fit);
    new ResizeObserver(fit).observe(document.querySelector(".site-header") || document.body);
    document.addEventListener("keydown", (e) => this.onKey(e));
    this.renderStatus();
  }

  // ------------------------------------------------------------------ story

  async loadStory() {
    try {
      const r = await fetch(this.root.dataset.storyUrl, {headers: {Accept: "application/json"}, credentials: "same-origin"});
      if (!r.ok) return;
      this.story = await r.json();
    } catch (e) { return; }
    this.tips.useChapter(this.game, this.story);
    if (this.story.opponent && this.story.opponent.name) this.names[this.foe] = this.story.opponent.name;
    this.render();
    if (this.view) this.tips.afterState(this.view, this.legal, []);
  }

  /** The goal bar of a story game: "Chapter 2 · Take the River Kappa's base · round 5 of 8". */
  renderGoal() {
    const st = this.story;
    const bar = this.goalBar;
    if (!st || !this.view) { bar.hidden = true; return; }
    const v = this.view;
    const spec = st.goal_spec || {};
    const last = st.last_round || 12;
    const round = Math.max(1, v.round);
    // met once stays met (the server judges the record: /story/game/<id>.json `status`)
    const won = v.result && v.result.winner === this.me;
    if (st.status && st.status.met) this.goalMet = true;
    if (spec.type === "take_land" && v.lands[spec.land] && v.lands[spec.land].owner === this.me && v.round <= last) this.goalMet = true;
    if (spec.type !== "take_land" && won && v.round <= last) this.goalMet = true;
    if (spec.type === "take_land" && won && v.round <= last) this.goalMet = true;  // every enemy leader fell first
    const state = this.goalMet ? "met" : v.result || v.round > last ? "missed" : "open";
    bar.hidden = false;
    bar.dataset.state = state;
    renderView([  // play-view.js: a new round changes its number, the Rules link under the pointer stays
      st.opponent && st.opponent.portrait ? vh("img", {key: "face", class: "pl-goal-face", src: st.opponent.portrait, alt: "", width: 44, height: 62}) : null,
      vh("div", {key: "body", class: "pl-goal-body"},
        vh("p", {class: "pl-goal-chapter"}, st.kind === "puzzle" ? t("Puzzle {n} · {title}", {n: st.order, title: st.title})
          : t("Chapter {n} · {title} · against {name}", {n: st.order, title: st.title, name: st.opponent ? st.opponent.name : this.names[this.foe]})),
        vh("p", {class: "pl-goal-text", "data-testid": "story-goal-progress"},
          vh("strong", {}, st.goal_short || st.goal),
          " · " + t("round {n} of {last}", {n: Math.min(round, last), last}),
          state === "met" ? vh("span", {key: "met", class: "pl-goal-met"}, " · " + t("goal reached ✓")) : state === "missed" ? vh("span", {key: "missed", class: "pl-goal-missed"}, " · " + t("goal missed")) : null)),
      st.rules_url ? vh("a", {key: "rules", class: "pl-goal-why", href: st.rules_url, target: "_blank", rel: "noopener", title: t("The rules this chapter teaches")}, t("Rules")) : null], bar);
  }

  setConnection(state, msg) {
    this.root.dataset.connection = state;
    this.connMsg = msg;
    this.renderStatus();
  }

  // ------------------------------------------------------------------ state queue

  onState(p) {
    if (!p || (p.game !== undefined && Number(p.game) !== this.game)) return;
    if (p.reset) {  // a replay's jump: what is queued is dropped, what is playing finishes at once
      this.queue = [];
      pace.boost = 0;
    }
    this.online.take(p);
    this.chat.take(p);
    this.queue.push(p);
    this.pump();
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length) {
        pace.boost = this.queue.length > 3 ? 0.25 : this.queue.length > 1 ? 0.6 : 1;
        const p = this.queue.shift();
        try { await this.apply(p); } catch (err) { console.error(err); this.toast(t("Could not draw that update: {error}", {error: err.message})); }
      }
    } finally {
      pace.boost = 1;
      this.busy = false;
    }
    this.render();
    if (this.view) this.battle.sync(this.view, true);
  }

  async apply(p) {
    if (p.reset) {
      this.view = null;
      this.version = -1;
      this.known.clear();
      this.battle.close();
      this.log.reset();
    }
    const first = this.view === null;
    if (!first && p.version < this.version) return;             // an old echo
    const fresh = p.version > this.version;
    if (p.players) this.names = p.players.map((x, i) => x && x.name ? x.name : this.names[i]);
    if (p.mode === "cpu" && !(p.players && p.players[this.foe] && p.players[this.foe].name)) this.names[this.foe] = "CPU";
    if (this.story && this.story.opponent && this.story.opponent.name) this.names[this.foe] = this.story.opponent.name;
    if (this.seat !== null && !(p.players && p.players[this.me])) this.names[this.me] = this.root.dataset.user || t("You");
    this.remember(p.view);
    const events = fresh && !first ? (p.events || []) : [];
    this.count(events, p.view);
    const prev = this.view;
    if (events.length) {
      this.sound.forEvents(events, this.me);
      this.animating = true;
      this.render();
      await this.animate(prev, p, events);
    }
    this.animating = false;
    this.view = p.view;
    this.payload = p;
    this.legal = (p.legal_actions || []).filter(Boolean);
    this.version = p.version;
    this.sent = false;
    if (fresh || first) this.log.add((p.reset && p.history ? p.history : []).concat(p.log || []), first);
    this.pruneSelection();
    this.render(events);
    this.battle.sync(this.view);  // opens the battle screen too when a page (re)loads mid-battle
    this.tips.afterState(this.view, this.legal, events);
    if (this.view.result && (fresh || first) && !this.end.shown && !this.replay) this.end.show();
  }

  count(events, view) {
    const t = this.tally;
    t.states += 1;
    for (const e of events) {
      if (e.type === "battle_started") t.battles[e.attacker] += 1;
      if (e.type === "battle_ended") t[e.success ? "won" : "failed"][e.attacker] += 1;
      if (e.type === "declared" && e.kind === "spell") t.spells += 1;
    }
    const chain = events.filter((e) => e.type === "declared").reduce((n, e) => Math.max(n, e.index + 1), 0);
    t.longestChain = Math.max(t.longestChain, chain, view && view.battle ? view.battle.chain.length : 0);
  }

  remember(view) {
    for (const u of (view && view.units) || []) this.known.set(u.id, Object.assign({}, this.known.get(u.id), u));
  }

  unit(id) {
    return (this.view && this.view.units.find((u) => u.id === id)) || this.known.get(id) || null;
  }

  unitName(id) {
    const u = this.unit(id);
    return u ? this.cards.name(u.card) : id;
  }

  who(p) {
    return p === this.me && this.seat !== null ? t("You") : this.names[p];
  }

  onError(e) {
    this.sent = false;
    const words = {
      stale: t("The game moved on before your choice arrived; here is the new position."),
      forbidden: t("That is not yours to move."),
      not_found: t("This game does not exist (any more)."),
      rate_limited: t("Slow down a little."),
      bad_request: t("The server did not understand that choice."),
    };
    // a refusal's words come from the server in the page's language (webapp/game/play.py `plain_refusal`)
    this.toast(e.code === "illegal" ? t("Not allowed: {reason}", {reason: e.message}) : (words[e.code] || e.message || t("Something went wrong.")));
    if (e.code === "stale" || e.code === "illegal") this.transport.rejoin();
    this.render();
  }

  toast(msg) {
    // a toast is an element of its own, appended and taken out after 6 s: nothing is drawn over it
    const el = h("p", {class: "pl-toast"}, msg);
    add(this.toasts, el);
    setTimeout(() => el.remove(), 6000);
  }

  send(action) {
    if (this.sent || this.busy || this.version < 0) return;
    this.sent = true;
    this.selected = [];
    this.transport.send({game: this.game, action, version: this.version});
    this.render();
  }

  /** Nothing animating, nothing sent, nothing queued (tests wait for this). */
  get idle() {
    return !this.busy && !this.sent && !this.animating && !this.queue.length && this.view !== null;
  }

  // ------------------------------------------------------------------ legal-action helpers

  can() {
    return !this.sent && !this.busy && !this.animating && this.seat !== null &&
      !(this.view && this.view.result);
  }

  actions(type) {
    return this.legal.filter((a) => a.type === type);
  }

  has(type) {
    return this.legal.some((a) => a.type === type);
  }

  /** Units that some legal march could move: the ones a click selects. A march comes as one compact
   * entry per destination (docs/protocol.md): `from` the units that may go there, `levels` theirs,
   * `room` the level the destination still holds; any non-empty set of them within the room marches. */
  selectable() {
    const set = new Set();
    if (!this.can()) return set;
    for (const a of this.actions("march")) for (const u of a.from || []) set.add(u);
    return set;
  }

  /** The room left in march entry `a` once `ids` go, or -1 if some of them cannot go there. */
  marchRoomLeft(a, ids) {
    let left = a.room;
    for (const id of ids) {
      const i = (a.from || []).indexOf(id);
      if (i < 0) return -1;
      left -= a.levels[i];
    }
    return left;
  }

  /** {land: march entry} — the destinations the selected units can march to together. */
  destinations() {
    const out = new Map();
    if (!this.selected.length || !this.can()) return out;
    for (const a of this.actions("march")) if (this.marchRoomLeft(a, this.selected) >= 0) out.set(a.to, a);
    return out;
  }

  /** The march of the selected units to entry `a`'s land; the first selected unit's land is the main
   * origin of a battle (the one a quick-summoned monster returns to after a failed attack). */
  marchWithSelection(a) {
    return {type: "march", units: this.selected.slice(), to: a.to};
  }

  /** Units that could still join the selection toward some destination: each fits the room left there. */
  joinable() {
    const out = new Set();
    if (!this.selected.length || !this.can()) return out;
    for (const a of this.actions("march")) {
      const left = this.marchRoomLeft(a, this.selected);
      if (left < 0) continue;
      a.from.forEach((u, i) => { if (!this.selected.includes(u) && a.levels[i] <= left) out.add(u); });
    }
    return out;
  }

  pruneSelection() {
    const ok = this.selectable();
    this.selected = this.selected.filter((id) => ok.has(id));
  }

  toggle(id) {
    const i = this.selected.indexOf(id);
    if (i >= 0) this.selected.splice(i, 1);
    else this.selected.push(id);
    this.render();
  }

  summonAction(handCard) {
    return this.actions("summon").find((a) => {
      const hc = this.handCard(a.card);
      return hc && hc.card === handCard.card;
    }) ? {type: "summon", card: handCard.id} : null;
  }

  /** Why the player's main step offers no summon (of a monster of ``level``, or of any): "held" (R7.3:
   * an enemy monster is on their base), "full" (R7.2: its level would pass 5), or null. Only said when
   * the legal actions indeed offer none of it. */
  summonBlocked(level) {
    const v = this.view;
    if (!v || this.seat === null || v.phase !== "main" || v.active !== this.me || v.result) return null;
    const base = `H${this.me}`;
    const monsters = ((v.players[this.me] || {}).hand || []).filter((c) => (this.cards.get(c.card) || {}).kind !== "spell");
    if (!monsters.length) return null;
    if (level === undefined && this.has("summon")) return null;
    if (v.units.some((u) => u.land === base && u.owner !== this.me)) return "held";
    const used = (v.lands[base] && v.lands[base].used) ? v.lands[base].used[this.me] : 0;
    const cap = v.lands[base] ? v.lands[base].capacity : 5;
    const least = level !== undefined ? level : Math.min(...monsters.map((c) => this.cards.get(c.card).level || 0));
    return used + least > cap ? "full" : null;
  }

  handCard(id) {
    const me = this.view && this.view.players[this.me];
    return me && me.hand ? me.hand.find((c) => c.id === id) : null;
  }

  marchAbilities(unitId) {
    return this.actions("march_ability").filter((a) => !unitId || a.unit === unitId);
  }

  // ------------------------------------------------------------------ rendering

  render(events) {
    if (!this.view) return;
    const key = focusKey();
    const before = this.mapView.tokenRects();
    this.root.classList.toggle("pl-phase-leaders", this.view.phase === "leaders" && this.seat !== null);
    this.renderStatus();
    this.renderSides();
    this.mapView.render();
    this.panelView.render();
    this.handView.render();
    this.leaders.render();
    this.mapView.showOwnBase();  // once the panel and the hand below have taken their room
    this.root.dataset.phase = this.view.phase;
    this.root.dataset.turn = this.view.active === this.me ? "mine" : "theirs";
    this.root.classList.toggle("pl-locked", !this.can());
    this.renderGoal();
    this.hint.mark(this.root);
    restoreFocus(this.root, key);
    this.mapView.flip(before, events || []);
    requestAnimationFrame(() => this.mapView.drawLinks());
    this.tips.remark();
  }

  /** The status bar (play-view.js). `statusSlot`: an element a page keeps at the end of the status bar (a
   * replay's step controls, the chat's button); the view never touches it, so a control in it keeps its
   * focus and its drag. The feed is the view's element, its content play-log.js's own render. */
  renderStatus() {
    const slot = this.statusSlot && this.statusSlot.parentNode === this.status ? this.statusSlot : null;
    if (!this.statusDrawn) {  // once: what was there before the view took the bar over goes (the slot comes back)
      for (const c of [...this.status.childNodes]) c.remove();
      this.statusDrawn = true;
    }
    renderView(this.statusParts(this.view), this.status);
    if (slot && this.status.lastChild !== slot) this.status.append(slot);
  }

  statusParts(v) {
    if (!v) return [vh("p", {class: "pl-status-main", key: "connecting"}, this.connMsg || t("Connecting…"))];
    let whose;
    if (v.result) whose = t("The game is over");
    else if (v.phase === "leaders") whose = this.legal.some((a) => a.type === "choose_leaders") ? t("Choose your leaders") : t("{name} is choosing leaders", {name: this.names[this.foe]});
    else if (v.phase === "battle" && v.battle) whose = t("Battle at {land}", {land: this.landLabel(v.battle.land)});
    else whose = v.active === this.me && this.seat !== null ? t("Your turn") : t("{name}’s turn", {name: this.names[v.active]});
    const waiting = v.waiting_for || [];
    const waitingMe = waiting.includes(this.me) && this.seat !== null;
    const waitedFor = this.seat !== null ? this.names[this.foe] : waiting.length === 2
      ? t("{name} and {other}", {name: this.names[waiting[0]], other: this.names[waiting[1]]}) : this.names[waiting.length ? waiting[0] : v.active];
    return [
      vh("p", {class: "pl-round", key: "round"}, vh("span", {class: "pl-round-n"}, v.round <= 1 ? t("Setup") : t("Round {n}", {n: v.round})),
        vh("span", {class: "pl-round-of"}, v.round <= 1 ? t("Round 1 of 12") : t("of 12"))),
      this.standingButton(v),
      vh("p", {class: "pl-status-main", "data-testid": "whose", key: "whose"}, whose),
      vh("p", {class: "pl-feed", "aria-hidden": "true", "data-testid": "feed", key: "feed", ref: this.log.feedRef}),
      this.seat === null ? vh("p", {class: "pl-watching", "data-testid": "watching", key: "watching"}, this.replay ? t("Replay") : t("Watching")) : null,
      vh("p", {class: ["pl-move", waitingMe ? "pl-move-me" : "pl-move-foe"], key: "move"},
        v.result ? "" : waitingMe ? t("Your move") : this.replay ? t("{name} to move", {name: waitedFor}) : t("Waiting for {name}…", {name: waitedFor})),
      this.root.dataset.connection === "offline" ? vh("p", {class: "pl-conn", key: "conn"}, this.connMsg || t("Offline")) : null,
      this.seat !== null && !v.result ? vh("button", {class: "pl-btn pl-btn-quiet", type: "button", "data-key": "resign", key: "resign",
        onclick: () => this.confirmResign()}, t("Resign")) : null,
      this.root.dataset.abandonUrl && !v.result ? vh("button", {class: "pl-btn pl-btn-quiet", type: "button", "data-key": "abandon", key: "abandon",
        "data-testid": "abandon", onclick: () => this.confirmAbandon()}, t("Abandon")) : null,
      vh("button", {class: "pl-btn pl-btn-quiet", type: "button", "data-key": "log", "data-testid": "log-toggle", key: "log",
        "aria-controls": "pl-log", "aria-expanded": String(this.root.classList.contains("pl-log-open")),
        onclick: () => this.toggleLog()}, t("Log")),
      this.keys && !this.replay ? this.keys.button(vh) : null,
      this.settings ? this.settings.button(vh) : null,
    ];
  }

  /** R16.1 as the lands are owned now (the view's ``standing``, made by the engine's judgment itself):
   * {mine, theirs: lands held; near: [mine, theirs] the first distances to the enemy base that differ
   * (or the nearest, when none differ); tie: the lands are equal; leading: a seat or null}. */
  standing(v) {
    const st = v && v.standing;
    if (!st) return null;
    const [a, b] = [st.fronts[this.me], st.fronts[this.foe]];
    const at = a.findIndex((d, i) => d !== b[i]);
    const i = at < 0 ? 0 : at;
    return {mine: st.lands[this.me], theirs: st.lands[this.foe], near: [a[i], b[i]], tie: st.lands[0] === st.lands[1],
      leading: st.leading === null || st.leading === undefined ? null : st.leading, fronts: [a, b]};
  }

  /** The judgment's score in the status bar, always in view; it opens the explanation. */
  standingButton(v) {
    const s = this.standing(v);
    if (!s || v.phase === "leaders") return null;
    const lead = s.leading === null ? t("even") : s.leading === this.me && this.seat !== null ? t("you lead") : t("{name} leads", {name: this.names[s.leading]});
    const score = s.tie && s.leading !== null
      ? t("Lands {mine}–{theirs} · front {near}–{far}", {mine: s.mine, theirs: s.theirs, near: s.near[0], far: s.near[1]})
      : t("Lands {mine}–{theirs}", {mine: s.mine, theirs: s.theirs});
    return vh("button", {key: "standing", class: ["pl-standing", s.leading === null ? "pl-standing-even" : s.leading === this.me ? "pl-standing-me" : "pl-standing-foe",
      v.phase === "battle" ? "pl-standing-battle" : ""],
      type: "button", "data-key": "standing", "data-testid": "standing",
      title: t("The round-12 judgment if the game ended now"), onclick: () => this.showJudgment()},
    vh("span", {class: "pl-standing-ico", "aria-hidden": "true"}, "⚖"), `${score} · ${lead}`);
  }

  /** What the round-12 judgment is, and how it stands now. */
  showJudgment() {
    const v = this.view;
    const s = this.standing(v);
    if (!s) return;
    const foe = this.names[this.foe];
    const mineHead = this.seat === null ? this.names[this.me] : t("You");
    const verdict = s.leading === null ? t("If round 12 ended now, it would be a draw.")
      : !s.tie ? (s.leading === this.me && this.seat !== null ? t("If round 12 ended now, you would win: more lands.") : t("If round 12 ended now, {name} would win: more lands.", {name: this.names[s.leading]}))
        : (s.leading === this.me && this.seat !== null ? t("If round 12 ended now, you would win: as many lands, and your front is nearer.") : t("If round 12 ended now, {name} would win: as many lands, and their front is nearer.", {name: this.names[s.leading]}));
    this.openDialog("pl-judgment",
      vh("h2", {}, t("The round-12 judgment")),
      vh("p", {}, t("If nobody has won when round 12 ends, the judgment decides. First, more lands wins: each base counts, and so does every land taken, even after its monsters left.")),
      vh("p", {}, t("With as many lands each, the nearer front wins: each side's lands are listed by their steps to the enemy base, nearest first, and the first difference decides. Otherwise it is a draw.")),
      vh("table", {class: "pl-end-table", "data-testid": "judgment-table"},
        vh("thead", {}, vh("tr", {}, vh("td"), vh("th", {scope: "col"}, mineHead), vh("th", {scope: "col"}, foe))),
        vh("tbody", {},
          vh("tr", {}, vh("th", {scope: "row"}, t("Lands held")), vh("td", {}, s.mine), vh("td", {}, s.theirs)),
          vh("tr", {}, vh("th", {scope: "row"}, t("Steps to the enemy base, nearest first")), vh("td", {}, s.fronts[0].join(", ")), vh("td", {}, s.fronts[1].join(", "))))),
      vh("p", {class: "pl-judgment-verdict", "data-testid": "judgment-verdict"}, vh("strong", {}, verdict)),
      vh("p", {class: "pl-hint"}, t("Round {n} of 12.", {n: Math.max(1, v.round)})),
      vh("div", {class: "pl-dialog-body pl-row-btns"}, vh("button", {class: "pl-btn", type: "button", onclick: () => this.dialog.close()}, t("Close"))));
  }

  /** Open or close the log drawer (play-log.js). */
  toggleLog(open) {
    this.log.toggle(open);
  }

  /** The two sides' bars (play-view.js): an online game's hold the clocks, the presence and the emotes
   * of play-online.js, which ticks them by drawing the bars again. */
  renderSides() {
    for (const [p, el] of [[this.foe, this.foeSide], [this.me, this.mySide]]) renderView(this.sideParts(p), el);
  }

  sideParts(p) {
    const v = this.view;
    const pl = v.players[p];
    const leadersAll = v.leaders ? v.leaders[p].length : null;
    const leadersAlive = v.units.filter((u) => u.owner === p && u.leader).length;
    const mine = p === this.me;
    const online = this.online.on;
    const backs = mine && this.seat !== null ? null : vh("span", {key: "backs", class: "pl-backs", title: tn("{n} card in hand", "{n} cards in hand", pl.hand_count), "aria-label": tn("{n} card in hand", "{n} cards in hand", pl.hand_count)},
      Array.from({length: Math.min(pl.hand_count, 6)}, () => vh("span", {class: "pl-back"})),
      vh("b", {}, pl.hand_count));
    return [
      vh("span", {key: "name", class: "pl-side-name", "data-seat": p}, vh("span", {key: "dot", class: "pl-side-dot", "aria-hidden": "true"}),
        vh("span", {key: "who", class: "pl-side-who"}, this.who(p)),
        online ? this.online.sideBits(p) : null,
        (v.waiting_for || []).includes(p) && !v.result && !this.online.isAway(p) ? vh("span", {key: "thinking", class: "pl-thinking"}, mine && this.seat !== null ? t("your move") : this.replay ? t("to move") : t("thinking…")) : null,
        mine && online ? this.online.emoteToggle() : null),
      backs,
      vh("span", {key: "deck", class: "pl-count", title: t("Draw pile")}, vh("span", {class: "pl-ico pl-ico-deck", "aria-hidden": "true"}), t("Deck {n}", {n: pl.deck_count})),
      vh("button", {key: "discard", class: "pl-count pl-count-btn", type: "button", "data-key": `discard:${p}`,
        onclick: () => this.showDiscard(p)}, vh("span", {class: "pl-ico pl-ico-discard", "aria-hidden": "true"}), t("Discard {n}", {n: pl.discard.length})),
      vh("span", {key: "leaders", class: "pl-count", title: t("Leaders standing")}, vh("span", {class: "pl-crown-ico", "aria-hidden": "true"}, "♛"),
        leadersAll === null ? t("Leaders {n}", {n: leadersAlive}) : t("Leaders {n}", {n: `${leadersAlive}/${leadersAll}`})),
      vh("span", {key: "lands", class: "pl-count", title: t("Lands held")}, t("Lands {n}", {n: pl.lands})),
      mine && online ? this.online.emoteBar() : null,
    ];
  }

  landLabel(land) {
    if (land === `H${this.me}`) return this.seat === null ? t("{name}’s base", {name: this.names[this.me]}) : t("your base");
    if (land === `H${this.foe}`) return t("{name}’s base", {name: this.names[this.foe]});
    return land;
  }

  canTakeBack() {
    return this.can() && !!(this.payload && this.payload.take_back) && !!this.transport.emit;
  }

  /** Undo the player's last move (the server checks it may: webapp/game/takeback.py). */
  takeBack() {
    if (!this.canTakeBack() || this.version < 0) return;
    this.sent = true;
    this.selected = [];
    this.transport.emit("take_back", {game: this.game, version: this.version});
    this.render();
  }

  /** A summon from the hand, confirmed first when the "Confirm before summoning" setting is on. */
  async summon(action) {
    if (this.settings.get("confirmsummon")) {
      const hc = this.handCard(action.card);
      const name = hc ? this.cards.name(hc.card) : "";
      const ok = await this.confirm(t("Summon {card}?", {card: name}), t("It goes to your base."), t("Summon"), t("Keep it in hand"));
      if (!ok) return;
    }
    this.send(action);
  }

  waitingFor() {
    const w = (this.view.waiting_for || []);
    return w.length ? w[0] : this.foe;
  }

  /** R5.1, R18.2: who goes first, and the dice that said so (online games, and any game with dice). */
  openingLine(make = h) {  // make: h (an element) or play-view.js's v (a virtual node)
    const v = this.view;
    const dice = (v.opening && v.opening.dice) || [];
    if (!dice.length && !this.online.on) return null;
    const you = (p) => p === this.me && this.seat !== null;
    const who = (p, start) => (you(p) ? (start ? t("You") : t("you")) : this.names[p]);
    const rolls = dice.map(([a, b], i) => make("span", {class: "pl-roll"},
      `${who(0, i === 0)} `, make("b", {class: "pl-pip"}, a), ` · ${who(1)} `, make("b", {class: "pl-pip"}, b),
      a === b ? " " + t("(a tie: again)") : "", i < dice.length - 1 ? ", " : " — "));
    return make("p", {class: "pl-opening", "data-testid": "opening"},
      make("span", {class: "pl-opening-ico", "aria-hidden": "true"}, "⚄ "),
      dice.length ? rolls : (this.online.rematchOf ? t("A rematch: the first player swaps.") + " " : ""),
      make("strong", {}, you(v.first) ? t("You go first.") : t("{name} goes first.", {name: this.names[v.first]})));
  }

  /** R5.7: whether the other side has chosen its leaders (never which). */
  foeChoosing(make = h) {
    const v = this.view;
    if (!v.players[this.foe].leaders_chosen || this.seat === null) return null;
    return make("p", {class: "pl-hint pl-foe-chosen", "data-testid": "foe-chosen"}, t("{name} has chosen their leaders (hidden until you choose).", {name: this.names[this.foe]}));
  }

  // ------------------------------------------------------------------ dialogs

  /** Open the dialog `cls` with `content` (virtual nodes, drawn with play-view.js). The same dialog
   * opened again while on screen is an update of it: drawn in place, its elements (and the focus) kept. */
  openDialog(cls, ...content) {
    const d = this.dialog;
    const same = d.open && d.viewCls === cls;
    if (d.open && !same) d.close();
    this.drawDialog(cls, content);
    if (same) return d;
    d.showModal();
    const first = d.querySelector("[autofocus]") || d.querySelector(".pl-dialog-body button, .pl-dialog-body a") || d.querySelector("button");
    if (first) first.focus();
    return d;
  }

  /** Empty the dialog (after its close): what openDialog drew is unmounted, so a dialog opened after a
   * close is drawn afresh. */
  clearDialog() {
    const d = this.dialog;
    renderView(null, d);
    d.viewCls = null;
  }

  /** Draw the dialog's content without opening it (keyed by `cls`: another dialog starts afresh). */
  drawDialog(cls, content) {
    const d = this.dialog;
    if (d.viewCls !== cls) d.removeAttribute("aria-labelledby");  // a dialog that names itself sets it again (settings)
    d.className = `pl-dialog ${cls || ""}`;
    d.viewCls = cls;
    renderView(vh(Fragment, {key: cls},
      vh("button", {key: "x", class: "pl-dialog-x", type: "button", "aria-label": t("Close"), onclick: () => d.close()}, "×"), ...content), d);
  }

  confirm(title, text, ok, cancel, danger) {
    return new Promise((resolve) => {
      let done = false;
      // Answer in the click itself (the dialog's close event comes a task later).
      const finish = (answer) => {
        if (done) return;
        done = true;
        d.removeEventListener("close", onClose);
        resolve(answer);
        if (this.dialog.open) this.dialog.close();
      };
      const d = this.openDialog("pl-confirm",
        vh("h2", {}, title), vh("p", {}, text),
        vh("div", {class: "pl-dialog-body pl-row-btns"},
          vh("button", {class: "pl-btn", type: "button", autofocus: true, onclick: () => finish(false)}, cancel),
          vh("button", {class: ["pl-btn", danger ? "pl-btn-danger" : "pl-btn-go"], type: "button", "data-testid": "confirm-ok",
            onclick: () => finish(true)}, ok)));
      const onClose = () => {
        if (d.open) return;  // the close of a dialog this one replaced
        d.removeEventListener("close", onClose);
        finish(false);
      };
      d.addEventListener("close", onClose);
    });
  }

  async endTurn() {
    // R6.5: ending the turn while a march or a summon is still possible asks first.
    const march = this.has("march");
    const summon = this.has("summon");
    if (march || summon) {
      const still = march && summon ? t("You can still march or summon. End the turn anyway?")
        : march ? t("You can still march. End the turn anyway?") : t("You can still summon. End the turn anyway?");
      const ok = await this.confirm(t("End your turn?"), still, t("End turn"), t("Keep playing"));
      if (!ok) return;
    }
    const a = this.legal.find((x) => x.type === "end_turn");
    if (a) this.send(a);
  }

  async confirmAbandon() {
    const ok = await this.confirm(t("Abandon this game?"), t("It ends at once as a resignation, and you go back to the list of games."), t("Abandon"), t("Keep playing"), true);
    if (ok) this.post(this.root.dataset.abandonUrl);
  }

  /** A plain form POST (with the page's CSRF token), for the server's redirects. */
  post(url) {
    const f = h("form", {method: "post", action: url, hidden: true},
      h("input", {type: "hidden", name: "csrf_token", value: this.root.dataset.csrf || ""}));
    document.body.append(f);
    f.submit();
  }

  async confirmResign() {
    const ok = await this.confirm(t("Resign?"), t("The game ends at once and your opponent wins."), t("Resign"), t("Keep playing"), true);
    if (ok) this.send({type: "resign"});
  }

  cardFacts(cid, unit) {
    const c = this.cards.get(cid);
    const facts = [];
    const fact = (k, val) => { if (val !== null && val !== undefined && val !== "") facts.push(vh("dt", {}, k), vh("dd", {}, val)); };
    const element = (e) => (uiLang === "ja" ? elementName(e, "ja") || e : cap(e));
    if (c.kind === "spell") {
      const mana = c.mana !== undefined ? t("mana {n}", {n: c.mana}) : "";
      fact(t("Spell"), [element(c.element), mana, c.timing ? TIMING[c.timing] || c.timing : ""].filter(Boolean).join(" · "));
    } else {
      fact(t("Monster"), [element(c.element), c.tribe].filter(Boolean).join(" · "));
      fact(t("Level"), unit ? unit.level : c.level);
      const printed = unit && unit.power !== c.power ? " " + t("(printed {n})", {n: c.power}) : "";
      fact(t("Power"), unit ? unit.power + printed : c.power);
      fact(t("Speed"), unit ? unit.speed : c.speed);
      fact(t("Life"), unit ? t("{life} of {max}", {life: unit.life, max: unit.max_life}) : c.life);
      const slots = Object.entries(c.slots || {}).map(([k, n]) => `${n} ${element(k)}`).join(", ");
      fact(t("Spell slots"), slots || t("none"));
      if (c.quick) fact(t("Quick"), t("may be quick summoned in battle"));
    }
    const kws = this.cards.keywords(cid);
    if (kws.length) fact(t("Keywords"), kws.join(", "));
    fact(t("Rarity"), RARITY[c.rarity] || c.rarity);
    const text = this.cards.text(cid);
    return [vh("dl", {class: "pl-facts"}, facts), text ? vh("p", {class: "pl-card-text"}, text) : null];
  }

  /** A card of the hand: its details and what may be done with it (sure: the discard asks once more). */
  showHandCard(id, sure = false) {
    const hc = this.handCard(id);
    if (!hc) return;
    const summon = this.view.phase === "main" && this.view.active === this.me ? this.summonAction(hc) : null;
    const discard = this.legal.find((a) => a.type === "discard" && a.cards.length === 1 && a.cards[0] === id);
    const cast = this.view.phase === "battle" ? this.battle.castFor(id) : null;
    const d = () => this.dialog;
    const why = this.view.phase === "battle" && !cast ? this.battle.spellWhy(id) : null;  // on a phone the hand shows no notes
    // R6.7: discarding from the card detail; the refill brings the hand back to 6 later.
    const body = vh("div", {class: "pl-dialog-body pl-row-btns"},
      summon ? vh("button", {key: "summon", class: "pl-btn pl-btn-go", type: "button", disabled: !this.can(), onclick: () => { d().close(); this.send(summon); }}, t("Summon to your base")) : null,
      cast ? vh("button", {key: "cast", class: "pl-btn pl-btn-spell", type: "button", disabled: !this.can(), onclick: () => { d().close(); this.battle.startDeclaration(cast); }}, t("Cast")) : null,
      why ? vh("p", {key: "why", class: "pl-hint pl-hcard-why", "data-testid": "spell-why"}, t("Cannot be cast now: {why}.", {why})) : null,
      discard ? vh("button", {key: "discard", class: "pl-btn pl-btn-quiet", type: "button", "data-testid": "discard", disabled: !this.can(), hidden: sure,
        onclick: () => { this.showHandCard(id, true); const yes = d().querySelector("[data-testid=discard-yes]"); if (yes) yes.focus(); }}, t("Discard")) : null,
      discard ? vh("div", {key: "sure", class: "pl-discard-sure", hidden: !sure},
        vh("p", {}, t("Discard this card? It is not replaced until your next refill.")),
        vh("button", {class: "pl-btn pl-btn-danger", type: "button", "data-testid": "discard-yes", onclick: () => { d().close(); this.send(discard); }}, t("Discard it"))) : null,
      vh("button", {key: "close", class: "pl-btn", type: "button", onclick: () => d().close()}, t("Close")));
    this.openDialog("pl-detail", vh("div", {key: "card", class: "pl-detail-card"}, this.cards.img(hc.card, "pl-card-big", vh)),
      vh("div", {key: "info", class: "pl-detail-info"}, vh("h2", {}, this.cards.name(hc.card)), ...this.cardFacts(hc.card), body));
  }

  showUnit(id) {
    const u = this.unit(id);
    if (!u) return;
    const mine = u.owner === this.me;
    const buttons = [];
    const status = [];
    if (u.leader) status.push(t("Leader"));
    status.push(mine ? t("yours") : this.names[u.owner]);
    if (u.land) status.push(t("on {land}", {land: this.landLabel(u.land)}));
    if (u.exhausted) status.push(t("exhausted until its owner’s next turn"));
    else if (mine) status.push(tn("{n} march left", "{n} marches left", u.marches_left));
    if (this.selectable().has(id)) {
      const sel = this.selected.includes(id);
      buttons.push(vh("button", {key: "select", class: "pl-btn pl-btn-go", type: "button", onclick: () => { this.dialog.close(); this.toggle(id); }},
        sel ? t("Deselect") : t("Select to march")));
    }
    if (this.marchAbilities(id).length && this.can()) {
      buttons.push(vh("button", {key: "march", class: "pl-btn pl-btn-spell", type: "button", onclick: () => this.useMarchAbility(id)}, t("Use [March] ability")));
    }
    buttons.push(vh("button", {key: "close", class: "pl-btn", type: "button", onclick: () => this.dialog.close()}, t("Close")));
    const body = vh("div", {class: "pl-dialog-body pl-row-btns"}, buttons);
    this.openDialog("pl-detail", vh("div", {key: "card", class: "pl-detail-card"}, this.cards.img(u.card, "pl-card-big", vh)),
      vh("div", {key: "info", class: "pl-detail-info"}, vh("h2", {}, this.cards.name(u.card)), vh("p", {class: "pl-unit-status"}, status.join(" · ")),
        ...this.cardFacts(u.card, u), body));
  }

  useMarchAbility(unitId) {
    const opts = this.marchAbilities(unitId);
    if (!opts.length) return;
    const u = this.unit(unitId);
    if (opts.length === 1 && !opts[0].targets.length) {
      if (this.dialog.open) this.dialog.close();
      this.send(opts[0]);
      return;
    }
    // R13.5: a summoning [March] ability names a card and a land; copies of one card are alike.
    const seen = new Set();
    const choices = [];
    for (const a of opts) {
      const [cardId, land] = a.targets;
      const hc = this.handCard(cardId);
      const cid = hc ? hc.card : (this.discardCard(cardId) || cardId);
      const key = `${cid}@${land}`;
      if (seen.has(key)) continue;
      seen.add(key);
      choices.push(vh("button", {key, class: "pl-btn pl-btn-choice", type: "button", onclick: () => { this.dialog.close(); this.send(a); }},
        this.cards.art(cid, "pl-art-chip", vh), land === `H${this.me}` ? t("Summon {card} to your base", {card: this.cards.name(cid)}) : t("Summon {card} to {land}", {card: this.cards.name(cid), land: this.landLabel(land)})));
    }
    choices.push(vh("button", {key: "cancel", class: "pl-btn", type: "button", onclick: () => this.dialog.close()}, t("Cancel")));
    const list = vh("div", {class: "pl-dialog-body pl-choices"}, choices);
    this.openDialog("pl-pick", vh("h2", {}, t("{card}: [March]", {card: this.cards.name(u.card)})), vh("p", {}, this.cards.text(u.card)), list);
  }

  discardCard(instanceId) {
    const me = this.view.players[this.me];
    const i = (me.discard_ids || []).indexOf(instanceId);
    return i >= 0 ? me.discard[i] : null;
  }

  showDiscard(p) {
    const pile = this.view.players[p].discard || [];
    const grid = vh("ul", {class: "pl-pile"}, pile.length
      ? pile.slice().reverse().map((cid) => vh("li", {}, this.cards.img(cid, "pl-card-small", vh), vh("span", {}, this.cards.name(cid))))
      : vh("li", {class: "pl-hint"}, t("Empty.")));
    this.openDialog("pl-pile-dialog", vh("h2", {}, p === this.me && this.seat !== null ? t("Your discard pile ({n})", {n: pile.length})
      : t("{name}’s discard pile ({n})", {name: this.names[p], n: pile.length})),
      vh("p", {class: "pl-hint"}, t("Newest first.")), grid);
  }

  // ------------------------------------------------------------------ events → animation

  async animate(prev, p, events) {
    const battleish = events.some((e) => ["battle_started", "quick_summoned", "formation", "initiative", "declared", "passed",
      "resolved", "fizzled", "attack", "damage", "battle_ended", "no_attack", "boosted", "triggered"].includes(e.type)) &&
      (events.some((e) => e.type === "battle_started") || (prev && prev.battle));
    if (battleish) await this.battle.animate(events, prev, p.view);
    else {
      const doomed = events.filter((e) => e.type === "destroyed" || e.type === "returned").map((e) => e.unit);
      for (const id of doomed) {
        const t = this.map.querySelector(`.pl-unit[data-unit="${id}"]`);
        if (t) t.classList.add("pl-dying");
      }
      if (doomed.length) await sleep(700);
      const moved = events.some((e) => ["marched", "summoned", "march_ability", "land_taken"].includes(e.type));
      if (moved && (p.view.active !== this.me)) await sleep(120);
    }
  }

  onKey(e) {
    if (e.key !== "Escape" || this.dialog.open) return;
    if (this.root.classList.contains("pl-log-open")) { this.toggleLog(false); e.preventDefault(); return; }
    if (this.online.closeEmotes()) { e.preventDefault(); return; }
    if (this.battle.cancelPick()) { e.preventDefault(); return; }
    if (this.selected.length) {
      this.selected = [];
      this.render();
      e.preventDefault();
    }
  }
}



async function boot() {
  const root = document.getElementById("board");
  if (!root || root.dataset.started) return;
  root.dataset.started = "1";
  if (root.dataset.cardsUrl) await loadPool(root.dataset.cardsUrl);
  window.brigadeBoard = new Board(root);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
