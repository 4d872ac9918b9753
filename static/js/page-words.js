// The page's language for the pages' modules (collection.js, decks.js, lobby.js): static/js/i18n.js,
// the classic script base.html loads before any module, once its catalog has loaded (an importer
// waits here). The pure modules take these functions as arguments instead, so node tests them.
const I18N = window.BrigadeI18n;
await I18N.ready;

/** t("Text {name}", {name}), tn("{n} card", "{n} cards", n), fold(text): static/js/i18n.js. */
export const {t, tn, fold} = I18N;
