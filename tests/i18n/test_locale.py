"""Choosing the language (webapp/i18n.py): the account's mark, else the cookie, else Accept-Language,
else English; POST /lang sets them and the card-face language together; dates follow the language."""

import re

from tests.web.conftest import post
from webapp.game import boardsettings
from webapp import i18n
from webapp.store import connect
from webapp.store.marks import get_mark


def lang_of(response):
    return re.search(r'<html lang="(\w+)"', response.get_data(as_text=True)).group(1)


def test_english_by_default_and_accept_language_chooses(client):
    assert lang_of(client.get("/")) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": "ja,en;q=0.8"})) == "ja"
    assert lang_of(client.get("/", headers={"Accept-Language": "fr, de"})) == "en"  # neither: English
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "できること" in page and "What you can do" not in page
    assert re.search(r'data-i18n="/static/i18n/ja\.json\?v=[0-9a-f]{12}"', page)  # the hashed JS catalog


def test_a_visitor_switches_by_cookie(client):
    response = post(client, "/lang", {"lang": "ja", "next": "/rules"})
    assert response.status_code == 303 and response.headers["Location"] == "/rules"
    assert "brigade_lang=ja" in response.headers["Set-Cookie"]
    assert lang_of(client.get("/")) == "ja"
    # the cookie wins over the browser's language
    assert lang_of(client.get("/", headers={"Accept-Language": "en"})) == "ja"
    post(client, "/lang", {"lang": "en"})
    assert lang_of(client.get("/", headers={"Accept-Language": "ja"})) == "en"


def test_bad_switches_change_nothing(client):
    assert post(client, "/lang", {"lang": "fr"}).status_code == 400
    assert post(client, "/lang", {"lang": "ja", "next": "//evil.example/x"}).headers["Location"] == "/"
    assert post(client, "/lang", {"lang": "ja", "next": "https://evil.example/"}).headers["Location"] == "/"
    assert client.post("/lang", data={"lang": "ja"}).status_code == 400  # no CSRF token


def test_n5_the_switch_never_sends_a_player_to_another_site(client):
    """Issue 26 N5, the attack: browsers drop tabs and newlines and read a backslash as a slash, so
    "/\t/evil.example" came back as a Location a browser follows to //evil.example. Only paths of this
    site come back (the one check of webapp/web/security.py safe_next, as after log-in)."""
    for target in ("/\t/evil.example", "/\n/evil.example", "/\r//evil.example", "/\\evil.example",
                   "\\/evil.example", "/\x7f/evil.example", "http:/evil.example", " //evil.example"):
        location = post(client, "/lang", {"lang": "ja", "next": target}).headers["Location"]
        assert location == "/", (target, location)
    assert post(client, "/lang", {"lang": "ja", "next": "/decks?x=1#top"}).headers["Location"] == "/decks?x=1#top"


def test_the_account_keeps_the_choice_and_the_cards_follow(app, alice_client, alice):
    with alice_client.session_transaction() as sess:
        token = sess["csrf"]
    r = alice_client.post("/lang", json={"lang": "ja"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.get_json() == {"lang": "ja"}
    db = connect(app.config["DATABASE"])
    try:
        assert get_mark(db, alice["id"], i18n.MARK) == "ja"
        assert boardsettings.load(db, alice["id"])["lang"] == "ja"  # the card faces switched too
    finally:
        db.conn.close()
    # another browser of the same account (no cookie, an English browser) reads Japanese
    other = app.test_client()
    with other.session_transaction() as sess:
        sess["user_id"] = alice["id"]
    assert lang_of(other.get("/", headers={"Accept-Language": "en"})) == "ja"
    assert "/art/ja/" in other.get("/collection").get_data(as_text=True)
    # the card language apart: English faces on Japanese pages
    r = alice_client.post("/play/settings.json", json={"lang": "en"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200
    assert lang_of(alice_client.get("/")) == "ja"
    assert alice_client.get("/play/settings.json").get_json()["lang"] == "en"


def test_card_language_follows_the_page_until_set_apart(app, alice_client):
    assert alice_client.get("/play/settings.json", headers={"Accept-Language": "ja"}).get_json()["lang"] == "ja"
    assert alice_client.get("/play/settings.json").get_json()["lang"] == "en"


def test_dates_in_the_page_language(app):
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert i18n.current() == "ja"
        assert i18n.format_day("2026-12-01T10:37:00.000Z") == "2026/12/01"
        assert i18n.format_clock("2026-12-01T10:37:00.000Z") == "10:37 UTC"
    with app.test_request_context():
        assert i18n.format_day("2026-12-01T10:37:00.000Z") == "Dec 1, 2026"
        assert i18n.format_day("not a date") == "not a date"


def test_plurals_in_both_languages(app):
    from flask_babel import ngettext
    with app.test_request_context():
        assert [ngettext("%(num)s card", "%(num)s cards", n) for n in (1, 2)] == ["1 card", "2 cards"]
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert [ngettext("%(num)s card", "%(num)s cards", n) for n in (1, 2)] == ["1枚", "2枚"]


def test_the_script_t_and_tn_with_each_catalog(node):
    """static/js/i18n.js under node with the built catalogs: placeholders, plurals, English fallback."""
    import json
    import subprocess

    i18n.build()
    code = """
      const i = require(process.argv[1]);
      const out = {en: [i.t("Settings"), i.tn("{n} card", "{n} cards", 1), i.tn("{n} card", "{n} cards", 3),
                        i.t("Card {n} of {total}, face down: reveal it", {n: 2, total: 9}), i.t("no such text {x}", {x: 1})]};
      i.use(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")));
      out.ja = [i.t("Settings"), i.tn("{n} card", "{n} cards", 1), i.tn("{n} card", "{n} cards", 3),
                i.t("Card {n} of {total}, face down: reveal it", {n: 2, total: 9}), i.t("no such text {x}", {x: 1})];
      process.stdout.write(JSON.stringify(out));
    """
    root = i18n.ROOT
    got = json.loads(subprocess.run([node, "-e", code, str(root / "static/js/i18n.js"),
                                     str(i18n.JS_CATALOGS / "ja.json")], capture_output=True, text=True,
                                    check=True).stdout)
    assert got["en"] == ["Settings", "1 card", "3 cards", "Card 2 of 9, face down: reveal it", "no such text 1"]
    assert got["ja"] == ["設定", "1枚", "3枚", "9枚中2枚目（裏向き）：めくる", "no such text 1"]
