"""A converge march (R8.5) with units from two lands, picked on the board page from the compact march
entries (docs/protocol.md): click a monster, the page marks the monsters that may still join it and
the lands they can reach together; click one on another land, then the land, and both march.

The position is The River Crossing's start (story chapter 2) with named units,
tests/browser/positions/converge.json: the brigade on L3 and L4, both next to L5 and L6. The board
opens there through the test-only start path (``start_at``, docs/testing.md) of ``python -m webapp``
(tests/browserkit.py's Server), in Debian's chromium through Playwright. The screenshot goes to
docs/screenshots/play-converge.png.
"""

import os

import pytest

from tests.browserkit import DESKTOP, Server, page_errors, register, start_at
from tests.conftest import shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("converge"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


def board(page, js):
    return page.evaluate(f"() => {{ const b = window.brigadeBoard; {js} }}")


def test_a_converge_march_from_two_lands_on_the_board(server, browser):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors = page_errors(page)
    try:
        register(page, server.url, f"conv{os.getpid() % 10000}")
        start_at(page, server, "converge", cpu="baseline", seed=4)
        page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")

        # the legal list holds one compact entry per destination, not every set of units
        marches = board(page, "return b.legal.filter((a) => a.type === 'march');")
        assert marches and all(a["choose"] == "set" and "units" not in a for a in marches), marches
        assert len({a["to"] for a in marches}) == len(marches)
        mine = board(page, "return b.view.units.filter((u) => u.owner === b.me);")
        on = {land: [u["id"] for u in mine if u["land"] == land] for land in ("L3", "L4")}
        assert on["L3"] and on["L4"]

        # the Orc on L3 selected, the page offers the Ember Drake on L4 to join it
        pair = ("orc-l3", "drake-l4")
        assert pair[0] in on["L3"] and pair[1] in on["L4"]
        page.click(f".pl-unit[data-unit='{pair[0]}']")
        joiners = [u for u in on["L4"] if "pl-join" in (page.get_attribute(f".pl-unit[data-unit='{u}']", "class") or "")]
        assert pair[1] in joiners, f"the Ember Drake on L4 was not offered to join the Orc from L3: {joiners}"
        page.click(f".pl-unit[data-unit='{pair[1]}']")
        assert board(page, "return b.selected.slice();") == list(pair)
        # the lands both can reach together, within the room left there, as the compact entries say
        expected = board(page, f"""return b.legal.filter((a) => a.type === 'march' &&
            {list(pair)!r}.every((u) => a.from.includes(u)) && b.marchRoomLeft(a, {list(pair)!r}) >= 0).map((a) => a.to);""")
        assert set(expected) & {"L5", "L6"}, expected
        go = page.locator("[data-key^='go:']")
        shown = sorted(go.nth(i).get_attribute("data-key")[3:] for i in range(go.count()))
        assert shown == sorted(expected)
        SHOTS = shots_dir()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "play-converge.png"))
        to = "L5" if "L5" in expected else "L6"
        version = board(page, "return b.version;")
        page.click(f"[data-key='go:{to}']")
        page.wait_for_function(f"() => window.brigadeBoard.version > {version}")
        lands = board(page, f"return b.view.units.filter((u) => {list(pair)!r}.includes(u.id)).map((u) => u.land);")
        assert lands == [to, to], lands
    finally:
        ctx.close()
    assert not errors, errors
