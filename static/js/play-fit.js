// The size of the tokens on the map's lands (decisions/0148). On a desktop each land's tokens take the
// size that lets all of them fit its units box: for n tokens the better of one line of n or two (three)
// shorter lines; on a phone a land of five tokens or more puts four on a line. The CSS sizes a token
// from --pl-fit (static/css/play.css, "the whole map in its box"); this works it out from the box's
// size and writes it on the box. It was a CSS container query (100cqw, 100cqh), which made chromium
// restyle every land's tokens inside each layout: 20-50 ms a layout, about half the renderer's time over
// a game (docs/performance.md, "Board updates").
//
// tokenFit is pure (node's tests, tests/js/pure-modules.test.mjs); TokenFit keeps the boxes' sizes from
// a ResizeObserver, so the board's renders read no layout.

/** A desktop box's line layouts by how many tokens it holds, most first: [tokens per line, lines]. */
const DESKTOP_LINES = [
  [3, [[3, 1]]],
  [4, [[4, 1], [2, 2]]],
  [6, [[6, 1], [3, 2]]],
  [8, [[8, 1], [4, 2], [3, 3]]],
  [Infinity, [[12, 1], [6, 2], [4, 3]]],
];

/** Art is 4:3: a token's height is 0.75 of its width, plus its caption (the life bar). */
const ART = 0.75;

/**
 * The size in px a token may take on a land holding ``n`` tokens in a box ``width`` × ``height`` px
 * (its content box), tokens ``gap`` px apart with a ``caption`` px high under each art; on a phone
 * (``phone``) the box's height does not count and null means "no fit: the token keeps its own size".
 */
export function tokenFit(n, width, height, gap, caption, phone = false) {
  if (phone) return n >= 5 ? (width - 3 * gap) / 4 - 0.5 : null;
  const [, layouts] = DESKTOP_LINES.find(([most]) => n <= most);
  return Math.max(...layouts.map(([across, lines]) =>
    Math.min((width - (across - 1) * gap) / across, ((height - (lines - 1) * gap) / lines - caption) / ART)));
}

const DESKTOP = "(min-width: 861px)";  // static/css/play.css's media queries for the two layouts
const PHONE = "(max-width: 600px)";

/** A CSS length of the map's own ("0.45rem", "12px") in px. */
function px(text, rem) {
  const value = parseFloat(text);
  if (!Number.isFinite(value)) return 0;
  return text.trim().endsWith("rem") ? value * rem : value;
}

/** How many tokens a units box shows. */
function tokens(el) {
  return el.querySelectorAll(":scope > .pl-unit").length;
}

/** Writes --pl-fit on each land's units box: when its size changes (observed) and when its number of
 * tokens changes (``recount``, after a render). */
export class TokenFit {
  constructor() {
    this.boxes = new Map();  // element -> {width, height, gap, caption, n, fit}
    this.desktop = window.matchMedia(DESKTOP);
    this.phone = window.matchMedia(PHONE);
    this.observer = new ResizeObserver((entries) => {
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      for (const entry of entries) {
        const box = this.boxes.get(entry.target);
        if (!box) continue;
        const style = getComputedStyle(entry.target);  // read after layout: nothing to recompute
        box.width = entry.contentRect.width;
        box.height = entry.contentRect.height;
        box.gap = px(style.getPropertyValue("--pl-tok-g"), rem);
        box.caption = px(style.getPropertyValue("--pl-tok-c"), rem);
        this.write(entry.target, box);
      }
    });
    // a ref (play-view.js) for the units box: observed while it is on the page
    this.ref = (el) => { if (el && !this.boxes.has(el)) this.watch(el); };
  }

  watch(el) {
    this.boxes.set(el, {width: 0, height: 0, gap: 0, caption: 0, n: tokens(el), fit: null});
    this.observer.observe(el);
  }

  /** After a render: each watched box under ``root`` holds as many tokens as it shows now. */
  recount(root) {
    for (const el of root.querySelectorAll(".pl-units")) {
      const box = this.boxes.get(el);
      if (!box) continue;
      const n = tokens(el);
      if (box.n === n) continue;
      box.n = n;
      if (box.width) this.write(el, box);
    }
  }

  write(el, box) {
    if (!el.isConnected) {
      this.observer.unobserve(el);
      this.boxes.delete(el);
      return;
    }
    const phone = this.phone.matches;
    const fit = phone || this.desktop.matches ? tokenFit(box.n, box.width, box.height, box.gap, box.caption, phone) : null;
    const text = fit === null ? null : `${fit.toFixed(3)}px`;
    if (text === box.fit) return;
    box.fit = text;
    if (text === null) el.style.removeProperty("--pl-fit");
    else el.style.setProperty("--pl-fit", text);
  }
}
