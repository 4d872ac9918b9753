"""Time from pressing "Attack" on the board to the player's next decision, at each animation speed.

    python bench/attack_to_decision.py [--attacks 3] [--cpu-delay 0] [--speeds normal,fast,instant]

Starts `python -m webapp` (tests/browserkit.py's Server) with CPU_DELAY = --cpu-delay (0: no CPU
"thinking" pause), then, per speed (normal, fast, instant: the board setting `anim`, saved through
POST /play/settings.json), registers a player in Debian's chromium, starts CPU games and plays them
with tests/browserkit.py's BoardPlayer. Each time the page offers "Attack", it clicks it and measures,
in the page (performance.now()), until the board is idle again and waits for the player (or the game
is over), and how much of that span the board spent drawing events (its `animate`, which holds every
animation and pause the speed setting scales); the rest is the server's and the CPU's time (rules,
the CPU's search, the socket) and the page's own drawing. Prints each figure and the medians per
speed; no figure is asserted anywhere.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import DESKTOP, BoardPlayer, Server, register  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Count the time the board spends in `animate` (wrapped once per page load).
HOOK = """() => { const b = window.brigadeBoard; if (b.__timed) return; b.__timed = true; window.__anim = 0;
    const animate = b.animate.bind(b);
    b.animate = async (...args) => { const t = performance.now(); try { return await animate(...args); }
                                     finally { window.__anim += performance.now() - t; } }; }"""
WAIT_NEXT = """() => { const b = window.brigadeBoard; if (!b || !b.view) return false;
    return b.idle && !!(b.view.result || (b.view.waiting_for || []).includes(b.me)); }"""


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
    args = ap.parse_args()
    srv = Server(tempfile.mkdtemp(prefix="brigade-bench-"), f"CPU_DELAY = {args.cpu_delay}\n")
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


if __name__ == "__main__":
    main()
