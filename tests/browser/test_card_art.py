"""Every card drawn everywhere (issue 14): the CPU's units on the board and a spectator's view show the
card's own art, loaded from its hashed SVG file, never the plain placeholder face.

The real server (``python -m webapp``, tests/browserkit.py) and Debian's chromium; the player's CPU
game starts at a position with the CPU's units on the map (tests/browser/positions/table-battle.json,
through the testing start path), then a friend of the player opens the same board as a spectator.
Screenshots: docs/screenshots/art-opponent.png and art-spectator.png.
"""

import re

import pytest

from tests import stillpage
from tests.browserkit import Server, befriend, new_player, start_at, wait_for_board
from tests.conftest import shots_dir
from tests.stillpage import board_still

SHOTS = shots_dir()
pytestmark = [pytest.mark.browser, pytest.mark.slow]
ART = re.compile(r"/art/en/[a-z0-9-]+-[0-9a-f]{12}\.svg$")

#: Every card image of a side on the map: its src, whether it has loaded and its drawn width.
IMAGES = """(side) => [...document.querySelectorAll(`.pl-unit-${side} img`)]
    .map((i) => ({src: i.getAttribute('src'), done: i.complete, w: i.naturalWidth}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("art-server"), "CPU_DELAY = 0.05\n")
    yield srv
    srv.stop()


def loaded_art(page, side):
    page.wait_for_function(f"() => ({IMAGES})('{side}').every((i) => i.done)", timeout=15000)
    images = page.evaluate(f"({IMAGES})('{side}')")
    assert images, f"no {side} unit on the map"
    for image in images:
        assert ART.search(image["src"]), image  # the card's own file, not a blob of the placeholder face
        assert image["w"] > 0, image            # and it loaded
    return images


def test_the_cpu_units_and_a_spectator_show_card_art(server, browser):
    player = new_player(browser, server, "artist")
    page = player.page
    # a CPU game at a position with the CPU's units on the map (the player's turn: nothing moves)
    start_at(page, server, "table-battle", cpu="baseline", seed=6)
    board_url = page.url
    assert player.board("return b.view.phase === 'main' && b.view.units.some((u) => u.owner === b.foe);")
    player.idle()
    foe = loaded_art(page, "foe")
    loaded_art(page, "me")
    board_still(page)
    stillpage.shoot(page, SHOTS / "art-opponent.png")

    watcher = new_player(browser, server, "watcher")
    befriend(server, player.name, watcher.name)  # who may watch: the player's friends (docs/security.md "Watching")
    try:
        watcher.page.goto(board_url)
        wait_for_board(watcher.page)
        assert watcher.board("return b.seat;") is None  # a spectator
        seen = loaded_art(watcher.page, "foe") + loaded_art(watcher.page, "me")
        assert {i["src"] for i in foe} <= {i["src"] for i in seen}
        board_still(watcher.page)
        stillpage.shoot(watcher.page, SHOTS / "art-spectator.png")
    finally:
        watcher.ctx.close()
    assert not player.errors, player.errors
    player.ctx.close()
