"""A battle that says what it does by itself, spells that say why they cannot be cast, and "Cast
Fireball" that declares the spell and nothing else (issue 27, item 4).

A CPU game in Debian's chromium against the real server (tests/browserkit.py), started at
tests/browser/positions/battle-narration.json: the player's lone Fire Spirit marches from L2 into
the CPU's lone Storm Giant on L4. Nobody has a Quick monster and both parties are one monster, so
the four preparation steps pass by themselves; each is narrated in the battle screen's narration
(static/js/battle-words.js). In the player's window the hand's Whirlpool says it needs a water slot
(none in the party) and the Funeral Pyre that it is a Counter. Cast Fireball then resolves (the CPU
has nothing to answer with) and the engine's state shows the spell only: the chain is empty, nobody
has acted, the window is still the player's and the attack still to choose. In English and Japanese
at 1280×800 (the layout is not the point; the covered-controls check runs at each stop).

Screenshots: battle-narration-<stop>-<lang>.png.
"""

import pytest

from tests import stillpage
from tests.browser.test_table_second import covered
from tests.browserkit import SIZES, BoardPlayer, Server, register, start_at
from tests.conftest import shots_dir
from tests.stillpage import board_still

SHOTS = shots_dir()
CPU = {"cpu": "baseline", "seed": 6}

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SAID = {
    "en": {
        "skipped": ["You have no Quick monster that fits: nothing to add.", "Your party is one monster: no formation to set.",
                    "CPU adds no one at the quick summon.", "CPU’s party is one monster: no formation to set."],
        "whirlpool": "needs a water slot: none in this party",
        "funeral-pyre": "a Counter: only as an answer to a declaration",
        "cast": "You cast Fireball.", "damage": "takes 3 damage.", "attack": ["You attack", "your party attacks"],
    },
    "ja": {
        "skipped": ["入れられる即時召喚のモンスターが手札にありません：加えるものはありません。",
                    "あなたのパーティは1体だけ：隊列を決める必要はありません。",
                    "CPUは即時召喚で誰も加えませんでした。", "CPUのパーティは1体だけ：隊列を決める必要はありません。"],
        "whirlpool": "水のスペル枠が必要：このパーティにはない",
        "funeral-pyre": "【対抗】：宣言に応じるときだけ",
        "cast": "ファイアボール", "damage": "3ダメージ", "attack": ["攻撃します", "攻撃しました"],
    },
}

NARRATION = "() => [...document.querySelectorAll('[data-testid=battle-narration] li')].map((li) => li.textContent)"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("narration-server"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


def stop(page, what, lang):
    board_still(page)
    bad = covered(page)
    stillpage.shoot(page, SHOTS / f"battle-narration-{what}-{lang}.png")
    assert not bad, f"{what} ({lang}): controls covered: {bad}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_battle_narrates_its_automatic_steps_and_a_spell_says_why_it_cannot_be_cast(browser, server, lang):
    said = SAID[lang]
    ctx = browser.new_context(**SIZES["desktop"])
    try:
        page = ctx.new_page()
        register(page, server.url, f"narr{lang}")
        if lang == "ja":
            page.click("[data-testid=lang-ja]")
            page.wait_for_load_state()
        start_at(page, server, "battle-narration", **CPU)
        player = BoardPlayer(page)
        player.idle()
        player.dismiss_tips()
        spirit = page.evaluate("""() => window.brigadeBoard.view.units.find((u) => u.owner === window.brigadeBoard.me
            && u.land === "L2").id""")
        page.locator(f".pl-unit[data-unit='{spirit}']").click()
        player.press("[data-key='march:L4']")
        player.idle()
        player.dismiss_tips()
        assert player.controls("[data-testid=attack]"), player.state()

        # the four preparation steps the battle passed by itself, one line each, in order
        lines = page.evaluate(NARRATION)
        found = [next((i for i, line in enumerate(lines) if line == want), None) for want in said["skipped"]]
        assert None not in found and found == sorted(found), (said["skipped"], lines)
        # the spells the player cannot cast say why on their card
        for card in ("whirlpool", "funeral-pyre"):
            note = page.locator(f".pl-hcard[data-card='{card}'] [data-testid=spell-why]").inner_text()
            assert said[card] in note, (card, note)
        stop(page, "window", lang)

        # Cast Fireball: the spell is declared, let through and resolved; no attack of the player's
        assert player.press("[data-testid=spell]")
        player.idle()
        player.dismiss_tips()
        battle = page.evaluate("""() => { const b = window.brigadeBoard, bt = b.view.battle;
            return {chain: bt.chain.length, acted: bt.acted, mine: b.view.waiting_for.includes(b.me), done: bt.done,
                    types: b.legal.map((a) => a.type)}; }""")
        assert battle["chain"] == 0 and battle["acted"] == [] and battle["done"] == [] and battle["mine"], battle
        assert "attack" in battle["types"], battle
        after = page.evaluate(NARRATION)[len(lines):]
        assert any(said["cast"] in line for line in after), after
        assert any(said["damage"] in line for line in after), after
        assert not any(word in line for line in after for word in said["attack"]), after
        stop(page, "after-fireball", lang)
        assert not player.errors, player.errors
    finally:
        ctx.close()
