"""The board's hint button over HTTP (POST /play/<id>/hint.json): a legal move of the player's seat with
one sentence, for the player of a CPU or story game only, within the user's hint budget."""

import re

import pytest

from tests.ai.test_difficulty import start
from tests.play.conftest import log_in
from tests.web.conftest import post
from webapp.game import play
from webapp.ai import workers


@pytest.fixture(autouse=True)
def fresh_pool():
    workers.shutdown()
    yield
    workers.shutdown()


def ask(client, game_id, token):
    return client.post(f"/play/{game_id}/hint.json", json={}, headers={"X-CSRF-Token": token})


def test_the_hint_is_a_legal_move_of_this_version_in_plain_words(app, db, alice, loaner):
    app.config["CPU_HARD_SECONDS"] = 0.05
    client, game_id = start(app, alice, loaner)
    token = log_in(client, alice)
    answer = ask(client, game_id, token)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    got = answer.get_json()
    row, game = play.load(db, game_id)
    assert got["version"] == row["version"]
    assert game.is_legal(0, got["action"])
    assert got["sentence"] and not re.search(r"p[01]c\d+|R\d+\.\d+", got["sentence"])
    # the board offers the button to this player
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert f'data-hint-url="/play/{game_id}/hint.json"' in page


def test_no_hint_without_the_token_for_a_stranger_or_when_it_is_not_your_move(app, db, alice, loaner, make_user):
    app.config["CPU_HARD_SECONDS"] = 0.05
    client, game_id = start(app, alice, loaner)
    before = play.load_row(db, game_id)["version"]
    assert client.post(f"/play/{game_id}/hint.json", json={}).status_code in (400, 403)  # no CSRF token
    token = log_in(client, alice)
    got = ask(client, game_id, token).get_json()
    row, _ = play.load(db, game_id)
    play.act(db, game_id, alice["id"], got["action"], row["version"])
    late = ask(client, game_id, token)  # the CPU chooses its leaders next
    assert late.status_code == 409 and late.get_json()["error"] == "It is not your move."
    other = app.test_client()
    other_token = log_in(other, make_user("carol"))
    assert ask(other, game_id, other_token).status_code == 403
    assert play.load_row(db, game_id)["version"] == before + 1  # only alice's own move changed the game


def test_no_hint_in_a_game_between_people(app, db, alice, loaner):
    client, game_id = start(app, alice, loaner)
    token = log_in(client, alice)
    db.execute("UPDATE games SET mode = 'online' WHERE id = ?", [game_id])
    db.commit()
    answer = ask(client, game_id, token)
    assert answer.status_code == 403 and "CPU" in answer.get_json()["error"]
    assert "data-hint-url" not in client.get(f"/play/{game_id}").get_data(as_text=True)


def test_hints_have_a_budget_per_user(app, db, alice, loaner):
    app.config["CPU_HARD_SECONDS"] = 0.02
    client, game_id = start(app, alice, loaner)
    token = log_in(client, alice)
    limit = app.config["HINT_LIMIT"]
    codes = [ask(client, game_id, token).status_code for _ in range(limit + 1)]
    assert codes[:limit] == [200] * limit
    refused = ask(client, game_id, token)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "again in" in refused.get_json()["error"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hint_says_why_and_names_the_next_best_move_in_the_players_language(app, db, alice, loaner, lang):
    """The answer carries the reasons and the runner-up as sentences in the page's language."""
    app.config["CPU_HARD_SECONDS"] = 0.2
    client, game_id = start(app, alice, loaner)
    token = log_in(client, alice)
    assert post(client, "/lang", {"lang": lang, "next": "/"}).status_code in (302, 303)
    got = ask(client, game_id, token).get_json()
    assert isinstance(got["why"], list) and (got["runner_up"] is None or isinstance(got["runner_up"], str))
    text = " ".join([got["sentence"], *got["why"], got["runner_up"] or ""])
    assert not re.search(r"p[01]c\d+|R\d+\.\d+", text)
    if lang == "ja":
        assert "旅団長に選ぶ" in got["sentence"] and "Choose" not in text
    else:
        assert got["sentence"].startswith("Choose ")
