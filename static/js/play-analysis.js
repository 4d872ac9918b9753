// The after-game analysis (GET /games/<id>/analysis.json, webapp/game/aftergame.py) on the end screen
// and in the replay: a progress bar while the worker pool thinks about it (it runs after every live
// move), then a drawn graph of the player's chance to win at the start of every turn, the three
// biggest swings marked, and at each what was played and what the CPU would have done, and why.

import {t} from "./play-util.js";
import {v, render} from "./play-view.js";

/** The graph of `turns` ({round, yours, win}), the swings' points marked with their number. */
function graph(turns, swings) {
  const W = 320, H = 120, L = 26, R = 6, T = 8, B = 18;
  const n = Math.max(1, turns.length - 1);
  const x = (i) => L + (W - L - R) * i / n;
  const y = (w) => T + (H - T - B) * (1 - w);
  return v("svg", {key: "graph", viewBox: `0 0 ${W} ${H}`, class: "pl-an-graph", role: "img", "data-testid": "analysis-graph",
    "aria-label": t("Your chance to win after each turn")},
  [0, 0.5, 1].map((w) => [
    v("line", {x1: L, x2: W - R, y1: y(w), y2: y(w), class: w === 0.5 ? "pl-an-mid" : "pl-an-grid"}),
    v("text", {x: L - 4, y: y(w) + 3, "text-anchor": "end", class: "pl-an-axis"}, `${Math.round(w * 100)}%`)]),
  v("polyline", {points: turns.map((tu, i) => `${x(i).toFixed(1)},${y(tu.win).toFixed(1)}`).join(" "), class: "pl-an-line"}),
  swings.map((s, k) => {
    const i = s.turn;
    if (i >= turns.length) return null;
    return [v("line", {x1: x(i - 1), y1: y(turns[i - 1].win), x2: x(i), y2: y(turns[i].win), class: "pl-an-swing"}),
      v("circle", {cx: x(i), cy: y(turns[i].win), r: 6, class: "pl-an-dot"}),
      v("text", {x: x(i), y: y(turns[i].win) + 3.5, "text-anchor": "middle", class: "pl-an-num"}, String(k + 1))];
  }),
  v("text", {x: W - R, y: H - 4, "text-anchor": "end", class: "pl-an-axis"}, t("Round {n}", {n: turns.length ? turns[turns.length - 1].round : 1})));
}

function swingItem(s, k) {
  const pct = Math.round(s.change * 100);
  const head = t("Round {n}, {whose}: {change} points", {n: s.round,
    whose: s.yours ? t("your turn") : t("their turn"), change: (pct > 0 ? "+" : "") + pct});
  return v("li", {key: k, class: "pl-an-swing-item", "data-testid": "analysis-swing"},
    v("p", {class: "pl-an-swing-head"}, head),
    s.played ? v("p", {}, t("You played: {move}", {move: s.played})) : null,
    s.cpu ? v("p", {class: "pl-an-cpu"}, s.agrees ? t("The CPU would have played the same: {move}", {move: s.cpu})
      : t("The CPU would have: {move}", {move: s.cpu})) : null,
    (s.why || []).length ? v("ul", {class: "pl-hint-why"}, s.why.map((w) => v("li", {}, w))) : null,
    s.runner_up ? v("p", {class: "pl-hint-next"}, s.runner_up) : null);
}

/** Fill `box` (a section) with the analysis at `url`, polling while it runs; hidden if there is none.
 * Drawn with play-view.js: each poll moves the progress bar, the heading and the bar stay the same
 * elements (the box is the board's element, its content this function's own render). */
export async function showAnalysis(box, url) {
  if (!box || !url) return;
  let body = null;
  try {
    const r = await fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    if (!r.ok) { box.hidden = true; return; }
    body = await r.json();
  } catch (e) { box.hidden = true; return; }
  box.hidden = false;
  const title = v("h3", {key: "title"}, t("Analysis"));
  if (body.status === "running") {
    const total = Math.max(1, body.total || 1);
    render([title, v("p", {key: "running", class: "pl-hint"}, t("The CPU is looking back over the game…")),
      v("progress", {key: "progress", class: "pl-an-progress", max: String(total), value: String(body.done || 0), "data-testid": "analysis-progress",
        "aria-label": t("Analysis progress")})], box);
    if (box.isConnected) setTimeout(() => showAnalysis(box, url), 1500);
    return;
  }
  if (body.status !== "done") {
    render([title, v("p", {key: "failed", class: "pl-hint"}, t("The analysis could not be made this time."))], box);
    return;
  }
  const swings = body.swings || [];
  render([title, graph(body.turns || [], swings),
    v("p", {key: "about", class: "pl-hint"}, swings.length
      ? t("Your chance to win at the start of each turn, as the CPU sees it from your side. The biggest swings:")
      : t("Your chance to win at the start of each turn, as the CPU sees it from your side. No turn moved it by 5 points or more.")),
    v("ol", {key: "swings", class: "pl-an-swings"}, swings.map(swingItem))], box);
}
