"""The collection's live filters (static/js/card-filter.js) keep the cards the server keeps
(webapp/web/collection.py matches()): each query's page, rendered by the server with the cards it
filtered out hidden, against the script's verdict on the same cards' data attributes under node."""

from html.parser import HTMLParser

from tests import nodemodule
from webapp.decks import packs
from webapp.store import connect

QUERIES = [
    {},
    {"element": "fire"},
    {"element": "water", "kind": "spell"},
    {"owned": "owned"},
    {"owned": "missing", "rarity": "R"},
    {"level": "3"},
    {"keyword": "quick"},
    {"q": "ドラゴン"},
    {"q": "ＤＲＡＧＯＮ fire"},
    {"q": "elf", "owned": "owned"},
    {"q": "no such card at all"},
]


class Cards(HTMLParser):
    """The collection grid's cards: their data-* attributes and whether the page hid them."""

    def __init__(self):
        super().__init__()
        self.cards = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "coll-card" in (a.get("class") or "").split():
            data = {k[5:]: v for k, v in a.items() if k.startswith("data-")}
            self.cards.append({"data": data, "hidden": "hidden" in a})


def test_the_script_keeps_the_cards_the_server_keeps(app, alice, alice_client, node):
    db = connect(app.config["DATABASE"])
    packs.grant_starter(db, alice["id"])  # some cards owned, most not
    db.conn.close()
    pages = []
    for query in QUERIES:
        parser = Cards()
        text = alice_client.get("/collection", query_string=query).get_data(as_text=True)
        assert "that filter was left out" not in text, query  # the form's choices only: the server took each
        parser.feed(text)
        assert parser.cards, query
        pages.append({"filters": query, "cards": [c["data"] for c in parser.cards],
                      "hidden": [c["hidden"] for c in parser.cards]})
    assert any(any(p["hidden"]) for p in pages) and any(not all(p["hidden"]) for p in pages[1:])
    script = (
        "const f = await import(js('card-filter.js').href);"
        "const {fold} = i18n;"
        "console.log(JSON.stringify(input.map(({filters, cards}) => {"
        "  const want = {...filters, words: f.searchWords(filters.q || '', fold)};"
        "  return cards.map((c) => !f.matchesCard(c, want));"
        "})));"
    )
    for page, hidden in zip(pages, nodemodule.run(node, script, pages), strict=True):
        assert hidden == page["hidden"], page["filters"]
