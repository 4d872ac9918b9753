/* The deckbuilder as a card table: click or tap a card to add it, a badge for its copies in the
 * deck, click a row of the deck list to take one out, + / − buttons, filters, a large preview on
 * hover, long-press or keyboard focus, live validity messages and charts.
 *
 * The page embeds its cards and message texts as JSON (#deck-data). checkDeck and deckStats
 * mirror webapp/decks/check.py and webapp/decks/stats.py exactly (tests/web/test_decks.py runs both
 * under node and compares); the chart arithmetic mirrors templates/decks/_charts.html.
 * Saving is the form's own POST of every count field, so the page also works without script.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BrigadeDecks = api;
    if (root.document) {
      // Once the page's catalog has loaded (static/js/i18n.js).
      var start = function () { root.BrigadeI18n.ready.then(function () { api.init(root.document); }); };
      if (root.document.readyState === "loading") {
        root.document.addEventListener("DOMContentLoaded", start);
      } else {
        start();
      }
    }
  }
})(this, function () {
  "use strict";

  // Texts in the page's language (static/js/i18n.js; under node, where tests run this file, the same
  // functions with no catalog: English).
  var I18N = (typeof self !== "undefined" && self.BrigadeI18n) ||
    (typeof require === "function" ? require("./i18n.js") : null);
  var t = I18N.t, tn = I18N.tn;
  var LEVELS = ["refused", "invalid", "warning", "tip"];
  function elementLabels() {
    return { fire: t("Fire"), water: t("Water"), earth: t("Earth"), wind: t("Wind"), light: t("Light"), dark: t("Dark"),
      wild: t("Wild") };
  }

  /* A card's name in the page's language (data.lang, from the server). */
  function nameOf(c, data) { return data && data.lang === "ja" && c.ja ? c.ja : c.name; }

  function elementWord(element, data) { return (data && data.elementNames && data.elementNames[element]) || element; }

  function fmt(template, vars) {
    return template.replace(/\{(\w+)\}/g, function (m, key) {
      return Object.prototype.hasOwnProperty.call(vars, key) ? String(vars[key]) : m;
    });
  }

  function cardsWord(n) { return tn("{n} card", "{n} cards", n); }

  function known(counts, data) {
    var out = [];
    Object.keys(counts).forEach(function (id) {
      var c = data.cards[id];
      if (counts[id] > 0 && c && !c.unknown) out.push([id, c, counts[id]]);
    });
    return out;
  }

  /* webapp.decks.check.check_deck with the owned counts of data.cards. */
  function checkDeck(counts, data) {
    var m = data.messages, problems = [], ids = Object.keys(counts).filter(function (id) { return counts[id] > 0; });
    var have = known(counts, data);
    ids.forEach(function (id) {
      var c = data.cards[id];
      if (!c || c.unknown) problems.push({ code: "unknown", level: "refused", message: fmt(m.unknown, { card: id }), card: id });
    });
    var total = ids.reduce(function (s, id) { return s + counts[id]; }, 0);
    if (total > data.size) {
      problems.push({ code: "too_many", level: "refused", card: null,
        message: fmt(m.too_many, { size: data.size, count: total, extra: cardsWord(total - data.size) }) });
    }
    have.forEach(function (k) {
      var id = k[0], c = k[1], n = k[2], owned = c.owned || 0;
      if (owned <= 0) {
        problems.push({ code: "not_owned", level: "refused", message: fmt(m.not_owned, { name: nameOf(c, data) }), card: id });
      } else if (n > owned) {
        problems.push({ code: "too_many_copies", level: "refused", card: id,
          message: fmt(m.too_many_copies, { count: n, name: nameOf(c, data), owned: owned, extra: n - owned }) });
      }
    });
    if (total < data.size) {
      problems.push({ code: "too_few", level: "invalid", card: null,
        message: fmt(m.too_few, { size: data.size, count: total, missing: cardsWord(data.size - total) }) });
    }
    var monsters = 0, spells = 0, kinds = {};
    have.forEach(function (k) {
      if (k[1].kind === "monster") {
        monsters += k[2];
        Object.keys(k[1].slots || {}).forEach(function (s) { if (k[1].slots[s] > 0) kinds[s] = true; });
      } else if (k[1].kind === "spell") {
        spells += k[2];
      }
    });
    if (!monsters) problems.push({ code: "no_monster", level: "invalid", message: m.no_monster, card: null });
    var unpayable = have.filter(function (k) {
      var c = k[1];
      return c.kind === "spell" && (c.mana || 0) > 0 && !kinds[c.element] && !kinds.wild;
    });
    unpayable.sort(function (a, b) {
      var ea = data.elements.indexOf(a[1].element), eb = data.elements.indexOf(b[1].element);
      if (ea < 0) ea = 99;
      if (eb < 0) eb = 99;
      return ea !== eb ? ea - eb : (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    });
    unpayable.forEach(function (k) {
      problems.push({ code: "unpayable", level: "warning", card: k[0],
        message: fmt(m.unpayable, { element: elementWord(k[1].element, data), name: nameOf(k[1], data) }) });
    });
    if (spells > data.tipAt || spells > monsters) {
      var tip = data.tip[data.lang === "ja" ? "ja" : "en"];
      problems.push({ code: "tip", level: "tip", card: null, message: tip.speaker + ": " + tip.text });
    }
    return problems
      .map(function (p, i) { return [LEVELS.indexOf(p.level), i, p]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (x) { return x[2]; });
  }

  function coverageStatus(provided, needed) {
    if (needed <= 0 || provided >= needed) return "ok";
    return provided === 0 ? "none" : "short";
  }

  /* webapp.decks.stats.deck_stats. */
  function deckStats(counts, data) {
    var have = known(counts, data);
    var mons = have.filter(function (k) { return k[1].kind === "monster"; });
    var spells = have.filter(function (k) { return k[1].kind === "spell"; });
    var sum = function (list, f) { return list.reduce(function (s, k) { return s + f(k); }, 0); };
    var curve = {};
    data.levels.forEach(function (l) { curve[l] = 0; });
    mons.forEach(function (k) { curve[k[1].level] = (curve[k[1].level] || 0) + k[2]; });
    var wild = sum(mons, function (k) { return ((k[1].slots || {}).wild || 0) * k[2]; });
    var coverage = [];
    data.elements.forEach(function (e) {
      var of = spells.filter(function (k) { return k[1].element === e; });
      if (!of.length) return;
      var slots = sum(mons, function (k) { return ((k[1].slots || {})[e] || 0) * k[2]; });
      var needed = sum(of, function (k) { return (k[1].mana || 0) * k[2]; });
      coverage.push({
        element: e, spells: sum(of, function (k) { return k[2]; }), needed: needed,
        heaviest: Math.max.apply(null, of.map(function (k) { return k[1].mana || 0; })),
        slots: slots, wild: wild, status: coverageStatus(slots + wild, needed)
      });
    });
    return {
      total: sum(have, function (k) { return k[2]; }),
      monsters: sum(mons, function (k) { return k[2]; }),
      spells: sum(spells, function (k) { return k[2]; }),
      levels: Object.keys(curve).map(Number).sort(function (a, b) { return a - b; })
        .map(function (l) { return { level: l, count: curve[l] }; }),
      elements: data.elements.map(function (e) {
        return {
          element: e,
          monsters: sum(mons.filter(function (k) { return k[1].element === e; }), function (k) { return k[2]; }),
          spells: sum(spells.filter(function (k) { return k[1].element === e; }), function (k) { return k[2]; })
        };
      }),
      coverage: coverage
    };
  }

  /* ---------------------------------------------------------------- charts (as _charts.html) */

  function q(rootEl, sel) { return rootEl.querySelector(sel); }

  function setAttrs(el, attrs) {
    if (!el) return;
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
  }

  function elementText(row) {
    var n = row.monsters + row.spells;
    return elementLabels()[row.element] + " " + n + (row.spells ? " (" + tn("{n} spell", "{n} spells", row.spells) + ")" : "");
  }

  function coverageText(row) {
    return tn("{n} spell needs {need} mana", "{n} spells need {need} mana", row.spells, {need: row.needed}) +
      " · " + t("monsters give {n}", {n: row.slots}) +
      (row.wild ? " + " + t("{n} wild", {n: row.wild}) : "") +
      (row.status === "none" ? " · " + t("none can pay") : row.status === "short" ? " · " + t("short") : "");
  }

  function drawCharts(box, stats) {
    var scale = Math.max.apply(null, [4].concat(stats.levels.map(function (r) { return r.count; })));
    stats.levels.forEach(function (r) {
      var h = Math.floor(r.count * 56 / scale);
      setAttrs(q(box, '[data-bar="level"][data-key="' + r.level + '"]'), { y: 68 - h, height: h });
      var t = q(box, '[data-text="level"][data-key="' + r.level + '"]');
      if (t) { t.setAttribute("y", String(64 - h)); t.textContent = String(r.count); }
    });
    var summary = q(box, '[data-text="levels-summary"]');
    if (summary) summary.textContent = stats.levels.map(function (r) { return t("Level {n}: {count}.", {n: r.level, count: r.count}); }).join(" ");

    var total = stats.total;
    var m = total ? Math.floor(stats.monsters * 200 / total) : 0;
    setAttrs(q(box, '[data-bar="ratio"][data-key="monsters"]'), { width: m });
    setAttrs(q(box, '[data-bar="ratio"][data-key="spells"]'), { x: m, width: total ? 200 - m : 0 });
    var ratio = q(box, '[data-text="ratio"]');
    if (ratio) ratio.textContent = tn("{n} monster", "{n} monsters", stats.monsters) + " · " + tn("{n} spell", "{n} spells", stats.spells);

    var cum = 0;
    stats.elements.forEach(function (r) {
      var n = r.monsters + r.spells;
      var x0 = total ? Math.floor(cum * 200 / total) : 0;
      cum += n;
      var x1 = total ? Math.floor(cum * 200 / total) : 0;
      setAttrs(q(box, '[data-bar="element"][data-key="' + r.element + '"]'), { x: x0, width: x1 - x0 });
      var li = q(box, '[data-text="element"][data-key="' + r.element + '"]');
      if (li) {
        li.hidden = !n;
        var swatch = li.querySelector(".swatch");
        li.textContent = "";
        if (swatch) li.appendChild(swatch);
        li.appendChild(li.ownerDocument.createTextNode(elementText(r)));
      }
    });

    var byElement = {}, cscale = 1;
    stats.coverage.forEach(function (r) {
      byElement[r.element] = r;
      cscale = Math.max(cscale, r.slots + r.wild, r.needed);
    });
    var empty = q(box, '[data-text="coverage-empty"]');
    if (empty) empty.hidden = stats.coverage.length > 0;
    Array.prototype.forEach.call(box.querySelectorAll('[data-row="coverage"]'), function (li) {
      var e = li.getAttribute("data-key"), r = byElement[e];
      li.hidden = !r;
      li.className = "cov-row cov-" + (r ? r.status : "ok");
      var s = r ? Math.floor(r.slots * 200 / cscale) : 0, w = r ? Math.floor(r.wild * 200 / cscale) : 0;
      var need = r ? Math.floor(r.needed * 200 / cscale) : 0;
      setAttrs(q(li, '[data-bar="slots"]'), { width: s });
      setAttrs(q(li, '[data-bar="wild"]'), { x: s, width: w });
      setAttrs(q(li, '[data-bar="need"]'), { width: need });
      var t = q(li, '[data-text="coverage"]');
      if (t) t.textContent = r ? coverageText(r) : "";
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

    function limit(id) { return Math.min(data.cards[id].owned || 0, data.size); }

    function deckRow(id, n) {
      var c = data.cards[id];
      var li = doc.createElement("li");
      li.className = "deck-row el-" + c.element;
      li.setAttribute("data-id", id);
      li.innerHTML = '<button type="button" class="deck-row-remove">' +
        '<span class="gem" aria-hidden="true"></span><span class="deck-row-count"></span>' +
        '<span aria-hidden="true">×</span><span class="deck-row-name"></span><span class="deck-row-meta"></span></button>' +
        '<span class="stepper"><button type="button" class="step" data-step="-1">−</button>' +
        '<button type="button" class="step" data-step="1">+</button></span>';
      var remove = li.querySelector(".deck-row-remove");
      remove.setAttribute("data-id", id);
      remove.setAttribute("aria-label", t("Take one {name} out ({n} in the deck)", {name: nameOf(c, data), n: n}));
      li.querySelector(".gem").className = "gem el-" + c.element;
      li.querySelector(".deck-row-count").textContent = String(n);
      li.querySelector(".deck-row-name").textContent = nameOf(c, data);
      li.querySelector(".deck-row-meta").textContent = c.level ? t("Lv{n}", {n: c.level}) : c.kind === "spell" ? t("Spell") : "?";
      var buttons = li.querySelectorAll(".step");
      buttons[0].setAttribute("data-id", id);
      buttons[0].setAttribute("aria-label", t("One fewer {name}", {name: nameOf(c, data)}));
      buttons[1].setAttribute("data-id", id);
      buttons[1].setAttribute("aria-label", t("One more {name}", {name: nameOf(c, data)}));
      return li;
    }

    function update() {
      var deck = counts(), stats = deckStats(deck, data), problems = checkDeck(deck, data);
      var playable = !problems.some(function (p) { return p.level === "refused" || p.level === "invalid"; });
      doc.getElementById("deck-count").textContent = String(stats.total);
      doc.getElementById("bar-count").textContent = String(stats.total);
      var status = doc.getElementById("deck-status");
      status.textContent = playable ? t("Ready to play") : t("Not ready to play yet");
      status.className = "deck-status " + (playable ? "is-ready" : "is-not-ready");
      doc.getElementById("bar-status").textContent = playable ? t("Ready") : t("Draft");
      doc.getElementById("bar-count").parentNode.classList.toggle("is-ready", playable);

      var list = doc.getElementById("deck-problems");
      list.textContent = "";
      problems.forEach(function (p) {
        if (p.level === "tip") return;
        var li = doc.createElement("li");
        li.className = "problem problem-" + p.level;
        li.textContent = p.message;
        list.appendChild(li);
      });
      doc.getElementById("eringe").hidden = !problems.some(function (p) { return p.level === "tip"; });

      var deckList = doc.getElementById("deck-list");
      var active = doc.activeElement, focused = active && deckList.contains(active) ?
        [active.getAttribute("data-id"), active.getAttribute("data-step"), active.classList.contains("deck-row-remove")] : null;
      var ids = order.filter(function (id) { return deck[id]; });
      deckList.textContent = "";
      ids.forEach(function (id) { deckList.appendChild(deckRow(id, deck[id])); });
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
      var words = I18N.fold(doc.getElementById("f-text").value).split(/\s+/).filter(Boolean);
      var element = doc.getElementById("f-element").value, kind = doc.getElementById("f-kind").value;
      var level = doc.getElementById("f-level").value, left = doc.getElementById("f-left").checked;
      var shown = 0;
      order.forEach(function (id) {
        var row = rows[id];
        var search = row.getAttribute("data-search");
        var ok = words.every(function (w) { return search.indexOf(w) >= 0; }) &&
          (!element || row.getAttribute("data-element") === element) &&
          (!kind || row.getAttribute("data-kind") === kind) &&
          (!level || row.getAttribute("data-level") === level) &&
          (!left || value(id) < limit(id));
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
        if (n >= limit(id)) {
          var owned = c.owned || 0;
          tell(n >= owned ? tn("You own 1 copy of {name}: it is in the deck.", "You own {n} copies of {name}: all are in the deck.",
            owned, {name: nameOf(c, data)}) : t("A deck holds at most {size} of one card.", {size: data.size}));
          refuse(id);
          return false;
        }
        if (total() >= data.size) { tell(t("The deck is full: {size} cards. Take one out first.", {size: data.size})); refuse(id); return false; }
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

  return { checkDeck: checkDeck, deckStats: deckStats, fmt: fmt, init: init };
});
