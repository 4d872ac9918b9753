"""The play pages: choosing a deck, starting a CPU game, the board page and a finished game's replay."""

import re

from webapp import ROOT
from webapp.game import play
from webapp.store import add_cards, load_game, save_deck

from .conftest import log_in


def logged_in(app, user):
    client = app.test_client()
    token = log_in(client, user)
    return client, token


def test_play_asks_visitors_to_log_in(client):
    answer = client.get("/play")
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]


def test_a_newcomer_is_offered_the_loaner_deck(app, alice, loaner):
    client, _ = logged_in(app, alice)
    page = client.get("/play").get_data(as_text=True)
    assert re.findall(r'name="deck"\s+value="(\d+)"', page) == [str(loaner)]
    assert "Prince&#39;s Brigade" in page or "Prince's Brigade" in page


def test_own_legal_decks_are_offered_and_the_loaner_no_more_with_30_cards(app, db, alice, loaner):
    add_cards(db, alice["id"], {"orc": 30})
    deck = save_deck(db, alice["id"], "Orc wall", {"orc": 30})
    save_deck(db, alice["id"], "Half done", {"orc": 12})
    client, _ = logged_in(app, alice)
    page = client.get("/play").get_data(as_text=True)
    assert re.findall(r'name="deck"\s+value="(\d+)"', page) == [str(deck)]
    assert "Orc wall" in page and "Half done" not in page


def test_starting_a_cpu_game_redirects_to_its_board(app, db, alice, loaner):
    client, token = logged_in(app, alice)
    answer = client.post("/play/cpu", data={"deck": str(loaner), "csrf_token": token})
    assert answer.status_code == 302
    game_id = int(re.search(r"/play/(\d+)$", answer.headers["Location"]).group(1))
    row = load_game(db, game_id)
    assert (row["mode"], row["seats"], row["status"]) == ("cpu", [alice["id"], None], "active")
    board = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert f'data-game="{game_id}"' in board and 'data-seat="0"' in board
    assert "/static/vendor/socket.io.min.js" in board
    assert client.get("/play").get_data(as_text=True).count(f"href=\"/play/{game_id}\"") == 1  # in progress (and its Abandon form)


def test_starting_a_game_needs_the_csrf_token(app, alice, loaner):
    client, _ = logged_in(app, alice)
    assert client.post("/play/cpu", data={"deck": str(loaner)}).status_code == 400


def test_a_deck_that_cannot_be_played_goes_back_with_a_message(app, db, alice, bob, loaner):
    add_cards(db, bob["id"], {"orc": 30})
    bobs = save_deck(db, bob["id"], "Bob's", {"orc": 30})
    client, token = logged_in(app, alice)
    for deck in (str(bobs), "999", "", "x1", "9" * 40):
        answer = client.post("/play/cpu", data={"deck": deck, "csrf_token": token})
        assert answer.status_code == 302 and answer.headers["Location"].endswith("/play"), deck
    assert play.store.list_games(db, alice["id"]) == []


def test_the_board_page_of_a_missing_game_is_404_and_a_friend_watches(app, db, alice, friend, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=1)
    client, _ = logged_in(app, friend)
    assert client.get("/play/999").status_code == 404
    assert 'data-seat=""' in client.get(f"/play/{game_id}").get_data(as_text=True)


def test_the_board_page_names_no_deck_and_inlines_no_pool(app, db, alice, friend, loaner):
    """The board reads the whole pool (so the list names no deck) from one hashed JSON file, with the
    URL of every card's art: the page itself carries no card data and no SVG."""
    from webapp.engine import load_pool

    game_id = play.create_cpu_game(db, alice, loaner, seed=1)
    client, _ = logged_in(app, alice)
    text = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert "card-svg" not in text and "Orc" not in text and len(text) < 20_000
    url = re.search(r'data-cards-url="([^"]+)"', text).group(1)
    assert re.fullmatch(r"/cards/pool-[0-9a-f]{12}\.json", url)
    answer = client.get(url)
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    listed = answer.get_json()
    assert set(listed) == {"cards", "words"}  # the game's names come with it (tests/cards/test_words.py)
    cards = listed["cards"]
    assert set(cards) == set(load_pool())
    assert cards["orc"]["name"]["en"] == "Orc" and cards["orc"]["text"]["en"] is not None
    assert all(re.fullmatch(rf"/art/{lang}/{re.escape(cid)}-[0-9a-f]{{12}}\.svg", c["art"][lang])
               for cid, c in cards.items() for lang in ("en", "ja"))
    # a spectator's page reads the same list: every card has its art
    other, _ = logged_in(app, friend)
    assert re.search(r'data-cards-url="([^"]+)"', other.get(f"/play/{game_id}").get_data(as_text=True)).group(1) == url


def test_a_replay_is_for_the_players_of_a_finished_game(app, db, alice, bob, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=1)
    client, _ = logged_in(app, alice)
    assert client.get(f"/play/{game_id}/replay.json").status_code == 409  # decks and seed are secret now
    play.act(db, game_id, alice["id"], {"type": "resign"}, 0)
    replay = client.get(f"/play/{game_id}/replay.json").get_json()
    assert replay["seed"] == 1 and replay["result"] == {"winner": 1, "reason": "resign"}
    assert replay["actions"] == [{"seq": 1, "player": 0, "action": {"type": "resign"}}]
    assert len(replay["decks"][0]) == 30
    other, _ = logged_in(app, bob)
    assert other.get(f"/play/{game_id}/replay.json").status_code == 403


def test_a_replay_page_belongs_to_history_in_the_header(app, db, alice, loaner):
    """The replay is served by the lobby's pages, but a player reaches it from History: the header marks
    History as the current section, not Friends."""
    game_id = play.create_cpu_game(db, alice, loaner, seed=1)
    play.act(db, game_id, alice["id"], {"type": "resign"}, 0)
    client, _ = logged_in(app, alice)
    html = client.get(f"/games/{game_id}/replay").get_data(as_text=True)
    current = re.findall(r'<a href="[^"]*" aria-current="page">([^<]+)</a>', html)
    assert current == ["History"], current
    lobby = client.get("/lobby").get_data(as_text=True)  # the lobby's own pages keep their section
    assert re.findall(r'<a href="[^"]*" aria-current="page">([^<]+)</a>', lobby) == ["Friends"]


def test_the_vendored_socketio_client_is_served():
    text = (ROOT / "static" / "vendor" / "socket.io.min.js").read_text()
    assert text.startswith("/*!\n * Socket.IO v4.8.4")
