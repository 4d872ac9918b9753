// The deck builder's charts without the page: where each bar goes and what each line says, from
// deckStats (static/js/deck-rules.js). The same arithmetic as templates/decks/_charts.html, which
// draws them first (tests/web/test_decks.py compares the two); decks.js moves the bars.
// t and tn are the page's words (static/js/i18n.js).

/** The level curve: per level its bar's top and height and its count's baseline. */
export function levelBars(stats) {
  const scale = Math.max(4, ...stats.levels.map((r) => r.count));
  return stats.levels.map((r) => {
    const height = Math.floor(r.count * 56 / scale);
    return {level: r.level, count: r.count, y: 68 - height, height, textY: 64 - height};
  });
}

/** The monsters' and the spells' parts of the ratio bar (200 wide). */
export function ratioBars(stats) {
  const total = stats.total;
  const m = total ? Math.floor(stats.monsters * 200 / total) : 0;
  return {monsters: {width: m}, spells: {x: m, width: total ? 200 - m : 0}};
}

/** The elements' segments of the element bar (200 wide), in the elements' order. */
export function elementBars(stats) {
  const total = stats.total;
  let cum = 0;
  return stats.elements.map((r) => {
    const n = r.monsters + r.spells;
    const x0 = total ? Math.floor(cum * 200 / total) : 0;
    cum += n;
    const x1 = total ? Math.floor(cum * 200 / total) : 0;
    return {element: r.element, n, x: x0, width: x1 - x0};
  });
}

/** element -> the spell coverage row's bars (slots, wild, need; 200 wide at the largest) and status. */
export function coverageBars(stats) {
  let scale = 1;
  for (const r of stats.coverage) scale = Math.max(scale, r.slots + r.wild, r.needed);
  const out = {};
  for (const r of stats.coverage) {
    const slots = Math.floor(r.slots * 200 / scale), wild = Math.floor(r.wild * 200 / scale);
    out[r.element] = {row: r, status: r.status, slots: {width: slots}, wild: {x: slots, width: wild},
      need: {width: Math.floor(r.needed * 200 / scale)}};
  }
  return out;
}

/** "Level 1: 3. Level 2: 0. …" for a screen reader. */
export function levelsSummary(stats, t) {
  return stats.levels.map((r) => t("Level {n}: {count}.", {n: r.level, count: r.count})).join(" ");
}

/** "12 monsters · 3 spells" */
export function ratioText(stats, tn) {
  return tn("{n} monster", "{n} monsters", stats.monsters) + " · " + tn("{n} spell", "{n} spells", stats.spells);
}

/** "Fire 7 (2 spells)": an element's line of the legend (label: the element's name). */
export function elementText(row, label, tn) {
  const n = row.monsters + row.spells;
  return label + " " + n + (row.spells ? " (" + tn("{n} spell", "{n} spells", row.spells) + ")" : "");
}

/** "2 spells need 5 mana · monsters give 3 + 1 wild · short": a coverage row's line. */
export function coverageText(row, t, tn) {
  return tn("{n} spell needs {need} mana", "{n} spells need {need} mana", row.spells, {need: row.needed}) +
    " · " + t("monsters give {n}", {n: row.slots}) +
    (row.wild ? " + " + t("{n} wild", {n: row.wild}) : "") +
    (row.status === "none" ? " · " + t("none can pay") : row.status === "short" ? " · " + t("short") : "");
}
