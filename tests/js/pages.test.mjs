// The pure modules of the collection and the deck builder under node's test runner: the deck's rules
// and figures (deck-rules.js), the charts' arithmetic and lines (deck-charts.js), the filters
// (card-filter.js). Their parity with the server's Python: tests/web/test_decks.py and
// tests/web/test_collection_filter_parity.py.
import assert from "node:assert/strict";
import {createRequire} from "node:module";
import {test} from "node:test";

const js = (name) => new URL(`../../static/js/${name}`, import.meta.url);
const {t, tn, fold} = createRequire(import.meta.url)(js("i18n.js").pathname);
const rules = await import(js("deck-rules.js").href);
const charts = await import(js("deck-charts.js").href);
const filter = await import(js("card-filter.js").href);

const MESSAGES = {
  unknown: "No card {card}.", too_many: "{count} of {size}: {extra} too many.", not_owned: "You own no {name}.",
  too_many_copies: "{count} {name}, {owned} owned.", too_few: "{count} of {size}: {missing} missing.",
  no_monster: "No monster.", unpayable: "No {element} slot for {name}.",
};
const DATA = {
  size: 30, tipAt: 10, levels: [1, 2, 3], elements: ["fire", "water", "earth", "wind", "light", "dark"],
  messages: MESSAGES, lang: "en", elementNames: {fire: "Fire", water: "Water"},
  tip: {en: {speaker: "Eringe", text: "More monsters."}, ja: {speaker: "エリンゲ", text: "…"}},
  cards: {
    orc: {name: "Orc", kind: "monster", element: "fire", level: 1, slots: {fire: 1}, owned: 3},
    elf: {name: "Elf", ja: "エルフ", kind: "monster", element: "water", level: 2, slots: {wild: 1}, owned: 2},
    fireball: {name: "Fireball", kind: "spell", element: "fire", mana: 2, owned: 4},
    tide: {name: "Tide", kind: "spell", element: "water", mana: 3, owned: 1},
    odd: {name: "Odd", unknown: true},
  },
};

test("a short deck is not playable and says how many cards it lacks, in the page's plural", () => {
  const problems = rules.checkDeck({orc: 3, elf: 2}, DATA, tn);
  assert.deepEqual(problems.map((p) => p.code), ["too_few"]);
  assert.equal(problems[0].message, "5 of 30: 25 cards missing.");
  assert.equal(rules.playable(problems), false);
});

test("refused problems come first; copies beyond those owned name the card", () => {
  const problems = rules.checkDeck({orc: 5, odd: 1, nope: 1}, DATA, tn);
  assert.deepEqual(problems.map((p) => [p.code, p.level, p.card]),
    [["unknown", "refused", "odd"], ["unknown", "refused", "nope"], ["too_many_copies", "refused", "orc"],
     ["too_few", "invalid", null]]);
  assert.equal(problems[2].message, "5 Orc, 3 owned.");
});

test("a spell whose element no monster pays is a warning; a wild slot pays every element", () => {
  const bare = rules.checkDeck({orc: 3, tide: 1}, DATA, tn).filter((p) => p.level === "warning");
  assert.deepEqual(bare.map((p) => p.message), ["No Water slot for Tide."]);
  assert.equal(rules.checkDeck({orc: 3, elf: 1, tide: 1}, DATA, tn).filter((p) => p.level === "warning").length, 0);
});

test("more spells than monsters brings Eringe's tip, in the deck's language", () => {
  const problems = rules.checkDeck({orc: 1, fireball: 2}, DATA, tn);
  assert.equal(problems.at(-1).message, "Eringe: More monsters.");
  assert.equal(problems.at(-1).level, "tip");
});

test("deckStats counts the curve, the elements and the spells' coverage", () => {
  const stats = rules.deckStats({orc: 3, elf: 2, fireball: 4, tide: 1, odd: 1}, DATA);
  assert.equal(stats.total, 10);
  assert.deepEqual([stats.monsters, stats.spells], [5, 5]);
  assert.deepEqual(stats.levels, [{level: 1, count: 3}, {level: 2, count: 2}, {level: 3, count: 0}]);
  assert.deepEqual(stats.coverage.map((r) => [r.element, r.needed, r.slots, r.wild, r.status]),
    [["fire", 8, 3, 2, "short"], ["water", 3, 0, 2, "short"]]);
});

test("a card takes as many copies as are owned, at most the deck's size; the refusals say why", () => {
  assert.equal(rules.copyLimit({owned: 3}, 30), 3);
  assert.equal(rules.copyLimit({owned: 40}, 30), 30);
  assert.equal(rules.addRefusal({owned: 3}, 3, 10, 30), "owned");
  assert.equal(rules.addRefusal({owned: 40}, 30, 30, 30), "copies");
  assert.equal(rules.addRefusal({owned: 3}, 1, 30, 30), "full");
  assert.equal(rules.addRefusal({owned: 3}, 1, 29, 30), null);
  assert.equal(rules.fill("{a} and {b}", {a: 1}), "1 and {b}");
  assert.equal(rules.nameOf(DATA.cards.elf, {lang: "ja"}), "エルフ");
});

test("the charts' bars: heights on a scale of at least 4, segments of 200 rounded down", () => {
  const stats = rules.deckStats({orc: 3, elf: 2, fireball: 4, tide: 1}, DATA);
  assert.deepEqual(charts.levelBars(stats).map((b) => [b.level, b.height, b.y, b.textY]),
    [[1, 42, 26, 22], [2, 28, 40, 36], [3, 0, 68, 64]]);
  assert.deepEqual(charts.ratioBars(stats), {monsters: {width: 100}, spells: {x: 100, width: 100}});
  assert.deepEqual(charts.elementBars(stats).slice(0, 3).map((b) => [b.element, b.x, b.width]),
    [["fire", 0, 140], ["water", 140, 60], ["earth", 200, 0]]);
  const cover = charts.coverageBars(stats);
  assert.deepEqual([cover.fire.slots, cover.fire.wild, cover.fire.need], [{width: 75}, {x: 75, width: 50}, {width: 200}]);
  const empty = rules.deckStats({}, DATA);
  assert.deepEqual(charts.ratioBars(empty), {monsters: {width: 0}, spells: {x: 0, width: 0}});
  assert.deepEqual(charts.levelBars(empty).map((b) => b.height), [0, 0, 0]);
});

test("the charts' lines in words, plural by count", () => {
  const stats = rules.deckStats({orc: 3, fireball: 1}, DATA);
  assert.equal(charts.ratioText(stats, tn), "3 monsters · 1 spell");
  assert.equal(charts.levelsSummary(stats, t), "Level 1: 3. Level 2: 0. Level 3: 0.");
  assert.equal(charts.elementText(stats.elements[0], "Fire", tn), "Fire 4 (1 spell)");
  assert.equal(charts.coverageText(stats.coverage[0], t, tn), "1 spell needs 2 mana · monsters give 3");
  assert.equal(charts.coverageText({spells: 2, needed: 5, slots: 0, wild: 1, status: "short"}, t, tn),
    "2 spells need 5 mana · monsters give 0 + 1 wild · short");
});

test("a card passes when every set field matches and every folded word is in its search text", () => {
  const card = {element: "fire", tribe: "Dragon", level: "3", rarity: "rare", kind: "monster", keyword: "flying quick",
    set: "core", count: "0", search: fold("Crimson Dragon どらごん")};
  assert.ok(filter.matchesCard(card, {words: filter.searchWords("ドラゴン", fold)}));
  assert.ok(filter.matchesCard(card, {words: filter.searchWords("  ＤＲＡＧＯＮ  crimson ", fold), element: "fire", keyword: "quick"}));
  assert.ok(!filter.matchesCard(card, {words: ["goblin"]}));
  assert.ok(!filter.matchesCard(card, {words: [], keyword: "fly"}));
  assert.ok(filter.matchesCard(card, {words: [], owned: "missing", level: "3"}));
  assert.ok(!filter.matchesCard(card, {words: [], owned: "owned"}));
  assert.ok(filter.matchesCard({...card, count: "2"}, {words: [], owned: "owned", element: ""}));
  assert.equal(filter.activeFilters({words: ["x"], element: "fire", set: "", owned: "owned"}), 2);
});
