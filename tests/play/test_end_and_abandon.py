"""The end screen's data (/play/<id>/end.json), the Abandon button and the resignation of CPU and
story games left without an action for days (play.abandon, play.abandon_stale)."""

import datetime

import pytest

from tests.story.conftest import play_out
from tests.web.conftest import post
from webapp.game import play, story
from webapp.store import list_games, list_packs, load_game


@pytest.fixture
def client(app, alice):
    from tests.web.conftest import log_in
    c = app.test_client()
    log_in(c, alice)
    return c


def test_the_end_screen_of_a_won_cpu_game_shows_its_victory_pack_and_a_rematch(client, db, alice, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=5)
    row = play_out(db, game_id, alice["id"])
    info = client.get(f"/play/{game_id}/end.json").get_json()
    assert info["result"] == row["result"]
    won = row["result"]["winner"] == 0
    mine = [p for p in list_packs(db, alice["id"]) if p["source"] == f"win:game:{game_id}"]
    assert [p["id"] for p in info["packs"]] == [p["id"] for p in mine] and len(mine) == (1 if won else 0)
    if won:
        assert info["packs"][0]["label"] == "Victory pack" and info["packs"][0]["url"] == f"/packs/{mine[0]['id']}"
    assert [n["kind"] for n in info["next"]] == ["rematch", "play"]
    again = post(client, info["next"][0]["url"])
    assert again.status_code == 302 and again.headers["Location"].startswith("/play/")
    new_id = int(again.headers["Location"].rsplit("/", 1)[1])
    assert load_game(db, new_id)["setup"]["deck_ids"][0] == loaner


def test_the_end_screen_is_for_the_games_players_once_it_is_over(client, app, db, alice, bob, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=6)
    assert client.get(f"/play/{game_id}/end.json").status_code == 409
    from tests.web.conftest import log_in
    other = app.test_client()
    log_in(other, bob)
    play.abandon(db, game_id, alice["id"])
    assert other.get(f"/play/{game_id}/end.json").status_code == 403
    info = client.get(f"/play/{game_id}/end.json").get_json()
    assert info["result"] == {"winner": 1, "reason": "resign"} and info["packs"] == []


def test_a_won_first_chapter_shows_both_packs_it_granted_and_leads_to_the_done_page(client, db, alice):
    """Chapter 1 promises a Victory pack for the win and a Story pack for the first clear: two packs,
    and the end screen lists exactly the two the store holds."""
    for seed in range(6):
        game_id = story.start_chapter(db, alice, "first-muster", seed=seed)
        row = play_out(db, game_id, alice["id"], bot_seed=seed)
        if row["result"]["winner"] == 0:
            break
    assert row["result"]["winner"] == 0
    info = client.get(f"/play/{game_id}/end.json").get_json()
    labels = sorted(p["label"] for p in info["packs"])
    assert labels == ["Story pack (chapter 1)", "Victory pack"]
    assert len(list_packs(db, alice["id"])) == 2 + len([p for p in list_packs(db, alice["id"]) if p["source"] == "welcome"])
    assert info["next"][0] == {"kind": "done", "label": "On to the chapter's end: Eringe's words and your reward",
                               "url": f"/story/first-muster/done?game={game_id}"}
    assert info["story"]["met"] and info["story"]["cleared"]
    page = client.get("/story/first-muster").get_data(as_text=True)
    assert "1 Victory pack for winning the battle" in page and "1 Story pack for clearing the chapter" in page
    # a second win of the chapter earns its Victory pack only
    for seed in range(6, 12):
        again = story.start_chapter(db, alice, "first-muster", seed=seed)
        row = play_out(db, again, alice["id"], bot_seed=seed)
        if row["result"]["winner"] == 0:
            break
    assert [p["label"] for p in client.get(f"/play/{again}/end.json").get_json()["packs"]] == ["Victory pack"]


def test_abandon_resigns_a_cpu_or_story_game_at_any_moment(client, db, alice, bob, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=7)
    with pytest.raises(play.Forbidden):
        play.abandon(db, game_id, bob["id"])
    r = post(client, f"/play/{game_id}/abandon")
    assert r.status_code == 302 and r.headers["Location"] == "/play"
    row = load_game(db, game_id)
    assert row["status"] == "finished" and row["result"] == {"winner": 1, "reason": "resign"}
    assert not list_games(db, alice["id"], status="active")
    r = post(client, f"/play/{game_id}/abandon", follow_redirects=True)
    assert "is over" in r.get_data(as_text=True)
    assert post(client, "/play/999999/abandon").status_code == 404
    story_id = story.start_chapter(db, alice, "first-muster", seed=1)
    html = client.get("/play").get_data(as_text=True)
    assert f'action="/play/{story_id}/abandon"' in html and "Story, chapter 1: The Prince&#39;s Muster" in html
    post(client, f"/play/{story_id}/abandon")
    assert load_game(db, story_id)["result"]["reason"] == "resign"


def test_a_game_left_for_days_is_resigned_when_the_games_are_listed(app, client, db, alice, loaner):
    old = play.create_cpu_game(db, alice, loaner, seed=8)
    fresh = play.create_cpu_game(db, alice, loaner, seed=9)
    long_ago = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=15)).isoformat(
        timespec="milliseconds").replace("+00:00", "Z")
    db.execute("UPDATE games SET updated = ? WHERE id = ?", [long_ago, old])
    assert play.abandon_stale(db, alice["id"], days=0) == []  # the setting at 0 turns it off
    assert play.abandon_stale(db, alice["id"], days=30) == []
    html = client.get("/play").get_data(as_text=True)  # the default: 14 days
    assert f"/play/{old}\"" not in html and f"/play/{fresh}\"" in html
    assert load_game(db, old)["result"] == {"winner": 1, "reason": "resign"}
    assert load_game(db, fresh)["status"] == "active"


def test_a_story_battle_left_for_days_is_not_offered_to_resume(app, client, db, alice):
    gid = story.start_chapter(db, alice, "first-muster", seed=2)
    assert 'data-testid="story-resume"' in client.get("/story/first-muster").get_data(as_text=True)
    long_ago = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=20)).isoformat(
        timespec="milliseconds").replace("+00:00", "Z")
    db.execute("UPDATE games SET updated = ? WHERE id = ?", [long_ago, gid])
    app.config["ABANDON_AFTER_DAYS"] = 30
    assert 'data-testid="story-resume"' in client.get("/story/first-muster").get_data(as_text=True)
    app.config["ABANDON_AFTER_DAYS"] = 7
    assert 'data-testid="story-resume"' not in client.get("/story/first-muster").get_data(as_text=True)
    assert load_game(db, gid)["result"] == {"winner": 1, "reason": "resign"}
