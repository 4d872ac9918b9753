// A finished game's replay (templates/lobby/replay.html): the live board itself (static/js/play.js:
// map, units, the counts by the map, the battle screen, the log drawer) drawn from replay.json
// instead of the socket, through the board's transport hook (window.BrigadeTransport, see
// play-transport.js). Each step is the public (spectator) view after one action with its events and
// log lines; one step forward is animated as it was live, any other move (back, a jump) is drawn at
// once (`reset`). The controls (buttons, the range, the keys ← → Home End) sit in the board's status bar.

import {v, render} from "./play-view.js";

const {t} = window.BrigadeI18n;  // the page's language (static/js/i18n.js)
await window.BrigadeI18n.ready;

const REASONS = {leaders: t("leaders destroyed"), judgment: t("round-12 judgment"), draw: t("draw"), resign: t("resignation"),
  timeout: t("clock ran out"), disconnect: t("disconnected")};

const root = document.getElementById("replay");
const range = document.getElementById("replay-range");
const stepText = document.getElementById("replay-step");
const summary = document.getElementById("replay-summary");
const forkVersion = document.getElementById("replay-fork-version");
const forkButton = document.querySelector("[data-testid=replay-fork]");
const forkNote = document.getElementById("replay-fork-note");
let data = null;
let at = 0;
let feed = null;  // the board's transport handlers

function lines(i) {
  const step = data.steps[i];
  return step.log.length ? step.log : [i === 0 ? t("The game begins.") : t("(nothing to tell)")];
}

/** The step `i` as the board's state payload (docs/protocol.md `state`, a spectator's: no legal actions). */
function payload(i, reset) {
  const step = data.steps[i];
  const p = {game: data.game, version: i, view: step.view, events: reset ? [] : step.events, log: lines(i),
    players: data.players.map((name) => ({name})), mode: data.mode, legal_actions: [], reset};
  if (reset) p.history = data.steps.slice(0, i).flatMap((s, k) => lines(k));
  return p;
}

function describe(view) {
  const round = view.phase === "leaders" ? t("Round 1: choosing leaders") : t("Round {n}", {n: view.round});
  const waiting = (view.waiting_for || []).map((p) => data.players[p]);
  const result = view.result;
  let who;
  if (result) {
    who = (result.winner === null ? t("A draw") : t("{name} wins", {name: data.players[result.winner]}))
      + (result.reason === "draw" ? "" : " (" + (REASONS[result.reason] || result.reason) + ")");
  } else {
    who = waiting.length === 2 ? t("{name} and {other} to move", {name: waiting[0], other: waiting[1]})
      : t("{name} to move", {name: waiting.length ? waiting[0] : data.players[view.active]});
  }
  // drawn with play-view.js: a step changes the two texts, the spans stay. The page's "Loading…" is the
  // server's text, not the view's: preact leaves a container's own children where they are, so it goes
  // once, before the first render.
  if (!summary.querySelector(".replay-summary-main")) summary.textContent = "";
  render([v("span", {key: "main", class: "replay-summary-main"}, round + " · " + who),
    v("span", {key: "counts", class: "replay-summary-counts"}, t("Cards in hand: {name} {n} · {other} {m}", {name: data.players[0], n: view.players[0].hand_count,
      other: data.players[1], m: view.players[1].hand_count}))], summary);
}

function show(i) {
  const next = Math.max(0, Math.min(data.steps.length - 1, i));
  const forward = next === at + 1;
  at = next;
  range.value = at;
  stepText.textContent = t("Step {n} of {total}", {n: at, total: data.steps.length - 1});
  describe(data.steps[at].view);
  if (forkVersion) {  // "play from here" starts at this step, unless the game is over there
    forkVersion.value = String(data.steps[at].version);
    const over = !!data.steps[at].view.result;
    forkButton.disabled = over;
    forkNote.hidden = !over;
    forkNote.textContent = over ? t("The game is over at that step: pick an earlier one.") : "";
  }
  if (feed) feed.state(payload(at, !forward));
}

async function start() {
  try {
    const r = await fetch(root.dataset.src, {credentials: "same-origin"});
    const d = await r.json();
    if (!r.ok) throw new Error(d.error || "");  // a refusal (too many replays lately) says why
    data = d;
  } catch (e) {
    summary.textContent = (e && e.message) || t("The replay could not be loaded.");  // the page's only summary: nothing drawn yet
    return;
  }
  range.max = data.steps.length - 1;
  at = -1;
  show(0);
  window.BrigadeTransport = (game, handlers) => {
    setTimeout(() => {  // once the board is built: the controls go into its status bar (one bar,
      // so the map keeps the room it has live), and the step they are at is drawn at once
      const board = window.brigadeBoard;
      if (board) {
        board.statusSlot = document.getElementById("replay-controls");
        board.status.append(board.statusSlot);
        root.classList.add("pl-replay-on");
        window.dispatchEvent(new Event("resize"));  // the board moved up: it measures its room again
      }
      feed = handlers;
      handlers.status("online", "");
      feed.state(payload(at, true));
    });
    return {send() {}, rejoin() {}, emit() {}};
  };
  await import("./play.js");
}

range.addEventListener("input", () => { if (data) show(Number(range.value)); });
document.getElementById("replay-first").addEventListener("click", () => { if (data) show(0); });
document.getElementById("replay-prev").addEventListener("click", () => { if (data) show(at - 1); });
document.getElementById("replay-next").addEventListener("click", () => { if (data) show(at + 1); });
document.getElementById("replay-last").addEventListener("click", () => { if (data) show(data.steps.length - 1); });
// Arrows step, Home and End jump (on the range input, its own keys do the same).
const KEYS = {ArrowRight: () => at + 1, ArrowLeft: () => at - 1, Home: () => 0, End: () => data.steps.length - 1};
document.addEventListener("keydown", (e) => {
  if (!data || e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
  if (document.querySelector("dialog[open]")) return;
  e.preventDefault();
  show(KEYS[e.key]());
});

start();
// For a player of the game: the "Analysis" dialog ("play from here" and the after-game analysis,
// static/js/play-analysis.js), loaded when first opened.
const coach = document.getElementById("replay-coach");
const coachOpen = document.getElementById("replay-coach-open");
let coachLoaded = false;
if (coach && coachOpen) {
  coachOpen.addEventListener("click", () => {
    coach.showModal();
    if (coachLoaded) return;
    coachLoaded = true;
    const box = document.getElementById("replay-analysis");
    import("./play-analysis.js").then((m) => m.showAnalysis(box, box.dataset.src));
  });
}
