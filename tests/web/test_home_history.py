"""The home page's first steps for a new account (welcome pack, chapter 1, a deck of one's own,
a friend), ticked from the player's data and remembered per account; and the match history page."""

import re

import pytest

from webapp.decks import packs
from webapp.game import play, story, storychapters
from webapp.engine import load_pool
from webapp.store import add_cards, connect, create_game, end_game, get_loaner, record_clear, save_deck
from webapp.store.marks import get_mark

from .conftest import log_in


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


def page(client, url="/"):
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def steps(html):
    """[(title, done)] of the first steps shown."""
    items = re.findall(r'<li class="step-item( is-done)?[^"]*">.*?<h3>(?:<a href="[^"]*">)?([^<]+)', html, re.S)
    return [(title.strip(), bool(done)) for done, title in items]


def test_visitors_see_what_they_can_do_and_no_steps(client):
    html = page(client)
    assert "Your first steps" not in html and "What is coming" not in html
    assert "What you can do" in html


def test_first_steps_tick_from_the_players_data_and_stay_ticked(app, db, alice, bob):
    client = app.test_client()
    log_in(client, alice)
    uid = alice["id"]
    titles = ["Open your welcome pack", "Win story chapter 1", "Battle with a deck of your own", "Invite a friend"]
    assert steps(page(client)) == [(t, False) for t in titles]
    assert "0 of 4 done" in page(client)
    assert 'class="step-item is-next"' in page(client)

    # 1. the welcome pack opened
    packs.grant_starter(db, uid)
    (welcome,) = packs.list_packs(db, uid)
    packs.open_pack(db, uid, welcome["id"], load_pool(), {})
    assert steps(page(client))[0] == (titles[0], True)
    # remembered: the step stays ticked whatever happens to the data later
    db.execute("DELETE FROM packs WHERE user_id = ?", [uid])
    assert steps(page(client))[0] == (titles[0], True)
    assert "pack" in get_mark(db, uid, "first_steps")

    # 2. chapter 1 cleared
    record_clear(db, uid, storychapters.chapters()[0].id, {"round": 5})
    assert [done for _, done in steps(page(client))] == [True, True, False, False]

    # 3. a game with the loaner does not count; one with an own deck does
    loaner = get_loaner(db, "princes-brigade")
    play.create_cpu_game(db, alice, loaner["id"])
    assert [done for _, done in steps(page(client))] == [True, True, False, False]
    add_cards(db, uid, {"orc": 30})
    deck_id = save_deck(db, uid, "Orcs", {"orc": 30})
    play.create_cpu_game(db, alice, deck_id)
    html = page(client)
    assert [done for _, done in steps(html)] == [True, True, True, False]
    assert "3 of 4 done" in html

    # 4. an online game: every step done, the list makes way for the home page
    create_game(db, "online", 5, {"decks": [], "seats": [{"user_id": uid}, {"user_id": bob["id"]}]}, status="waiting")
    html = page(client)
    assert "Your first steps" not in html and "What you can do" in html
    assert sorted(get_mark(db, uid, "first_steps")) == ["chapter", "deck", "friend", "pack"]


def test_steps_are_per_account(app, db, alice, bob):
    client = app.test_client()
    log_in(client, alice)
    packs.grant_pack(db, alice["id"], "welcome")
    db.execute("UPDATE packs SET opened_at = 'x', cards = '[]' WHERE user_id = ?", [alice["id"]])
    assert steps(page(client))[0][1] is True
    other = app.test_client()
    log_in(other, bob)
    assert steps(page(other))[0][1] is False


# ---------------------------------------------------------------- match history


def finish(db, game_id, winner, reason):
    version = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()[0]
    end_game(db, game_id, version, "finished", {"winner": winner, "reason": reason})


def test_history_lists_cpu_story_and_online_games_newest_first_with_results_and_links(app, db, alice, bob, clock):
    client = app.test_client()
    log_in(client, alice)
    assert "No games yet" in page(client, "/history")
    uid = alice["id"]
    add_cards(db, uid, {"orc": 30})
    deck_id = save_deck(db, uid, "Orcs", {"orc": 30})
    won = play.create_cpu_game(db, alice, deck_id)
    finish(db, won, 0, "leaders")
    clock.advance(0.01)  # each game a stamp later than the one before
    ch = storychapters.chapters()[0]
    chapter_game = story.start_chapter(db, alice, ch.id, deck_id=deck_id)
    clock.advance(0.01)
    online = create_game(db, "online", 7, {"decks": [], "seats": [{"user_id": bob["id"]}, {"user_id": uid}]})
    finish(db, online, 0, "resign")
    clock.advance(0.01)
    other = create_game(db, "online", 8, {"decks": [], "seats": [{"user_id": bob["id"]}, None]})  # not Alice's
    html = page(client, "/history")
    rows = re.findall(r'<li class="history-row is-(\w+)">(.*?)</li>', html, re.S)
    assert [kind for kind, _ in rows] == ["lost", "playing", "won"]
    lost, playing, victory = (body for _, body in rows)
    assert "Online" in lost and "<strong>bob</strong>" in lost and "Lost: you resigned" in lost
    assert f'href="/games/{online}/replay"' in lost
    assert "Story" in playing and f"<strong>{ch.opponent['name']['en']}</strong>" in playing
    assert "In progress" in playing and f'href="/play/{chapter_game}"' in playing
    assert "CPU" in victory and "Won: every leader fell" in victory and f'href="/games/{won}/replay"' in victory
    assert f"/games/{other}/" not in html
    assert "1 won, 1 lost" in html
    # the replay link leads to the existing replay page
    assert client.get(f"/games/{won}/replay").status_code == 200


def test_history_needs_a_login(client):
    assert client.get("/history").status_code in (302, 401)
