"""How much of the board's DOM an update replaces, and the scripting time of each update, in Chromium.

    .venv/bin/python bench/board_updates.py [--repeat 3] [--seed 1] [--size desktop|phone]

Starts ``python -m webapp`` (tests/browserkit.py's Server, CPU_DELAY = 0), registers a player in
Debian's chromium (tests/conftest.py's launch arguments), sets the board's animations to fast and
plays the same fixed sequence at two positions (tests/browser/positions/, the test-only
POST /testing/start through tests/browserkit.py's ``start_at``):

- ``table-map-full``, the player's main step on a full map (47 tokens): select four of the player's
  tokens one after the other, then unselect them (eight updates that each change one token and the
  destinations; every other token and land is the same before and after);
- ``battle-no-decision`` (the CPU's seed ``--seed``): the player marches its two Orcs from L2 into
  L4 and the battle that follows asks the player nothing, to the player's next decision (each state
  the server sends during the battle is an update of the map, the panels, the hand and the battle
  screen).

Every synchronous render of the board (``Board.render``) and of the battle screen
(``BattleScreen.render``, and ``BattleScreen.draw`` where it exists: a render that keeps the
animations' marks, docs/decisions/0139) is wrapped in the page: ``performance.now()`` around it (its scripting
time, layout included where the render reads a size) and a MutationObserver on the document
counting the nodes it added and removed, each with its whole subtree (a removed <li> holding a
button, an <img> and a text counts 4). The reference, in the same run, is the number of nodes of the
board itself (``#board``): a full redraw removes and adds each of them, and the last column is
(added + removed) / (2 × the board's nodes), 100 % for a full redraw. Chromium's own counters
(CDP ``Performance.getMetrics``: ScriptDuration, RecalcStyleDuration, LayoutDuration, over each whole
sequence, animations and socket handling included) are printed beside them, and for the march and
battle the nodes added and removed inside the battle screen over the whole sequence, by its renders
and by the edits its animations made by hand (the rebuilt screen of before wrote its narration, a
hit's numbers and the rolling dice into its elements directly, outside any render). Nothing is
asserted; the figures go to docs/performance.md.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import SIZES, BoardPlayer, Server, register, start_at  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Wraps Board.render and BattleScreen.render (once per page load); nested renders count in the outer one.
HOOK = """() => {
  const b = window.brigadeBoard; if (b.__counted) return; b.__counted = true;
  window.__updates = []; let depth = 0;
  const size = (n) => { let k = 1; for (let c = n.firstChild; c; c = c.nextSibling) k += size(c); return k; };
  const obs = new MutationObserver(() => {});
  obs.observe(document.body, {childList: true, subtree: true});
  const wrap = (obj, name, what) => {
    const inner = obj[name].bind(obj);
    obj[name] = (...args) => {
      if (depth++ > 0) { try { return inner(...args); } finally { depth--; } }
      obs.takeRecords();
      const t = performance.now();
      try { return inner(...args); } finally {
        const ms = performance.now() - t;
        let added = 0, removed = 0;
        for (const r of obs.takeRecords()) {
          for (const n of r.addedNodes) added += size(n);
          for (const n of r.removedNodes) removed += size(n);
        }
        const root = document.getElementById("board");
        window.__updates.push({what, ms, added, removed, board: root ? size(root) : 0});
        depth--;
      }
    };
  };
  wrap(b, "render", "board");
  wrap(b.battle, "render", "battle");
  if (b.battle.draw) wrap(b.battle, "draw", "battle");  // a render that keeps the animations' marks (0139)
  // every change inside the battle screen, by a render or by hand (a rebuilt screen's animations edited
  // its elements directly: the narration, the numbers of a hit, the rolling dice)
  window.__screen = {added: 0, removed: 0};
  new MutationObserver((records) => {
    for (const r of records) {
      if (!b.battle.el.contains(r.target)) continue;
      for (const n of r.addedNodes) window.__screen.added += size(n);
      for (const n of r.removedNodes) window.__screen.removed += size(n);
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""
TAKE = "() => { const u = window.__updates; window.__updates = []; return u; }"
SCREEN = "() => { const s = window.__screen; window.__screen = {added: 0, removed: 0}; return s; }"
READY = "() => window.brigadeBoard && window.brigadeBoard.settings.loaded && window.brigadeBoard.idle"
MY_DECISION = """() => { const b = window.brigadeBoard; return b && b.idle && b.battle.el.hidden
    && !!(b.view.result || (b.view.waiting_for || []).includes(b.me) && b.view.phase === "main"); }"""


def set_speed(page, url, speed):
    page.goto(url + "/play")
    csrf = page.evaluate("() => document.querySelector('input[name=csrf_token]').value")
    r = page.request.post(url + "/play/settings.json", data={"anim": speed}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()


METRICS = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration")


def metrics(cdp):
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: got.get(k, 0.0) for k in METRICS}


def open_at(page, srv, name, seed):
    start_at(page, srv, name, cpu="baseline", seed=seed)
    page.wait_for_function(READY, timeout=30000)
    BoardPlayer(page).dismiss_tips()
    page.evaluate(HOOK)


def select_tokens(page, cdp, srv, seed):
    """Four of the player's tokens selected one after the other, then unselected: eight updates."""
    open_at(page, srv, "table-map-full", seed)
    ids = page.evaluate("""() => [...document.querySelectorAll('.pl-unit.pl-can')].slice(0, 4).map((e) => e.dataset.unit)""")
    assert len(ids) == 4, ids
    page.evaluate(TAKE)
    m0 = metrics(cdp)
    for uid in ids + ids:
        page.locator(f".pl-unit[data-unit='{uid}']").click()
    page.wait_for_function(READY, timeout=30000)
    m1 = metrics(cdp)
    return page.evaluate(TAKE), {k: m1[k] - m0[k] for k in METRICS}


def battle(page, cdp, srv, seed):
    """The march of two Orcs into L4 and the battle that asks the player nothing, to the next decision."""
    open_at(page, srv, "battle-no-decision", seed)
    orcs = page.evaluate("""() => window.brigadeBoard.view.units.filter((u) => u.owner === window.brigadeBoard.me
        && u.land === "L2").map((u) => u.id)""")
    for orc in orcs:
        page.locator(f".pl-unit[data-unit='{orc}']").click()
    page.evaluate(TAKE)  # the selections are the other sequence's kind of update
    page.evaluate(SCREEN)
    before = page.evaluate("() => window.brigadeBoard.version")
    m0 = metrics(cdp)
    page.locator("[data-key='march:L4']").click()
    page.wait_for_function(f"() => window.brigadeBoard.version > {before}", timeout=30000)
    page.wait_for_function(MY_DECISION, timeout=120000, polling=50)
    m1 = metrics(cdp)
    screen = page.evaluate(SCREEN)
    return page.evaluate(TAKE), dict({k: m1[k] - m0[k] for k in METRICS}, screen=screen["added"] + screen["removed"])


def summary(label, runs):
    """One line of figures over every update of every run."""
    ups = [u for run in runs for u in run]
    if not ups:
        print(f"  {label:34} no updates")
        return
    nodes = [u["added"] + u["removed"] for u in ups]
    share = [(u["added"] + u["removed"]) / max(1, 2 * u["board"]) for u in ups]
    ms = [u["ms"] for u in ups]
    print(f"  {label:34} {len(ups) / len(runs):6.1f} {statistics.median(nodes):8.0f} {statistics.mean(nodes):8.1f}"
          f" {statistics.median(ms):7.2f} {statistics.mean(ms):7.2f} {max(ms):7.2f}"
          f" {statistics.median(u['board'] for u in ups):7.0f} {statistics.mean(share):7.1%}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each sequence (a new game each)")
    ap.add_argument("--seed", type=int, default=1, help="the CPU's seed of the battle")
    ap.add_argument("--size", choices=sorted(SIZES), default="desktop")
    args = ap.parse_args()
    srv = Server(tempfile.mkdtemp(prefix="brigade-bench-"), "CPU_DELAY = 0\n")
    results = {"select": [], "battle": []}
    chrome = {"select": [], "battle": []}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            ctx = browser.new_context(**SIZES[args.size])
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Performance.enable")
            register(page, srv.url, "bench-updates")
            set_speed(page, srv.url, "fast")
            for n in range(args.repeat):
                for name, run in (("select", select_tokens), ("battle", battle)):
                    ups, spent = run(page, cdp, srv, args.seed)
                    results[name].append(ups)
                    chrome[name].append(spent)
                print(f"  run {n + 1}: {len(results['select'][-1])} selection updates,"
                      f" {len(results['battle'][-1])} battle updates", flush=True)
            browser.close()
    finally:
        srv.stop()
    print(f"\nper update ({args.size}, {args.repeat} runs; nodes = added + removed, each with its subtree;"
          " share = nodes / (2 × the board's nodes)):")
    print(f"  {'sequence':34} {'updates':>6} {'nodes md':>8} {'mean':>8} {'ms md':>7} {'mean':>7} {'max':>7}"
          f" {'board':>7} {'share':>7}")
    summary("select/unselect tokens (board)", [[u for u in r if u["what"] == "board"] for r in results["select"]])
    summary("battle: board renders", [[u for u in r if u["what"] == "board"] for r in results["battle"]])
    summary("battle: battle-screen renders", [[u for u in r if u["what"] == "battle"] for r in results["battle"]])
    summary("battle: all renders", results["battle"])
    print("\nChromium's counters over each whole sequence (median of the runs, ms):")
    for name, label in (("select", "select/unselect tokens"), ("battle", "march and battle")):
        print(f"  {label:34}" + "".join(f" {k[:-8]} {1000 * statistics.median(r[k] for r in chrome[name]):7.0f}"
                                         for k in METRICS))
    print("\nthe battle screen over the whole march and battle (median of the runs): nodes added + removed inside it,"
          f" by renders and by hand: {statistics.median(r['screen'] for r in chrome['battle']):.0f}")


if __name__ == "__main__":
    main()
