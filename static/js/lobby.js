/* The lobby's pages: the invitation page waits for the friend over Socket.IO (docs/protocol.md);
   the replay page steps through a finished game's public states from replay.json. */
(function () {
  "use strict";

  var I18N = window.BrigadeI18n;  // static/js/i18n.js: texts in the page's language
  var t = I18N.t;

  function invitation(root) {
    var game = Number(root.dataset.game);
    var copy = document.getElementById("copy-link");
    var link = document.getElementById("invite-link");
    if (copy && link) {
      var copied = function () {
        copy.textContent = t("Copied");
        setTimeout(function () { copy.textContent = t("Copy"); }, 2500);
      };
      var fallback = function () { link.select(); if (document.execCommand("copy")) { copied(); } };
      copy.addEventListener("click", function () {
        link.select();
        // The clipboard API may be refused (no permission, not a secure origin): the old way then.
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(link.value).then(copied, fallback);
        } else { fallback(); }
      });
    }
    if (typeof io !== "function") { setTimeout(function () { location.reload(); }, 5000); return; }
    var socket = io({ transports: ["websocket", "polling"] });
    var status = document.getElementById("invite-status");
    socket.on("connect", function () { socket.emit("join", { game: game }); });
    socket.on("started", function (msg) { if (msg.game === game) { location.href = msg.url; } });
    // Cancelled here, this page's own form goes to the lobby (with its message); cancelled in
    // another tab, this page follows.
    var leaving = false;
    var cancelForm = root.querySelector("form.inline-form");
    if (cancelForm) { cancelForm.addEventListener("submit", function () { leaving = true; }); }
    socket.on("invitation", function (msg) {
      if (msg.game !== game || leaving) { return; }
      if (msg.status === "aborted") { location.href = "/lobby"; }
    });
    socket.on("state", function (msg) { if (msg.game === game) { location.href = "/play/" + game; } });
    socket.on("disconnect", function () { if (status) { status.textContent = t("Reconnecting…"); } });
    socket.on("connect", function () { if (status) { status.textContent = t("Waiting for your friend…"); } });
  }

  var LANDS = [["H1"], ["L5", "L6"], ["L3", "L4"], ["L1", "L2"], ["H0"]];
  // How a game ended, as the lobby's list says it (templates/lobby/_result.html).
  // Made when used: the catalog has loaded by then (I18N.ready).
  function reasons() {
    return { leaders: t("leaders destroyed"), judgment: t("round-12 judgment"), draw: t("draw"),
    resign: t("resignation"), timeout: t("clock ran out"), disconnect: t("disconnected") };
  }
  function landKinds() { return { base: t("base"), road: t("road"), rearworld: t("rearworld"), swamp: t("swamp") }; }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function replay(root) {
    var data = null, at = 0, cards = null;
    var range = document.getElementById("replay-range");
    var board = document.getElementById("replay-board");
    var logList = document.getElementById("replay-log");
    var stepText = document.getElementById("replay-step");
    var summary = document.getElementById("replay-summary");

    function show(i) {
      at = Math.max(0, Math.min(data.steps.length - 1, i));
      range.value = at;
      var step = data.steps[at], view = step.view;
      stepText.textContent = t("Step {n} of {total}", {n: at, total: data.steps.length - 1});
      var round = view.phase === "leaders" ? t("Round 1: choosing leaders") : t("Round {n}", {n: view.round});
      var waiting = (view.waiting_for || []).map(function (p) { return data.players[p]; });
      var result = view.result, who;
      if (result) {
        who = (result.winner === null ? t("A draw") : t("{name} wins", {name: data.players[result.winner]}))
          + (result.reason === "draw" ? "" : " (" + (reasons()[result.reason] || result.reason) + ")");
      } else {
        who = t("{names} to move", {names: waiting.length ? waiting.join(t(" and ")) : data.players[view.active]});
      }
      summary.textContent = "";
      summary.appendChild(el("span", "replay-summary-main", round + " · " + who));
      summary.appendChild(el("span", "replay-summary-counts", t("Cards in hand: {a} {na} · {b} {nb}", {
        a: data.players[0], na: view.players[0].hand_count, b: data.players[1], nb: view.players[1].hand_count})));
      board.textContent = "";
      LANDS.forEach(function (row) {
        row.forEach(function (name) {
          var land = view.lands[name];
          var box = el("div", "replay-land" + (row.length === 1 ? " replay-land-base" : "")
            + (land.owner === 0 || land.owner === 1 ? " replay-land-owner-" + land.owner : ""));
          var owner = land.owner === 0 || land.owner === 1 ? " · " + data.players[land.owner] : "";
          box.appendChild(el("div", "replay-land-name", name + " " + (landKinds()[land.kind] || land.kind) + owner));
          var units = el("div", "replay-units");
          view.units.filter(function (u) { return u.land === name; }).forEach(function (u) {
            var chip = el("span", "replay-unit replay-unit-" + u.owner + (u.leader ? " replay-unit-leader" : ""));
            if (cards) { chip.appendChild(cards.art(u.card, "replay-art")); }
            chip.appendChild(el("span", "replay-unit-name", (u.leader ? "★ " : "") + (data.cards[u.card] || u.card)));
            chip.appendChild(el("span", "replay-unit-life", u.life + "/" + u.max_life));
            if (u.leader) { chip.title = t("Leader"); }
            units.appendChild(chip);
          });
          box.appendChild(units);
          board.appendChild(box);
        });
      });
      logList.textContent = "";
      var lines = step.log.length ? step.log : [at === 0 ? t("The game begins.") : "(" + (step.type || "—") + ")"];
      lines.forEach(function (line) { logList.appendChild(el("li", null, line)); });
    }

    // The units are drawn as on the board: play-cards.js and the pool's card list (each face a cached file).
    var drawing = import(root.dataset.cardsJs).then(function (mod) {
      return mod.loadPool(root.dataset.cardsUrl).then(function (pool) { cards = new mod.Cards(pool, I18N.lang === "ja" ? "ja" : "en"); });
    }).catch(function () { cards = null; });  // without them, names only
    fetch(root.dataset.src, { credentials: "same-origin" }).then(function (r) {
      // A refusal (too many replays lately) says why in {"error": ...}.
      return r.json().then(function (d) { if (!r.ok) { throw new Error(d.error || ""); } return d; });
    }).then(function (d) {
      return drawing.then(function () {
        data = d;
        range.max = d.steps.length - 1;
        show(0);
      });
    }).catch(function (e) { summary.textContent = (e && e.message) || t("The replay could not be loaded."); });
    range.addEventListener("input", function () { show(Number(range.value)); });
    document.getElementById("replay-first").addEventListener("click", function () { show(0); });
    document.getElementById("replay-prev").addEventListener("click", function () { show(at - 1); });
    document.getElementById("replay-next").addEventListener("click", function () { show(at + 1); });
    document.getElementById("replay-last").addEventListener("click", function () { show(data.steps.length - 1); });
    // Arrows step, Home and End jump (on the range input, its own keys do the same).
    var KEYS = { ArrowRight: function () { return at + 1; }, ArrowLeft: function () { return at - 1; },
      Home: function () { return 0; }, End: function () { return data.steps.length - 1; } };
    document.addEventListener("keydown", function (e) {
      if (!data || e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) { return; }
      e.preventDefault();
      show(KEYS[e.key]());
    });
  }

  I18N.ready.then(function () {
    var inv = document.getElementById("invitation");
    if (inv) { invitation(inv); }
    var rep = document.getElementById("replay");
    if (rep) { replay(rep); }
  });
})();
