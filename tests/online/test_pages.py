"""The lobby's pages: inviting with a deck and a clock, the link and the code, joining with a deck,
a full game, cancelling, the lobby's lists, and a finished game's replay (page and JSON)."""

import json
import re

from webapp.game import invitations, play
from webapp.social import watching
from webapp.store import add_cards, load_game, save_deck

from .conftest import log_in


def logged_in(app, user):
    client = app.test_client()
    return client, log_in(client, user)


def create(client, token, deck, clock="15"):
    return client.post("/lobby/invite", data={"deck": str(deck), "clock": clock, "csrf_token": token})


def test_the_lobby_asks_visitors_to_log_in_and_a_join_link_comes_back_after(app):
    client = app.test_client()
    assert "/login" in client.get("/lobby").headers["Location"]
    answer = client.get("/join/ABCDEF")
    assert answer.status_code == 302 and "next=/join/ABCDEF" in answer.headers["Location"].replace("%2F", "/")


def test_the_lobby_offers_decks_and_a_15_minute_clock(app, alice, loaner):
    client, _ = logged_in(app, alice)
    page = client.get("/lobby").get_data(as_text=True)
    assert re.findall(r'name="deck"\s+value="(\d+)"', page) == [str(loaner)]
    assert re.search(r'<option value="15"\s+selected>', page)
    assert 'action="/join"' in page and "Friends" in page


def test_inviting_shows_the_link_and_the_code(app, db, alice, loaner):
    client, token = logged_in(app, alice)
    answer = create(client, token, loaner, "5")
    assert answer.status_code == 302
    game_id = int(re.search(r"/lobby/invite/(\d+)$", answer.headers["Location"]).group(1))
    row = load_game(db, game_id)
    code = invitations.info(db, game_id)["code"]
    assert (row["mode"], row["status"], row["seats"], row["state"]) == ("online", "waiting", [alice["id"], None], None)
    assert row["setup"]["clock_ms"] == 5 * 60_000 and row["setup"]["first"] is None
    assert re.fullmatch(f"[{invitations.CODE_ALPHABET}]{{{invitations.CODE_LENGTH}}}", code)
    page = client.get(f"/lobby/invite/{game_id}").get_data(as_text=True)
    assert code in page and f"http://localhost/join/{code}" in page and "5 minute clock" in page
    lobby = client.get("/lobby").get_data(as_text=True)
    assert f"Code {code}" in lobby


def test_bad_invitations_go_back_with_a_message(app, db, alice, bob, loaner):
    client, token = logged_in(app, alice)
    for deck, clock in ((loaner, "abc"), (loaner, "0"), (loaner, "61"), ("", "15"), (loaner, "nan")):
        answer = create(client, token, deck, clock)
        assert answer.status_code == 302 and answer.headers["Location"].endswith("/lobby"), (deck, clock)
    add_cards(db, bob["id"], {"orc": 30})
    bobs = save_deck(db, bob["id"], "Bob's", {"orc": 30})
    assert create(client, token, bobs).headers["Location"].endswith("/lobby")
    assert "is not yours" in client.get("/lobby").get_data(as_text=True)
    assert client.post("/lobby/invite", data={"deck": str(loaner)}).status_code == 400  # no CSRF token
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_the_friend_joins_with_a_deck_and_both_go_to_the_board(app, db, alice, bob, loaner):
    client, token = logged_in(app, alice)
    game_id = int(create(client, token, loaner).headers["Location"].rsplit("/", 1)[1])
    code = invitations.info(db, game_id)["code"]
    friend, ftoken = logged_in(app, bob)
    page = friend.get(f"/join/{code.lower()}").get_data(as_text=True)
    assert "alice invites you" in page and re.findall(r'name="deck"\s+value="(\d+)"', page) == [str(loaner)]
    answer = friend.post(f"/join/{code}", data={"deck": str(loaner), "csrf_token": ftoken})
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/play/{game_id}")
    row = load_game(db, game_id)
    assert row["status"] == "active" and row["seats"] == [alice["id"], bob["id"]]
    assert client.get(f"/lobby/invite/{game_id}").headers["Location"].endswith(f"/play/{game_id}")
    assert friend.get(f"/join/{code}").headers["Location"].endswith(f"/play/{game_id}")
    assert f"/play/{game_id}" in client.get("/lobby").get_data(as_text=True)  # in progress
    board = friend.get(f"/play/{game_id}").get_data(as_text=True)
    assert 'data-seat="1"' in board


def test_a_third_user_is_refused_the_seat_and_offered_to_watch(app, db, alice, bob, make_user, loaner):
    carol = make_user("carol")
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)
    client, token = logged_in(app, carol)
    page = client.get(f"/join/{code}")  # a stranger to both: no watch link by default (docs/security.md "Watching")
    assert page.status_code == 409 and f"/play/{game_id}" not in page.get_data(as_text=True)
    for user in (alice, bob):
        watching.choose(db, user["id"], watching.LINK)
    page = client.get(f"/join/{code}")
    assert page.status_code == 409 and f"/play/{game_id}" in page.get_data(as_text=True)
    answer = client.post(f"/join/{code}", data={"deck": str(loaner), "csrf_token": token})
    assert answer.status_code == 409 and "Both seats" in answer.get_data(as_text=True)
    assert load_game(db, game_id)["seats"] == [alice["id"], bob["id"]]


def test_joining_by_code_an_unknown_code_and_ones_own_invitation(app, db, alice, loaner):
    client, token = logged_in(app, alice)
    assert client.get("/join?code=ab cd-ef").headers["Location"].endswith("/join/ABCDEF")
    assert client.get("/join/ZZZZZZ").status_code == 404
    game_id = int(create(client, token, loaner).headers["Location"].rsplit("/", 1)[1])
    code = invitations.info(db, game_id)["code"]
    assert client.get(f"/join/{code}").headers["Location"].endswith(f"/lobby/invite/{game_id}")


def test_cancelling_an_invitation(app, db, alice, bob, loaner):
    client, token = logged_in(app, alice)
    game_id = int(create(client, token, loaner).headers["Location"].rsplit("/", 1)[1])
    code = invitations.info(db, game_id)["code"]
    other, otoken = logged_in(app, bob)
    other.post(f"/lobby/invite/{game_id}/cancel", data={"csrf_token": otoken})
    assert load_game(db, game_id)["status"] == "waiting"  # only the inviter cancels
    client.post(f"/lobby/invite/{game_id}/cancel", data={"csrf_token": token})
    assert load_game(db, game_id)["status"] == "aborted"
    answer = other.post(f"/join/{code}", data={"deck": str(loaner), "csrf_token": otoken})
    assert answer.status_code == 409 and "cancelled" in answer.get_data(as_text=True)


def test_open_invitations_are_limited(app, db, alice, loaner):
    app.config["ONLINE_MAX_INVITATIONS"] = 2
    client, token = logged_in(app, alice)
    for _ in range(3):
        create(client, token, loaner)
    assert db.execute("SELECT count(*) FROM games WHERE status = 'waiting'").fetchone()[0] == 2


def test_the_lobby_lists_friends_games_to_watch(app, db, alice, bob, make_user, loaner):
    carol, dave = make_user("carol"), make_user("dave")
    old, code = invitations.create_invitation(db, carol, loaner, 60_000)  # carol played alice once
    invitations.join(db, code, alice, loaner)
    play.end(db, old, 0, "timeout")
    live, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)
    strangers, code = invitations.create_invitation(db, dave, loaner, 60_000)
    client, _ = logged_in(app, carol)
    page = client.get("/lobby").get_data(as_text=True)
    assert "alice vs bob" in page and f"/play/{live}" in page and f"/play/{strangers}" not in page
    assert f"/games/{old}/replay" in page and "Won" in page


def finish_by_resign_after_leaders(db, game_id):
    for seat in (0, 1):
        _, game = play.load(db, game_id)
        row = play.load_row(db, game_id)
        play.apply(db, row, seat, game.legal_actions(seat)[0], row["version"])
    row = play.load_row(db, game_id)
    play.apply(db, row, 1, {"type": "resign"}, row["version"])


def test_a_replay_steps_through_the_public_states(app, db, alice, bob, make_user, loaner):
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)
    carol = make_user("carol")
    _, carols = invitations.create_invitation(db, carol, loaner, 60_000)
    invitations.join(db, carols, bob, loaner)  # carol is bob's friend: she may watch and replay his games
    client, _ = logged_in(app, carol)
    assert client.get(f"/games/{game_id}/replay.json").status_code == 409  # still being played
    finish_by_resign_after_leaders(db, game_id)
    page = client.get(f"/games/{game_id}/replay").get_data(as_text=True)
    assert "alice vs bob" in page and f"/games/{game_id}/replay.json" in page
    data = client.get(f"/games/{game_id}/replay.json").get_json()
    assert [s["version"] for s in data["steps"]] == [0, 1, 2, 3]
    assert [s["type"] for s in data["steps"]] == [None, "choose_leaders", "choose_leaders", "resign"]
    assert data["result"] == {"winner": 0, "reason": "resign"} and data["players"] == ["alice", "bob"]
    _, final = play.load(db, game_id)
    assert data["steps"][-1]["view"] == final.view(None)
    text = json.dumps(data)
    assert '"hand"' not in text and '"seed"' not in text and '"deck_ids"' not in text
    assert all(u["card"] in data["cards"] for s in data["steps"] for u in s["view"]["units"])
    assert any("leader" in line.lower() for s in data["steps"] for line in s["log"])


def test_a_replay_of_a_game_ended_by_the_clock_ends_with_that_result(app, db, alice, bob, loaner):
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)
    play.end(db, game_id, 1, "timeout")
    client, _ = logged_in(app, alice)
    steps = client.get(f"/games/{game_id}/replay.json").get_json()["steps"]
    assert len(steps) == 2 and steps[-1]["events"] == [{"type": "game_over", "winner": 1, "reason": "timeout"}]
    assert steps[-1]["view"]["result"] == {"winner": 1, "reason": "timeout"}
