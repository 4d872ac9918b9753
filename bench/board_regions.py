"""How many DOM nodes an update replaces in the board's regions outside Board.render, in Chromium.

    .venv/bin/python bench/board_regions.py [--repeat 3]

``bench/board_updates.py`` counts what a render of the board and of the battle screen replaces; the
regions drawn apart from those renders are counted here, each over a fixed sequence, with a
MutationObserver on the region (nodes added + removed, each with its subtree), against the number of
nodes the region holds at the end (the reference, in the same run: a full redraw of the region counts
2 × that):

- ``settings``: a CPU game at tests/browser/positions/table-take-back.json; the settings dialog opened,
  then a change made (the speed set to instant) and the dialog opened again while on screen;
- ``replay log`` and ``replay summary``: that game's replay after the Orc's march and a resignation, a
  jump back one step and one step forward (the log drawer and the page's summary line);
- ``online sides`` and ``presence``: an online game at online-start.json, in alice's window: bob's
  emote, 3 s of clock ticks, bob's leaders chosen (a new state), then bob gone (the presence banner
  and its countdown, 3 s).

Starts ``python -m webapp`` (tests/browserkit.py's Server) and Debian's chromium (tests/conftest.py's
launch arguments). Nothing is asserted; the figures go to docs/performance.md.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import DESKTOP, Server, at_take_back, march_then_resign, new_player, start_at, wait_for_board  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# window.__count(name, selector): count the nodes added and removed inside the element(s) at selector
COUNT = """([name, selector]) => {
  window.__counts = window.__counts || {};
  const size = (n) => { let k = 1; for (let c = n.firstChild; c; c = c.nextSibling) k += size(c); return k; };
  const c = window.__counts[name] = {nodes: 0, selector};
  const obs = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) c.nodes += size(n);
      for (const n of r.removedNodes) c.nodes += size(n);
    }
  });
  for (const el of document.querySelectorAll(selector)) obs.observe(el, {childList: true, subtree: true});
}"""
# {name: [nodes added + removed, nodes the region holds now]}
READ = """() => Object.fromEntries(Object.entries(window.__counts || {}).map(([name, c]) => {
  const size = (n) => { let k = 1; for (let x = n.firstChild; x; x = x.nextSibling) k += size(x); return k; };
  let held = 0;
  for (const el of document.querySelectorAll(c.selector)) held += size(el) - 1;
  return [name, [c.nodes, held]];
}))"""


def cpu_and_replay(browser, server, tag):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.goto(server.url + "/")  # a page of the site, for localStorage: the board's fast speed
    page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")
    game, player = at_take_back(page, server, f"regions{tag}")
    page.locator(".pl-status [data-testid=settings]").click()
    page.locator("dialog[open].pl-settings").wait_for()
    page.evaluate(COUNT, ["settings", "dialog"])
    page.locator("[data-testid=set-anim-instant]").check()
    page.wait_for_function("() => document.getElementById('board').dataset.anim === 'instant'")
    page.evaluate("() => window.brigadeBoard.settings.open()")
    out = page.evaluate(READ)
    page.locator("[data-testid=settings-done]").click()
    page.locator("[data-testid=set-anim-fast]").wait_for(state="detached")
    player.board("b.settings.set('anim', 'fast');")
    march_then_resign(player, "me-orc", "L3")
    page.goto(f"{server.url}/games/{game}/replay")
    last = page.evaluate(f"() => fetch('/games/{game}/replay.json').then((r) => r.json()).then((d) => d.steps.length - 1)")

    def step(i):
        page.fill("#replay-range", str(i))
        page.wait_for_function(f"() => window.brigadeBoard && window.brigadeBoard.version === {i} && window.brigadeBoard.idle",
                               timeout=30000)

    step(last)
    page.evaluate(COUNT, ["replay log", ".pl-log-list"])
    page.evaluate(COUNT, ["replay summary", "#replay-summary"])
    step(last - 1)
    page.click("#replay-next")
    page.wait_for_function(f"() => window.brigadeBoard.version === {last} && window.brigadeBoard.idle", timeout=30000)
    out.update(page.evaluate(READ))
    ctx.close()
    return out


def online(browser, server, tag):
    alice = new_player(browser, server, f"regalice{tag}", seed=1)
    bob = new_player(browser, server, f"regbob{tag}", seed=2)
    game = start_at(alice.page, server, "online-start", mode="online", seed=25, opponent=bob.name, clock_ms=30 * 60_000)
    bob.page.goto(f"{server.url}/play/{game}")
    wait_for_board(bob.page)
    page = alice.page
    page.wait_for_selector(".pl-side-me [data-clock]")
    page.evaluate(COUNT, ["online sides", ".pl-side"])
    bob.page.click("[data-testid=emote-toggle]")
    bob.page.click(".pl-emote[data-emote=greet]")
    page.wait_for_selector("[data-testid=emote-bubble][data-seat='1']")
    page.wait_for_timeout(3000)  # clock ticks (a bench, not a test)
    version = alice.state()["version"]
    bob.choose_leaders()
    page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
    out = page.evaluate(READ)
    page.evaluate("() => { window.__counts = {}; }")
    page.evaluate(COUNT, ["presence", "[data-testid=presence]"])
    bob.ctx.close()
    page.wait_for_selector("[data-testid=presence]:not([hidden])", timeout=30000)
    page.wait_for_timeout(3000)
    out.update(page.evaluate(READ))
    alice.ctx.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each sequence (new games each)")
    args = ap.parse_args()
    runs = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        server = Server(tmp, "CPU_DELAY = 0\nCPU_HARD_SECONDS = 0.1\nONLINE_CLAIM_AFTER = 60\nONLINE_AUTO_AFTER = 600\n")
        try:
            for i in range(args.repeat):
                got = cpu_and_replay(browser, server, i)
                got.update(online(browser, server, i))
                runs.append(got)
                print(f"  run {i + 1}: " + ", ".join(f"{k} {v[0]}" for k, v in got.items()), flush=True)
        finally:
            server.stop()
            browser.close()
    print(f"\nnodes added + removed over each sequence (median of {args.repeat} runs), against the nodes the region holds"
          " (a full redraw of the region counts 2 × that):")
    for name in runs[0]:
        nodes = statistics.median(r[name][0] for r in runs)
        held = statistics.median(r[name][1] for r in runs)
        print(f"  {name:16} {nodes:8.0f} nodes   region {held:5.0f} nodes   {nodes / max(1, 2 * held):7.1%} of one full redraw")


if __name__ == "__main__":
    main()
