"""A phone's map while Eringe speaks: in story chapter 2 her first three tips point at lands of the map
(a Rearworld, a Swamp, the enemy's base). On a 390×844 phone, in English and Japanese, while each of
them shows: the map's box is the first thing under the status bars and keeps room to be read, the land
she speaks of lies wholly inside it, and the tip covers no enabled control (test_table_second's
``overlays_cover``).

A story game in Debian's chromium against the real server, started at chapter 2's own deal
(tests/browserkit.py ``start_at``). Screenshots: phone-tip-<lang>-<n>.png.
"""

import pytest

from tests import stillpage
from tests.browser.test_table_second import overlays_cover
from tests.browserkit import PHONE, Server, register, start_at
from tests.conftest import shots_dir

SHOTS = shots_dir()

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: the least height of the map's box on a 390×844 phone while a tip shows: three rows of lands
MAP_ROOM = 200

SEEN = """() => {
    const map = document.querySelector(".pl-map").getBoundingClientRect();
    const tip = document.querySelector(".pl-tip").getBoundingClientRect();
    const target = document.querySelector(".pl-tip-target");
    const t = target && target.getBoundingClientRect();
    return {map: [Math.round(map.top), Math.round(map.height)], tip: [Math.round(tip.top), Math.round(tip.height)],
            target: target && (target.dataset.land || target.className),
            inside: !!t && t.top >= map.top - 0.5 && t.bottom <= map.bottom + 0.5,
            inner: innerHeight, scrolled: scrollY};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("phone-tip-server"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


@pytest.fixture
def phone(browser, server):
    ctx = browser.new_context(**PHONE)
    yield ctx.new_page()
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_tip_on_a_phone_leaves_the_map_in_view_with_the_land_it_speaks_of(phone, server, lang):
    page = phone
    register(page, server.url, f"tip{lang}")
    page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")  # the still board is what is checked
    if lang == "ja":
        page.goto(server.url + "/")
        page.click("[data-testid=lang-ja]")
        page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == lang
    start_at(page, server, None, mode="story", chapter="river-crossing", cleared=["first-muster"], cpu="baseline", seed=6)
    lands = []
    for n in range(3):
        page.wait_for_selector(".pl-tip:not([hidden]) [data-testid=tip-ok]")
        page.wait_for_function("() => window.brigadeBoard.idle && document.fonts.status === 'loaded'")
        stillpage.animations_done(page)
        try:
            page.wait_for_function(f"() => ({SEEN})().inside", timeout=5000)  # the tip scrolled it into view
        except Exception as exc:
            if "Timeout" not in type(exc).__name__:
                raise
            stillpage.shoot(page, SHOTS / f"phone-tip-{lang}-{n}.png")
            raise AssertionError(f"the land the tip speaks of is not wholly in the map's box: {page.evaluate(SEEN)}") from None
        seen = page.evaluate(SEEN)
        print(lang, n, seen)
        stillpage.shoot(page, SHOTS / f"phone-tip-{lang}-{n}.png")
        lands.append(seen["target"])
        assert seen["map"][1] >= MAP_ROOM, f"the map's box is {seen['map'][1]} px high while a tip shows: {seen}"
        assert seen["inside"], f"the land the tip speaks of is not wholly in the map's box: {seen}"
        covers = overlays_cover(page)
        assert not covers["out"], covers
        page.click(".pl-tip [data-testid=tip-ok]")
    assert lands == ["L3", "L1", "H1"], lands
