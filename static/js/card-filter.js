// Which cards a filter keeps, without the page: the collection's filters and search
// (webapp/web/collection.py matches(), which this mirrors; tests/web/test_collection_filter_parity.py
// compares them) and the deck builder's (the same fields and words, plus its own "copies left").
// A card is a plain object of its data-* attributes (element, tribe, level, rarity, kind, keyword,
// set, count, search); the search texts are folded as webapp/decks/search.py folds them.

/** The filter fields of the collection page, in its form's order. */
export const FIELDS = ["element", "tribe", "level", "rarity", "kind", "keyword", "set", "owned"];

/** The folded words of a search box's text (fold: static/js/i18n.js's, as the server's). */
export function searchWords(query, fold) {
  return fold(query).split(/\s+/).filter(Boolean);
}

/** Whether every word is in a card's folded search text (webapp/decks/search.py matches()). */
export function hasWords(search, words) {
  return words.every((w) => search.indexOf(w) >= 0);
}

/** Whether a card passes the filters {words, element, tribe, …}: an empty or absent field keeps
 *  every card; "owned" is "owned" or "missing" (the count above 0 or not); "keyword" is one of the
 *  card's space-separated keywords. */
export function matchesCard(card, filters) {
  for (const name of FIELDS) {
    const want = filters[name];
    if (!want) continue;
    if (name === "owned") {
      if ((Number(card.count) > 0) !== (want === "owned")) return false;
    } else if (name === "keyword") {
      if (String(card.keyword || "").split(" ").indexOf(want) < 0) return false;
    } else if (String(card[name] ?? "") !== want) {
      return false;
    }
  }
  return hasWords(card.search || "", filters.words || []);
}

/** How many of the fields (FIELDS) a filter sets: the "filters in use" count. */
export function activeFilters(filters) {
  return FIELDS.filter((name) => filters[name]).length;
}
