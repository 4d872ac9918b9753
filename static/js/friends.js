/* The friends page, the ladder and the lobby: live challenges and matches over Socket.IO (docs/protocol.md
   "challenge", "matched"), the friends' presence refreshed from /friends/presence.json, challenges
   taken off the list when they expire. Words come from the page (data-words), in its language. */
// A module: it runs once the page is parsed, after the classic socket.io script before it.
function start() {
  var root = document.getElementById("friends") || document.getElementById("ladder") || document.getElementById("lobby");
  if (!root) { return; }
  var words = {};
  try { words = JSON.parse(root.dataset.words || "{}"); } catch (e) { words = {}; }

  function say(text) {
    var box = document.getElementById("live-challenge");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
  }

  // An open challenge leaves the list when its time is up (the server refuses it then anyway).
  Array.prototype.forEach.call(document.querySelectorAll("[data-expires-in]"), function (item) {
    var left = Number(item.dataset.expiresIn);
    if (left > 0) { setTimeout(function () { item.remove(); }, left); }
  });

  if (typeof io === "function") {
    var socket = io({ transports: ["websocket", "polling"] });
    socket.on("challenge", function (msg) {
      if (msg.status === "accepted" && msg.url) { location.href = msg.url; return; }
      if (msg.status === "open") {
        say((words.challenged || "{name} challenges you.").replace("{name}", msg.from));
        setTimeout(function () { location.reload(); }, 1500);
        return;
      }
      location.reload();  // declined, withdrawn: the list changes
    });
    socket.on("matched", function (msg) { if (msg.url) { location.href = msg.url; } });
  }

  var presenceUrl = root.dataset.presence;
  if (!presenceUrl || !window.fetch) { return; }
  function refresh() {
    fetch(presenceUrl, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
      if (!data) { return; }
      data.friends.forEach(function (f) {
        var item = Array.prototype.find.call(document.querySelectorAll(".friends-person"), function (el) {
          return el.dataset.name === f.name;
        });
        if (!item) { return; }
        var state = item.querySelector(".friends-state");
        if (state) {
          state.textContent = words[f.state] || f.state;
          state.className = "friends-state friends-state-" + f.state;
        }
        var box = item.querySelector(".friends-challenge-form");
        if (box) { box.hidden = f.state !== "online"; }
        var watch = item.querySelector("[data-testid=watch]");
        if (f.watch && !watch) {
          watch = document.createElement("a");
          watch.className = "button-small";
          watch.dataset.testid = "watch";
          watch.textContent = words.watch || "Watch";
          item.querySelector(".lobby-game-actions").prepend(watch);
        }
        if (watch) { if (f.watch) { watch.href = f.watch; } else { watch.remove(); } }
      });
    }).catch(function () { /* the next look will do */ });
  }
  setInterval(refresh, 15000);
}

start();
