// The board's settings (issue 14): animation speed, auto-pass, a confirm step before a summon (issue
// 27), sound and volume, card language; and
// the page's language (issue 15): switching it posts to /lang (webapp/i18n.py), which sets the card
// language with it, and reloads the page in the new language.
// Stored per account on the server (GET/POST /play/settings.json, docs/accounts.md) and in
// localStorage (per account name) so a page applies them before the server answers.
// "Reduced motion" (the system setting) is respected: at "normal" speed the animations run shorter.

import {h, pace, t, uiLang} from "./play-util.js";
import {v as make} from "./play-view.js";

// The card language follows the page's until the player sets it apart.
export const DEFAULTS = {anim: "normal", autopass: false, confirmsummon: false, sound: true, volume: 60, lang: uiLang};
const LANG_URL = "/lang";
const SPEEDS = {normal: 1, fast: 0.07, instant: 0};

export class Settings {
  constructor(board) {
    this.b = board;
    this.url = board.root.dataset.settingsUrl || "";
    this.csrf = board.root.dataset.csrf || "";
    this.key = `brigade.settings.${board.root.dataset.user || "guest"}`;
    const fallback = Object.assign({}, DEFAULTS, board.seat === null ? {sound: false} : {});  // spectators start quiet
    let local = null;
    try { local = JSON.parse(localStorage.getItem(this.key) || "null"); } catch (e) { local = null; }
    if (!local) {
      let old = "";
      try { old = localStorage.getItem("brigade.anim") || ""; } catch (e) { /* storage blocked */ }
      if (old === "fast") fallback.anim = "fast";
      if (old === "off") fallback.anim = "instant";
    }
    this.values = Object.assign(fallback, local || {});
    this.apply();
    this.load();
  }

  get(k) { return this.values[k]; }

  /** The server's copy (per account) wins over this browser's. */
  async load() {
    if (!this.url || !this.b.root.dataset.user) return;
    try {
      const r = await fetch(this.url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
      if (!r.ok) return;
      const server = await r.json();
      this.loaded = true;
      if (!server.saved) return;  // never saved on this account: this browser's choice (or the defaults) stays
      delete server.saved;
      this.values = Object.assign({}, DEFAULTS, server);
      this.keep();
      this.apply();
      this.b.render();
      this.redraw();
    } catch (e) { /* offline: this browser's copy stays */ }
    this.loaded = true;
  }

  keep() {
    try { localStorage.setItem(this.key, JSON.stringify(this.values)); } catch (e) { /* storage blocked */ }
  }

  async set(k, v) {
    this.values[k] = v;
    this.keep();
    this.apply();
    this.b.render();
    this.redraw();
    if (!this.url || !this.b.root.dataset.user) return;
    try {
      const r = await fetch(this.url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": this.csrf},
        body: JSON.stringify({[k]: v})});
      if (!r.ok) this.b.toast(t("Could not save that setting on the server; it is kept in this browser."));
      else this.saved = (this.saved || 0) + 1;
    } catch (e) { this.b.toast(t("Could not save that setting on the server; it is kept in this browser.")); }
  }

  /** Switch the page's language (and the card language with it), then show the page in it. */
  async setUiLang(lang) {
    this.values.lang = lang;
    this.keep();
    try {
      const r = await fetch(LANG_URL, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": this.csrf},
        body: JSON.stringify({lang})});
      if (!r.ok) { this.b.toast(t("Could not switch the language; try again.")); return; }
    } catch (e) { this.b.toast(t("Could not switch the language; try again.")); return; }
    location.reload();
  }

  apply() {
    const reduced = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    const anim = this.values.anim in SPEEDS ? this.values.anim : "normal";
    pace.base = anim === "normal" && reduced ? 0.35 : SPEEDS[anim];
    this.b.root.dataset.anim = anim;
    if (this.b.cards && this.b.cards.lang !== this.values.lang && (this.values.lang === "en" || this.values.lang === "ja")) {
      this.b.cards.lang = this.values.lang;
    }
    if (this.b.sound) this.b.sound.configure(this.values.sound, this.values.volume);
  }

  button(make = h) {  // make: h (an element) or play-view.js's v (a virtual node: the board's status bar)
    return make("button", {key: "settings", class: "pl-btn pl-btn-quiet", type: "button", "data-key": "settings", "data-testid": "settings",
      "aria-haspopup": "dialog", onclick: () => this.open()}, make("span", {"aria-hidden": "true"}, "⚙ "), t("Settings"));
  }

  /** The settings dialog: each change applies and is saved at once. */
  open() {
    this.b.openDialog("pl-settings", ...this.view());
    this.b.dialog.setAttribute("aria-labelledby", "pl-set-title");
  }

  /** Draw the dialog again in place if it is open (a change made, the account's copy arrived): its
   * controls stay the same elements (play-view.js), the focus where it is. */
  redraw() {
    const d = this.b.dialog;
    if (d.open && d.viewCls === "pl-settings") this.b.drawDialog("pl-settings", this.view());
  }

  /** The dialog's content, as virtual nodes (play-view.js), keyed by setting. */
  view() {
    const B = this.b;
    const d = B.dialog;
    const v = this.values;
    const radio = (name, value, label, hint) => make("label", {key: `${name}:${value}`, class: "pl-set-choice"},
      make("input", {type: "radio", name, value, checked: v[name] === value, "data-testid": `set-${name}-${value}`,
        onchange: () => this.set(name, value)}),
      make("span", {}, make("b", {}, label), hint ? make("small", {}, hint) : null));
    const box = (name, label, hint) => make("label", {key: name, class: "pl-set-check"},
      make("input", {type: "checkbox", checked: !!v[name], "data-testid": `set-${name}`,
        onchange: (e) => this.set(name, e.target.checked)}),
      make("span", {}, make("b", {}, label), hint ? make("small", {}, hint) : null));
    const volume = make("input", {type: "range", min: 0, max: 100, step: 5, value: v.volume, id: "pl-set-volume",
      "data-testid": "set-volume", onchange: (e) => { this.set("volume", Number(e.target.value)); if (B.sound) B.sound.play("summon"); }});
    // The page's language: one switch for the pages, the board, the log and the card faces.
    const ui = (value, label) => make("label", {key: `ui:${value}`, class: "pl-set-choice", lang: value},
      make("input", {type: "radio", name: "ui", value, checked: uiLang === value, "data-testid": `set-ui-${value}`,
        onchange: () => this.setUiLang(value)}),
      make("span", {}, make("b", {}, label)));
    return [
      make("h2", {key: "title", id: "pl-set-title"}, t("Settings")),
      make("fieldset", {key: "ui", class: "pl-set-group"}, make("legend", {}, t("Language")),
        ui("en", "English"), ui("ja", "日本語")),
      make("fieldset", {key: "anim", class: "pl-set-group"}, make("legend", {}, t("Animation speed")),
        radio("anim", "normal", t("Normal"), t("every move shown in full (shorter if your system asks for reduced motion)")),
        radio("anim", "fast", t("Fast"), t("the same moves, quickly")),
        radio("anim", "instant", t("Instant"), t("no animations"))),
      make("fieldset", {key: "battles", class: "pl-set-group"}, make("legend", {}, t("Battles")),
        box("autopass", t("Auto-pass"), t("let the opponent's moves through when I have no answer I want: a moment to step in, then it passes by itself. You can switch it for one battle on the battle screen."))),
      make("fieldset", {key: "summoning", class: "pl-set-group"}, make("legend", {}, t("Summoning")),
        box("confirmsummon", t("Confirm before summoning"), t("a summon from the hand asks once more before it is made"))),
      make("fieldset", {key: "sound", class: "pl-set-group"}, make("legend", {}, t("Sound")),
        box("sound", t("Sound effects"), t("short sounds for summons, marches, attacks, spells and the end")),
        make("label", {key: "volume", class: "pl-set-range", for: "pl-set-volume"}, make("b", {}, t("Volume")), volume)),
      make("fieldset", {key: "lang", class: "pl-set-group"}, make("legend", {}, t("Card language")),
        radio("lang", "en", "English"), radio("lang", "ja", "日本語"),
        make("small", {key: "note", class: "pl-hint"}, t("The language of card names and texts only; switching the language above changes it too."))),
      make("p", {key: "where", class: "pl-hint"}, B.root.dataset.user ? t("Saved to your account: they follow you to other devices.") : t("Kept in this browser.")),
      make("div", {key: "done", class: "pl-row-btns"}, make("button", {class: "pl-btn pl-btn-go", type: "button", "data-testid": "settings-done", onclick: () => d.close()}, t("Done"))),
    ];
  }
}
