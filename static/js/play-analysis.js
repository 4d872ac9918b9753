// The after-game analysis (GET /games/<id>/analysis.json, webapp/game/aftergame.py) on the end screen
// and in the replay: a progress bar while the worker pool thinks about it (it runs after every live
// move), then a drawn graph of the player's chance to win at the start of every turn, the three
// biggest swings marked, and at each what was played and what the CPU would have done, and why.

import {h, add, t} from "./play-util.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const k of kids) if (k) el.append(k);
  return el;
}

/** The graph of `turns` ({round, yours, win}), the swings' points marked with their number. */
function graph(turns, swings) {
  const W = 320, H = 120, L = 26, R = 6, T = 8, B = 18;
  const n = Math.max(1, turns.length - 1);
  const x = (i) => L + (W - L - R) * i / n;
  const y = (w) => T + (H - T - B) * (1 - w);
  const el = svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "pl-an-graph", role: "img", "data-testid": "analysis-graph",
    "aria-label": t("Your chance to win after each turn")});
  for (const w of [0, 0.5, 1]) {
    el.append(svg("line", {x1: L, x2: W - R, y1: y(w), y2: y(w), class: w === 0.5 ? "pl-an-mid" : "pl-an-grid"}));
    const label = svg("text", {x: L - 4, y: y(w) + 3, "text-anchor": "end", class: "pl-an-axis"});
    label.textContent = `${Math.round(w * 100)}%`;
    el.append(label);
  }
  const pts = turns.map((tu, i) => `${x(i).toFixed(1)},${y(tu.win).toFixed(1)}`).join(" ");
  el.append(svg("polyline", {points: pts, class: "pl-an-line"}));
  swings.forEach((s, k) => {
    const i = s.turn;
    if (i >= turns.length) return;
    el.append(svg("line", {x1: x(i - 1), y1: y(turns[i - 1].win), x2: x(i), y2: y(turns[i].win), class: "pl-an-swing"}));
    el.append(svg("circle", {cx: x(i), cy: y(turns[i].win), r: 6, class: "pl-an-dot"}));
    const num = svg("text", {x: x(i), y: y(turns[i].win) + 3.5, "text-anchor": "middle", class: "pl-an-num"});
    num.textContent = String(k + 1);
    el.append(num);
  });
  const last = svg("text", {x: W - R, y: H - 4, "text-anchor": "end", class: "pl-an-axis"});
  last.textContent = t("Round {n}", {n: turns.length ? turns[turns.length - 1].round : 1});
  el.append(last);
  return el;
}

function swingItem(s) {
  const pct = Math.round(s.change * 100);
  const head = t("Round {n}, {whose}: {change} points", {n: s.round,
    whose: s.yours ? t("your turn") : t("their turn"), change: (pct > 0 ? "+" : "") + pct});
  return h("li", {class: "pl-an-swing-item", "data-testid": "analysis-swing"},
    h("p", {class: "pl-an-swing-head"}, head),
    s.played ? h("p", {}, t("You played: {move}", {move: s.played})) : null,
    s.cpu ? h("p", {class: "pl-an-cpu"}, t("The CPU would have: {move}", {move: s.cpu})) : null,
    (s.why || []).length ? h("ul", {class: "pl-hint-why"}, s.why.map((w) => h("li", {}, w))) : null,
    s.runner_up ? h("p", {class: "pl-hint-next"}, s.runner_up) : null);
}

/** Fill `box` (a section) with the analysis at `url`, polling while it runs; hidden if there is none. */
export async function showAnalysis(box, url) {
  if (!box || !url) return;
  let body = null;
  try {
    const r = await fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    if (!r.ok) { box.hidden = true; return; }
    body = await r.json();
  } catch (e) { box.hidden = true; return; }
  box.textContent = "";
  box.hidden = false;
  add(box, h("h3", {}, t("Analysis")));
  if (body.status === "running") {
    const total = Math.max(1, body.total || 1);
    add(box, h("p", {class: "pl-hint"}, t("The CPU is looking back over the game…")),
      h("progress", {class: "pl-an-progress", max: String(total), value: String(body.done || 0), "data-testid": "analysis-progress",
        "aria-label": t("Analysis progress")}));
    setTimeout(() => showAnalysis(box, url), 1500);
    return;
  }
  if (body.status !== "done") {
    add(box, h("p", {class: "pl-hint"}, t("The analysis could not be made this time.")));
    return;
  }
  add(box, graph(body.turns || [], body.swings || []),
    h("p", {class: "pl-hint"}, t("Your chance to win at the start of each turn, as the CPU sees it from your side. The biggest swings:")),
    h("ol", {class: "pl-an-swings"}, (body.swings || []).map(swingItem)));
}
