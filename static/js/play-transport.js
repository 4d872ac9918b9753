// The live connection (docs/protocol.md): join the game's room, receive `state` and `error` (and an
// online game's `presence`, `emote`, `rematch`), send `action {game, action, version}` and the online
// events (`claim`, `emote`, `rematch`) through `emit`. A page may provide
// window.BrigadeTransport(game, handlers) instead (a test harness); it must return
// {send(payload), rejoin()}, and may add emit(event, payload).

export function connect(game, handlers) {
  if (typeof window.BrigadeTransport === "function") return window.BrigadeTransport(game, handlers);
  if (typeof window.io !== "function") {
    handlers.status("offline", "The live connection script did not load.");
    return {send() {}, rejoin() {}, emit() {}};
  }
  const socket = window.io({reconnection: true, reconnectionDelay: 500, reconnectionDelayMax: 4000});
  const join = () => socket.emit("join", {game});
  socket.on("connect", () => { handlers.status("online", ""); join(); });
  socket.on("disconnect", (reason) => {
    handlers.status("offline", reason === "io server disconnect" ? "The server closed the connection." : "Reconnecting…");
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 1500);
  });
  socket.on("connect_error", (err) => {
    handlers.status("offline", err && err.message ? `Cannot reach the game (${err.message}). Retrying…` : "Cannot reach the game. Retrying…");
  });
  socket.on("state", (payload) => handlers.state(payload));
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
