"""Time from pressing "Attack" on the board to the player's next decision, at each animation speed;
with --no-decision, how long a battle that asks the player nothing takes, and each of its steps.

    python bench/attack_to_decision.py [--attacks 3] [--cpu-delay 0] [--speeds normal,fast,instant]
    python bench/attack_to_decision.py --no-decision [--battles 5] [--speeds normal]

Starts `python -m webapp` (tests/browserkit.py's Server) with CPU_DELAY = --cpu-delay (0: no CPU
"thinking" pause), then, per speed (normal, fast, instant: the board setting `anim`, saved through
POST /play/settings.json), registers a player in Debian's chromium, starts CPU games and plays them
with tests/browserkit.py's BoardPlayer. Each time the page offers "Attack", it clicks it and measures,
in the page (performance.now()), until the board is idle again and waits for the player (or the game
is over), and how much of that span the board spent drawing events (its `animate`, which holds every
animation and pause the speed setting scales); the rest is the server's and the CPU's time (rules,
the CPU's search, the socket) and the page's own drawing. Prints each figure and the medians per
speed; no figure is asserted anywhere.

--no-decision starts each game at tests/browser/positions/battle-no-decision.json (the test-only POST
/testing/start, tests/browserkit.py's start_at; the CPU's seed changes per battle): the player marches
two Orcs into the CPU's land and the battle that follows asks the player nothing. It times, in the
page, the whole battle (from the battle screen's first event to the screen closing after its outcome)
and each step of it: the battle screen narrates one line per step (play-battle.js `tell`), a step
lasts from its line to the next one (the last to the screen closing). The CPU's own thinking
(CPU_DELAY, 0 by default) and the server's time are inside these figures.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import DESKTOP, BoardPlayer, Server, register, start_at  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Count the time the board spends in `animate` (wrapped once per page load).
HOOK = """() => { const b = window.brigadeBoard; if (b.__timed) return; b.__timed = true; window.__anim = 0;
    const animate = b.animate.bind(b);
    b.animate = async (...args) => { const t = performance.now(); try { return await animate(...args); }
                                     finally { window.__anim += performance.now() - t; } }; }"""
WAIT_NEXT = """() => { const b = window.brigadeBoard; if (!b || !b.view) return false;
    return b.idle && !!(b.view.result || (b.view.waiting_for || []).includes(b.me)); }"""
# The battle screen's narrated lines and its closing, timed (wrapped once per page load).
BATTLE_HOOK = """() => { const s = window.brigadeBoard.battle; if (s.__timed) return; s.__timed = true;
    window.__lines = []; window.__start = null; window.__closed = null; window.__draw = []; window.__render = [];
    const render = s.render.bind(s);
    s.render = () => { const t = performance.now(); try { return render(); } finally { window.__render.push([t, performance.now()]); } };
    const b = window.brigadeBoard, animate = b.animate.bind(b);
    b.animate = async (...args) => { const t = performance.now(); try { return await animate(...args); }
                                     finally { window.__draw.push([t, performance.now()]); } };
    const tell = s.tell.bind(s), close = s.close.bind(s), started = s.on_battle_started.bind(s);
    s.tell = (text) => { window.__lines.push([performance.now(), text]); return tell(text); };
    s.close = () => { if (window.__start !== null && window.__closed === null) window.__closed = performance.now(); return close(); };
    s.on_battle_started = (e) => { window.__start = performance.now(); return started(e); }; }"""


def set_speed(page, url, speed):
    csrf = page.evaluate("""() => document.querySelector('meta[name=csrf-token]')?.content
        || document.getElementById('board')?.dataset.csrf || ''""")
    r = page.request.post(url + "/play/settings.json", data={"anim": speed}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()


def measure_battles(browser, srv, speed, battles):
    """[(whole battle s, drawing s, [(step s, drawing s, its line)])] for battles that ask the player nothing."""
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    out = []
    try:
        register(page, srv.url, f"bench-battle-{speed}")
        for n in range(battles):
            start_at(page, srv, "battle-no-decision", cpu="baseline", seed=n + 1)
            if n == 0:
                set_speed(page, srv.url, speed)
                page.reload()
            page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.settings.loaded && window.brigadeBoard.idle",
                                   timeout=30000)
            player = BoardPlayer(page)
            player.dismiss_tips()
            page.evaluate(BATTLE_HOOK)
            orcs = page.evaluate("""() => window.brigadeBoard.view.units.filter((u) => u.owner === window.brigadeBoard.me
                && u.land === "L2").map((u) => u.id)""")
            for orc in orcs:
                page.locator(f".pl-unit[data-unit='{orc}']").click()
            player.press("[data-key='march:L4']")
            page.wait_for_function("() => window.__closed !== null", timeout=120000, polling=50)
            start, closed, lines, draw, renders = page.evaluate(
                "() => [window.__start, window.__closed, window.__lines, window.__draw, window.__render]")

            def within(spans, a, z):
                return sum(max(0.0, min(z, t1) - max(a, t0)) for t0, t1 in spans) / 1000

            def drawing(a, z, draw=draw):  # how much of [a, z] the board spent drawing events (its `animate`)
                return within(draw, a, z)

            marks = [t for t, _ in lines] + [closed]
            steps = [((marks[i + 1] - t) / 1000, drawing(t, marks[i + 1]), text) for i, (t, text) in enumerate(lines)]
            whole, drawn = (closed - start) / 1000, drawing(start, closed)
            out.append((whole, drawn, steps))
            print(f"  {speed:8} battle {n + 1}: {whole:.2f} s (drawing events {drawn:.2f} s, of which rebuilding the battle screen"
                  f" {within(renders, start, closed):.2f} s in {len(renders)} renders), {len(steps)} steps", flush=True)
            for sec, sec_drawn, text in steps:
                print(f"             {sec:5.2f} s (drawing {sec_drawn:4.2f})  {text}", flush=True)
        return out
    finally:
        ctx.close()


def start_game(page, url):
    page.goto(url + "/play")
    page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("text=Start the battle")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=30000)


def measure(browser, url, speed, attacks, games=6):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    out = []
    try:
        register(page, url, f"bench-{speed}")
        csrf = page.evaluate("() => document.querySelector('meta[name=csrf-token]')?.content || ''")
        start_game(page, url)
        csrf = csrf or page.evaluate("() => document.getElementById('board').dataset.csrf")
        r = page.request.post(url + "/play/settings.json", data={"anim": speed}, headers={"X-CSRF-Token": csrf})
        assert r.ok, r.text()
        page.reload()
        page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.settings.loaded", timeout=30000)
        for game in range(games):
            if game:
                start_game(page, url)
            player = BoardPlayer(page)
            for _ in range(600):
                if len(out) >= attacks:
                    return out
                player.idle(120)
                player.dismiss_tips()
                st = player.state()
                if st["result"]:
                    break
                if st["mine"] and st["phase"] == "battle" and player.controls("[data-testid=attack]"):
                    page.evaluate(HOOK)
                    page.evaluate("() => { window.__t0 = performance.now(); window.__anim = 0; }")
                    player.press("[data-testid=attack]")
                    page.wait_for_function(WAIT_NEXT, timeout=120000, polling=50)
                    ms, anim = page.evaluate("() => [performance.now() - window.__t0, window.__anim]")
                    out.append((ms / 1000, anim / 1000))
                    print(f"  {speed:8} attack → next decision: {ms / 1000:.2f} s (drawing events {anim / 1000:.2f} s)", flush=True)
                    continue
                if not player.step():
                    break
        return out
    finally:
        ctx.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attacks", type=int, default=3, help="attacks measured per speed")
    ap.add_argument("--cpu-delay", type=float, default=0.0, help="the server's CPU_DELAY (seconds)")
    ap.add_argument("--speeds", default="normal,fast,instant", help="which speeds, comma-separated")
    ap.add_argument("--no-decision", action="store_true", help="time battles that ask the player nothing instead")
    ap.add_argument("--battles", type=int, default=5, help="battles timed per speed (--no-decision)")
    args = ap.parse_args()
    srv = Server(tempfile.mkdtemp(prefix="brigade-bench-"), f"CPU_DELAY = {args.cpu_delay}\n")
    if args.no_decision:
        no_decision(srv, args)
        return
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for speed in args.speeds.split(","):
                results[speed] = measure(browser, srv.url, speed, args.attacks)
            browser.close()
    finally:
        srv.stop()
    print(f"\nattack → next decision (CPU_DELAY = {args.cpu_delay} s), seconds:")
    for speed, pairs in results.items():
        if pairs:
            xs = [t for t, _ in pairs]
            anim = statistics.median(a for _, a in pairs)
            rest = statistics.median(t - a for t, a in pairs)
            print(f"  {speed:8} median {statistics.median(xs):.2f}  min {min(xs):.2f}  max {max(xs):.2f}  (n = {len(xs)});"
                  f"  median drawing events {anim:.2f}, median the rest {rest:.2f}")
        else:
            print(f"  {speed:8} no attack came up")


def no_decision(srv, args):
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for speed in args.speeds.split(","):
                results[speed] = measure_battles(browser, srv, speed, args.battles)
            browser.close()
    finally:
        srv.stop()
    print(f"\na battle with no decision of the player's (CPU_DELAY = {args.cpu_delay} s), seconds:")
    for speed, battles in results.items():
        whole = [w for w, _, _ in battles]
        drawn = [d for _, d, _ in battles]
        steps = [s for _, _, st in battles for s, _, _ in st]
        drawn_steps = [d for _, _, st in battles for _, d, _ in st]
        to_outcome = [w - st[-1][0] for w, _, st in battles]  # the last step: the outcome shown until the screen closes
        print(f"  {speed:8} whole battle: median {statistics.median(whole):.2f}  min {min(whole):.2f}  max {max(whole):.2f}"
              f"  (n = {len(whole)}), of which drawing events: median {statistics.median(drawn):.2f}  max {max(drawn):.2f}")
        print(f"  {speed:8} to the outcome shown: median {statistics.median(to_outcome):.2f}  max {max(to_outcome):.2f}")
        print(f"  {speed:8} each step:    median {statistics.median(steps):.2f}  max {max(steps):.2f}  (n = {len(steps)}),"
              f" of which drawing events: median {statistics.median(drawn_steps):.2f}  max {max(drawn_steps):.2f}")


if __name__ == "__main__":
    main()
