// The pure modules of static/js under node's own test runner (`node --test tests/js/`; pytest runs it
// in tests/test_js_units.py). The parity tests that compare a module with the server's Python are in
// tests/web/test_decks.py, tests/online/test_updates.py and tests/i18n/.
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import {test} from "node:test";

const require = createRequire(import.meta.url);
const js = (name) => new URL(`../../static/js/${name}`, import.meta.url);
const i18n = require(js("i18n.js").pathname);
// play-transport.js is an ES module in a .js file: node loads it from its text
const transport = await import("data:text/javascript," + encodeURIComponent(readFileSync(js("play-transport.js"), "utf8")));

test("t fills placeholders and keeps unknown ones; English needs no catalog", () => {
  assert.equal(i18n.t("Card {name} added.", {name: "Orc"}), "Card Orc added.");
  assert.equal(i18n.t("no {such} text"), "no {such} text");
});

test("tn picks the plural form of n and fills {n}", () => {
  assert.equal(i18n.tn("{n} card", "{n} cards", 1), "1 card");
  assert.equal(i18n.tn("{n} card", "{n} cards", 0), "0 cards");
  assert.equal(i18n.tn("{n} card", "{n} cards", 3), "3 cards");
});

test("a catalog's texts and plural rule are used once loaded", () => {
  i18n.use({plural: "0", messages: {"Settings": "設定", "{n} card": ["{n}枚"]}});
  try {
    assert.equal(i18n.t("Settings"), "設定");
    assert.equal(i18n.tn("{n} card", "{n} cards", 3), "3枚");
    assert.equal(i18n.t("Not in it"), "Not in it");
  } finally {
    i18n.use(null);
  }
});

test("fold: width, case and katakana folded for search", () => {
  assert.equal(i18n.fold("ＤＲＡＧＯＮ"), "dragon");
  assert.equal(i18n.fold("ドラゴン"), "どらごん");
  assert.equal(i18n.fold(null), "");
});

test("applyOps sets, deletes and rearranges without touching the old view", () => {
  const old = {a: 1, b: {c: [10, 20, 30]}, d: 4};
  const out = transport.applyOps(old, [[["a"], 2], [["d"]], [["b", "c"], null, [2, 0, -1]]]);
  assert.deepEqual(out, {a: 2, b: {c: [30, 10, null]}});
  assert.deepEqual(old, {a: 1, b: {c: [10, 20, 30]}, d: 4});
});

test("applyOps refuses an update that does not fit the view", () => {
  assert.throws(() => transport.applyOps({a: 1}, [[["a", "b"], 2]]), /update_does_not_fit_the_view/);
  assert.throws(() => transport.applyOps({a: [1]}, [[["a", 5], 2]]), /update_does_not_fit_the_view/);
});

test("applyUpdate builds on the held version only", () => {
  const held = {game: 1, version: 2, view: {a: 1}, legal_actions: ["x"]};
  assert.equal(transport.applyUpdate(held, {game: 1, version: 3, base: 1, view: []}), null);
  const next = transport.applyUpdate(held, {game: 1, version: 3, base: 2, view: [[["a"], 5]]});
  assert.deepEqual(next, {game: 1, version: 3, view: {a: 5}, legal_actions: ["x"]});
});

// play-fit.js: the map's token size, as the CSS container query worked it out before (decisions/0148)
const fit = await import("data:text/javascript," + encodeURIComponent(readFileSync(js("play-fit.js"), "utf8")));

test("tokenFit: a desktop land's tokens take the better of one line or more shorter ones", () => {
  const gap = 7.2, caption = 15.2;
  // three or fewer: one line of three, or the box's height
  assert.equal(fit.tokenFit(2, 300, 60, gap, caption), Math.min((300 - 2 * gap) / 3, (60 - caption) / 0.75));
  assert.equal(fit.tokenFit(3, 150, 200, gap, caption), (150 - 2 * gap) / 3);
  // four in a wide, low box: one line of four; in a tall, narrow box: two lines of two
  assert.equal(fit.tokenFit(4, 400, 70, gap, caption), Math.min((400 - 3 * gap) / 4, (70 - caption) / 0.75));
  assert.equal(fit.tokenFit(4, 120, 200, gap, caption), Math.min((120 - gap) / 2, ((200 - gap) / 2 - caption) / 0.75));
  // seven: one line of eight, two of four or three of three, whichever is largest
  const seven = fit.tokenFit(7, 200, 300, gap, caption);
  assert.equal(seven, Math.min((200 - 2 * gap) / 3, ((300 - 2 * gap) / 3 - caption) / 0.75));
  // in a wide box, more tokens never get larger ones
  let last = Infinity;
  for (let n = 1; n <= 12; n++) {
    const size = fit.tokenFit(n, 260, 120, gap, caption);
    assert.ok(size <= last, `${n} tokens: ${size} > ${last}`);
    last = size;
  }
});

test("tokenFit: a phone's land puts four tokens on a line from five, and leaves fewer alone", () => {
  assert.equal(fit.tokenFit(4, 300, 0, 4.8, 0, true), null);
  assert.equal(fit.tokenFit(5, 300, 0, 4.8, 0, true), (300 - 3 * 4.8) / 4 - 0.5);
  assert.equal(fit.tokenFit(9, 300, 0, 4.8, 0, true), (300 - 3 * 4.8) / 4 - 0.5);
});
