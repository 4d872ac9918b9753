"""What the browser tests of online games (R18) share: the lobby's invitation and join, the board's
clocks as the page shows them, the Socket.IO presence events a page hears, and waiting for both
players' pages to agree on a state.

Players are tests/browserkit.py's ``new_player`` (a ``BoardPlayer`` with ``name``, ``ctx`` and
``base``); nothing here sends an action itself.
"""

import re

from tests.browserkit import no_sideways_scroll, wait_for_board  # noqa: F401 (no_sideways_scroll: the online tests take it from here)


def board(page, script):
    """``script`` evaluated with ``b`` the page's board (window.brigadeBoard)."""
    return page.evaluate(f"() => {{ const b = window.brigadeBoard; {script} }}")


def pick_loaner(page):
    """New accounts own fewer than 30 cards: the Prince's Brigade loaner is what they may play (R2.3)."""
    loaner = page.locator("label.lobby-deck", has_text="Prince")
    assert loaner.count() == 1, page.locator("form.lobby-form").first.inner_text()
    assert "loaner deck" in loaner.inner_text()
    loaner.locator("input[name=deck]").check()


def invite(player, clock=None):
    """From the lobby: an invitation with the loaner deck (``clock``: the select's value, minutes);
    (game id, code, link) from the invitation page."""
    page = player.page
    page.goto(player.base + "/lobby")
    pick_loaner(page)
    if clock:
        page.select_option("select[name=clock]", clock)
    page.click("text=Create the invitation")
    page.wait_for_url(re.compile(r"/lobby/invite/\d+$"))
    game = int(page.url.rsplit("/", 1)[1])
    code = page.locator("#invite-code").inner_text().strip()
    link = page.locator("#invite-link").input_value()
    return game, code, link


def join(player, link):
    """Open the invitation's link and join with the loaner deck."""
    player.page.goto(link)
    pick_loaner(player.page)
    player.page.click("text=Join the battle")


def on_board(player, game, timeout=30):
    """The player's page is on game ``game``'s board, drawn and idle."""
    player.page.wait_for_url(re.compile(rf"/play/{game}$"))
    wait_for_board(player.page, timeout=timeout)
    assert board(player.page, "return b.game;") == game


def moved_on(player, old):
    """The page went from game ``old``'s board to another game's (a rematch); that game's id."""
    player.page.wait_for_url(lambda u: re.search(r"/play/\d+$", u) is not None and not u.endswith(f"/play/{old}"))
    return int(player.page.url.rsplit("/", 1)[1])


CLOCK_TEXT = """(seat) => {
    const [m, s] = document.querySelector(`.pl-side [data-clock='${seat}'] b`).textContent.split(":");
    return (Number(m) * 60 + Number(s)) * 1000;
}"""


def clock_ms(page, seat):
    """The clock of ``seat`` as the page shows it, in ms (whole seconds)."""
    return page.evaluate(CLOCK_TEXT, seat)


def wait_for_clock_below(page, seat, ms, timeout=10):
    """Until the page shows ``seat``'s clock below ``ms`` (it ticks once a second)."""
    page.wait_for_function(f"(seat) => ({CLOCK_TEXT})(seat) < {ms}", arg=seat, timeout=timeout * 1000)


def record_presence(page):
    """Keep every `presence` event the page's board gets in window.seenPresence."""
    page.evaluate("""() => {
        window.seenPresence = [];
        const o = window.brigadeBoard.online, on = o.onPresence.bind(o);
        o.onPresence = (m) => { window.seenPresence.push(JSON.parse(JSON.stringify(m.presence))); on(m); };
    }""")


def synced(players, timeout=30):
    """Both pages idle on the same version; that version's state (from the first page)."""
    versions = []
    for _ in range(20):
        for pl in players:
            pl.idle()
        versions = [pl.state()["version"] for pl in players]
        if len(set(versions)) == 1:
            return players[0].state()
        newest = max(versions)  # the page behind waits for the version the other one has
        for pl, v in zip(players, versions, strict=True):
            if v < newest:
                pl.page.wait_for_function(f"() => brigadeBoard.version >= {newest} && brigadeBoard.idle",
                                          timeout=timeout * 1000)
    raise AssertionError(f"the pages do not agree on the version: {versions}")


def advance_clock(page, server, seconds):
    """Move the server's clock ``seconds`` forward (the testing-only POST /testing/clock,
    webapp/web/testing_clock.py), from ``page`` (logged in, with its CSRF token): grace periods and
    game clocks pass without waiting. Returns the server's offset now."""
    answer = page.evaluate("""async ([url, seconds]) => {
        const form = new FormData();
        form.append("advance", String(seconds));
        form.append("csrf_token", document.querySelector("input[name=csrf_token]").value);
        const r = await fetch(url, {method: "POST", body: form});
        return {status: r.status, body: await r.json()};
    }""", [server.url + "/testing/clock", seconds])
    assert answer["status"] == 200, answer
    return answer["body"]["offset"]
