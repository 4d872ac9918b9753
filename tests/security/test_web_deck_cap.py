"""Issue 26 N9, written as the attack: an account could make decks without end (a script copying the
loaner deck in a loop fills the database). With MAX_DECKS set, every way of making a deck (the
builder, a copy of one's own deck, a copy of the loaner, a deck code, "build me a deck") stops at the
cap with a clear message and stores nothing; parallel requests cannot pass it (the count is taken
inside the write transaction)."""

import threading

import pytest

from tests.security.conftest import client_of, post, text
from webapp import create_app
from webapp.decks import code as deckcode
from webapp.engine import load_pool
from webapp.store import TooManyDecks, connect, list_decks, save_deck

CAP = 3


@pytest.fixture
def app(instance):
    from tests.security.conftest import CONFIG
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance, MAX_DECKS=CAP, COLLECTION="all"))
    yield app
    app.extensions["brigade_online"].stop()


def own_decks(app, user_id):
    db = connect(app.config["DATABASE"])
    try:
        return [d for d in list_decks(db, user_id) if not d["loaner"]]
    finally:
        db.close()


def test_n9_every_way_of_making_a_deck_stops_at_the_cap(app, make_user):
    alice = make_user("alice")
    client = client_of(app, alice)
    for _ in range(CAP):
        assert post(client, "/decks/loaner/princes-brigade/copy").status_code == 302
    decks = own_decks(app, alice["id"])
    assert len(decks) == CAP
    pool = load_pool()
    some = sorted(c for c in pool if pool[c].kind == "monster")[:15]
    code = deckcode.encode({c: 2 for c in some}, pool)
    attempts = {
        "loaner copy": ("/decks/loaner/princes-brigade/copy", {}),
        "own copy": (f"/decks/{decks[0]['id']}/copy", {}),
        "builder": ("/decks/new", {"name": "One too many", **{f"card:{c}": "2" for c in some}}),
        "deck code": ("/decks/import", {"code": code, "name": "Imported one"}),
        "build me one": ("/decks/auto", {}),
    }
    for how, (url, data) in attempts.items():
        refused = post(client, url, data)
        assert refused.status_code == 303 and refused.headers["Location"].rstrip("/").endswith("/decks"), how
        page = text(client.get(refused.headers["Location"]))
        assert "the most this server keeps for one player" in page, how
        assert len(own_decks(app, alice["id"])) == CAP, how
    # Another player's decks are their own; a deleted deck makes room again.
    bob = make_user("bob")
    assert post(client_of(app, bob), "/decks/loaner/princes-brigade/copy").status_code == 302
    assert post(client, f"/decks/{decks[0]['id']}/delete").status_code == 302
    assert post(client, "/decks/loaner/princes-brigade/copy").status_code == 302
    assert len(own_decks(app, alice["id"])) == CAP
    # Editing a deck at the cap is no new deck.
    saved = post(client, f"/decks/{decks[1]['id']}", {"name": "Renamed", **{f"card:{c}": "2" for c in some}})
    assert saved.status_code == 302 and len(own_decks(app, alice["id"])) == CAP


def test_n9_parallel_saves_cannot_pass_the_cap(app, make_user):
    """Twelve threads, each with its own connection to the one database file, save new decks at once."""
    alice = make_user("alice")
    path = app.config["DATABASE"]
    go = threading.Barrier(12)
    refused = []

    def save(n):
        db = connect(path)
        try:
            go.wait()
            save_deck(db, alice["id"], f"Deck {n}", {"orc": 2}, limit=CAP)
        except TooManyDecks:
            refused.append(n)
        finally:
            db.close()

    threads = [threading.Thread(target=save, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(own_decks(app, alice["id"])) == CAP and len(refused) == 12 - CAP
