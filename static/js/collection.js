// The collection page: live filters and search, the card detail dialog.
// The pack page: cards revealed one at a time with a flip.
// Without this script both pages still work: the filter form submits to the server, every card
// links to its detail page, and an opened pack shows all its cards.
// Which cards a filter keeps: static/js/card-filter.js.

import {t, fold} from "./page-words.js";
import {FIELDS, activeFilters, matchesCard, searchWords} from "./card-filter.js";

// ------------------------------------------------------------ collection: filters

function setUpFilters(form, grid) {
  var cards = Array.prototype.slice.call(grid.querySelectorAll(".coll-card"));
  var shownOut = document.querySelector("#coll-count [data-shown]");
  var empty = document.getElementById("coll-empty");
  var fields = FIELDS;
  var pending = false;
  var activeOut = form.querySelector("[data-active]");
  var more = document.getElementById("coll-more");
  // On a phone the filters fold away under their summary unless one is in use.
  if (more && window.matchMedia("(max-width: 40rem)").matches &&
      !fields.some(function (name) { return form.elements[name].value; })) {
    more.open = false;
  }

  function current() {
    var f = { words: searchWords(form.elements.q.value, fold) };
    fields.forEach(function (name) { f[name] = form.elements[name].value; });
    return f;
  }

  function apply() {
    pending = false;
    var f = current(), shown = 0;
    cards.forEach(function (card) {
      var ok = matchesCard(card.dataset, f);
      if (card.hidden === ok) card.hidden = !ok;
      if (ok) shown++;
    });
    shownOut.textContent = String(shown);
    var active = activeFilters(f);
    if (activeOut) {
      activeOut.textContent = String(active);
      activeOut.hidden = active === 0;
    }
    empty.hidden = shown > 0;
    // Keep the address in step, so a reload or a shared link shows the same cards.
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name && el.value && el.name !== "lang") params.set(el.name, el.value);
    });
    params.set("lang", form.elements.lang.value);
    history.replaceState(null, "", location.pathname + "?" + params.toString());
  }

  function schedule() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(apply);
    }
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(); });
  form.addEventListener("reset", function () { window.setTimeout(apply, 0); });
  var clear = form.querySelector(".coll-reset");
  if (clear) {
    clear.addEventListener("click", function (ev) {
      ev.preventDefault();
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.tagName === "SELECT") el.value = "";
        else if (el.type === "search") el.value = "";
      });
      apply();
    });
  }
  form.classList.add("is-live");
}

// ------------------------------------------------------------ collection: detail dialog

function setUpDialog(grid, dialog) {
  if (typeof dialog.showModal !== "function" || !window.fetch) return;
  var body = document.getElementById("coll-dialog-body");
  var opener = null, currentCard = null, request = 0;

  function load(url, card) {
    var mine = ++request;
    body.setAttribute("aria-busy", "true");
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.text();
      })
      .then(function (html) {
        if (mine !== request) return;
        body.innerHTML = html;
        body.removeAttribute("aria-busy");
        currentCard = card || currentCard;
        var title = body.querySelector(".coll-detail-name");
        if (title) document.getElementById("coll-dialog-title").textContent = title.textContent;
      })
      .catch(function () {
        if (mine !== request) return;
        body.removeAttribute("aria-busy");
        body.innerHTML = '<p class="coll-error">This card could not be loaded. ' +
          '<a href="' + url.replace(/[?&]fragment=1/, "") + '">Open its page</a>.</p>';
      });
  }

  function open(card) {
    var link = card.querySelector(".coll-link");
    opener = link;
    load(link.dataset.fragment, card);
    if (!dialog.open) dialog.showModal();
  }

  function step(delta) {
    if (!currentCard) return;
    var visible = Array.prototype.filter.call(grid.querySelectorAll(".coll-card"), function (c) { return !c.hidden; });
    var i = visible.indexOf(currentCard);
    if (i < 0 || !visible.length) return;
    var next = visible[(i + delta + visible.length) % visible.length];
    opener = next.querySelector(".coll-link");
    load(opener.dataset.fragment, next);
  }

  grid.addEventListener("click", function (ev) {
    var link = ev.target.closest(".coll-link");
    if (!link || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    open(link.closest(".coll-card"));
  });
  // The language links inside the detail reload the detail, not the page.
  body.addEventListener("click", function (ev) {
    var link = ev.target.closest("a[data-fragment]");
    if (!link) return;
    ev.preventDefault();
    load(link.dataset.fragment);
  });
  dialog.querySelector(".coll-close").addEventListener("click", function () { dialog.close(); });
  Array.prototype.forEach.call(dialog.querySelectorAll(".coll-nav"), function (b) {
    b.addEventListener("click", function () { step(Number(b.dataset.step)); });
  });
  dialog.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowLeft") { step(-1); ev.preventDefault(); }
    if (ev.key === "ArrowRight") { step(1); ev.preventDefault(); }
  });
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener("click", function (ev) {
    if (ev.target === dialog) {
      var r = dialog.getBoundingClientRect();
      if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) dialog.close();
    }
  });
  dialog.addEventListener("close", function () {
    request++;
    body.innerHTML = "";
    if (opener) opener.focus();
  });
}

// ------------------------------------------------------------ pack: reveal card by card

function setUpReveal(list) {
  var slots = Array.prototype.slice.call(list.querySelectorAll(".pack-slot"));
  if (!slots.length) return;
  var controls = document.getElementById("pack-controls");
  var next = document.getElementById("pack-next");
  var all = document.getElementById("pack-all");
  var status = document.getElementById("pack-status");
  var after = document.getElementById("pack-after");

  function down() { return slots.filter(function (s) { return s.classList.contains("is-down"); }); }

  function reveal(slot) {
    if (!slot.classList.contains("is-down")) return;
    slot.classList.remove("is-down");
    var flip = slot.querySelector(".pack-flip");
    flip.setAttribute("tabindex", "-1");
    flip.setAttribute("aria-disabled", "true");
    flip.removeAttribute("aria-label");
    status.textContent = t("Card {n}: {name}, {rarity}.", {n: slots.indexOf(slot) + 1, name: slot.dataset.name, rarity: slot.dataset.rarity});
    if (!down().length) finish();
  }

  function finish() {
    controls.hidden = true;
    if (after) after.hidden = false;
    var target = after && after.querySelector("button, a");
    if (target && document.activeElement && (document.activeElement === next || document.activeElement === all ||
                                             document.activeElement.classList.contains("pack-flip"))) {
      target.focus();
    }
  }

  slots.forEach(function (slot, i) {
    slot.classList.add("is-down");
    var flip = slot.querySelector(".pack-flip");
    flip.setAttribute("tabindex", "0");
    flip.setAttribute("aria-label", t("Card {n} of {total}, face down: reveal it", {n: i + 1, total: slots.length}));
    flip.addEventListener("click", function () { reveal(slot); });
    slot.style.setProperty("--deal", i);
  });
  if (after) after.hidden = true;
  controls.hidden = false;
  next.addEventListener("click", function () { var d = down(); if (d.length) reveal(d[0]); });
  all.addEventListener("click", function () {
    down().forEach(function (s, i) {
      window.setTimeout(function () { reveal(s); }, i * 120);
    });
  });
  list.classList.add("is-live");
  next.focus();
}

// A module runs once the page is parsed (and, through page-words.js, once its words have loaded).
function start() {
  var form = document.getElementById("coll-filters");
  var grid = document.getElementById("coll-grid");
  if (form && grid) setUpFilters(form, grid);
  var dialog = document.getElementById("coll-dialog");
  if (dialog && grid) setUpDialog(grid, dialog);
  var reveal = document.getElementById("pack-reveal");
  if (reveal) setUpReveal(reveal);
}
start();
