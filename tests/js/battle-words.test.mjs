// static/js/battle-words.js under node's test runner: the battle's words for the steps it takes by
// itself and for why a spell cannot be cast, from the public view only.
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {test} from "node:test";

const src = readFileSync(new URL("../../static/js/battle-words.js", import.meta.url), "utf8");
const w = await import("data:text/javascript," + encodeURIComponent(src));
const fill = (s, p) => s.replace(/\{(\w+)\}/g, (m, k) => (p && k in p ? String(p[k]) : m));
const t = (s, p) => fill(s, p);
const tn = (one, many, n, p) => fill(n === 1 ? one : many, Object.assign({n}, p));

test("the preparation steps run attacker's quick, formation, defender's quick, formation, initiative, fight", () => {
  assert.equal(w.stepIndex("quick", 1, 1), 0);
  assert.equal(w.stepIndex("formation", 0, 1), 3);
  assert.equal(w.stepIndex("initiative", null, 0), 4);
  assert.equal(w.stepIndex("fight", 0, 0), w.FIGHT);
  assert.deepEqual(w.stepAt(2, 1), {step: "quick", stepPlayer: 0});
  assert.deepEqual(w.stepAt(1, 1), {step: "formation", stepPlayer: 1});
  assert.equal(w.eventStep({type: "quick_summoned", player: 0}, 1), 2);
  assert.equal(w.eventStep({type: "declared", player: 0}, 1), w.FIGHT);
  assert.equal(w.eventStep({type: "damage"}, 1), null);
});

test("a skipped quick summon says why for the player only; the foe's never tells about their hand", () => {
  const line = (index, more) => w.skippedLine(index, Object.assign({me: 0, name: "CPU", party: ["orc"]}, more), t);
  assert.equal(line(0, {player: 0}), "You have no Quick monster that fits: nothing to add.");
  assert.equal(line(0, {player: 0, chose: true}), "You add no one at the quick summon.");
  assert.equal(line(2, {player: 1}), "CPU adds no one at the quick summon.");
  assert.equal(line(1, {player: 0}), "Your party is one monster: no formation to set.");
  assert.equal(line(3, {player: 1, party: ["orc", "orc"]}), "CPU’s party is all one card: no formation to set.");
});

const fireball = {kind: "spell", element: "fire", mana: 1, timing: "normal"};
const battle = (more) => Object.assign({step: "fight", simultaneous: false, spell_lock: false, chain: [],
  slots: {0: {fire: {total: 2, used: 0}}, 1: {}}}, more);
const why = (card, b, more) => w.spellWhy(card, Object.assign({phase: "battle", battle: b, me: 0, waiting: true, foeName: "CPU"}, more), t, tn);

test("a spell says why it cannot be cast: phase, step, lock, slots, timing, whose decision", () => {
  assert.equal(why(fireball, null, {phase: "main"}), "battle only");
  assert.equal(why(fireball, battle({step: "quick"})), "only once the fight begins, after the initiative roll");
  assert.equal(why(fireball, battle({simultaneous: true})), "no spells in a simultaneous attack");
  assert.equal(why(fireball, battle({spell_lock: true})), "no spells in this battle");
  assert.equal(why({kind: "spell", element: "water", mana: 1, timing: "normal"}, battle()), "needs a water slot: none in this party");
  assert.equal(why(Object.assign({}, fireball, {mana: 3}), battle()), "needs 3 fire slots: 2 free");
  assert.equal(why(fireball, battle({slots: {0: {fire: {total: 2, used: 2}}}})), "needs 1 fire slot: 0 free");
  assert.equal(why({kind: "spell", element: "water", mana: 1, timing: "normal"}, battle({slots: {0: {wild: {total: 1, used: 0}}}})), "no target it can take now");
  assert.equal(why({kind: "spell", element: "fire", mana: 1, timing: "counter"}, battle()), "a Counter: only as an answer to a declaration");
  assert.equal(why(fireball, battle({chain: [{kind: "attack"}]})), "Normal: only in your own window, not as an answer");
  assert.equal(why(fireball, battle(), {waiting: false}), "not while CPU decides");
  assert.equal(why(fireball, battle(), {elementWord: (e) => ({fire: "火"})[e]}), "no target it can take now");
  assert.equal(why({kind: "spell", element: "water", mana: 1, timing: "normal"}, battle(), {elementWord: (e) => ({water: "水"})[e]}),
    "needs a 水 slot: none in this party");
});
