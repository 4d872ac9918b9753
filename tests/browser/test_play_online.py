"""A game between two friends online in real browsers (R18, issue 6): the invitation, the dice, the
simultaneous leader choice, both clocks, emotes, a reload and an absence in the middle of a battle,
the game played to its end, a rematch, a spectator, a claim and a resignation; and a game whose
clock runs out.

Two browser contexts (alice and bob, a third for carol, who watches) drive Debian's chromium against
the real server (tests/browserkit.py's ``Server``: ``python -m webapp`` on a free port with its own
instance folder and database, short grace periods in its config.py). Every move is a click on the
board page's own controls (``BoardPlayer``, which the CPU game's test uses too); the test never sends
an action itself. Screenshots go to shots_dir() as online-*.png.
"""

import json
import random
import re

import pytest

from tests import stillpage
from tests.browserkit import PHONE, Server, drive, new_player, wait_for_board
from tests.conftest import shots_dir
from tests.stillpage import board_still

SHOTS = shots_dir()
CLAIM_AFTER = 4          # seconds (R18.4 says 60; the server reads it from config)
SHORT_CLOCK = 0.5        # minutes: the invite form's default here, for the game whose clock runs out
CONFIG = f"""CPU_DELAY = 0
ONLINE_CLAIM_AFTER = {CLAIM_AFTER}
ONLINE_AUTO_AFTER = 120
ONLINE_TICK = 0.2
ONLINE_CLOCK_MIN_MINUTES = 0
ONLINE_CLOCK_MINUTES = {SHORT_CLOCK}
"""
CLOCK_MINUTES = "30"     # each player's clock: a game driven by the test takes a few minutes of each

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("online"), CONFIG)
    yield srv
    srv.stop()


# ---------------------------------------------------------------- helpers


def shoot(page, name, full_page=False):
    """online-<name>.png, with Eringe's tips put away."""
    if page.evaluate("() => !!window.brigadeBoard"):
        board_still(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    stillpage.shoot(page, SHOTS / f"online-{name}.png", full_page=full_page)


def pick_loaner(page):
    """New accounts own fewer than 30 cards: the Prince's Brigade loaner is what they may play (R2.3)."""
    loaner = page.locator("label.lobby-deck", has_text="Prince")
    assert loaner.count() == 1, page.locator("form.lobby-form").inner_text()
    assert "loaner deck" in loaner.inner_text()
    loaner.locator("input[name=deck]").check()


def clock_ms(page, seat):
    """The clock of ``seat`` as the page shows it, in ms (whole seconds)."""
    text = page.locator(f".pl-side [data-clock='{seat}'] b").inner_text()
    minutes, seconds = text.split(":")
    return (int(minutes) * 60 + int(seconds)) * 1000


def board(page, script):
    return page.evaluate(f"() => {{ const b = window.brigadeBoard; {script} }}")


def record_presence(page):
    """Keep every `presence` event the page's board gets in window.seenPresence."""
    page.evaluate("""() => {
        window.seenPresence = [];
        const o = window.brigadeBoard.online, on = o.onPresence.bind(o);
        o.onPresence = (m) => { window.seenPresence.push(JSON.parse(JSON.stringify(m.presence))); on(m); };
    }""")


def synced(players, timeout=30):
    """Both pages idle on the same version; that version's state (from the first page)."""
    for _ in range(20):
        for pl in players:
            pl.idle()
        versions = [pl.state()["version"] for pl in players]
        if len(set(versions)) == 1:
            return players[0].state()
        # the page behind waits for the version the other one has
        newest = max(versions)
        for pl, v in zip(players, versions, strict=True):
            if v < newest:
                pl.page.wait_for_function(f"() => brigadeBoard.version >= {newest} && brigadeBoard.idle", timeout=timeout * 1000)
    raise AssertionError(f"the pages do not agree on the version: {versions}")


def on_board(pl, game):
    pl.page.wait_for_url(re.compile(rf"/play/{game}$"))
    wait_for_board(pl.page)
    assert board(pl.page, "return b.game;") == game


def moved_on(pl, old):
    """The page went from game ``old``'s board to another game's (a rematch); that game's id."""
    pl.page.wait_for_url(lambda u: re.search(r"/play/\d+$", u) is not None and not u.endswith(f"/play/{old}"))
    return int(pl.page.url.rsplit("/", 1)[1])


# ---------------------------------------------------------------- the test


def test_a_game_between_friends(server, browser):
    url = server.url
    tag = random.Random().randrange(10**6)
    alice = new_player(browser, server, f"alice{tag}", seed=1)
    bob = new_player(browser, server, f"bob{tag}", seed=2)
    carol = new_player(browser, server, f"carol{tag}", size=PHONE)
    players = [alice, bob]
    try:
        # ------------------------------------------------ the invitation (R18.1)
        alice.page.goto(url + "/lobby")
        pick_loaner(alice.page)
        alice.page.select_option("select[name=clock]", CLOCK_MINUTES)
        alice.page.click("text=Create the invitation")
        alice.page.wait_for_url(re.compile(r"/lobby/invite/\d+$"))
        game = int(alice.page.url.rsplit("/", 1)[1])
        link = alice.page.locator("#invite-link").input_value()
        code = alice.page.locator("#invite-code").inner_text()
        assert link.endswith("/join/" + code), (link, code)

        bob.page.goto(link)
        assert f"alice{tag} invites you" in bob.page.locator("h1").inner_text()
        pick_loaner(bob.page)
        bob.page.click("text=Join the battle")
        on_board(bob, game)
        on_board(alice, game)  # the invitation page went to the board on `started`
        for pl in players:
            pl.page.evaluate("() => localStorage.removeItem('brigade.tips.seen')")

        # ------------------------------------------------ the dice (R5.1) and both clocks
        seen = [board(pl.page, "return {seat: b.seat, opening: b.view.opening.dice, first: b.view.first};") for pl in players]
        assert [s["seat"] for s in seen] == [0, 1]
        assert seen[0]["opening"] == seen[1]["opening"] and seen[0]["first"] == seen[1]["first"], seen
        rolls, first = seen[0]["opening"], seen[0]["first"]
        assert rolls[-1][first] > rolls[-1][1 - first], seen
        for pl, me in ((alice, 0), (bob, 1)):
            opening = pl.page.locator("[data-testid=opening]").inner_text()
            assert ("You go first" if first == me else f"{players[first].name} goes first") in opening, opening
            assert pl.page.locator(".pl-side [data-clock]").count() == 2
            assert pl.page.locator(".pl-side .pl-clock-run").count() == 2  # both choose leaders at once (R5.7)
            assert 29 * 60_000 <= clock_ms(pl.page, 0) <= 30 * 60_000

        # ------------------------------------------------ leaders at once, hidden until both chose (R5.7)
        alice.dismiss_tips()
        alice.choose_leaders()
        alice.page.wait_for_function("() => brigadeBoard.idle && brigadeBoard.view.players[0].leader_choice")
        chosen = board(alice.page, "return b.view.players[0].leader_choice;")
        cards = board(alice.page, "return b.view.players[0].hand.filter((c) => b.view.players[0].leader_choice.includes(c.id))"
                                  ".map((c) => b.cards.name(c.card));")
        bob.page.wait_for_selector("[data-testid=foe-chosen]")
        assert f"alice{tag} has chosen" in bob.page.locator("[data-testid=foe-chosen]").inner_text()
        bob_sees = board(bob.page, "return JSON.stringify(b.payload);")
        assert not any(f'"{i}"' in bob_sees for i in chosen), "bob's page got alice's leaders before choosing"
        assert board(bob.page, "return b.view.leaders === undefined && !b.view.players[0].leader_choice;")
        bob_text = bob.page.locator(".pl-leaders").inner_text()
        assert "Waiting for" not in bob_text
        assert board(alice.page, "return b.view.leaders === undefined && b.view.units.length === 0;")
        bob.dismiss_tips()
        bob.choose_leaders()
        state = synced(players)
        assert state["phase"] != "leaders"
        for pl in players:
            leaders = board(pl.page, "return b.view.leaders;")
            assert len(leaders) == 2 and all(leaders), leaders
            assert pl.page.locator(".pl-unit-foe.pl-leader").count() >= 1
        alice_leader_cards = board(bob.page, "return b.view.leaders[0].map((id) => b.cards.name(b.unit(id).card));")
        assert sorted(alice_leader_cards) == sorted(cards)

        # ------------------------------------------------ a spectator (phone size): clocks, no hand, no emotes
        carol.page.goto(f"{url}/play/{game}")
        wait_for_board(carol.page)
        assert board(carol.page, "return b.seat;") is None
        assert carol.page.locator("[data-testid=watching]").is_visible()
        assert carol.page.locator(".pl-side [data-clock]").count() == 2
        assert carol.page.locator("[data-testid=emote-toggle]").count() == 0
        assert carol.page.locator(".pl-hcard").count() == 0
        widths = carol.page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] + 1, f"the phone page scrolls sideways: {widths}"

        # ------------------------------------------------ the clocks tick on the waited-for side (R18.3)
        drive(players, until=lambda pl, st: st["phase"] == "main" and st["round"] >= 2 and st["mine"])
        state = synced(players)
        mover = state["active"]
        other = 1 - mover
        before = {pl.name: (clock_ms(pl.page, mover), clock_ms(pl.page, other)) for pl in players}
        for pl in players:
            assert "pl-clock-run" in pl.page.locator(f".pl-side [data-clock='{mover}']").get_attribute("class")
            assert "pl-clock-run" not in pl.page.locator(f".pl-side [data-clock='{other}']").get_attribute("class")
        for pl in players:  # the mover's clock shows a second less; then nothing else may have changed
            pl.page.wait_for_function(f"""() => {{
                const [m, s] = document.querySelector(".pl-side [data-clock='{mover}'] b").textContent.split(":");
                return (Number(m) * 60 + Number(s)) * 1000 < {before[pl.name][0]};
            }}""", timeout=10_000)
        for pl in players:
            now = (clock_ms(pl.page, mover), clock_ms(pl.page, other))
            assert now[0] < before[pl.name][0], (pl.name, before[pl.name], now)
            assert now[1] == before[pl.name][1], (pl.name, before[pl.name], now)
        shoot(alice.page, "board-clocks", full_page=True)

        # ------------------------------------------------ the emote row on a phone: no sideways scrolling, big enough to tap
        phone = browser.new_context(**PHONE, storage_state=alice.ctx.storage_state())
        pp = phone.new_page()
        pp.goto(f"{url}/play/{game}")
        wait_for_board(pp)
        pp.click("[data-testid=emote-toggle]")
        widths = pp.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] + 1, f"the phone page scrolls sideways: {widths}"
        small = pp.evaluate("""() => [...document.querySelectorAll('.pl-emote, .pl-emote-toggle')]
            .map((e) => e.getBoundingClientRect()).filter((r) => r.width < 39.5 || r.height < 39.5).length""")
        assert small == 0, f"{small} emote buttons smaller than 40 px on the phone"
        phone.close()
        # ------------------------------------------------ emotes: a bubble by the sender's name
        alice.page.click("[data-testid=emote-toggle]")
        assert alice.page.locator(".pl-emotes .pl-emote").count() == 8
        bob.page.click("[data-testid=emote-toggle]")
        bob.page.click(".pl-emote[data-emote=greet]")
        alice.page.wait_for_selector("[data-testid=emote-bubble][data-seat='1']")
        assert "Hello" in alice.page.locator("[data-testid=emote-bubble][data-seat='1']").inner_text()
        carol.page.wait_for_selector("[data-testid=emote-bubble][data-seat='1']")  # spectators see emotes too
        shoot(alice.page, "emote", full_page=True)
        alice.page.click(".pl-emote[data-emote=well_played]")
        assert alice.page.locator(".pl-emotes").count() == 0  # the row closes after sending
        bob.page.wait_for_selector("[data-testid=emote-bubble][data-seat='0']")
        assert "Well played" in bob.page.locator("[data-testid=emote-bubble][data-seat='0']").inner_text()
        bob.page.wait_for_selector("[data-testid=emote-bubble][data-seat='0']", state="detached", timeout=10_000)  # gone after ~3 s

        # ------------------------------------------------ mid-battle: a reload, then an absence (R18.4)
        def in_battle(pl, st):
            other_st = (bob if pl is alice else alice).state()
            return (st["battle"] is not None and other_st["battle"] is not None and st["version"] == other_st["version"]
                    and not (st["mine"] and other_st["mine"]))

        outcome = drive(players, until=in_battle)
        battle_seen = outcome == "until"
        if battle_seen:
            state = synced(players)
            waited = next(pl for pl in players if pl.state()["mine"])
            watcher = bob if waited is alice else alice
            seat = players.index(waited)
            version = state["version"]
            assert waited.page.locator("[data-testid=battle]").is_visible()
            record_presence(watcher.page)
            waited.page.reload()
            wait_for_board(waited.page)
            assert board(waited.page, "return b.version;") == version
            assert waited.page.locator("[data-testid=battle]").is_visible()  # the same battle, resumed
            watcher.page.wait_for_function(f"() => window.seenPresence.some((p) => p[{seat}].connected)")
            assert any(not p[seat]["connected"] for p in watcher.page.evaluate("() => window.seenPresence")), \
                "the opponent's page did not hear of the reload"

            # away for longer: the banner counts down, then offers the claim
            waited.page.goto("about:blank")
            banner = watcher.page.locator("[data-testid=presence]")
            banner.wait_for(state="visible")
            assert f"{waited.name} disconnected" in banner.inner_text()
            assert "to come back" in banner.inner_text()
            carol.page.locator("[data-testid=presence]").wait_for(state="visible")
            shoot(carol.page, "spectator", full_page=True)
            watcher.page.wait_for_selector("[data-testid=claim]", timeout=(CLAIM_AFTER + 20) * 1000)
            assert "You may claim the win" in banner.inner_text()
            shoot(watcher.page, "disconnected")
            waited.page.goto(f"{url}/play/{game}")
            wait_for_board(waited.page)
            assert board(waited.page, "return b.version;") == version
            assert waited.page.locator("[data-testid=battle]").is_visible()
            banner.wait_for(state="hidden")
        else:
            shoot(carol.page, "spectator", full_page=True)

        # ------------------------------------------------ to the end (R1)
        assert drive(players) == "over"
        for pl in players + [carol]:
            pl.page.wait_for_selector(".pl-end[open]", timeout=30_000)
        result = board(alice.page, "return b.view.result;")
        assert board(bob.page, "return b.view.result;") == result
        assert result["reason"] in ("leaders", "judgment", "draw"), result
        titles = [pl.page.locator("[data-testid=end-title]").inner_text() for pl in players]
        if result["winner"] is None:
            assert titles == ["A draw", "A draw"]
        else:
            assert titles[result["winner"]] == "Victory!" and titles[1 - result["winner"]] == "Defeat", titles
        for pl in players:
            assert not pl.errors, pl.errors

        # ------------------------------------------------ a rematch: offered, accepted, both on the new board
        alice.page.click(".pl-end [data-testid=rematch-offer]")
        alice.page.wait_for_selector(".pl-end [data-testid=rematch] >> text=Waiting for")
        bob.page.wait_for_selector(".pl-end [data-testid=rematch-accept]")
        assert f"alice{tag} offers a rematch" in bob.page.locator(".pl-end [data-testid=rematch]").inner_text()
        shoot(bob.page, "end-rematch")
        bob.page.click(".pl-end [data-testid=rematch-accept]")
        rematch = moved_on(alice, game)
        assert moved_on(bob, game) == rematch
        for pl in players:
            on_board(pl, rematch)
        carol.page.wait_for_selector("[data-testid=rematch-go]")  # the spectator stays, with a link
        assert carol.page.url.endswith(f"/play/{game}")
        again = [board(pl.page, "return {first: b.view.first, dice: b.view.opening && b.view.opening.dice, of: b.online.rematchOf};")
                 for pl in players]
        assert again[0] == again[1] and again[0]["first"] == 1 - first and not again[0]["dice"], again
        assert again[0]["of"] == game
        assert "A rematch" in alice.page.locator("[data-testid=opening]").inner_text()

        # ------------------------------------------------ the rematch: bob stays away, alice claims the win (R18.4)
        bob.page.goto("about:blank")
        alice.page.wait_for_selector("[data-testid=claim]", timeout=(CLAIM_AFTER + 20) * 1000)
        alice.page.click("[data-testid=claim]")
        alice.page.wait_for_selector(".pl-end[open]")
        assert alice.page.locator("[data-testid=end-title]").inner_text() == "Victory!"
        assert f"bob{tag} left the game; you win." in alice.page.locator(".pl-end-reason").inner_text()
        bob.page.goto(f"{url}/play/{rematch}")
        wait_for_board(bob.page)
        bob.page.wait_for_selector(".pl-end[open]")
        assert bob.page.locator("[data-testid=end-title]").inner_text() == "Defeat"
        assert "You stayed away too long" in bob.page.locator(".pl-end-reason").inner_text()

        # ------------------------------------------------ once more, and bob resigns (R18.5)
        bob.page.click(".pl-end [data-testid=rematch-offer]")
        alice.page.wait_for_selector(".pl-end [data-testid=rematch-accept]")
        alice.page.click(".pl-end [data-testid=rematch-accept]")
        third = moved_on(bob, rematch)
        assert moved_on(alice, rematch) == third and third != game
        for pl in players:
            on_board(pl, third)
        bob.dismiss_tips()
        bob.page.locator("button", has_text="Resign").click()
        bob.page.locator("[data-testid=confirm-ok]").click()
        for pl in players:
            pl.page.wait_for_selector(".pl-end[open]")
        assert "You resigned." in bob.page.locator(".pl-end-reason").inner_text()
        assert f"bob{tag} resigned." in alice.page.locator(".pl-end-reason").inner_text()
        for pl in players:
            assert not pl.errors, pl.errors
        assert not carol.errors, carol.errors
        print(json.dumps({"game": game, "result": result, "battle_reload": battle_seen,
                          "seen": [alice.seen, bob.seen]}))
    finally:
        for pl in (alice, bob, carol):
            pl.ctx.close()


def test_a_clock_runs_out(server, browser):
    """R18.3: under a minute the clocks turn urgent; the player whose clock runs out loses, and both
    pages say so. (A half-minute clock, the invite form's default in this server's config.)"""
    tag = random.Random().randrange(10**6)
    alice = new_player(browser, server, f"alice{tag}")
    bob = new_player(browser, server, f"bob{tag}")
    try:
        alice.page.goto(server.url + "/lobby")
        pick_loaner(alice.page)
        assert alice.page.locator("select[name=clock]").input_value() == str(SHORT_CLOCK)
        alice.page.click("text=Create the invitation")
        alice.page.wait_for_url(re.compile(r"/lobby/invite/\d+$"))
        game = int(alice.page.url.rsplit("/", 1)[1])
        bob.page.goto(alice.page.locator("#invite-link").input_value())
        pick_loaner(bob.page)
        bob.page.click("text=Join the battle")
        on_board(bob, game)
        on_board(alice, game)
        for pl in (alice, bob):
            for seat in (0, 1):
                clock = pl.page.locator(f".pl-side [data-clock='{seat}']")
                assert {"pl-clock-run", "pl-clock-low"} <= set(clock.get_attribute("class").split()), seat
        alice.dismiss_tips()
        alice.choose_leaders()  # bob never chooses: his clock alone runs on
        alice.page.wait_for_function("() => brigadeBoard.view.players[0].leader_choice")
        for pl in (alice, bob):
            pl.page.wait_for_selector(".pl-end[open]", timeout=(SHORT_CLOCK * 60 + 30) * 1000)
        assert alice.page.locator("[data-testid=end-title]").inner_text() == "Victory!"
        assert alice.page.locator(".pl-end-reason").inner_text() == f"bob{tag}’s clock ran out."
        assert bob.page.locator("[data-testid=end-title]").inner_text() == "Defeat"
        assert bob.page.locator(".pl-end-reason").inner_text() == "Your clock ran out."
        assert bob.page.locator(".pl-side [data-clock='1'] b").inner_text() == "0:00"
        assert "pl-clock-out" in bob.page.locator(".pl-side [data-clock='1']").get_attribute("class")
        assert alice.page.locator(".pl-side [data-clock='0'] b").inner_text() != "0:00"
        for pl in (alice, bob):
            assert not pl.errors, pl.errors
    finally:
        for pl in (alice, bob):
            pl.ctx.close()
