// Card data (the pool's JSON file, fetched once: {cards: card id → name, stats, text, art URLs; words:
// the keyword, element and land names, which play-words.js keeps}) and images of the cards: each face is
// its own content-hashed, immutable SVG file (webapp/web/cardfiles.py).

import {h} from "./play-util.js";
import {setWords, elementName, keywordName} from "./play-words.js";

export const ELEMENT_COLOUR = {
  fire: "#e0623f", water: "#4a8fe0", earth: "#b08a4f", wind: "#58b983",
  light: "#f0d67a", dark: "#9a6bd1", wild: "#e7e7e7",
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

let pool = null;

/** Fetch the card list at `url` (the page's data-cards-url) once; the Cards of the page read it. */
export async function loadPool(url) {
  if (pool) return pool;
  let answer = {};
  try {
    // No cookies: the list is public, and a session cookie that changes would miss the cache (Vary: Cookie).
    const got = await fetch(url, {credentials: "omit"});
    answer = got.ok ? await got.json() : {};
  } catch (e) {
    answer = {};  // the board still runs, drawing plain faces from the states' words
  }
  pool = answer.cards || {};
  setWords(answer.words);
  return pool;
}

/** The card list loadPool fetched ({} before). */
export function cardPool() {
  return pool || {};
}

export class Cards {
  constructor(data, lang) {
    this.data = data || {};
    this.lang = lang === "ja" ? "ja" : "en";
    this.urls = new Map();
  }

  get(cid) {
    return this.data[cid] || {name: {en: cid || "?"}, kind: "monster", unknown: true};
  }

  name(cid) {
    const n = this.get(cid).name || {};
    return n[this.lang] || n.en || cid || "?";
  }

  text(cid) {
    const t = this.get(cid).text;
    if (!t) return "";
    return typeof t === "string" ? t : (t[this.lang] || t.en || "");
  }

  keywords(cid) {
    return (this.get(cid).keywords || []).map((k) => keywordName(k, this.lang) || k);
  }

  /** The options of a choose-one ability or spell, as words (from `choices` or the rules text). */
  choices(cid) {
    const c = this.get(cid);
    if (Array.isArray(c.choices)) return c.choices;
    if (c.choices && c.choices[this.lang]) return c.choices[this.lang];
    // the rules text in the card language (webapp/cards/text.py words it), else the English one
    const ja = this.lang === "ja" && /次から1つ選ぶ：(.*)$/m.exec(this.rulesText(c, "ja"));
    if (ja) return ja[1].split("／").map((s) => s.trim());
    const m = /Choose one — (.*)$/m.exec(this.rulesText(c, "en"));
    if (!m) return [];
    return m[1].replace(/\.$/, "").split("; or ").map((s) => s[0].toUpperCase() + s.slice(1));
  }

  /** {heads, tails} words of a coin ability (in the card language when it has them), or null. */
  coin(cid) {
    const c = this.get(cid);
    const ja = this.lang === "ja" && /表：(.*?)裏：(.*)$/m.exec(this.rulesText(c, "ja"));
    if (ja) return {heads: ja[1].trim(), tails: ja[2].trim()};
    const m = /Heads: (.*?) Tails: (.*)$/m.exec(this.rulesText(c, "en"));
    return m ? {heads: m[1].trim(), tails: m[2].trim()} : null;
  }

  /** A card's rules text in ``lang`` ("" if none). */
  rulesText(c, lang) {
    const text = c.text;
    if (!text) return "";
    if (typeof text === "string") return lang === "en" ? text : "";
    return typeof text[lang] === "string" ? text[lang] : "";
  }

  /** The URL of the card face (the server's SVG file, or a plain face drawn here). */
  url(cid) {
    if (this.urls.has(cid)) return this.urls.get(cid);
    const c = this.get(cid);
    const file = c.art && (c.art[this.lang] || c.art.en);
    if (file) {
      this.urls.set(cid, file);
      return file;
    }
    const svg = c.svg || this.plainFace(cid);
    let url;
    try {
      url = URL.createObjectURL(new Blob([svg], {type: "image/svg+xml"}));
    } catch (e) {
      url = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
    }
    this.urls.set(cid, url);
    return url;
  }

  /** A whole card face as an <img> (alt: the name). Every face is 250 × 350 (webapp/cards/art.py): the
   * size attributes give the image its shape before it is decoded, so a hand or a battle row laid out
   * while faces are still decoding is not 4 px tall and does not jump when they arrive. */
  img(cid, cls, make = h) {  // make: h (an element) or play-view.js's v (a virtual node)
    return make("img", this.imgAttrs(cid, cls));
  }

  /** img()'s attributes (for a region drawn with play-view.js: v("img", cards.imgAttrs(cid))). */
  imgAttrs(cid, cls) {
    return {class: cls || "pl-card-img", src: this.url(cid), alt: this.name(cid), draggable: "false",
      width: "250", height: "350", loading: "eager", decoding: "async"};
  }

  /** The middle of the card's art, cropped, for map tokens and chain chips. */
  art(cid, cls, make = h) {  // make: as img()'s
    return make("span", {class: ["pl-art", cls]}, make("img", this.artAttrs(cid)));
  }

  /** The attributes of art()'s <img>. */
  artAttrs(cid) {
    return {src: this.url(cid), alt: "", draggable: "false"};
  }

  plainFace(cid) {
    const c = this.get(cid);
    const col = ELEMENT_COLOUR[c.element] || "#8a7a6a";
    const name = esc(this.name(cid));
    const spell = c.kind === "spell";
    const ja = this.lang === "ja";
    const kind = spell ? (ja ? "魔法" : "Spell") : esc(c.tribe || (ja ? "モンスター" : "Monster"));
    const corner = spell ? (c.mana ?? "") : (c.level ?? "");
    const text = esc(this.text(cid)).slice(0, 160);
    const stats = spell ? "" :
      `<rect x="12" y="306" width="226" height="34" rx="8" fill="#2b2117"/>` +
      `<text x="40" y="330" font-size="22" fill="#ffb09a">⚔${c.power ?? "?"}</text>` +
      `<text x="110" y="330" font-size="22" fill="#9fe6f2">➶${c.speed ?? 0}</text>` +
      `<text x="180" y="330" font-size="22" fill="#a6f0b4">♥${c.life ?? "?"}</text>`;
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 250 350" width="250" height="350">` +
      `<rect x="3" y="3" width="244" height="344" rx="14" fill="${col}" stroke="#2b2117" stroke-width="4"/>` +
      `<rect x="12" y="12" width="226" height="40" rx="8" fill="#2b2117"/>` +
      `<text x="22" y="39" font-size="19" font-family="Georgia, serif" fill="#f2ead8">${name}</text>` +
      `<circle cx="214" cy="32" r="15" fill="#f2ead8"/><text x="214" y="39" font-size="18" text-anchor="middle" fill="#2b2117">${corner}</text>` +
      `<rect x="12" y="60" width="226" height="120" rx="8" fill="rgba(0,0,0,.25)"/>` +
      `<text x="125" y="135" font-size="44" text-anchor="middle" fill="rgba(255,255,255,.6)">${spell ? "✦" : "⚔"}</text>` +
      `<text x="22" y="204" font-size="13" fill="#2b2117">${esc((ja && elementName(c.element, "ja")) || c.element || "")} · ${kind}</text>` +
      `<foreignObject x="16" y="212" width="218" height="90"><div xmlns="http://www.w3.org/1999/xhtml" style="font:12px sans-serif;color:#2b2117">${text}</div></foreignObject>` +
      stats + `</svg>`;
  }
}

/** A small coloured mark for a slot kind (element or wild). */
export function slotMark(kind, make = h) {  // make: h (an element) or play-view.js's v (a virtual node)
  const col = ELEMENT_COLOUR[kind] || "#ccc";
  const bg = kind === "wild" ? "conic-gradient(#e0623f,#f0d67a,#58b983,#4a8fe0,#9a6bd1,#e0623f)" : col;
  return make("span", {class: "pl-slot-mark", style: {background: bg}, "aria-hidden": "true"});
}
