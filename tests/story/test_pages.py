"""The story pages for a logged-in player: the chapter map, a chapter's briefing and Start, the end
page with the reward, and the board's JSON for a story game."""

import re

import pytest

from webapp.game import play, storychapters
from webapp.store import add_cards, get_progress, list_games, list_packs, load_game, record_clear
from webapp.store.marks import set_mark

from .conftest import log_in, post


@pytest.fixture
def client(app, alice):
    c = app.test_client()
    log_in(c, alice)
    return c


def started(response):
    assert response.status_code == 302, response.status_code
    m = re.search(r"/play/(\d+)$", response.headers["Location"])
    assert m, response.headers["Location"]
    return int(m.group(1))


def test_visitors_are_sent_to_log_in(app):
    c = app.test_client()
    for url in ("/story", "/story/first-muster", "/story/first-muster/done"):
        r = c.get(url)
        assert r.status_code == 302 and "login" in r.headers["Location"]


def test_the_map_shows_every_chapter_locked_open_or_cleared(client, db, alice):
    html = client.get("/story").get_data(as_text=True)
    assert 'data-testid="story-map"' in html and "<path" in html and 'class="st-road"' in html
    states = re.findall(r'<g class="st-node[^"]*"[^>]*data-chapter="([^"]+)" data-state="(\w+)"', html)
    assert [cid for cid, _ in states] == [c.id for c in storychapters.chapters()]
    assert [s for _, s in states] == ["open"] + ["locked"] * (len(states) - 1)
    assert 'href="/story/first-muster"' in html and 'href="/story/river-crossing"' not in html
    assert 'aria-current="page"' in html and ">Story<" in html  # the nav's Story link

    record_clear(db, alice["id"], "first-muster", {"round": 7, "game": 1})
    html = client.get("/story").get_data(as_text=True)
    states = dict(re.findall(r'data-chapter="([^"]+)" data-state="(\w+)"', html))
    assert states["first-muster"] == "cleared" and states["river-crossing"] == "open"
    assert states["shield-wall"] == "locked"
    assert "Cleared in round 7" in html and "1 of 12 chapters cleared" in html


def test_a_chapter_page_briefs_and_offers_the_start(client):
    html = client.get("/story/first-muster").get_data(as_text=True)
    ch = storychapters.chapter("first-muster")
    assert ch.title["en"].replace("'", "&#39;") in html
    assert "I am Eringe" in html and "img/eringe.svg" in html
    assert "Win: destroy every enemy leader" in html
    assert "Goblin Scouts" in html and "8×" in html
    assert re.search(r'data-testid="story-level">CPU level: <b>Easy</b>', html)  # the chapter's difficulty
    assert "1 Victory pack for winning the battle" in html and "1 Story pack for clearing the chapter the first time" in html
    assert 'action="/story/first-muster/start"' in html and 'name="csrf_token"' in html
    assert re.search(r'name="deck" value="\d+" checked', html) and "Prince&#39;s Brigade" in html


def test_the_chapter_page_in_japanese(client):
    """?lang=ja: the story's own texts (title, Eringe, the opponent) in Japanese, remembered for the next
    page; the page's words follow the page's language (the catalogs), Japanese too once it is chosen."""
    html = client.get("/story/first-muster?lang=ja").get_data(as_text=True)
    assert "王子の旅団、集う" in html and "わたしはエリンゲ" in html and "ゴブリンの斥候隊" in html
    assert "Chapter 1" in html and "CPU level: <b>Easy</b>" in html  # the page is still English
    assert "王子の旅団、集う" in client.get("/story").get_data(as_text=True)  # remembered for the next page
    client.set_cookie("brigade_lang", "ja")
    html = client.get("/story/first-muster").get_data(as_text=True)
    assert "第1章" in html and "CPUの強さ： <b>やさしい</b>" in html and "王子の旅団、集う" in html
    assert "章の地図" in client.get("/story").get_data(as_text=True)


def test_locked_and_unknown_chapters(client, db, alice):
    r = client.get("/story/river-crossing")
    assert r.status_code == 302 and r.headers["Location"].endswith("/story")
    r = post(client, "/story/river-crossing/start", {})
    assert r.status_code == 302 and r.headers["Location"].endswith("/story")
    assert list_games(db, alice["id"]) == []
    assert client.get("/story/no-such-chapter").status_code == 404
    assert post(client, "/story/no-such-chapter/start", {}).status_code == 404


def test_start_creates_the_story_game_and_goes_to_its_board(client, db, alice, loaner):
    gid = started(post(client, "/story/first-muster/start", {"deck": str(loaner)}))
    row = load_game(db, gid)
    assert row["mode"] == "story" and row["setup"]["story"] == "first-muster"
    assert row["seats"] == [alice["id"], None] and row["setup"]["first"] == 0
    board = client.get(f"/play/{gid}")
    assert board.status_code == 200 and f'data-game="{gid}"' in board.get_data(as_text=True)
    # the chapter page now offers to resume it; Start goes back to the same game
    html = client.get("/story/first-muster").get_data(as_text=True)
    assert f'href="/play/{gid}"' in html and 'data-testid="story-resume"' in html
    assert started(post(client, "/story/first-muster/start", {})) == gid
    # starting over resigns the old battle (R18.5) and makes a new one
    new = started(post(client, "/story/first-muster/start", {"restart": "1"}))
    assert new != gid
    old = load_game(db, gid)
    assert old["status"] == "finished" and old["result"] == {"winner": 1, "reason": "resign"}


def test_a_custom_start_chapter_starts_mid_battle(client, db, alice):
    record_clear(db, alice["id"], "first-muster")
    gid = started(post(client, "/story/river-crossing", {}))
    row, game = play.load(db, gid)
    assert row["setup"]["scenario"] and game.state.round == 2 and game.waiting_for() == {0}
    assert client.get(f"/play/{gid}").status_code == 200


def test_bad_deck_choices_go_back_with_a_message(client, db, alice, bob):
    r = post(client, "/story/first-muster/start", {"deck": "abc"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/story/first-muster")
    add_cards(db, bob["id"], {"orc": 30})
    from webapp.store import save_deck
    bobs = save_deck(db, bob["id"], "Orcs", {"orc": 30})
    r = post(client, "/story/first-muster/start", {"deck": str(bobs)}, follow_redirects=True)
    assert "is not yours" in r.get_data(as_text=True)
    assert list_games(db, alice["id"]) == []


def test_a_player_with_30_cards_and_no_deck_is_sent_to_the_deck_builder(client, db, alice):
    set_mark(db, alice["id"], "first_deck", {"deck": None, "told": True})  # the deck built for them, deleted
    add_cards(db, alice["id"], {"orc": 30})
    html = client.get("/story/first-muster").get_data(as_text=True)
    assert "stays home" in html and "R2.3" not in html and 'action="/story/first-muster/start"' not in html


def test_the_done_page_records_the_clear_and_shows_the_reward_once(client, db, alice):
    assert client.get("/story/first-muster/done").headers["Location"].endswith("/story/first-muster")
    gid = started(post(client, "/story/first-muster/start", {}))
    html = client.get("/story/first-muster/done").get_data(as_text=True)
    assert "still going on" in html and f'href="/play/{gid}"' in html
    play.end(db, gid, 0, "disconnect")  # the CPU left: the human wins
    for _ in range(3):  # the done page is the safety net: reloading it grants nothing more
        html = client.get("/story/first-muster/done").get_data(as_text=True)
    assert "Goal reached in round 1" in html and "Well done!" in html
    packs = [p for p in list_packs(db, alice["id"]) if p["source"] == "story:1"]
    assert len(packs) == 1 and f'href="/packs/{packs[0]["id"]}"' in html and "Open now" in html
    # the win's Victory pack is shown beside the clear's Story pack: what the battle really granted
    victory = [p for p in list_packs(db, alice["id"]) if p["source"] == f"win:game:{gid}"]
    assert len(victory) == 1 and f'href="/packs/{victory[0]["id"]}"' in html
    assert "Victory pack" in html and "Story pack (chapter 1)" in html
    assert "Received for your first clear of this chapter" in html
    assert 'href="/story/river-crossing"' in html  # on to chapter 2
    assert get_progress(db, alice["id"])["first-muster"]["reward_granted"]
    # the pack-opening view takes it from there
    assert client.get(f"/packs/{packs[0]['id']}").status_code == 200


def test_the_done_page_for_a_lost_game(client, db, alice):
    gid = started(post(client, "/story/first-muster/start", {}))
    play.end(db, gid, 1, "resign")
    html = client.get(f"/story/first-muster/done?game={gid}").get_data(as_text=True)
    assert "not reached" in html and "Try again" in html and "Well done!" not in html
    assert get_progress(db, alice["id"]) == {} and list_packs(db, alice["id"]) == []


def test_the_done_page_refuses_other_games(app, client, db, alice, bob, loaner):
    gid = started(post(client, "/story/first-muster/start", {}))
    other = app.test_client()
    log_in(other, bob)
    # someone else's game answers as a game that does not exist (docs/security.md)
    theirs, none = other.get(f"/story/first-muster/done?game={gid}"), other.get("/story/first-muster/done?game=999999")
    assert theirs.status_code == none.status_code == 404
    assert theirs.data.replace(f"game={gid}".encode(), b"game=999999") == none.data  # the same page but its address
    assert client.get("/story/first-muster/done?game=x1").status_code == 404
    assert client.get("/story/first-muster/done?game=999999").status_code == 404
    assert client.get(f"/story/shield-wall/done?game={gid}").status_code == 404
    cpu = play.create_cpu_game(db, alice, loaner, seed=1)
    assert client.get(f"/story/first-muster/done?game={cpu}").status_code == 404


def test_the_boards_json_for_a_story_game(app, client, db, alice, bob, loaner):
    gid = started(post(client, "/story/first-muster/start", {}))
    data = client.get(f"/story/game/{gid}.json").get_json()
    assert data["chapter"] == "first-muster" and data["order"] == 1
    assert data["goal"].startswith("Win") and data["status"] == {"met": False, "final": False, "round": None}
    assert data["done_url"] == f"/story/first-muster/done?game={gid}"
    assert {t["when"] for t in data["tips"]} >= {"start"} and all(t["target"] and t["text"] for t in data["tips"])
    ja = client.get(f"/story/game/{gid}.json?lang=ja").get_json()
    assert ja["title"] == "王子の旅団、集う" and "旅団長" in ja["tips"][0]["text"]
    other = app.test_client()
    log_in(other, bob)
    theirs, none = other.get(f"/story/game/{gid}.json"), other.get("/story/game/999999.json")
    assert theirs.status_code == none.status_code == 404
    assert theirs.data.replace(f"/{gid}.json".encode(), b"/999999.json") == none.data
    cpu = play.create_cpu_game(db, alice, loaner, seed=1)
    assert client.get(f"/story/game/{cpu}.json").status_code == 404


def test_a_first_clear_recorded_by_the_boards_end_says_so_on_the_done_page_and_a_later_clear_does_not(client, db, alice):
    """Chapter 2's reward is cards only (no pack to tell it by): the game's end grants it (the board's
    end, ``story.on_game_over``) before the done page is read, and the done page still says it came
    with this first clear; the next clear's page says it came with the first."""
    from webapp.game import positions

    record_clear(db, alice["id"], "first-muster")
    # the River Kappa's base empty beside the player's Orc: one march takes it (the chapter's goal)
    scenario = {"round": 2, "first": 0, "active": 0,
                "players": [{"units": [{"card": "orc-lord", "land": "H0", "leader": True},
                                       {"card": "orc", "land": "L5", "id": "me-orc"}]},
                            {"units": [{"card": "orc-shaman", "land": "L2", "leader": True}]}]}
    games = []
    for _ in range(2):
        gid = positions.start(db, "story", [alice], scenario, chapter_id="river-crossing", cpu_name="random")
        row = play.load_row(db, gid)
        play.act(db, gid, alice["id"], {"type": "march", "units": ["me-orc"], "to": "H1"}, row["version"])
        play.end(db, gid, 0, "disconnect")  # the chapter's finish runs here, as when the CPU's move ends it
        games.append(gid)
        assert get_progress(db, alice["id"])["river-crossing"]["reward_granted"]
    first, again = games
    html = client.get(f"/story/river-crossing/done?game={first}").get_data(as_text=True)
    assert "Received for your first clear of this chapter" in html
    assert "when you first cleared it" not in html
    html = client.get(f"/story/river-crossing/done?game={again}").get_data(as_text=True)
    assert "when you first cleared it" in html and "Received for your first clear" not in html
