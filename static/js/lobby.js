/* The lobby's pages: the invitation page waits for the friend over Socket.IO (docs/protocol.md).
   (The replay page is the board's: static/js/play-replay.js.) */
import {t} from "./page-words.js";

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

var inv = document.getElementById("invitation");
if (inv) { invitation(inv); }
