"""Page weight of the board (or another page), first and repeat load, measured in a real browser.

Starts ``python -m webapp`` (tests/browserkit.py's Server; BRIGADE_SERVER=threading or gevent as
given), registers a player, starts a CPU game with the Prince's Brigade, then opens that board in a
fresh browser context (empty cache) and counts the bytes transferred — Chromium's own figure
(CDP ``Network.loadingFinished.encodedDataLength``: headers and compressed bodies as they came
over the wire) of every HTTP request until the board is drawn, its card images have loaded and the
network has been quiet for a second. Then it opens the same board again in the same context (the
repeat load: a returning player) and counts again. WebSocket frames (the live game) are counted
apart. Nothing is asserted; the figures go to docs/deploy.md and docs/performance.md.

``--page collection|builder|lobby`` weighs that page instead (the same player, logged in): the
collection, the deck builder of the player's first deck, the friends' lobby; each counts until its
script has set the page up (its ``is-live`` mark, or the lobby's scripts loaded) and the network has
been quiet for a second.

    .venv/bin/python bench/page_weight.py [--server threading|gevent] [--size desktop|phone]
                                          [--page board|collection|builder|lobby]
"""

import argparse
import collections
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browserkit import SIZES, Server, register  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


BOARD_READY = "() => window.brigadeBoard && window.brigadeBoard.view && window.brigadeBoard.idle"
#: page -> (path, or None for the first deck's builder; what says its script has set it up)
PAGES = {
    "collection": ("/collection", "() => !!document.querySelector('#coll-filters.is-live')"),
    "builder": (None, "() => !!document.querySelector('#deck-form.is-live')"),
    "lobby": ("/lobby", "() => window.BrigadeI18n && document.readyState === 'complete'"),
}


def measure(page, cdp, url, ready=BOARD_READY):
    """(bytes by kind, requests, websocket bytes) of one load of ``url``."""
    requests, sizes, kinds, ws = {}, collections.Counter(), collections.Counter(), [0]

    def sent(ev):
        requests[ev["requestId"]] = ev["request"]["url"]

    def typed(ev):
        kinds[ev["requestId"]] = ev.get("type", "Other")

    def done(ev):
        sizes[ev["requestId"]] += ev["encodedDataLength"]

    def frame(ev):
        ws[0] += len(ev["response"]["payloadData"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceived", typed)
    cdp.on("Network.loadingFinished", done)
    cdp.on("Network.webSocketFrameReceived", frame)
    cdp.on("Network.webSocketFrameSent", frame)
    page.goto(url)
    page.wait_for_function(ready, timeout=30_000)
    # lazy images (the collection's grid) load as they scroll into view: the ones on screen count
    page.wait_for_function("() => [...document.images].every((i) => i.complete || i.loading === 'lazy')", timeout=30_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    for name, fn in (("Network.requestWillBeSent", sent), ("Network.responseReceived", typed),
                     ("Network.loadingFinished", done), ("Network.webSocketFrameReceived", frame),
                     ("Network.webSocketFrameSent", frame)):
        cdp.remove_listener(name, fn)
    by_kind = collections.Counter()
    for rid, n in sizes.items():
        by_kind[kinds.get(rid, "Other")] += n
    return by_kind, {rid: requests.get(rid, "?") for rid in sizes}, sizes, ws[0]


def report(title, by_kind, requests, sizes, ws):
    total = sum(by_kind.values())
    print(f"{title}: {total / 1024:.1f} KB transferred over HTTP in {len(requests)} responses "
          f"(+ {ws / 1024:.1f} KB of WebSocket frames)")
    for kind, n in by_kind.most_common():
        print(f"  {kind:<12} {n / 1024:8.1f} KB")
    big = sorted(sizes.items(), key=lambda kv: -kv[1])[:6]
    for rid, n in big:
        print(f"    {n / 1024:7.1f} KB  {requests[rid].split('//', 1)[-1].split('/', 1)[-1][:90]}")
    return total


def polling(url, cookies, game):
    """Socket.IO long-polling (no WebSocket) carrying the game's state: is it compressed?"""
    import json

    import requests

    s = requests.Session()
    for c in cookies:
        s.cookies.set(c["name"], c["value"])
    hello = s.get(url + "/socket.io/?EIO=4&transport=polling").text
    base = url + f"/socket.io/?EIO=4&transport=polling&sid={json.loads(hello[1:])['sid']}"
    s.post(base, data="40")
    s.get(base)
    s.post(base, data=f'42["join",{{"game":{game:d}}}]')
    answer = s.get(base, headers={"Accept-Encoding": "gzip, br"}, stream=True)
    wire = answer.raw.read(decode_content=False)
    print(f"long-polling with the state: HTTP {answer.status_code}, Content-Encoding "
          f"{answer.headers.get('Content-Encoding')}, {len(wire) / 1024:.1f} KB on the wire")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", choices=("threading", "gevent"), default="gevent")
    ap.add_argument("--size", choices=tuple(SIZES), default="desktop")
    ap.add_argument("--page", choices=("board", *PAGES), default="board")
    args = ap.parse_args()
    os.environ["BRIGADE_SERVER"] = args.server
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(tmp, "CPU_DELAY = 0.05\n")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                maker = browser.new_context(**SIZES[args.size])
                page = maker.new_page()
                register(page, server.url, "weigher")
                if args.page != "board":
                    weigh_page(browser, maker, server, args)
                    return
                page.goto(server.url + "/play")
                page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
                page.click("text=Start the battle")
                page.wait_for_url("**/play/*")
                board = page.url
                state = maker.storage_state()  # the log-in cookie, nothing cached
                polling(server.url, state["cookies"], int(board.rstrip("/").rsplit("/", 1)[1]))
                maker.close()

                ctx = browser.new_context(**SIZES[args.size], storage_state=state)
                page = ctx.new_page()
                cdp = ctx.new_cdp_session(page)
                cdp.send("Network.enable")
                print(f"board page, {args.size}, server {args.server}")
                first = report("first load", *measure(page, cdp, board))
                repeat = report("repeat load", *measure(page, cdp, board))
                print(f"SUMMARY first={first / 1024:.1f}KB repeat={repeat / 1024:.1f}KB")
                ctx.close()
                browser.close()
        finally:
            server.stop()


def weigh_page(browser, maker, server, args):
    """The first and repeat load of one of PAGES for the logged-in player of ``maker``."""
    path, ready = PAGES[args.page]
    if path is None:  # the builder of the player's first deck
        page = maker.pages[0]
        page.goto(server.url + "/decks")
        path = page.evaluate("() => [...document.links].map((a) => a.pathname).find((p) => /^[/]decks[/][0-9]+$/.test(p))") or "/decks/new"
    state = maker.storage_state()
    maker.close()
    ctx = browser.new_context(**SIZES[args.size], storage_state=state)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    print(f"{args.page} page ({path}), {args.size}, server {args.server}")
    first = report("first load", *measure(page, cdp, server.url + path, ready))
    repeat = report("repeat load", *measure(page, cdp, server.url + path, ready))
    print(f"SUMMARY first={first / 1024:.1f}KB repeat={repeat / 1024:.1f}KB")
    ctx.close()


if __name__ == "__main__":
    main()
