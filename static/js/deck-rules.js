// The deck's rules in the builder, without the page: what is wrong with a deck (checkDeck), its
// figures (deckStats) and how many copies of a card it may take (copyLimit). checkDeck and deckStats
// mirror webapp/decks/check.py and webapp/decks/stats.py exactly (tests/web/test_decks.py runs both
// and compares). `data` is the builder's JSON (webapp/web/decks.py builder_data): the cards with the
// player's owned counts, the deck size, the message templates in the page's language.

const LEVELS = ["refused", "invalid", "warning", "tip"];

/** A server message template with its {placeholders} filled (unknown ones kept). */
export function fill(template, vars) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (Object.hasOwn(vars, key) ? String(vars[key]) : whole));
}

/** A card's name in the page's language (data.lang, from the server). */
export function nameOf(card, data) {
  return data && data.lang === "ja" && card.ja ? card.ja : card.name;
}

function elementWord(element, data) {
  return (data && data.elementNames && data.elementNames[element]) || element;
}

/** [[id, card, n]] of the deck's known cards. */
function known(counts, data) {
  const out = [];
  for (const id of Object.keys(counts)) {
    const c = data.cards[id];
    if (counts[id] > 0 && c && !c.unknown) out.push([id, c, counts[id]]);
  }
  return out;
}

/** The most copies of a card the deck may take: those owned, at most the deck's size. */
export function copyLimit(card, size) {
  return Math.min(card.owned || 0, size);
}

/** webapp.decks.check.check_deck with the owned counts of data.cards: the problems, worst first.
 *  tn("{n} card", "{n} cards", n) words the counts (static/js/i18n.js). */
export function checkDeck(counts, data, tn) {
  const m = data.messages, problems = [];
  const cardsWord = (n) => tn("{n} card", "{n} cards", n);
  const ids = Object.keys(counts).filter((id) => counts[id] > 0);
  const have = known(counts, data);
  for (const id of ids) {
    const c = data.cards[id];
    if (!c || c.unknown) problems.push({code: "unknown", level: "refused", message: fill(m.unknown, {card: id}), card: id});
  }
  const total = ids.reduce((s, id) => s + counts[id], 0);
  if (total > data.size) {
    problems.push({code: "too_many", level: "refused", card: null,
      message: fill(m.too_many, {size: data.size, count: total, extra: cardsWord(total - data.size)})});
  }
  for (const [id, c, n] of have) {
    const owned = c.owned || 0;
    if (owned <= 0) {
      problems.push({code: "not_owned", level: "refused", message: fill(m.not_owned, {name: nameOf(c, data)}), card: id});
    } else if (n > owned) {
      problems.push({code: "too_many_copies", level: "refused", card: id,
        message: fill(m.too_many_copies, {count: n, name: nameOf(c, data), owned, extra: n - owned})});
    }
  }
  if (total < data.size) {
    problems.push({code: "too_few", level: "invalid", card: null,
      message: fill(m.too_few, {size: data.size, count: total, missing: cardsWord(data.size - total)})});
  }
  let monsters = 0, spells = 0;
  const kinds = {};
  for (const [, c, n] of have) {
    if (c.kind === "monster") {
      monsters += n;
      for (const s of Object.keys(c.slots || {})) if (c.slots[s] > 0) kinds[s] = true;
    } else if (c.kind === "spell") {
      spells += n;
    }
  }
  if (!monsters) problems.push({code: "no_monster", level: "invalid", message: m.no_monster, card: null});
  const place = (e) => { const i = data.elements.indexOf(e); return i < 0 ? 99 : i; };
  const unpayable = have.filter(([, c]) => c.kind === "spell" && (c.mana || 0) > 0 && !kinds[c.element] && !kinds.wild);
  unpayable.sort((a, b) => place(a[1].element) - place(b[1].element) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [id, c] of unpayable) {
    problems.push({code: "unpayable", level: "warning", card: id,
      message: fill(m.unpayable, {element: elementWord(c.element, data), name: nameOf(c, data)})});
  }
  if (spells > data.tipAt || spells > monsters) {
    const tip = data.tip[data.lang === "ja" ? "ja" : "en"];
    problems.push({code: "tip", level: "tip", card: null, message: tip.speaker + ": " + tip.text});
  }
  return problems
    .map((p, i) => [LEVELS.indexOf(p.level), i, p])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((x) => x[2]);
}

/** Whether a deck with these problems can be played (nothing refused or invalid). */
export function playable(problems) {
  return !problems.some((p) => p.level === "refused" || p.level === "invalid");
}

function coverageStatus(provided, needed) {
  if (needed <= 0 || provided >= needed) return "ok";
  return provided === 0 ? "none" : "short";
}

/** webapp.decks.stats.deck_stats: totals, the level curve, the elements and the spell coverage. */
export function deckStats(counts, data) {
  const have = known(counts, data);
  const mons = have.filter((k) => k[1].kind === "monster");
  const spells = have.filter((k) => k[1].kind === "spell");
  const sum = (list, f) => list.reduce((s, k) => s + f(k), 0);
  const copies = (k) => k[2];
  const curve = {};
  for (const l of data.levels) curve[l] = 0;
  for (const [, c, n] of mons) curve[c.level] = (curve[c.level] || 0) + n;
  const wild = sum(mons, (k) => ((k[1].slots || {}).wild || 0) * k[2]);
  const coverage = [];
  for (const e of data.elements) {
    const of = spells.filter((k) => k[1].element === e);
    if (!of.length) continue;
    const slots = sum(mons, (k) => ((k[1].slots || {})[e] || 0) * k[2]);
    const needed = sum(of, (k) => (k[1].mana || 0) * k[2]);
    coverage.push({
      element: e, spells: sum(of, copies), needed,
      heaviest: Math.max(...of.map((k) => k[1].mana || 0)),
      slots, wild, status: coverageStatus(slots + wild, needed),
    });
  }
  return {
    total: sum(have, copies),
    monsters: sum(mons, copies),
    spells: sum(spells, copies),
    levels: Object.keys(curve).map(Number).sort((a, b) => a - b).map((l) => ({level: l, count: curve[l]})),
    elements: data.elements.map((e) => ({
      element: e,
      monsters: sum(mons.filter((k) => k[1].element === e), copies),
      spells: sum(spells.filter((k) => k[1].element === e), copies),
    })),
    coverage,
  };
}

/** Why one more copy of a card cannot go in (n in the deck, total cards in it), or null:
 *  "owned" (every owned copy is in), "copies" (the deck's most of one card), "full". */
export function addRefusal(card, n, total, size) {
  if (n >= copyLimit(card, size)) return n >= (card.owned || 0) ? "owned" : "copies";
  if (total >= size) return "full";
  return null;
}
