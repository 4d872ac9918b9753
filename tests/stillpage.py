"""Waiting for a page to be still before a screenshot, without a fixed pause: each helper waits for a
state the page shows (Eringe's tips put away, the card preview hidden, the fonts in).

``page.screenshot(animations="disabled")`` then ends what still animates (finite CSS animations and
transitions run to their end, infinite ones are stopped), so a shot never catches a card half-drawn.
"""

TIPS_AWAY = """() => {
    for (const b of document.querySelectorAll('[data-testid=tip-ok]')) if (b.offsetParent) b.click();
    const tip = document.querySelector('.pl-tip');
    return !tip || tip.hidden;
}"""

NO_PREVIEW = "() => { const p = document.querySelector('[data-testid=preview]'); return !p || p.hidden; }"


def animations_done(page):
    """Wait until every finite animation of the page has ended (a card drawn into the hand flips, a
    unit slides): a measure taken then is the board's, not a frame of its motion."""
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null))).then(() => true)""")


def put_away_tips(page, timeout=10_000):
    """Click Eringe's "Got it" until no tip is shown (one tip may follow another)."""
    page.wait_for_function(TIPS_AWAY, timeout=timeout, polling=100)


def board_still(page, timeout=10_000):
    """The board page idle, no tip over it, the pointer off the cards and their preview hidden, the
    fonts loaded."""
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=timeout)
    put_away_tips(page, timeout)
    page.mouse.move(1, 1)
    page.wait_for_function(NO_PREVIEW, timeout=timeout)
    page.evaluate("() => document.fonts.ready.then(() => true)")


def shoot(page, path, full_page=False):
    """A screenshot of a still page at ``path`` (animations ended); asserts it is not empty."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    assert path.stat().st_size > 1000, path
    return path
