"""A CPU game played in Japanese through the page's own controls (issue 15): a new account switches
to Japanese with the header's switch, starts a game against the random CPU (``CPU_PLAYER =
"random"``, as tests/browser/test_first_hour.py) and plays it to the end with BoardPlayer (which
chooses controls by data-testid, data-key and classes, never by English text). At every decision the
board's regions a player reads (status bar, panel, leader choice, battle screen, hand, open dialog,
toasts) show no English word outside an allow-list: the account's name, "CPU", the land ids' letters
are not words (L1, H0), and the few marks every language shows (Esc).

Screenshots (looked at for overflow and cut text): board-ja-{main,battle,end}-{desktop,phone}.png.
"""

import re

import pytest

from tests.browserkit import SIZES, new_player, wait_for_board
from tests.conftest import shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
MAX_STEPS = 1500
#: the parts of the board a player reads (their visible text, innerText)
REGIONS = [".pl-status", ".pl-panel", ".pl-leaders", ".pl-battle", ".pl-hand", "dialog[open]", ".pl-toasts",
           ".pl-side"]
ALLOWED = {"CPU", "Esc", "Lv"}
WORD = re.compile(r"(?<![\w])[A-Za-z][A-Za-z']*[A-Za-z](?![\w])")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tests.browserkit import Server
    srv = Server(tmp_path_factory.mktemp("board-ja"), "CPU_DELAY = 0\nCPU_PLAYER = 'random'\n")
    yield srv
    srv.stop()


def board_text(page):
    """{region: its visible text} of the regions shown now."""
    return page.evaluate("""(sels) => Object.fromEntries(sels.map((s) => [s,
        [...document.querySelectorAll(s)].filter((e) => e.offsetParent || e.getClientRects().length)
          .map((e) => e.innerText).join("\\n")]))""", REGIONS)


def english(texts, allowed):
    """[(region, word, line)] of the English words the regions show."""
    out = []
    for region, text in texts.items():
        for line in text.splitlines():
            for word in WORD.findall(line):
                if word not in allowed:
                    out.append((region, word, line.strip()))
    return out


def shoot(page, name):
    page.mouse.move(1, 1)  # no card preview left open by the last hover
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(200)
    path = SHOTS / f"board-ja-{name}.png"
    page.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 1000


def cut_text(page):
    """Texts in the board that overflow their own box sideways (cut or spilling), and the side rows'
    counts that stick out of their row (the row clips them: "土地 1" was cut off on phones):
    [(class, text)]."""
    return page.evaluate("""() => [...document.querySelectorAll('#board button, #board h2, #board h3, #board p, #board .pl-count')]
        .filter((e) => e.offsetParent && !e.querySelector('img, svg, canvas') && e.scrollWidth > e.clientWidth + 2
          && getComputedStyle(e).overflowX !== 'auto' && getComputedStyle(e).textOverflow !== 'ellipsis')
        .map((e) => [e.className, e.innerText.slice(0, 60)])
        .concat([...document.querySelectorAll('#board .pl-side > .pl-count')]
          .filter((e) => e.offsetParent && e.getBoundingClientRect().right > e.parentElement.getBoundingClientRect().right + 1)
          .map((e) => ['outside its row: ' + e.className, e.innerText.slice(0, 60)]))""")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_cpu_game_in_japanese_shows_no_english(browser, server, size):
    name = f"taro{size}"  # a name players typed: allowed in any language
    player = new_player(browser, server, name, SIZES[size], seed=5)
    page = player.page
    try:
        page.goto(server.url + "/")
        page.click("[data-testid=lang-ja]")
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == "ja"
        page.goto(server.url + "/play")
        page.locator("label.play-deck input[name=deck]").first.check()
        page.click("form.play-deck-form button[type=submit]")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        wait_for_board(page)
        assert page.locator("html").get_attribute("lang") == "ja"
        allowed = ALLOWED | set(WORD.findall(name))
        found, shots, steps = [], set(), 0
        for steps in range(MAX_STEPS):  # noqa: B007 (counted for the message)
            player.idle()
            player.dismiss_tips()
            st = player.state()
            found += english(board_text(page), allowed)
            if st["mine"] and not st["result"]:
                if st["phase"] == "main" and "main" not in shots and st["round"] >= 2:
                    shoot(page, f"main-{size}")
                    assert not cut_text(page), cut_text(page)
                    shots.add("main")
                if st["phase"] == "battle" and "battle" not in shots and st["battle"]["step"] == "fight":
                    shoot(page, f"battle-{size}")
                    shots.add("battle")
            if not player.step():
                break
        else:
            raise AssertionError(f"the game did not end: {player.errors} {player.diagnose()} {player.seen}")
        assert not player.errors, player.errors
        end = page.locator(".pl-end[open]")
        end.locator("[data-testid=end-next] a, [data-testid=end-next] button").first.wait_for()
        page.wait_for_timeout(300)  # the end screen's second half (end.json)
        found += english(board_text(page), allowed)
        assert end.locator("[data-testid=end-title]").inner_text() in ("勝利！", "敗北", "引き分け")
        shoot(page, f"end-{size}")
        assert {"main", "battle"} <= shots, (shots, steps)
        unique = sorted({(region, word, line) for region, word, line in found})
        assert not unique, f"English on the Japanese board: {unique[:15]}"
    finally:
        player.ctx.close()
