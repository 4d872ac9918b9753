// The game's own names: keywords (their badge words), elements (with "wild") and kinds of land, in
// English and Japanese. They are written once, in cards/words.toml (webapp/cards/words.py), and come
// with the card list the board loads ({cards, words}: webapp/web/cardfiles.py); loadPool
// (play-cards.js) hands them here before the board is built. The board keeps no copy of its own.

let words = {};

/** Keep the card list's `words` ({keyword, element, land: {en, ja: {id: name}}}). */
export function setWords(w) {
  words = w && typeof w === "object" ? w : {};
}

/** The name of `id` in section `kind` ("keyword", "element" or "land") in `lang` ("en" or "ja"),
 * or null when the list has none (wordOf("land", "rearworld", "ja") is 背界). */
export function wordOf(kind, id, lang) {
  const names = (words[kind] || {})[lang === "ja" ? "ja" : "en"] || {};
  return typeof names[id] === "string" ? names[id] : null;
}

/** An element's name ("Fire", 火; "wild": "Wild", なんでも), or null. */
export function elementName(element, lang) {
  return wordOf("element", element, lang);
}

/** A keyword as its badge says it ("Double March", 2回移動), or null. */
export function keywordName(keyword, lang) {
  return wordOf("keyword", keyword, lang);
}

/** A kind of land's name ("Rearworld", 背界; "base": "Base", 本陣), or null. */
export function landName(kind, lang) {
  return wordOf("land", kind, lang);
}
