// static/js/play-view.js, the board's door to its view library (preact + htm in static/vendor): the
// hashes its imports carry, and the call shape of v() and html``.
import assert from "node:assert/strict";
import {createHash} from "node:crypto";
import {readFileSync} from "node:fs";
import {test} from "node:test";

const file = (path) => new URL(`../../static/${path}`, import.meta.url);
const view = await import(file("js/play-view.js").href);

test("the vendored modules are imported with the hash of their files (webapp/web/assets.py serves them immutable)", () => {
  const text = readFileSync(file("js/play-view.js"), "utf8");
  const imports = [...text.matchAll(/from "\.\.\/(vendor\/[^"?]+)\?v=([0-9a-f]+)"/g)];
  assert.equal(imports.length, 2);
  for (const [, path, digest] of imports) {
    const sha = createHash("sha256").update(readFileSync(file(path))).digest("hex").slice(0, 12);
    assert.equal(digest, sha, `${path}: its import's ?v= is not the file's hash`);
  }
});

test("the vendored versions are the ones static/vendor/README.md names", () => {
  const readme = readFileSync(file("vendor/README.md"), "utf8");
  assert.match(readme, /\| `preact\/preact\.module\.js` \| .* \| 10\.28\.4 \|/);
  assert.match(readme, /\| `htm\/htm\.module\.js` \| .* \| 3\.1\.1 \|/);
  for (const lib of ["preact", "htm"]) assert.ok(readFileSync(file(`vendor/${lib}/LICENSE`), "utf8").length > 100);
});

test("v() joins a class list, drops its falsy names and keeps false attributes (an update removes them)", () => {
  const node = view.v("button", {class: ["pl-unit", false, "pl-sel", null, ""], disabled: false, title: undefined, key: "u1"}, "x");
  assert.equal(node.type, "button");
  assert.equal(node.key, "u1");
  assert.equal(node.props.class, "pl-unit pl-sel");
  assert.equal(node.props.disabled, false);
  assert.ok(!("title" in node.props));
  assert.equal(node.props.children, "x");
});

test("v() takes h()'s svg: tags as plain ones, and html`` builds the same nodes", () => {
  assert.equal(view.v("svg:path", {d: "M0 0"}).type, "path");
  const node = view.html`<span class=${["a", 0, "b"]} data-k="1">${"t"}</span>`;
  assert.equal(node.type, "span");
  assert.equal(node.props.class, "a b");
  assert.equal(node.props["data-k"], "1");
});
