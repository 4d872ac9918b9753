// Small helpers shared by the board modules: DOM building, timing, words.

// Texts in the page's language (static/js/i18n.js, loaded by base.html). Every board module imports
// this one, so they all wait here until the page's catalog has loaded.
const I18N = window.BrigadeI18n;
await I18N.ready;
/** t("Text {name}", {name}) and tn("{n} card", "{n} cards", n): the page's language (static/js/i18n.js). */
export const t = I18N.t;
export const tn = I18N.tn;
/** t() whose {placeholders} may be elements: an array of strings and nodes, in the language's own
 *  order (tparts("{name} has {n} s", {name: el, n: 3}) → [el, " has 3 s"]). */
/** An element or a virtual node (play-view.js), kept as it is among the words. */
function isPart(x) {
  return x instanceof Node || (typeof x === "object" && x !== null);
}

export function tparts(msgid, params) {
  const text = t(msgid);
  const out = [];
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, key, at) => {
    if (at > last) out.push(text.slice(last, at));
    out.push(params && key in params ? (isPart(params[key]) ? params[key] : String(params[key])) : whole);
    last = at + whole.length;
    return whole;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}
/** The page's language, "en" or "ja". */
export const uiLang = I18N.lang === "ja" ? "ja" : "en";

/** h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child, [more]) → element */
export function h(tag, attrs, ...kids) {
  const svg = tag.startsWith("svg:");
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
                 : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false || k === "key") continue;  // key: play-view.js's (a part drawn either way)
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, kids);
  return el;
}

export function append(el, kids) {
  for (const kid of kids) {
    if (kid === null || kid === undefined || kid === false) continue;
    if (Array.isArray(kid)) append(el, kid);
    else el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

/** Animation pacing: 1 is normal; localStorage "brigade.anim" = "fast" | "off" changes it. */
export const pace = {
  base: 1,
  boost: 1,
  get scale() { return this.base * this.boost; },
};
(function initPace() {
  let pref = "";
  try { pref = localStorage.getItem("brigade.anim") || ""; } catch (e) { /* storage blocked */ }
  if (pref === "off") pace.base = 0;
  else if (pref === "fast") pace.base = 0.12;
  else if (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches) pace.base = 0.35;
})();

export function sleep(ms) {
  const t = ms * pace.scale;
  return t <= 0 ? Promise.resolve() : new Promise((r) => setTimeout(r, t));
}

export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : (many || one + "s")}`;
}

export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

export const ELEMENTS = ["fire", "water", "earth", "wind", "light", "dark", "wild"];

/** R4.2: rows from player 0's side; adjacency as drawn by lines on the map. */
export const ROWS = [["H0"], ["L1", "L2"], ["L3", "L4"], ["L5", "L6"], ["H1"]];
export const LINKS = [
  ["H0", "L1"], ["H0", "L2"], ["L1", "L2"], ["L1", "L3"], ["L1", "L4"], ["L2", "L3"], ["L2", "L4"],
  ["L3", "L4"], ["L3", "L5"], ["L3", "L6"], ["L4", "L5"], ["L4", "L6"], ["L5", "L6"], ["L5", "H1"],
  ["L6", "H1"],
];

/** Keep focus on "the same" control across a re-render (elements carry data-key). */
export function focusKey() {
  const a = document.activeElement;
  return a && a.dataset ? a.dataset.key || null : null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  const el = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el && typeof el.focus === "function") el.focus({preventScroll: true});
}

/** A multiset of strings as a sortable key. */
export function bag(list) {
  return list.slice().sort().join("\u0001");
}

export function rect(el) {
  return el ? el.getBoundingClientRect() : null;
}

/** el.append(...kids), skipping null, undefined and false, flattening arrays. */
export function add(el, ...kids) {
  return append(el, kids);
}

/** The leader's crown (R5.5), drawn on units: an element, or with play-view.js's v() a virtual node. */
export function crownSvg(make = h) {
  return make("svg:svg", {viewBox: "0 0 24 16"}, make("svg:path", {d: "M2 14 L1 3 L7 8 L12 1 L17 8 L23 3 L22 14 Z", fill: "#f0c96a",
    stroke: "#6b4a12", "stroke-width": "1.4", "stroke-linejoin": "round"}));
}

/** The possessive of a name: "alice’s", "Goblin Scouts’". */
export function poss(name) {
  return /s$/i.test(String(name)) ? `${name}’` : `${name}’s`;
}
