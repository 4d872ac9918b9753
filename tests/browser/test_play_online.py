"""Two friends online in real browsers (R18, issue 6).

One deep journey is played to its end from fixed seeds: two friends online with a rematch (the game's
seed, each ``BoardPlayer``'s ``random.Random``; started at the leader choice through the testing start
path, tests/browser/positions/online-start.json), watched by a third on a phone, then a rematch that
the one who stays away loses by a claim, and another that he resigns. Every other check starts at
its position: the invitation with its dice and the simultaneous leader choice (a game just joined), the
clocks and the emotes, and a reload and an absence in the middle of a battle (online-battle.json: a
march that starts a battle at once); and a game whose clock runs out.

Two browser contexts (alice and bob, a third for carol, who watches) drive Debian's chromium against
the real server (tests/browserkit.py's ``Server``: ``python -m webapp`` on a free port with its own
instance folder and database). Every move is a click on the board page's own controls
(``BoardPlayer``); the test never sends an action itself. Grace periods and clocks are never waited
out: the server's clock is moved forward (``advance_clock``, the testing-only POST /testing/clock) and
the page that should see the change reloads or waits for the server's event. Screenshots go to
shots_dir() as online-*.png.
"""

import json
import random

import pytest

from tests import stillpage
from tests.browserkit import PHONE, Server, drive, new_player, start_at, wait_for_board
from tests.conftest import shots_dir
from tests.onlinekit import (advance_clock, board, clock_ms, invite, join, moved_on, no_sideways_scroll, on_board,
                             record_presence, synced, wait_for_clock_below)
from tests.stillpage import board_still

SHOTS = shots_dir()
CLAIM_AFTER = 60         # seconds (R18.4): never waited out, the server's clock is moved past it
SHORT_CLOCK = 0.5        # minutes: the invite form's default here, for the game whose clock runs out
CONFIG = f"""CPU_DELAY = 0
ONLINE_CLAIM_AFTER = {CLAIM_AFTER}
ONLINE_AUTO_AFTER = 600
ONLINE_TICK = 0.2
ONLINE_CLOCK_MIN_MINUTES = 0
ONLINE_CLOCK_MINUTES = {SHORT_CLOCK}
"""
CLOCK_MINUTES = "30"     # each player's clock: a game driven by the test takes a few minutes of each
CLOCK_MS = 30 * 60_000
SEED = 25                # the journey's game: the deal's order and so every decision after it
WATCH_FROM_ROUND = 10    # the journey's spectator opens the game in this round (or at its end, if sooner)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("online"), CONFIG)
    yield srv
    srv.stop()


@pytest.fixture
def friends(server, browser):
    """alice and bob (BoardPlayers seeded 1 and 2) and carol, who watches on a phone; closed after."""
    tag = random.Random().randrange(10**6)
    made = [new_player(browser, server, f"alice{tag}", seed=1), new_player(browser, server, f"bob{tag}", seed=2),
            new_player(browser, server, f"carol{tag}", size=PHONE, seed=3)]
    for pl in made[:2]:  # carol is a stranger to both: they let anyone with the link watch (default: friends)
        let_anyone_watch(pl.page, server)
    yield made
    for pl in made:
        pl.ctx.close()


def let_anyone_watch(page, server):
    """Choose "anyone with the game's link" on the friends page (docs/security.md "Watching")."""
    page.goto(f"{server.url}/friends")
    page.check("input[name=watch][value=link]")
    page.locator("form[action='/friends/watch'] button[type=submit]").click()
    page.wait_for_selector("input[name=watch][value=link]:checked")


def shoot(page, name, full_page=False):
    """online-<name>.png, with Eringe's tips put away and the page at its top."""
    if page.evaluate("() => !!window.brigadeBoard"):
        board_still(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    stillpage.shoot(page, SHOTS / f"online-{name}.png", full_page=full_page)


def start_online(server, alice, bob, scenario, seed):
    """An online game of alice (seat 0) and bob at ``scenario``, both pages on its board; its id."""
    game = start_at(alice.page, server, scenario, mode="online", seed=seed, opponent=bob.name, clock_ms=CLOCK_MS)
    bob.page.goto(f"{server.url}/play/{game}")
    for pl in (alice, bob):
        on_board(pl, game)
        pl.page.evaluate("() => localStorage.removeItem('brigade.tips.seen')")
    return game


def watch(carol, server, game):
    """carol opens the game's board as a spectator."""
    carol.page.goto(f"{server.url}/play/{game}")
    wait_for_board(carol.page)
    assert board(carol.page, "return b.seat;") is None


def no_errors(*players):
    for pl in players:
        assert not pl.errors, (pl.name, pl.errors)


# ---------------------------------------------------------------- the invitation


def test_the_invitation_starts_a_game_with_dice_and_leaders_chosen_at_once(server, browser, friends):
    """R18.1, R5.1, R5.7: bob joins by alice's link; both boards agree on the dice and who goes first,
    both clocks run while both choose their leaders, which stay hidden until both have chosen; a
    spectator on a phone sees the clocks, no hand and no emotes."""
    alice, bob, carol = friends
    players = [alice, bob]
    game, code, link = invite(alice, clock=CLOCK_MINUTES)
    assert link.endswith("/join/" + code), (link, code)
    bob.page.goto(link)
    assert f"{alice.name} invites you" in bob.page.locator("h1").inner_text()
    join(bob, link)
    on_board(bob, game)
    on_board(alice, game)  # the invitation page went to the board on `started`
    for pl in players:
        pl.page.evaluate("() => localStorage.removeItem('brigade.tips.seen')")

    # the dice (R5.1) and both clocks
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

    # leaders at once, hidden until both chose (R5.7)
    alice.dismiss_tips()
    alice.choose_leaders()
    alice.page.wait_for_function("() => brigadeBoard.idle && brigadeBoard.view.players[0].leader_choice")
    chosen = board(alice.page, "return b.view.players[0].leader_choice;")
    cards = board(alice.page, "return b.view.players[0].hand.filter((c) => b.view.players[0].leader_choice.includes(c.id))"
                              ".map((c) => b.cards.name(c.card));")
    bob.page.wait_for_selector("[data-testid=foe-chosen]")
    assert f"{alice.name} has chosen" in bob.page.locator("[data-testid=foe-chosen]").inner_text()
    bob_sees = board(bob.page, "return JSON.stringify(b.payload);")
    assert not any(f'"{i}"' in bob_sees for i in chosen), "bob's page got alice's leaders before choosing"
    assert board(bob.page, "return b.view.leaders === undefined && !b.view.players[0].leader_choice;")
    assert "Waiting for" not in bob.page.locator(".pl-leaders").inner_text()
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

    # a spectator (phone size): clocks, no hand, no emotes
    watch(carol, server, game)
    assert carol.page.locator("[data-testid=watching]").is_visible()
    assert carol.page.locator(".pl-side [data-clock]").count() == 2
    assert carol.page.locator("[data-testid=emote-toggle]").count() == 0
    assert carol.page.locator(".pl-hcard").count() == 0
    no_sideways_scroll(carol.page)
    no_errors(alice, bob, carol)


# ---------------------------------------------------------------- the clocks and the emotes


def test_the_clocks_tick_on_the_waited_for_side_and_emotes_reach_everyone(server, browser, friends):
    """R18.3: only the clock of the side the game waits for runs, on both boards; the emote row on a
    phone (no sideways scrolling, buttons big enough to tap); an emote's bubble by the sender's name,
    for the players and the spectator, gone after a few seconds."""
    alice, bob, carol = friends
    players = [alice, bob]
    game = start_online(server, alice, bob, "online-battle", seed=SEED)
    watch(carol, server, game)
    state = synced(players)
    mover, other = state["active"], 1 - state["active"]
    assert state["phase"] == "main" and mover == 0, state
    before = {pl.name: (clock_ms(pl.page, mover), clock_ms(pl.page, other)) for pl in players}
    for pl in players:
        assert "pl-clock-run" in pl.page.locator(f".pl-side [data-clock='{mover}']").get_attribute("class")
        assert "pl-clock-run" not in pl.page.locator(f".pl-side [data-clock='{other}']").get_attribute("class")
    for pl in players:  # the mover's clock shows a second less, then the other's is still where it was
        wait_for_clock_below(pl.page, mover, before[pl.name][0])
    for pl in players:
        now = (clock_ms(pl.page, mover), clock_ms(pl.page, other))
        assert now[0] < before[pl.name][0], (pl.name, before[pl.name], now)
        assert now[1] == before[pl.name][1], (pl.name, before[pl.name], now)
    shoot(alice.page, "board-clocks", full_page=True)

    # the emote row on a phone: no sideways scrolling, big enough to tap
    phone = browser.new_context(**PHONE, storage_state=alice.ctx.storage_state())
    try:
        pp = phone.new_page()
        pp.goto(f"{server.url}/play/{game}")
        wait_for_board(pp)
        pp.click("[data-testid=emote-toggle]")
        no_sideways_scroll(pp)
        small = pp.evaluate("""() => [...document.querySelectorAll('.pl-emote, .pl-emote-toggle')]
            .map((e) => e.getBoundingClientRect()).filter((r) => r.width < 39.5 || r.height < 39.5).length""")
        assert small == 0, f"{small} emote buttons smaller than 40 px on the phone"
    finally:
        phone.close()

    # emotes: a bubble by the sender's name
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
    no_errors(alice, bob, carol)


# ---------------------------------------------------------------- a reload and an absence mid-battle


def test_a_reload_and_an_absence_in_the_middle_of_a_battle(server, browser, friends):
    """R18.4: in a battle (alice's march from online-battle.json), the page the game waits for reloads
    and finds the same battle, and the other page hears it go and come back; then it stays away: the
    other page's banner counts down, then offers the claim (the server's clock moved past the grace
    period), the spectator sees the banner too; back again, the banner goes."""
    alice, bob, carol = friends
    players = [alice, bob]
    game = start_online(server, alice, bob, "online-battle", seed=SEED)
    watch(carol, server, game)

    def in_battle(pl, st):
        other_st = (bob if pl is alice else alice).state()
        return (st["battle"] is not None and other_st["battle"] is not None and st["version"] == other_st["version"]
                and not (st["mine"] and other_st["mine"]))

    assert drive(players, until=in_battle, limit=200) == "until", [pl.state() for pl in players]
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
    advance_clock(watcher.page, server, CLAIM_AFTER + 1)
    watcher.page.reload()  # the page counts down from the server's last word: a fresh one says the time is up
    wait_for_board(watcher.page)
    watcher.page.wait_for_selector("[data-testid=claim]")
    assert "You may claim the win" in banner.inner_text()
    assert f"{waited.name} is still away." in banner.inner_text()  # by name, on a page loaded during the absence
    shoot(watcher.page, "disconnected")
    waited.page.goto(f"{server.url}/play/{game}")
    wait_for_board(waited.page)
    assert board(waited.page, "return b.version;") == version
    assert waited.page.locator("[data-testid=battle]").is_visible()
    banner.wait_for(state="hidden")
    no_errors(alice, bob, carol)


# ---------------------------------------------------------------- the deep journey


@pytest.mark.journey
def test_two_friends_online_with_a_rematch(server, browser, friends):
    """The deep journey, the same game every run (the game's seed, both BoardPlayers' seeds): alice and
    bob choose their leaders at once and play to the end (R1), carol watching from round 10; both pages agree
    on the result and say it; a rematch is offered and accepted (both pages move to the new board, the
    spectator gets a link, the other player goes first); in it bob stays away and alice claims the
    win (R18.4); in a third game bob resigns (R18.5)."""
    alice, bob, carol = friends
    players = [alice, bob]
    game = start_online(server, alice, bob, "online-start", seed=SEED)
    first = board(alice.page, "return b.view.first;")
    for pl in players:
        assert pl.page.locator(".pl-side .pl-clock-run").count() == 2  # both choose leaders at once (R5.7)

    # ------------------------------------------------ to the end (R1), carol watching the last rounds
    # (a spectator's board redraws at every move as the players' do, a third of the journey's browser CPU:
    # carol sees the last rounds and the end live; a spectator from the first move through a battle is
    # test_a_reload_and_an_absence_in_the_middle_of_a_battle)
    assert drive(players, until=lambda pl, st: st["round"] >= WATCH_FROM_ROUND) in ("until", "over")
    watch(carol, server, game)
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
    no_errors(alice, bob)

    # ------------------------------------------------ a rematch: offered, accepted, both on the new board
    alice.page.click(".pl-end [data-testid=rematch-offer]")
    alice.page.wait_for_selector(".pl-end [data-testid=rematch] >> text=Waiting for")
    bob.page.wait_for_selector(".pl-end [data-testid=rematch-accept]")
    assert f"{alice.name} offers a rematch" in bob.page.locator(".pl-end [data-testid=rematch]").inner_text()
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
    alice.page.locator("[data-testid=presence]").wait_for(state="visible")  # she hears him go
    advance_clock(alice.page, server, CLAIM_AFTER + 1)
    alice.page.reload()
    wait_for_board(alice.page)
    alice.page.click("[data-testid=claim]")
    alice.page.wait_for_selector(".pl-end[open]")
    assert alice.page.locator("[data-testid=end-title]").inner_text() == "Victory!"
    assert f"{bob.name} left the game; you win." in alice.page.locator(".pl-end-reason").inner_text()
    bob.page.goto(f"{server.url}/play/{rematch}")
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
    assert f"{bob.name} resigned." in alice.page.locator(".pl-end-reason").inner_text()
    no_errors(alice, bob, carol)
    print(json.dumps({"game": game, "result": result, "seen": [alice.seen, bob.seen]}))


# ---------------------------------------------------------------- a clock runs out


def test_a_clock_runs_out(server, browser):
    """R18.3: under a minute the clocks turn urgent; the player whose clock runs out loses, and both
    pages say so. (A half-minute clock, the invite form's default in this server's config; the
    server's clock is moved past it instead of waiting.)"""
    tag = random.Random().randrange(10**6)
    alice = new_player(browser, server, f"alice{tag}")
    bob = new_player(browser, server, f"bob{tag}")
    try:
        alice.page.goto(server.url + "/lobby")
        assert alice.page.locator("select[name=clock]").input_value() == str(SHORT_CLOCK)
        game, _, link = invite(alice)
        join(bob, link)
        on_board(bob, game)
        on_board(alice, game)
        for pl in (alice, bob):
            for seat in (0, 1):
                clock = pl.page.locator(f".pl-side [data-clock='{seat}']")
                assert {"pl-clock-run", "pl-clock-low"} <= set(clock.get_attribute("class").split()), seat
        alice.dismiss_tips()
        alice.choose_leaders()  # bob never chooses: his clock alone runs on
        alice.page.wait_for_function("() => brigadeBoard.view.players[0].leader_choice")
        advance_clock(alice.page, server, SHORT_CLOCK * 60 + 1)
        for pl in (alice, bob):  # the server's ticker ends the game and tells both pages
            pl.page.wait_for_selector(".pl-end[open]", timeout=30_000)
        assert alice.page.locator("[data-testid=end-title]").inner_text() == "Victory!"
        assert alice.page.locator(".pl-end-reason").inner_text() == f"bob{tag}’s clock ran out."
        assert bob.page.locator("[data-testid=end-title]").inner_text() == "Defeat"
        assert bob.page.locator(".pl-end-reason").inner_text() == "Your clock ran out."
        assert bob.page.locator(".pl-side [data-clock='1'] b").inner_text() == "0:00"
        assert "pl-clock-out" in bob.page.locator(".pl-side [data-clock='1']").get_attribute("class")
        assert alice.page.locator(".pl-side [data-clock='0'] b").inner_text() != "0:00"
        no_errors(alice, bob)
    finally:
        for pl in (alice, bob):
            pl.ctx.close()
