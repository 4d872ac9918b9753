// Short sound effects made with WebAudio (issue 14): no files. Off until the player has touched the
// page (browsers allow audio only then), never awaited by the board, silent when it fails.

const EFFECTS = {
  // [type, start Hz, end Hz, seconds, gain] per voice
  summon: [["triangle", 520, 880, 0.18, 0.5], ["sine", 1040, 1320, 0.22, 0.2]],
  march: [["square", 160, 140, 0.07, 0.25], ["square", 180, 150, 0.07, 0.25, 0.12]],
  attack: [["sawtooth", 240, 70, 0.25, 0.45], ["noise", 0, 0, 0.15, 0.3]],
  damage: [["noise", 0, 0, 0.12, 0.5], ["sine", 200, 90, 0.15, 0.4]],
  destroy: [["sawtooth", 300, 40, 0.5, 0.4], ["noise", 0, 0, 0.35, 0.35]],
  spell: [["sine", 660, 1320, 0.3, 0.35], ["triangle", 990, 1980, 0.35, 0.2, 0.05]],
  victory: [["triangle", 523, 523, 0.16, 0.45], ["triangle", 659, 659, 0.16, 0.45, 0.16], ["triangle", 784, 784, 0.4, 0.5, 0.32]],
  defeat: [["triangle", 392, 392, 0.22, 0.45], ["triangle", 330, 330, 0.22, 0.45, 0.22], ["triangle", 262, 250, 0.5, 0.45, 0.44]],
  turn: [["sine", 880, 880, 0.12, 0.35], ["sine", 1175, 1175, 0.18, 0.3, 0.1]],
  emote: [["sine", 700, 1000, 0.1, 0.3], ["sine", 1000, 800, 0.1, 0.25, 0.09]],
};

export class Sound {
  constructor() {
    this.on = false;
    this.volume = 0.6;
    this.ctx = null;
    this.unlocked = false;
    this.played = [];  // the effects asked for (tests and the bench read it)
    const unlock = () => { this.unlocked = true; };
    for (const t of ["pointerdown", "keydown"]) window.addEventListener(t, unlock, {once: true, capture: true});
  }

  configure(on, volume) {
    this.on = !!on;
    this.volume = Math.max(0, Math.min(100, Number(volume) || 0)) / 100;
  }

  play(name) {
    if (!this.on || !this.volume || !EFFECTS[name]) return;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    if (!this.unlocked) return;
    try {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      if (!this.ctx) this.ctx = new AC();
      if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
      const ctx = this.ctx;
      const t0 = ctx.currentTime + 0.01;
      for (const [type, f0, f1, dur, gain, delay = 0] of EFFECTS[name]) {
        const g = ctx.createGain();
        const start = t0 + delay;
        g.gain.setValueAtTime(0.0001, start);
        g.gain.exponentialRampToValueAtTime(Math.max(0.0002, gain * this.volume * 0.5), start + 0.01);
        g.gain.exponentialRampToValueAtTime(0.0001, start + dur);
        g.connect(ctx.destination);
        let src;
        if (type === "noise") {
          const buf = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * dur), ctx.sampleRate);
          const data = buf.getChannelData(0);
          for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
          src = ctx.createBufferSource();
          src.buffer = buf;
        } else {
          src = ctx.createOscillator();
          src.type = type;
          src.frequency.setValueAtTime(f0, start);
          src.frequency.exponentialRampToValueAtTime(Math.max(20, f1), start + dur);
        }
        src.connect(g);
        src.start(start);
        src.stop(start + dur + 0.02);
      }
    } catch (e) { /* no sound is never an error */ }
  }

  /** The effects for a batch of the server's events (docs/protocol.md, "events"), at most one each. */
  forEvents(events, me) {
    const want = new Set();
    for (const e of events || []) {
      const t = e.type;
      if (t === "summoned" || t === "quick_summoned") want.add("summon");
      else if (t === "marched") want.add("march");
      else if (t === "attack" || t === "battle_started") want.add("attack");
      else if (t === "damage" || t === "damaged") want.add("damage");
      else if (t === "destroyed") want.add("destroy");
      else if (t === "declared" && e.kind === "spell") want.add("spell");
      else if (t === "turn_started" && e.player === me) want.add("turn");
      else if (t === "game_over" || t === "game_ended") want.add(e.winner === me ? "victory" : "defeat");
    }
    for (const n of want) this.play(n);
  }
}
