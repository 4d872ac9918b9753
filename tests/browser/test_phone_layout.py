"""A crowded battle and the header's links on phones, in English and Japanese, by geometry.

Story chapter 6 started at another position (tests/browser/positions/crowded.json, through the
test-only start path, ``start_at``: docs/testing.md; six monsters of the player's on L2 beside six of
the CPU's on L4, both Rearworld, capacity 8) lets the player attack at once with all six, so
both parties are crowded (seven cards with a Quick summon); a Dwarf Forgehand among them ([Normal])
gives the player an attack window to decide. At 390×844 ("phone"), 375×667 ("short") and
1280×800 ("desktop"), in both languages:

* the header's links (before the march, on the board): where the line of links is cut at an edge, the
  nav marks that edge (data-more, static/js/site-nav.js) and draws its arrow there (the ::before or
  ::after); a tap on the right arrow slides the line; Tab through the links leaves each focused link
  wholly in the line and clear of the arrows; at the end of the line no arrow points further; on the
  desktop nothing is cut and nothing is drawn;
* at each of the player's decisions in the battle (Quick summon, formation, the attack window, the
  answers, to the battle's end): every front and rear tag is shown whole (its text not cut), inside its
  party and its row, over no card of its party's other members nor over the party's head or another tag
  (on phones over no card at all: the tag has its own strip); each party card is drawn whole (not
  squeezed to its head); no two cards of a party overlap; a card's "acted" and "negated" marks lie
  whole on their own card. At 390×844 the battle's own checks (tests/browser/test_board_table.py,
  ``assert_battle_fits``: every card wholly in view, nothing over it, every control in view) hold too;
  at 375×667 the field may scroll inside itself instead; on the desktop a crowded row while forming
  (each card with its arrows beside each other) still slides sideways, so there they hold at the other
  decisions.

axe-core finds nothing serious on the board with the marked nav. Screenshots (looked at):
phone-nav-<lang>-<size>.png, phone-battle-<step>-<lang>-<size>.png.
"""

import pytest

from tests.browser.test_board_table import assert_battle_fits, serious_axe
from tests.browserkit import DESKTOP, PHONE, BoardPlayer, Server, register, start_at
from tests.conftest import shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
SIZES = {"phone": PHONE, "short": {**PHONE, "viewport": {"width": 375, "height": 667}}, "desktop": DESKTOP}
CHAPTER = "ember-slots"  # story chapter 6, at the position crowded.json
SEED = 8  # the deal of the draw piles and the CPU's choices (the chapter's level: the baseline)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("crowded-server"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


NAV = """() => {
    const nav = document.querySelector(".site-nav");
    const box = (e) => { const r = e.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; };
    const n = box(nav);
    const links = [...nav.querySelectorAll("a")].map((a) => ({text: a.innerText, box: box(a), focused: a === document.activeElement}));
    const arrow = (which) => {
        const s = getComputedStyle(nav, which);
        return s.content && s.content !== "none" && s.content !== "normal" ? parseFloat(s.width) : 0;
    };
    return {nav: n, more: (nav.dataset.more || "").split(" ").filter(Boolean), links, left: arrow("::before"), right: arrow("::after"),
            scroll: [nav.scrollLeft, nav.scrollWidth - nav.clientWidth]};
}"""


def nav_problems(g):
    """What is wrong with the header's line of links ``g`` (NAV): [] when nothing is."""
    out, n = [], g["nav"]
    for a in g["links"]:
        cut_right = a["box"]["l"] < n["r"] - 1 and a["box"]["r"] > n["r"] + 1
        cut_left = a["box"]["r"] > n["l"] + 1 and a["box"]["l"] < n["l"] - 1
        if cut_right and not ("right" in g["more"] and g["right"] > 0):
            out.append(f"{a['text']!r} is cut at the right edge with no arrow there: {g}")
        if cut_left and not ("left" in g["more"] and g["left"] > 0):
            out.append(f"{a['text']!r} is cut at the left edge with no arrow there: {g}")
        if a["focused"]:  # the room between the arrows, [lo, hi]
            lo, hi = n["l"] + (g["left"] if "left" in g["more"] else 0), n["r"] - (g["right"] if "right" in g["more"] else 0)
            if a["box"]["r"] - a["box"]["l"] <= hi - lo + 1:
                if a["box"]["l"] < lo - 1 or a["box"]["r"] > hi + 1:
                    out.append(f"the focused link {a['text']!r} is not wholly in the line, clear of the arrows: "
                               f"{a['box']} not in {lo}..{hi} (scroll {g['scroll']})")
            elif a["box"]["l"] < n["l"] - 1 or a["box"]["l"] > lo + 1 or a["box"]["r"] < hi - 1:
                # wider than the room between the arrows: it starts in that room and fills it
                out.append(f"the focused link {a['text']!r} (wider than the room between the arrows) is not in view: {g}")
    if g["scroll"][1] <= 1 and (g["more"] or g["left"] or g["right"]):
        out.append(f"nothing to scroll, yet an arrow: {g}")
    return out


def settled_nav(page):
    """NAV once the nav's marks agree with its scroll position (they follow its scroll events)."""
    page.wait_for_function("""() => { const nav = document.querySelector(".site-nav"), max = nav.scrollWidth - nav.clientWidth;
        const more = (nav.dataset.more || "").split(" ").filter(Boolean);
        return more.includes("left") === (max > 1 && nav.scrollLeft > 1)
            && more.includes("right") === (max > 1 && nav.scrollLeft < max - 1); }""")
    return page.evaluate(NAV)


def check_nav(page, lang, size):
    g = settled_nav(page)
    assert not nav_problems(g), nav_problems(g)
    if size == "desktop":
        assert g["scroll"][1] <= 1 and not g["more"], g
        return
    assert g["scroll"][1] > 1 and ("right" in g["more"] or "left" in g["more"]), f"the phone's line of links does not scroll: {g}"
    page.mouse.move(1, 1)
    width = SIZES[size]["viewport"]["width"]
    page.screenshot(path=str(SHOTS / f"phone-nav-{lang}-{size}.png"), clip={"x": 0, "y": 0, "width": width, "height": 120})
    # a tap on the right arrow slides the line that way
    if "right" in g["more"]:
        before = g["scroll"][0]
        page.mouse.click(g["nav"]["r"] - 6, (g["nav"]["t"] + g["nav"]["b"]) / 2)
        # ... by 70 % of its width, or to its end (the scroll's end state, however it is animated)
        page.wait_for_function(f"""() => {{ const n = document.querySelector('.site-nav');
            return n.scrollLeft >= Math.min({before} + 0.7 * n.clientWidth, n.scrollWidth - n.clientWidth) - 1; }}""")
        assert not nav_problems(settled_nav(page)), nav_problems(settled_nav(page))
    # Tab from the brand through every link: each in turn wholly in the line and clear of the arrows
    page.focus(".site-header .brand")
    for i in range(len(g["links"])):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.closest('.site-nav') !== null"), f"Tab {i + 1} left the nav"
        g = settled_nav(page)
        assert not nav_problems(g), nav_problems(g)
    assert g["links"][-1]["focused"] and "right" not in g["more"], g
    page.focus(".site-header .brand")
    page.evaluate("() => { document.activeElement.blur(); }")


TAGS = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return {l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height}; };
    return [...document.querySelectorAll("[data-testid=battle] .pl-party")].map((p) => ({
        side: p.dataset.side, party: box(p), head: box(p.querySelector(".pl-party-head")), row: box(p.querySelector(".pl-prow")),
        slides: ((r) => r.scrollWidth > r.clientWidth + 1
                         && ["auto", "scroll"].includes(getComputedStyle(r).overflowX))(p.querySelector(".pl-prow")),
        tags: [...p.querySelectorAll(".pl-front-tag, .pl-rear-tag")].map((t) => ({text: t.innerText, box: box(t),
            cut: t.scrollWidth > t.clientWidth + 1, unit: t.closest(".pl-member").dataset.unit})),
        cards: [...p.querySelectorAll(".pl-bunit")].map((c) => ({unit: c.dataset.unit, box: box(c),
            marks: [...c.querySelectorAll(".pl-tag")].map((t) => ({text: t.innerText, box: box(t),
                                                                cut: t.scrollWidth > t.clientWidth + 1}))})),
    }));
}"""


#: What of the player's own party's cards lies outside the battle field's visible box or under the
#: decision bar (empty when all of it is in view).
OWN_PARTY_HIDDEN = """() => {
  const field = document.querySelector(".pl-bfield"), bar = document.querySelector(".pl-bbar");
  const f = field.getBoundingClientRect(), b = bar ? bar.getBoundingClientRect() : null;
  const out = [];
  for (const card of document.querySelectorAll(".pl-party-me .pl-member")) {
    const c = card.getBoundingClientRect();
    const under = b && c.bottom > b.top + 1 && c.top < b.bottom && c.right > b.left && c.left < b.right;
    if (c.top < f.top - 1 || c.bottom > f.bottom + 1 || c.bottom > window.innerHeight + 1) {
      out.push(["outside", c.top, c.bottom, f.top, f.bottom]);
    } else if (under) out.push(["under the bar", c.top, c.bottom, b.top]);
  }
  return out;
}"""


def overlap(a, b):
    return max(0.0, min(a["r"], b["r"]) - max(a["l"], b["l"])) * max(0.0, min(a["b"], b["b"]) - max(a["t"], b["t"]))


def inside(a, outer, slack=1.0):
    return a["l"] >= outer["l"] - slack and a["t"] >= outer["t"] - slack and a["r"] <= outer["r"] + slack and a["b"] <= outer["b"] + slack


def tag_problems(parties, phone):
    """What is wrong with the parties' tags and cards (TAGS): [] when nothing is. A row wider than its
    party (the player's, while forming: each card has its arrows) slides sideways: there only the
    vertical bounds are checked, what lies beyond its side edges is reached by sliding it."""
    out = []
    for p in parties:
        if p["slides"]:
            p = {**p, "party": {**p["party"], "l": -1e9, "r": 1e9}, "row": {**p["row"], "l": -1e9, "r": 1e9}}
        where = f"party of side {p['side']}"
        if not p["tags"]:
            out.append(f"{where}: no front tag")
        for t in p["tags"]:
            name = f"{where}: tag {t['text']!r}"
            if not t["text"].strip() or t["cut"]:
                out.append(f"{name} is empty or cut")
            if not inside(t["box"], p["party"]) or not inside(t["box"], p["row"]):
                out.append(f"{name} is not wholly inside its party's row: {t['box']} {p['row']}")
            if overlap(t["box"], p["head"]) > 0:
                out.append(f"{name} lies over the party's head")
            for c in p["cards"]:
                if (phone or c["unit"] != t["unit"]) and overlap(t["box"], c["box"]) > 0:
                    out.append(f"{name} and card {c['unit']} overlap: {t['box']} {c['box']}")
            for o in p["tags"]:
                if o is not t and overlap(t["box"], o["box"]) > 0:
                    out.append(f"{name} and tag {o['text']!r} overlap")
        for i, c in enumerate(p["cards"]):
            for m in c["marks"]:  # "acted", "negated": across its own card, whole
                if m["cut"] or not inside(m["box"], c["box"], slack=2):
                    out.append(f"{where}: mark {m['text']!r} of card {c['unit']} is cut or spills off its card: {m['box']} {c['box']}")
            if c["box"]["h"] < 0.9 * c["box"]["w"] or c["box"]["w"] < 20:
                out.append(f"{where}: card {c['unit']} is squeezed: {c['box']}")
            if not inside(c["box"], p["party"]):
                out.append(f"{where}: card {c['unit']} is not wholly inside its party: {c['box']} {p['party']}")
            for d in p["cards"][i + 1:]:
                if overlap(c["box"], d["box"]) > 0:
                    out.append(f"{where}: cards {c['unit']} and {d['unit']} overlap")
    return out


def march_all(page, player):
    """The player's six on L2 attack L4 together (a unit, then every unit that may join it)."""
    page.locator(".pl-land[data-land=L2] .pl-unit.pl-can").first.dispatch_event("click")
    for _ in range(8):
        player.idle()
        join = page.locator(".pl-unit.pl-join")
        if not join.count():
            break
        join.first.dispatch_event("click")
    player.idle()
    assert page.locator(".pl-land[data-land=L4] .pl-march-here.pl-btn-danger").count() == 1
    page.locator(".pl-land[data-land=L4] .pl-march-here.pl-btn-danger").dispatch_event("click")


@pytest.mark.parametrize("lang,size", [("en", "phone"), ("ja", "phone"), ("en", "short"), ("ja", "short"), ("ja", "desktop")])
def test_a_crowded_battle_and_the_header_on_phones(browser, server, lang, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        register(page, server.url, f"crowd-{lang}-{size}")
        page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")
        if lang == "ja":
            page.click("[data-testid=lang-ja]")
            page.wait_for_load_state()
        start_at(page, server, "crowded", mode="story", chapter=CHAPTER, cpu=None, seed=SEED)
        player = BoardPlayer(page)
        player.idle()
        player.dismiss_tips()
        assert page.locator("html").get_attribute("lang") == lang
        check_nav(page, lang, size)
        assert serious_axe(page, f"crowded main step, {lang}, {size}") == []
        march_all(page, player)
        checked = []
        for _ in range(200):
            player.idle()
            player.dismiss_tips()
            st = player.state()
            if st["result"] or (checked and st["phase"] != "battle"):
                break
            if st["mine"] and st["phase"] == "battle":
                kind = next((t for t in ("quick_summon", "formation") if t in st["types"]), "answer" if st["battle"]["chain"] else "window")
                page.mouse.move(1, 1)
                parties = page.evaluate(TAGS)
                bad = tag_problems(parties, size != "desktop")
                assert not bad, f"{kind}, {lang}, {size}: {bad}"
                if kind in ("quick_summon", "formation"):  # crowded: nobody has fallen yet
                    assert min(len(p["cards"]) for p in parties) >= 6, parties
                    # the party the player orders or joins is in view, even where the field scrolls
                    hidden = page.evaluate(OWN_PARTY_HIDDEN)
                    assert not hidden, f"{kind}, {lang}, {size}: the player's party is out of view: {hidden}"
                if size == "phone" or (size == "desktop" and kind != "formation"):
                    assert_battle_fits(page, f"crowded {kind} {lang} {size}")
                if kind not in {k for k, _, _ in checked}:
                    page.screenshot(path=str(SHOTS / f"phone-battle-{kind}-{lang}-{size}.png"), animations="disabled")
                    if kind == "formation":
                        assert serious_axe(page, f"crowded battle, {lang}, {size}") == []
                checked.append((kind, [len(p["cards"]) for p in parties], sum(len(c["marks"]) for p in parties for c in p["cards"])))
            if not player.step(st):
                break
        print(f"crowded battle decisions checked ({lang}, {size}): {checked}")
        assert {"quick_summon", "formation"} <= {k for k, _, _ in checked}, checked
        assert not player.errors, player.errors
    finally:
        ctx.close()
