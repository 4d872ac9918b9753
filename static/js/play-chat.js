// Chat in online games (docs/protocol.md "Chat"): the players' chat for the two players, the
// spectators' chat for those who watch; neither side sees the other's. A button at the end of the
// status bar opens a small panel (a sheet at the bottom on a phone). Text is always set as text (text nodes), never as
// HTML. The board calls in once per state (take); this module listens on the transport's socket for
// `chat`, `chat_history`, `chat_muted` and `chat_reported`, and asks for the history again after a
// reconnection (the transport's own `join` goes first: the server handles a socket's events in order).

import {h, add, t} from "./play-util.js";

export class Chat {
  constructor(board) {
    this.b = board;
    this.on = false;            // an online game's state arrived and the socket is there
    this.open = false;
    this.unread = 0;
    this.muted = false;
    this.max = 200;
    this.channel = null;        // "players" or "spectators": the reader's own
    this.ids = new Set();       // the messages shown (a history after a reconnection repeats some)
  }

  get game() { return this.b.game; }
  get seat() { return this.b.seat; }

  emit(event, payload) {
    const tr = this.b.transport;
    if (tr && typeof tr.emit === "function") tr.emit(event, payload);
  }

  /** A `state` payload: the first one of an online game opens the chat. */
  take(p) {
    const socket = this.b.transport && this.b.transport.socket;
    if (this.on || !p || !p.online || !socket) return;
    this.on = true;
    this.channel = this.seat === null ? "spectators" : "players";
    this.build();
    socket.on("chat", (m) => this.onMessage(m));
    socket.on("chat_history", (m) => this.onHistory(m));
    socket.on("chat_muted", (m) => this.onMuted(m));
    socket.on("chat_reported", (m) => this.onReported(m));
    socket.on("connect", () => this.ask());
    this.ask();
  }

  ask() { this.emit("chat_history", {game: this.game}); }

  build() {
    const players = this.channel === "players";
    this.badge = h("span", {class: "pl-chat-badge", "data-testid": "chat-unread", hidden: true});
    this.toggle = h("button", {class: "pl-btn pl-btn-quiet pl-chat-toggle", type: "button", "data-testid": "chat-toggle", "aria-expanded": "false",
      "aria-controls": "pl-chat", onclick: () => this.show(!this.open)},
    h("span", {class: "pl-chat-ico", "aria-hidden": "true"}, "✉"), h("span", {class: "pl-chat-label"}, t("Chat")), this.badge);
    this.list = h("ol", {class: "pl-chat-list", role: "log", "aria-live": "polite", "data-testid": "chat-list", tabindex: "0"});
    this.empty = h("p", {class: "pl-chat-empty"}, t("No messages yet."));
    this.input = h("input", {type: "text", class: "pl-chat-input", maxlength: String(this.max), autocomplete: "off",
      "aria-label": t("Your message"), placeholder: t("Write a message…"), "data-testid": "chat-input"});
    this.form = h("form", {class: "pl-chat-form", onsubmit: (e) => { e.preventDefault(); this.send(); }},
      this.input, h("button", {type: "submit", class: "pl-btn pl-btn-go pl-chat-send", "data-testid": "chat-send"}, t("Send")));
    this.muteButton = players ? h("button", {type: "button", class: "pl-btn pl-btn-quiet pl-chat-mute", "data-testid": "chat-mute",
      onclick: () => this.emit("chat_mute", {game: this.game, muted: !this.muted})}, t("Mute opponent")) : null;
    this.note = h("p", {class: "pl-chat-note", "data-testid": "chat-note"},
      players ? t("Only you two see this chat.") : t("The players do not see this chat."));
    this.panel = h("section", {class: "pl-chat", id: "pl-chat", "data-testid": "chat", "data-channel": this.channel, hidden: true,
      "aria-labelledby": "pl-chat-title"},
    h("div", {class: "pl-chat-head"},
      h("h2", {id: "pl-chat-title"}, players ? t("Chat with your opponent") : t("Spectators' chat")),
      this.muteButton,
      h("button", {class: "pl-btn pl-btn-quiet pl-btn-icon", type: "button", "aria-label": t("Close the chat"), "data-testid": "chat-close",
        onclick: () => this.show(false)}, "✕")),
    this.note, this.empty, this.list, this.form);
    // the button stays at the end of the status bar (the board's `statusSlot`, kept while it redraws)
    this.b.statusSlot = this.toggle;
    this.b.status.append(this.toggle);
    add(this.b.root, this.panel);
  }

  show(open) {
    this.open = open;
    this.panel.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    this.b.root.classList.toggle("pl-chat-open", open);
    if (open) {
      this.unread = 0;
      this.paintBadge();
      this.list.scrollTop = this.list.scrollHeight;
      this.input.focus();
    } else {
      this.toggle.focus();
    }
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.emit("chat", {game: this.game, text, channel: this.channel});
    this.input.value = "";
  }

  mine(m) {
    return this.channel === "players" ? m.seat === this.seat : m.name === this.b.root.dataset.user;
  }

  // ------------------------------------------------------------------ what arrives

  onHistory(msg) {
    if (!msg || Number(msg.game) !== this.game || !Array.isArray(msg.messages)) return;
    if (msg.max_length) {
      this.max = msg.max_length;
      this.input.maxLength = this.max;
    }
    this.onMuted(msg);
    for (const m of msg.messages) this.addLine(m, false);
  }

  onMessage(m) {
    if (!m || Number(m.game) !== this.game || m.channel !== this.channel) return;
    this.addLine(m, !this.open && !this.mine(m));
  }

  onMuted(msg) {
    if (!msg || Number(msg.game) !== this.game || !this.muteButton) return;
    this.muted = !!msg.muted;
    this.muteButton.textContent = this.muted ? t("Unmute opponent") : t("Mute opponent");
    this.muteButton.setAttribute("aria-pressed", String(this.muted));
    this.note.textContent = this.muted ? t("Your opponent is muted: their messages are not shown.") : t("Only you two see this chat.");
  }

  onReported(msg) {
    if (!msg || Number(msg.game) !== this.game) return;
    const button = this.list.querySelector(`[data-message="${Number(msg.message)}"] .pl-chat-report`);
    if (button) button.replaceWith(h("span", {class: "pl-chat-reported"}, t("Reported")));
  }

  addLine(m, unread) {
    if (typeof m.id !== "number" || this.ids.has(m.id)) return;
    this.ids.add(m.id);
    const mine = this.mine(m);
    const who = this.channel === "players" ? (m.seat === 0 || m.seat === 1 ? this.b.who(m.seat) : String(m.name)) : String(m.name);
    const report = mine ? null : h("button", {type: "button", class: "pl-chat-report", "aria-label": t("Report this message"),
      title: t("Report this message"), "data-testid": "chat-report",
      onclick: () => this.emit("chat_report", {game: this.game, message: m.id})}, "⚑");
    const stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.append(h("li", {class: ["pl-chat-msg", mine ? "pl-chat-mine" : ""], "data-message": String(m.id), "data-testid": "chat-message"},
      h("b", {class: "pl-chat-who"}, who), h("span", {class: "pl-chat-text"}, String(m.text)), report));
    this.empty.hidden = true;
    if (stick || mine) this.list.scrollTop = this.list.scrollHeight;
    if (unread) {
      this.unread += 1;
      this.paintBadge();
    }
  }

  paintBadge() {
    this.badge.hidden = !this.unread;
    this.badge.textContent = this.unread > 9 ? "9+" : String(this.unread);
    this.toggle.setAttribute("aria-label", this.unread ? t("Chat: {n} new", {n: this.unread}) : t("Chat"));
  }
}
