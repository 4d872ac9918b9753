// The board's view library: preact renders a region from a description of it (virtual nodes), keyed
// children keep their elements from one render to the next, and htm writes those descriptions as
// tagged templates. Both are vendored, pinned, in static/vendor (docs/decisions/0129). Every board
// module reaches them through here: the imports below carry the files' hashes (webapp/web/assets.py
// serves a static file asked for with its current hash as immutable; tests/js/play-view.test.mjs
// checks them).

import {h as createElement, render, Fragment} from "../vendor/preact/preact.module.js?v=eb4c861f40b9";
import htm from "../vendor/htm/htm.module.js?v=ab33dd3f3805";

export {render, Fragment};

/** v("button", {class: ["a", on && "b"], key: id, onclick: fn}, "text", child, [more]) → a virtual node.
 * The same call shape as play-util.js's h(), so a region moves from one to the other line by line:
 * `class` may be a list (falsy entries dropped), `svg:` tags are plain (preact puts an <svg>'s
 * children in its namespace), null/undefined/false children are skipped. Unlike h(), a false
 * attribute is passed on, so an update removes it (disabled: false). */
export function v(tag, attrs, ...kids) {
  const props = {};
  for (const [k, val] of Object.entries(attrs || {})) {
    if (val === undefined) continue;
    // draggable is an enumerated attribute that preact sets as a property: "false" would be true
    props[k] = k === "class" && Array.isArray(val) ? className(val) : k === "draggable" ? val === true || val === "true" : val;
  }
  return createElement(typeof tag === "string" && tag.startsWith("svg:") ? tag.slice(4) : tag, props, ...kids);
}

/** The class attribute of a list of names (falsy entries dropped). */
export function className(list) {
  return list.filter(Boolean).join(" ");
}

/** html`<p class=${cls}>${text}</p>`: htm bound to v() (class lists as above). */
export const html = htm.bind(v);
