/* The deckbuilder as a card table: click or tap a card to add it, a badge for its copies in the
 * deck, click a row of the deck list to take one out, + / − buttons, filters, a large preview on
 * hover, long-press or keyboard focus, live validity messages and charts.
 *
 * The page embeds its cards and message texts as JSON (#deck-data). The rules and figures are
 * static/js/deck-rules.js (which mirrors webapp/decks/check.py and stats.py), the charts' arithmetic
 * static/js/deck-charts.js (as templates/decks/_charts.html), the filters static/js/card-filter.js.
 * Saving is the form's own POST of every count field, so the page also works without script.
 */
import {t, tn, fold} from "./page-words.js";
import {addRefusal, checkDeck, copyLimit, deckStats, nameOf, playable} from "./deck-rules.js";
import {coverageBars, coverageText, elementBars, elementText, levelBars, levelsSummary, ratioBars, ratioText} from "./deck-charts.js";
import {matchesCard, searchWords} from "./card-filter.js";
import {v, render} from "./play-view.js";

function elementLabels() {
  return { fire: t("Fire"), water: t("Water"), earth: t("Earth"), wind: t("Wind"), light: t("Light"), dark: t("Dark"),
    wild: t("Wild") };
}

/* ---------------------------------------------------------------- charts (as _charts.html) */

function q(rootEl, sel) { return rootEl.querySelector(sel); }

function setAttrs(el, attrs) {
  if (!el) return;
  Object.keys(attrs).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
}

function drawCharts(box, stats) {
  levelBars(stats).forEach(function (r) {
    setAttrs(q(box, '[data-bar="level"][data-key="' + r.level + '"]'), { y: r.y, height: r.height });
    var text = q(box, '[data-text="level"][data-key="' + r.level + '"]');
    if (text) { text.setAttribute("y", String(r.textY)); text.textContent = String(r.count); }
  });
  var summary = q(box, '[data-text="levels-summary"]');
  if (summary) summary.textContent = levelsSummary(stats, t);

  var ratio = ratioBars(stats);
  setAttrs(q(box, '[data-bar="ratio"][data-key="monsters"]'), ratio.monsters);
  setAttrs(q(box, '[data-bar="ratio"][data-key="spells"]'), ratio.spells);
  var ratioLine = q(box, '[data-text="ratio"]');
  if (ratioLine) ratioLine.textContent = ratioText(stats, tn);

  var labels = elementLabels();
  elementBars(stats).forEach(function (bar, i) {
    setAttrs(q(box, '[data-bar="element"][data-key="' + bar.element + '"]'), { x: bar.x, width: bar.width });
    var li = q(box, '[data-text="element"][data-key="' + bar.element + '"]');
    if (li) {
      li.hidden = !bar.n;
      var swatch = li.querySelector(".swatch");
      li.textContent = "";
      if (swatch) li.appendChild(swatch);
      li.appendChild(li.ownerDocument.createTextNode(elementText(stats.elements[i], labels[bar.element], tn)));
    }
  });

  var byElement = coverageBars(stats);
  var empty = q(box, '[data-text="coverage-empty"]');
  if (empty) empty.hidden = stats.coverage.length > 0;
  Array.prototype.forEach.call(box.querySelectorAll('[data-row="coverage"]'), function (li) {
    var r = byElement[li.getAttribute("data-key")];
    li.hidden = !r;
    li.className = "cov-row cov-" + (r ? r.status : "ok");
    setAttrs(q(li, '[data-bar="slots"]'), r ? r.slots : { width: 0 });
    setAttrs(q(li, '[data-bar="wild"]'), r ? r.wild : { x: 0, width: 0 });
    setAttrs(q(li, '[data-bar="need"]'), r ? r.need : { width: 0 });
    var text = q(li, '[data-text="coverage"]');
    if (text) text.textContent = r ? coverageText(r.row, t, tn) : "";
  });
}

/* ---------------------------------------------------------------- the page */

function init(doc) {
  var blob = doc.getElementById("deck-data"), form = doc.getElementById("deck-form");
  if (!blob || !form) return;
  var data = JSON.parse(blob.textContent);
  var inputs = {}, order = [], rows = {};
  Array.prototype.forEach.call(form.querySelectorAll("input.count"), function (input) {
    var id = input.name.slice("card:".length);
    inputs[id] = input;
    order.push(id);
    rows[id] = input.closest(".pool-row");
  });
  Array.prototype.forEach.call(doc.querySelectorAll(".pool-row .step, #pool-filters, #pool-shown, #pool-how"), function (el) {
    el.hidden = false;
  });
  Array.prototype.forEach.call(form.querySelectorAll(".card-add"), function (b) { b.disabled = false; });
  form.classList.add("is-live");
  var dirty = form.getAttribute("data-dirty") === "1";
  // The deck list and the problems are drawn by preact from here on (the server's rows go: the same rows,
  // with their buttons, come back from the first update).
  var deckList = doc.getElementById("deck-list"), problemList = doc.getElementById("deck-problems");
  deckList.textContent = "";
  problemList.textContent = "";
  var say = doc.getElementById("builder-say");

  function value(id) {
    var n = parseInt(inputs[id].value, 10);
    return isNaN(n) || n < 0 ? 0 : n;
  }

  function counts() {
    var out = {};
    order.forEach(function (id) { var n = value(id); if (n > 0) out[id] = n; });
    return out;
  }

  function limit(id) { return copyLimit(data.cards[id], data.size); }

  /* A row of the deck list (keyed by the card: its buttons keep their elements, and the focus, from one
   * change to the next). */
  function deckRow(id, n, full) {
    var c = data.cards[id], name = nameOf(c, data);
    return v("li", {key: id, class: "deck-row el-" + c.element, "data-id": id},
      v("button", {type: "button", class: "deck-row-remove", "data-id": id,
        "aria-label": t("Take one {name} out ({n} in the deck)", {name: name, n: n})},
        v("span", {class: "gem el-" + c.element, "aria-hidden": "true"}),
        v("span", {class: "deck-row-count"}, String(n)),
        v("span", {"aria-hidden": "true"}, "×"),
        v("span", {class: "deck-row-name"}, name),
        v("span", {class: "deck-row-meta"}, c.level ? t("Lv{n}", {n: c.level}) : c.kind === "spell" ? t("Spell") : "?")),
      v("span", {class: "stepper"},
        v("button", {type: "button", class: "step", "data-step": "-1", "data-id": id, disabled: n <= 0,
          "aria-label": t("One fewer {name}", {name: name})}, "−"),
        v("button", {type: "button", class: "step", "data-step": "1", "data-id": id, disabled: n >= limit(id) || full,
          "aria-label": t("One more {name}", {name: name})}, "+")));
  }

  /* The problems the deck has (not the tip: Eringe says it), worst first. */
  function problemItems(problems) {
    return problems.filter(function (p) { return p.level !== "tip"; }).map(function (p) {
      return v("li", {key: p.code + ":" + (p.card || ""), class: "problem problem-" + p.level}, p.message);
    });
  }

  function update() {
    var deck = counts(), stats = deckStats(deck, data), problems = checkDeck(deck, data, tn);
    var ready = playable(problems);
    doc.getElementById("deck-count").textContent = String(stats.total);
    doc.getElementById("bar-count").textContent = String(stats.total);
    var status = doc.getElementById("deck-status");
    status.textContent = ready ? t("Ready to play") : t("Not ready to play yet");
    status.className = "deck-status " + (ready ? "is-ready" : "is-not-ready");
    doc.getElementById("bar-status").textContent = ready ? t("Ready") : t("Draft");
    doc.getElementById("bar-count").parentNode.classList.toggle("is-ready", ready);

    render(problemItems(problems), problemList);
    doc.getElementById("eringe").hidden = !problems.some(function (p) { return p.level === "tip"; });

    var active = doc.activeElement, focused = active && deckList.contains(active) ?
      [active.getAttribute("data-id"), active.getAttribute("data-step"), active.classList.contains("deck-row-remove")] : null;
    var ids = order.filter(function (id) { return deck[id]; });
    render(ids.map(function (id) { return deckRow(id, deck[id], stats.total >= data.size); }), deckList);
    doc.getElementById("deck-empty").hidden = stats.total > 0;
    if (focused) {
      var again = focused[2] ?
        deckList.querySelector('.deck-row-remove[data-id="' + focused[0] + '"]') :
        deckList.querySelector('.step[data-id="' + focused[0] + '"][data-step="' + focused[1] + '"]');
      if (!again) {  // the row went away: the next row's remove button, else the card itself
        var at = order.indexOf(focused[0]), next = null;
        for (var k = 0; k < ids.length && !next; k += 1) if (order.indexOf(ids[k]) > at) next = ids[k];
        next = next || ids[ids.length - 1];
        again = next ? deckList.querySelector('.deck-row-remove[data-id="' + next + '"]') :
          rows[focused[0]] && rows[focused[0]].querySelector(".card-add");
      }
      if (again) again.focus();
    }

    var full = stats.total >= data.size;
    order.forEach(function (id) {
      var n = value(id), row = rows[id];
      row.classList.toggle("is-short", n > (data.cards[id].owned || 0));
      row.classList.toggle("in-deck", n > 0);
      row.classList.toggle("is-used-up", n >= limit(id));
      var badge = row.querySelector("[data-badge]"), used = row.querySelector("[data-used]");
      if (badge) { badge.textContent = String(n); badge.hidden = n <= 0; }
      if (used) used.textContent = String(n);
      var add = row.querySelector(".card-add");
      if (add) add.setAttribute("aria-disabled", n >= limit(id) || full ? "true" : "false");
      Array.prototype.forEach.call(doc.querySelectorAll('.step[data-id="' + id + '"]'), function (b) {
        b.disabled = b.getAttribute("data-step") === "1" ? (n >= limit(id) || full) : n <= 0;
      });
    });
    drawCharts(form, stats);
    filter();
  }

  function filter() {
    var filters = {
      words: searchWords(doc.getElementById("f-text").value, fold), element: doc.getElementById("f-element").value,
      kind: doc.getElementById("f-kind").value, level: doc.getElementById("f-level").value
    };
    var left = doc.getElementById("f-left").checked;
    var shown = 0;
    order.forEach(function (id) {
      var row = rows[id];
      var ok = matchesCard(row.dataset, filters) && (!left || value(id) < limit(id));
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    doc.getElementById("pool-shown").textContent = shown === order.length ?
      tn("{n} card you own or use", "{n} cards you own or use", order.length) :
      t("{shown} of {total} cards shown", {shown: shown, total: order.length});
  }

  function tell(text) { if (say) { say.textContent = ""; say.textContent = text; } }

  function refuse(id) {
    var row = rows[id];
    if (!row) return;
    row.classList.remove("is-refused");
    void row.offsetWidth;  // restart the animation
    row.classList.add("is-refused");
  }

  function total() { return order.reduce(function (s, id) { return s + value(id); }, 0); }

  /* One more (step 1) or one fewer (step -1) of a card; says why when it cannot. */
  function change(id, step) {
    var c = data.cards[id], n = value(id);
    if (step > 0) {
      var why = addRefusal(c, n, total(), data.size);
      if (why) {
        tell(why === "owned" ? tn("You own 1 copy of {name}: it is in the deck.", "You own {n} copies of {name}: all are in the deck.",
          c.owned || 0, {name: nameOf(c, data)}) : why === "copies" ? t("A deck holds at most {size} of one card.", {size: data.size}) :
          t("The deck is full: {size} cards. Take one out first.", {size: data.size}));
        refuse(id);
        return false;
      }
    } else if (n <= 0) {
      return false;
    }
    inputs[id].value = String(n + step);
    dirty = true;
    update();
    var said = {name: nameOf(c, data), n: n + step, total: total(), size: data.size};
    tell(step > 0 ? t("Added {name}: {n} in the deck, {total} of {size} cards.", said) :
      t("Took out {name}: {n} in the deck, {total} of {size} cards.", said));
    return true;
  }

  form.addEventListener("click", function (ev) {
    if (suppressClick) { suppressClick = false; ev.preventDefault(); return; }
    var add = ev.target.closest(".card-add");
    if (add) { change(add.getAttribute("data-id"), 1); return; }
    var remove = ev.target.closest(".deck-row-remove");
    if (remove) { change(remove.getAttribute("data-id"), -1); return; }
    var button = ev.target.closest(".step");
    if (!button || button.disabled) return;
    change(button.getAttribute("data-id"), parseInt(button.getAttribute("data-step"), 10));
  });
  form.addEventListener("keydown", function (ev) {
    var add = ev.target.closest && ev.target.closest(".card-add");
    if (add && (ev.key === "-" || ev.key === "Delete" || ev.key === "Backspace")) {
      ev.preventDefault();
      change(add.getAttribute("data-id"), -1);
    } else if (add && ev.key === "+") {
      ev.preventDefault();
      change(add.getAttribute("data-id"), 1);
    } else if (ev.key === "Escape") {
      hidePreview();
    }
  });

  /* ------------------------------------------------ the large card: hover, long-press, focus */
  var preview = doc.getElementById("card-preview"), previewImg = preview && preview.querySelector("img");
  var pressTimer = null, suppressClick = false, pressShown = false, pressAt = null;

  function showPreview(card, how) {
    if (!preview) return;
    var img = card.querySelector(".card-add img");
    if (!img) return;
    previewImg.src = img.currentSrc || img.src;
    previewImg.alt = "";
    preview.className = "card-preview is-" + how;
    if (how === "side") {
      var box = card.getBoundingClientRect(), view = doc.documentElement.clientWidth;
      preview.classList.add(box.left + box.width / 2 < view / 2 ? "on-right" : "on-left");
    }
    preview.hidden = false;
  }

  function hidePreview() {
    if (preview) preview.hidden = true;
  }

  var grid = doc.getElementById("pool-list");
  if (grid && preview) {
    grid.addEventListener("pointerover", function (ev) {
      if (ev.pointerType !== "mouse") return;
      var card = ev.target.closest(".pool-card");
      if (card) showPreview(card, "side");
    });
    grid.addEventListener("pointerout", function (ev) {
      if (ev.pointerType !== "mouse") return;
      var card = ev.target.closest(".pool-card");
      if (card && !card.contains(ev.relatedTarget)) hidePreview();
    });
    grid.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse") return;
      var card = ev.target.closest(".pool-card");
      if (!card || !ev.target.closest(".card-add") || !ev.isPrimary) return;
      if (!preview.hidden && preview.classList.contains("is-center")) return;  // one card read at a time
      pressAt = [ev.clientX, ev.clientY];
      clearTimeout(pressTimer);
      pressTimer = setTimeout(function () {
        pressTimer = null;
        pressShown = true;
        showPreview(card, "center");
      }, 450);
    });
    grid.addEventListener("pointermove", function (ev) {
      if (pressTimer && pressAt && Math.abs(ev.clientX - pressAt[0]) + Math.abs(ev.clientY - pressAt[1]) > 12) {
        clearTimeout(pressTimer);
        pressTimer = null;
      }
    });
    ["pointerup", "pointercancel"].forEach(function (type) {
      doc.addEventListener(type, function (ev) {
        if (ev.pointerType === "mouse") return;
        if (pressTimer) { clearTimeout(pressTimer); pressTimer = null; }
        if (pressShown) {
          pressShown = false;
          // the press read the card: the click that may follow its release does not add it too
          suppressClick = type === "pointerup";
          grid.dataset.pressRead = "1";  // until the click after the release is no longer ignored (tests wait for it)
          setTimeout(function () { suppressClick = false; delete grid.dataset.pressRead; }, 400);
          setTimeout(hidePreview, type === "pointercancel" ? 0 : 900);
        }
      });
    });
    grid.addEventListener("contextmenu", function (ev) {
      if (ev.target.closest(".card-add")) ev.preventDefault();
    });
    grid.addEventListener("focusin", function (ev) {
      var add = ev.target.closest(".card-add");
      if (add && add.matches(":focus-visible")) showPreview(add.closest(".pool-card"), "side");
    });
    grid.addEventListener("focusout", function () { hidePreview(); });
    preview.addEventListener("click", hidePreview);
  }
  form.addEventListener("input", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("count")) { dirty = true; update(); }
    else if (ev.target.id === "deck-name") dirty = true;
    else if (ev.target.closest && ev.target.closest("#pool-filters")) filter();
  });
  form.addEventListener("change", function (ev) {
    if (ev.target.closest && ev.target.closest("#pool-filters")) filter();
  });
  form.addEventListener("submit", function () { dirty = false; });
  root().addEventListener("beforeunload", function (ev) {
    if (dirty) { ev.preventDefault(); ev.returnValue = ""; }
  });

  Array.prototype.forEach.call(doc.querySelectorAll("form[data-confirm]"), function (f) {
    f.addEventListener("submit", function (ev) {
      if (!root().confirm(f.getAttribute("data-confirm"))) ev.preventDefault();
    });
  });
  var copyButton = doc.getElementById("copy-code"), codeInput = doc.getElementById("export-code");
  if (copyButton && codeInput) {
    copyButton.hidden = false;
    copyButton.addEventListener("click", function () {
      codeInput.select();
      var done = function () { copyButton.textContent = t("Copied"); };
      var nav = root().navigator;
      if (nav.clipboard && nav.clipboard.writeText) nav.clipboard.writeText(codeInput.value).then(done, function () {});
      else if (doc.execCommand && doc.execCommand("copy")) done();
    });
  }
  update();

  function root() { return doc.defaultView; }
}

init(document);
