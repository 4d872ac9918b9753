"""A converge march (R8.5) with units from two lands, picked on the board page from the compact march
entries (docs/protocol.md): click a monster, the page marks the monsters that may still join it and
the lands they can reach together; click one on another land, then the land, and both march.

The position is a story chapter's start (a scenario, docs/engine.md): The River Crossing, with the
brigade on L3 and L4, both next to L5 and L6. It is served as the only chapter of a story folder of
its own (``$BRIGADE_STORY``) by ``python -m webapp`` (tests/browserkit.py's Server), in Debian's
chromium through Playwright. The screenshot goes to docs/screenshots/play-converge.png.
"""

import os
import re
from pathlib import Path

import pytest

from tests.browserkit import DESKTOP, Server, register, wait_for_board
from tests.conftest import shots_dir
from webapp.game import story

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("converge")
    chapters = folder / "story"
    chapters.mkdir()
    text = (Path(story.story_dir()) / "02-river-crossing.toml").read_text(encoding="utf-8")
    (chapters / "01-river-crossing.toml").write_text(text.replace("order = 2\n", "order = 1\n"), encoding="utf-8")
    before = os.environ.get("BRIGADE_STORY")
    os.environ["BRIGADE_STORY"] = str(chapters)  # the server inherits the environment
    try:
        srv = Server(folder / "server", "CPU_DELAY = 0\n")
    finally:
        if before is None:
            os.environ.pop("BRIGADE_STORY", None)
        else:
            os.environ["BRIGADE_STORY"] = before
    yield srv
    srv.stop()


def board(page, js):
    return page.evaluate(f"() => {{ const b = window.brigadeBoard; {js} }}")


def test_a_converge_march_from_two_lands_on_the_board(server, browser):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        register(page, server.url, f"conv{os.getpid() % 10000}")
        page.goto(server.url + "/story/river-crossing")
        page.click("[data-testid=story-start]")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        wait_for_board(page)
        page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")

        # the legal list holds one compact entry per destination, not every set of units
        marches = board(page, "return b.legal.filter((a) => a.type === 'march');")
        assert marches and all(a["choose"] == "set" and "units" not in a for a in marches), marches
        assert len({a["to"] for a in marches}) == len(marches)
        mine = board(page, "return b.view.units.filter((u) => u.owner === b.me);")
        on = {land: [u["id"] for u in mine if u["land"] == land] for land in ("L3", "L4")}
        assert on["L3"] and on["L4"]

        pair = None
        for first in on["L3"]:
            page.click(f".pl-unit[data-unit='{first}']")
            joiners = [u for u in on["L4"] if "pl-join" in (page.get_attribute(f".pl-unit[data-unit='{u}']", "class") or "")]
            if joiners:
                pair = (first, joiners[0])
                break
            page.click(f".pl-unit[data-unit='{first}']")  # deselect, try the next one
        assert pair, "no monster on L4 was offered to join one from L3"
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
