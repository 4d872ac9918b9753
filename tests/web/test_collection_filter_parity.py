"""The collection's live filters (static/js/card-filter.js) keep the cards the server keeps
(webapp/web/collection.py matches()): each query's page, rendered by the server with the cards it
filtered out hidden, against the script's verdict on the same cards' data attributes under node."""

import json
import subprocess
from html.parser import HTMLParser

from webapp import ROOT
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
        "import {readFileSync} from 'node:fs'; import {createRequire} from 'node:module';"
        "import {pathToFileURL} from 'node:url';"
        "const js = (name) => pathToFileURL(process.argv[1] + '/' + name);"
        "const f = await import(js('card-filter.js').href);"
        "const {fold} = createRequire(js('i18n.js'))(js('i18n.js').pathname);"
        "const pages = JSON.parse(readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(pages.map(({filters, cards}) => {"
        "  const want = {...filters, words: f.searchWords(filters.q || '', fold)};"
        "  return cards.map((c) => !f.matchesCard(c, want));"
        "})));"
    )
    done = subprocess.run([node, "--input-type=module", "-e", script, str(ROOT / "static" / "js")],
                          input=json.dumps(pages), capture_output=True, text=True, timeout=30, check=True)
    for page, hidden in zip(pages, json.loads(done.stdout), strict=True):
        assert hidden == page["hidden"], page["filters"]
