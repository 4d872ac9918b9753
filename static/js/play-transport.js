// The live connection (docs/protocol.md): join the game's room, receive `state` and `error` (and an
// online game's `presence`, `emote`, `rematch`), send `action {game, action, version}` and the online
// events (`claim`, `emote`, `rematch`) through `emit`. A page may provide
// window.BrigadeTransport(game, handlers) instead (a test harness); it must return
// {send(payload), rejoin()}, and may add emit(event, payload).
//
// The socket joins asking for updates: after an action the server sends an `update` (what changed
// since the state it sent before, docs/protocol.md "Updates") instead of a whole `state`. This module
// keeps the last whole state, makes the next one from each update and hands the board whole states
// only; an update built on another version than the one held (one was missed) asks for a whole
// state again with `join`.

// The page's language (static/js/i18n.js) without importing play-util.js: node loads this module alone
// in tests (tests/online/test_updates.py). The board has waited for the catalog before it connects.
const t = (msgid, params) => {
  const i18n = typeof window !== "undefined" && window.BrigadeI18n;
  return i18n ? i18n.t(msgid, params) : msgid.replace(/\{(\w+)\}/g, (whole, key) => (params && key in params ? String(params[key]) : whole));
};

/** A copy of `view` with the update's operations applied: [path, value] sets, [path] deletes,
 *  [path, null, order] rearranges an array (item i is old item order[i], or null for -1). */
export function applyOps(view, ops) {
  const out = typeof structuredClone === "function" ? structuredClone(view) : JSON.parse(JSON.stringify(view));
  for (const op of ops) {
    const path = op[0];
    let node = out;
    for (let i = 0; i < path.length - 1; i++) {
      node = node[path[i]];
      if (node === null || typeof node !== "object") throw new Error("update_does_not_fit_the_view");
    }
    const last = path[path.length - 1];
    if (op.length === 3) {
      const old = node[last];
      if (!Array.isArray(old)) throw new Error("update_does_not_fit_the_view");
      node[last] = op[2].map((i) => (i >= 0 ? old[i] : null));
    } else if (op.length === 2) {
      if (Array.isArray(node) && !(last >= 0 && last < node.length)) throw new Error("update_does_not_fit_the_view");
      node[last] = op[1];
    } else {
      delete node[last];
    }
  }
  return out;
}

/** The whole state `update` makes of `held` (the state of version `update.base`), or null if it cannot. */
export function applyUpdate(held, update) {
  if (!held || held.game !== update.game || held.version !== update.base) return null;
  const next = Object.assign({}, held, update);
  delete next.base;
  next.legal_actions = "legal_actions" in update ? update.legal_actions : held.legal_actions;
  next.view = applyOps(held.view, update.view || []);
  return next;
}

export function connect(game, handlers) {
  if (typeof window.BrigadeTransport === "function") return window.BrigadeTransport(game, handlers);
  if (typeof window.io !== "function") {
    handlers.status("offline", t("The live connection script did not load."));
    return {send() {}, rejoin() {}, emit() {}};
  }
  const socket = window.io({reconnection: true, reconnectionDelay: 500, reconnectionDelayMax: 4000});
  let held = null;      // the newest whole state of this game: what the next update is built on
  let asked = 0;        // when a join for a whole state was sent (0: none on its way)
  const join = () => { asked = Date.now(); socket.emit("join", {game, updates: true}); };
  socket.on("connect", () => { handlers.status("online", ""); join(); });
  socket.on("disconnect", (reason) => {
    handlers.status("offline", reason === "io server disconnect" ? t("The server closed the connection.") : t("Reconnecting…"));
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 1500);
  });
  socket.on("connect_error", (err) => {
    handlers.status("offline", err && err.message ? t("Cannot reach the game ({error}). Retrying…", {error: err.message}) : t("Cannot reach the game. Retrying…"));
  });
  socket.on("state", (payload) => {
    if (payload && payload.game === game && (!held || payload.version >= held.version)) {
      held = payload;
      asked = 0;
    }
    handlers.state(payload);
  });
  socket.on("update", (payload) => {
    if (!payload || payload.game !== game || (held && payload.version <= held.version)) return;  // old news
    let next = null;
    try {
      next = applyUpdate(held, payload);
    } catch (err) {
      console.error(err);
    }
    if (!next) {        // a version was missed (or the update did not fit): ask for the whole state
      if (Date.now() - asked > 2000) join();
      return;
    }
    held = next;
    handlers.state(next);
  });
  socket.on("error", (payload) => handlers.error(payload || {}));
  for (const event of ["presence", "emote", "rematch"]) {
    socket.on(event, (payload) => { if (handlers[event]) handlers[event](payload || {}); });
  }
  return {
    send(payload) { socket.emit("action", payload); },
    emit(event, payload) { socket.emit(event, payload); },
    rejoin() { if (socket.connected) join(); },
    socket,
  };
}
