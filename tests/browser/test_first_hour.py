"""A new player's first hour in a real browser (issue 13): register, open the welcome pack, play and
win story chapter 1 on the board through the page's own controls, read the end screen (both packs
with "Open now", then the chapter's done page), open both packs, start a CPU game and story chapter 2
without building a deck by hand (the deck built for the player when the collection reached 30),
with the chapter's goal and Eringe's tip on the board, and abandon a game from the board.

Debian's chromium (Playwright) against ``python -m webapp`` (tests/browserkit.py's Server) on its own
instance folder. The test-only fast path is a setting, never a result: ``CPU_PLAYER = "random"``
makes the CPU a random player, which the page's rules-of-thumb player (``BoardPlayer``) beats in a
short game; every action still goes through the page and the server's rules.

One of the suite's deep journeys (issue 25), the same every run: chapter 1 is dealt from a fixed seed
through the test-only start path (``start_at``, docs/testing.md; its Start button is the one of
chapter 2 here and of tests/story/test_browser.py), the random CPU's choices follow from that seed
and BoardPlayer's from its own (``SEEDS``, per size: the page's layout steers some of its choices);
the player must win that game, it is never played again. Screenshots: docs/screenshots/first-hour-*.png.
"""

import re

import pytest

from tests import stillpage
from tests.browserkit import DESKTOP, PHONE, Server, new_player, start_at
from tests.conftest import shots_dir

SHOTS = shots_dir()
MAX_STEPS = 1500      # the player's decisions in one game: only stops a runaway loop
#: per size: chapter 1's deal (the game's seed, the CPU's choices follow from it) and BoardPlayer's seed
SEEDS = {"desktop": {"game": 21, "player": 3}, "phone": {"game": 21, "player": 3}}
INSTANCE_ID = re.compile(r"\bp[01]c\d+\b")
RULE_NUMBER = re.compile(r"\bR\d+\.\d+\b")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("first-hour"), "CPU_DELAY = 0\nCPU_PLAYER = 'random'\n")
    yield srv
    srv.stop()


def shoot(page, name, full_page=False):
    page.wait_for_function("() => !window.brigadeBoard || window.brigadeBoard.idle")
    return stillpage.shoot(page, SHOTS / f"first-hour-{name}.png", full_page=full_page)


def plain_words(page, where):
    """What the page shows (its text, not its data or tooltips) has no ids and no rule numbers."""
    text = page.locator("body").inner_text()
    assert not INSTANCE_ID.search(text), f"{where}: an instance id in the page: {INSTANCE_ID.search(text)[0]}"
    assert not RULE_NUMBER.search(text), f"{where}: a rule number in the page: {RULE_NUMBER.search(text)[0]}"


def open_pack(page, base, href):
    page.goto(base + href)
    page.click("button:has-text('Open this pack')")
    page.locator("#pack-reveal").wait_for(state="attached")


def play_to_the_end(player):
    for _ in range(MAX_STEPS):
        if not player.step():
            break
    else:
        raise AssertionError("the game did not end")
    assert not player.errors, player.errors
    page = player.page
    page.locator(".pl-end[open] [data-testid=end-next] a, .pl-end[open] [data-testid=end-next] button").first.wait_for()
    return page.evaluate("() => window.brigadeBoard.view.result")


@pytest.mark.journey
# One size (issue 25: each deep journey runs once): a phone, where a friend's link is most often opened;
# the desktop board's layout, packs and story pages are checked at their positions elsewhere
# (test_board_table.py, test_table_second.py, test_site.py, tests/story/test_browser.py).
@pytest.mark.parametrize("size", ["phone"])
def test_a_new_players_first_hour(browser, server, size):
    seeds = SEEDS[size]
    player = new_player(browser, server, f"first{size}", DESKTOP if size == "desktop" else PHONE, seed=seeds["player"])
    page, base = player.page, server.url
    try:
        # the welcome pack
        page.goto(base + "/packs")
        page.click("button.pack-open-button")
        page.locator("#pack-reveal").wait_for(state="attached")
        page.goto(base + "/play")
        assert page.locator("label.play-deck", has_text="Prince").count() == 1  # fewer than 30 cards: the loaner

        # story chapter 1 on the board: the goal bar, the opponent, Eringe's tip; won through the page
        page.goto(base + "/story/first-muster")
        assert page.locator("[data-testid=story-start]").count() == 1
        start_at(page, server, None, mode="story", chapter="first-muster", cpu="random", seed=seeds["game"])
        bar = page.locator("[data-testid=story-goal-bar]")
        bar.wait_for(state="visible")
        assert "Win the battle · round 1 of 12" in bar.inner_text()
        assert "against Goblin Scouts" in bar.inner_text()
        tip = page.locator(".pl-tip")
        tip.wait_for(state="visible")
        assert "Eringe" in tip.inner_text() and "leaders" in tip.inner_text()
        assert page.locator(".pl-side-foe .pl-side-name").inner_text().startswith("Goblin Scouts")
        shoot(page, f"chapter1-board-{size}")
        result = play_to_the_end(player)
        assert result["winner"] == 0, f"chapter 1 of seeds {seeds} was not won: {result} {player.seen}"
        plain_words(page, "the board at the end of chapter 1")
        log = page.locator(".pl-log-lines").inner_text()
        assert "Goblin Scouts" in log and "Game over: you win" in log

        # the end screen: the result in words, both packs the chapter promised, on to the done page
        end = page.locator(".pl-end[open]")
        assert end.locator("[data-testid=end-title]").inner_text() == "Victory!"
        end.locator("[data-testid=end-pack]").nth(1).wait_for()
        packs = end.locator("[data-testid=end-pack]").all_inner_texts()
        assert len(packs) == 2 and any("Victory pack" in p for p in packs) and any("Story pack (chapter 1)" in p for p in packs)
        assert all("Open now" in p for p in packs)
        shoot(page, f"chapter1-end-{size}")
        end.locator("[data-testid=end-done]").click()
        page.wait_for_url(re.compile(r"/story/first-muster/done\?game=\d+$"))
        assert "Goal reached" in page.locator("[data-testid=story-result]").inner_text()
        assert "Well done!" in page.locator(".st-bubble").inner_text()
        links = [page.locator("[data-testid=story-pack]").nth(i).get_attribute("href") for i in range(2)]
        assert page.locator("[data-testid=story-pack]").count() == 2
        plain_words(page, "the done page")
        shoot(page, f"chapter1-done-{size}", full_page=True)

        # both packs opened: the collection passes 30, the loaner goes home, a deck is built for the player
        for href in links:
            open_pack(page, base, href)
        page.goto(base + "/play")
        assert page.locator("label.play-deck", has_text="Prince").count() == 0
        decks = page.locator("label.play-deck").all_inner_texts()
        assert decks, "no deck to play with after the first hour's packs"

        # a CPU game with that deck, no deckbuilding; then Abandon from the board ends it
        page.click("text=Start the battle")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        cpu_game = page.url.rsplit("/", 1)[1]
        page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.view")
        assert page.locator(".pl-side-foe .pl-side-name").inner_text().startswith("CPU")
        page.click("[data-testid=abandon]")
        page.click("[data-testid=confirm-ok]")
        page.wait_for_url(base + "/play")
        assert "abandoned" in page.locator(".flashes").inner_text()
        assert page.locator(f"a[href='/play/{cpu_game}']").count() == 0

        # chapter 2 with the same deck: the goal in the board's words and its progress, and a tip
        page.goto(base + "/story/river-crossing")
        assert "starts from a set position" in page.locator("[data-testid=story-start-text]").inner_text()
        plain_words(page, "the chapter 2 briefing")
        page.click("[data-testid=story-start]")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        bar = page.locator("[data-testid=story-goal-bar]")
        bar.wait_for(state="visible")
        assert "Take the River Kappa's base · round 2 of 8" in bar.inner_text()
        tip = page.locator(".pl-tip")
        tip.wait_for(state="visible")
        assert "Eringe" in tip.inner_text()
        assert page.locator(".pl-tip-target").count() == 1  # the part of the board the tip speaks of
        plain_words(page, "the chapter 2 board")
        shoot(page, f"chapter2-board-{size}")

        # the rules page, where the goal bar's "Rules" and the pages' "Why?" links lead
        page.goto(base + "/rules#r8-7")
        assert page.locator("#r8-7").is_visible()
        plain_words(page, "the rules page")
        shoot(page, f"rules-{size}")
    finally:
        player.ctx.close()
