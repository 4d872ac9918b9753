"""The puzzle pages through Flask's test client: the list with progress, a puzzle's page (hint,
retry, the solution only after a solve or three misses), the board's goal JSON for the player only,
and the end screen's way back to the puzzle."""

import re

from tests.puzzles.test_puzzle_games import play_line
from tests.web.conftest import log_in, post
from webapp.game import play, puzzles


def client_for(app, user):
    c = app.test_client()
    log_in(c, user)
    return c


def start(c, puzzle_id, **form):
    r = post(c, f"/puzzles/{puzzle_id}/start", form)
    assert r.status_code == 302
    return int(re.search(r"/play/(\d+)$", r.headers["Location"]).group(1))


def test_list_and_page_before_a_try(app, alice):
    c = client_for(app, alice)
    html = c.get("/puzzles").get_data(as_text=True)
    assert html.count('class="pz-item') >= 20 and "Solved: 0 of" in html
    html = c.get("/puzzles/two-roads-one-blow").get_data(as_text=True)
    assert "Win a battle on L3 this turn" in html and 'data-testid="puzzle-hint"' in html
    assert 'data-testid="puzzle-solution-locked"' in html and "after 3 more missed tries" in html
    pz = puzzles.puzzle("two-roads-one-blow")
    assert pz.explanation["en"] not in html  # the solution stays closed
    assert c.get("/puzzles/no-such-puzzle").status_code == 404


def test_solving_opens_the_solution_and_marks_the_list(app, db, alice):
    c = client_for(app, alice)
    pz = puzzles.puzzle("two-roads-one-blow")
    game_id = start(c, pz.id)
    info = c.get(f"/puzzles/game/{game_id}.json").get_json()
    assert info["kind"] == "puzzle" and info["goal"] == pz.goal_text("en") and not info["status"]["met"]
    row = play_line(db, game_id, alice["id"], pz.solution)
    assert row["result"]["winner"] == 0
    assert c.get(f"/puzzles/game/{game_id}.json").get_json()["status"]["met"]
    html = c.get(f"/puzzles/{pz.id}").get_data(as_text=True)
    assert 'data-testid="puzzle-solved"' in html and "March Minotaur Brute, Orc to L3" in html
    assert "Try again" in html
    assert "Solved: 1 of" in c.get("/puzzles").get_data(as_text=True)
    end = c.get(f"/play/{game_id}/end.json").get_json()
    assert end["packs"] == [] and any(n["kind"] == "puzzle" and n["url"] == f"/puzzles/{pz.id}" for n in end["next"])


def test_three_misses_open_the_solution(app, db, alice):
    c = client_for(app, alice)
    pz = puzzles.puzzle("the-pincer")
    for _ in range(3):
        play_line(db, start(c, pz.id, restart="1"), alice["id"], [{"type": "end_turn"}])
    html = c.get(f"/puzzles/{pz.id}").get_data(as_text=True)
    assert 'data-testid="puzzle-solution"' in html and pz.explanation["en"].split(":")[0] in html


def test_start_resumes_the_try_in_progress_unless_restarting(app, db, alice):
    c = client_for(app, alice)
    first = start(c, "the-pincer")
    assert start(c, "the-pincer") == first
    second = start(c, "the-pincer", restart="1")
    assert second != first and play.load_row(db, first)["status"] == "finished"


def test_the_goal_json_is_for_the_player_only(app, alice, bob):
    game_id = start(client_for(app, alice), "the-pincer")
    bobs = client_for(app, bob)
    theirs, none = bobs.get(f"/puzzles/game/{game_id}.json"), bobs.get("/puzzles/game/999999.json")
    # as for a game that does not exist: the same page but for the id in its address
    assert theirs.status_code == none.status_code == 404
    assert theirs.data.replace(f"/{game_id}.json".encode(), b"/999999.json") == none.data
    assert app.test_client().get(f"/puzzles/game/{game_id}.json").status_code in (302, 401)


def test_the_board_of_a_puzzle_game_fetches_the_puzzle_goal(app, alice):
    c = client_for(app, alice)
    game_id = start(c, "the-pincer")
    html = c.get(f"/play/{game_id}").get_data(as_text=True)
    assert f'data-story-url="/puzzles/game/{game_id}.json"' in html


def test_japanese_pages(app, alice):
    c = client_for(app, alice)
    html = c.get("/puzzles/two-roads-one-blow?lang=ja").get_data(as_text=True)
    assert "二つの道から一撃を" in html and "このターンに土地L3での戦闘に勝つ" in html
