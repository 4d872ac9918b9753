/* The lobby's pages: the invitation page waits for the friend over Socket.IO (docs/protocol.md);
   the replay page steps through a finished game's public states from replay.json. */
(function () {
  "use strict";

  function invitation(root) {
    var game = Number(root.dataset.game);
    var copy = document.getElementById("copy-link");
    var link = document.getElementById("invite-link");
    if (copy && link) {
      var copied = function () {
        copy.textContent = "Copied";
        setTimeout(function () { copy.textContent = "Copy"; }, 2500);
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
    socket.on("disconnect", function () { if (status) { status.textContent = "Reconnecting…"; } });
    socket.on("connect", function () { if (status) { status.textContent = "Waiting for your friend…"; } });
  }

  var LANDS = [["H1"], ["L5", "L6"], ["L3", "L4"], ["L1", "L2"], ["H0"]];
  // How a game ended, as the lobby's list says it (templates/lobby/_result.html).
  var REASONS = { leaders: "leaders destroyed", judgment: "round-12 judgment", draw: "draw", resign: "resignation",
    timeout: "clock ran out", disconnect: "disconnected" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function replay(root) {
    var data = null, at = 0;
    var range = document.getElementById("replay-range");
    var board = document.getElementById("replay-board");
    var logList = document.getElementById("replay-log");
    var stepText = document.getElementById("replay-step");
    var summary = document.getElementById("replay-summary");

    function show(i) {
      at = Math.max(0, Math.min(data.steps.length - 1, i));
      range.value = at;
      var step = data.steps[at], view = step.view;
      stepText.textContent = "Step " + at + " of " + (data.steps.length - 1);
      var round = view.phase === "leaders" ? "Round 1: choosing leaders" : "Round " + view.round;
      var waiting = (view.waiting_for || []).map(function (p) { return data.players[p]; });
      var result = view.result, who;
      if (result) {
        who = (result.winner === null ? "A draw" : data.players[result.winner] + " wins")
          + (result.reason === "draw" ? "" : " (" + (REASONS[result.reason] || result.reason) + ")");
      } else {
        who = (waiting.length ? waiting.join(" and ") : data.players[view.active]) + " to move";
      }
      summary.textContent = "";
      summary.appendChild(el("span", "replay-summary-main", round + " · " + who));
      summary.appendChild(el("span", "replay-summary-counts", "Cards in hand: " + data.players[0] + " "
        + view.players[0].hand_count + " · " + data.players[1] + " " + view.players[1].hand_count));
      board.textContent = "";
      LANDS.forEach(function (row) {
        row.forEach(function (name) {
          var land = view.lands[name];
          var box = el("div", "replay-land" + (row.length === 1 ? " replay-land-base" : "")
            + (land.owner === 0 || land.owner === 1 ? " replay-land-owner-" + land.owner : ""));
          var owner = land.owner === 0 || land.owner === 1 ? " · " + data.players[land.owner] : "";
          box.appendChild(el("div", "replay-land-name", name + " " + land.kind + owner));
          view.units.filter(function (u) { return u.land === name; }).forEach(function (u) {
            var chip = el("span", "replay-unit replay-unit-" + u.owner + (u.leader ? " replay-unit-leader" : ""),
              (u.leader ? "★ " : "") + (data.cards[u.card] || u.card) + " " + u.life + "/" + u.max_life);
            if (u.leader) { chip.title = "Leader"; }
            box.appendChild(chip);
          });
          board.appendChild(box);
        });
      });
      logList.textContent = "";
      var lines = step.log.length ? step.log : [at === 0 ? "The game begins." : "(" + (step.type || "—") + ")"];
      lines.forEach(function (line) { logList.appendChild(el("li", null, line)); });
    }

    fetch(root.dataset.src, { credentials: "same-origin" }).then(function (r) {
      // A refusal (too many replays lately) says why in {"error": ...}.
      return r.json().then(function (d) { if (!r.ok) { throw new Error(d.error || ""); } return d; });
    }).then(function (d) {
      data = d;
      range.max = d.steps.length - 1;
      show(0);
    }).catch(function (e) { summary.textContent = (e && e.message) || "The replay could not be loaded."; });
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

  var inv = document.getElementById("invitation");
  if (inv) { invitation(inv); }
  var rep = document.getElementById("replay");
  if (rep) { replay(rep); }
})();
