"""Time from pressing "Attack" on the board to the player's next decision, at each animation speed.

    python bench/attack_to_decision.py [--attacks 3] [--cpu-delay 0] [--speeds normal,fast,instant]

Starts `python -m webapp` (tests/browserkit.py's Server) with CPU_DELAY = --cpu-delay (0: no CPU
"thinking" pause), then, per speed (normal, fast, instant: the board setting `anim`, saved through
POST /play/settings.json), registers a player in Debian's chromium, starts CPU games and plays them
with tests/browserkit.py's BoardPlayer. Each time the page offers "Attack", it clicks it and measures,
in the page (performance.now()), until the board is idle again and waits for the player (or the game
is over). Prints each figure and the median per speed; no figure is asserted anywhere.
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
                    page.evaluate("() => { window.__t0 = performance.now(); }")
                    player.press("[data-testid=attack]")
                    page.wait_for_function(WAIT_NEXT, timeout=120000, polling=50)
                    ms = page.evaluate("() => performance.now() - window.__t0")
                    out.append(ms / 1000)
                    print(f"  {speed:8} attack → next decision: {ms / 1000:.2f} s", flush=True)
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
    for speed, xs in results.items():
        if xs:
            print(f"  {speed:8} median {statistics.median(xs):.2f}  min {min(xs):.2f}  max {max(xs):.2f}  (n = {len(xs)})")
        else:
            print(f"  {speed:8} no attack came up")


if __name__ == "__main__":
    main()
