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
