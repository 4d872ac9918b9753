/* The page's language for the JavaScript (issue 15, webapp/i18n.py, docs/i18n.md).
 *
 *   t("Deck saved.")                         the text in the page's language
 *   t("Card {name} added.", {name: c.name})  with {placeholders} filled in
 *   tn("{n} card", "{n} cards", n)           the plural form for n ({n} is filled in too)
 *   fold(text)                               the search form of a text (NFKC, lower case, katakana as
 *                                            hiragana), the same as webapp/decks/search.py's fold()
 *
 * The msgids are the English texts: English needs no catalog. For another language the page's
 * <html data-i18n="..."> holds the hashed URL of static/i18n/<lang>.json (built from the same gettext
 * catalogs as the pages); `BrigadeI18n.ready` settles when it has loaded (or failed: then English).
 * A classic script, so the pages' other classic scripts and the board's modules (through
 * play-util.js) share it; under node (tests) it exports the same functions.
 */
(function (root, factory) {
  "use strict";
  var api = factory(root);
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BrigadeI18n = api;
  }
}(typeof self !== "undefined" ? self : this, function (root) {
  "use strict";

  var messages = {};
  // The plural rules of the catalogs' Plural-Forms headers: index of the form for n.
  var RULES = {
    "0": function () { return 0; },
    "(n != 1)": function (n) { return n !== 1 ? 1 : 0; }
  };
  var rule = RULES["(n != 1)"];

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole;
    });
  }

  function use(catalog) {
    messages = (catalog && catalog.messages) || {};
    rule = RULES[catalog && catalog.plural] || RULES["(n != 1)"];
  }

  function t(msgid, params) {
    var found = messages[msgid];
    if (Array.isArray(found)) found = found[0];
    return fill(typeof found === "string" && found ? found : msgid, params);
  }

  function tn(singular, plural, n, params) {
    var found = messages[singular];
    var all = Object.assign({n: n}, params || {});
    if (Array.isArray(found) && found.length) return fill(found[Math.min(rule(n), found.length - 1)], all);
    return fill(n !== 1 ? plural : singular, all);
  }

  function fold(text) {
    var s = String(text || "").normalize("NFKC").toLowerCase();
    return s.replace(/[\u30a1-\u30f6]/g, function (ch) { return String.fromCharCode(ch.charCodeAt(0) - 0x60); });
  }

  var doc = root && root.document;
  var lang = (doc && doc.documentElement.lang) || "en";
  var url = doc && doc.documentElement.getAttribute("data-i18n");
  var ready = !url ? Promise.resolve() : fetch(url, {credentials: "same-origin"})
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (catalog) { if (catalog) use(catalog); })
    .catch(function () { /* offline or blocked: the English texts stay */ });

  return {t: t, tn: tn, fold: fold, use: use, ready: ready, lang: lang};
}));
