// The live connection (docs/protocol.md): join the game's room, receive `state` and `error`,
// send `action {game, action, version}`. A page may provide window.BrigadeTransport(game, handlers)
// instead (a test harness); it must return {send(payload), rejoin()}.

export function connect(game, handlers) {
  if (typeof window.BrigadeTransport === "function") return window.BrigadeTransport(game, handlers);
  if (typeof window.io !== "function") {
    handlers.status("offline", "The live connection script did not load.");
    return {send() {}, rejoin() {}};
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
  return {
    send(payload) { socket.emit("action", payload); },
    rejoin() { if (socket.connected) join(); },
    socket,
  };
}
