"""Who may watch a live online game (issue "security" F14): the players choose friends (the default),
anyone with the link, or nobody; a game follows the stricter choice. Written as the attacks: a stranger,
a blocked user, and a friend against "nobody", at the socket's join, the board page, the lobby's list
and the replay; each refusal reads exactly as a game that does not exist."""

import pytest

from tests.online.helpers import Seat, errors
from webapp.social import friends, watching


@pytest.fixture
def game(started, app, db):
    return started()  # alice (seat 0) against bob (seat 1)


def join_answer(connect_as, user, game_id):
    seat = Seat(connect_as(user), game_id)
    seat.client.emit("join", {"game": game_id})
    return seat.pull()


def refused_like_a_missing_game(connect_as, user, game_id):
    """What the user's socket hears when joining ``game_id``, compared with a game id that does not exist."""
    heard = join_answer(connect_as, user, game_id)
    missing = join_answer(connect_as, user, game_id + 1000)
    return ([e["message"].replace(str(game_id), "N") for e in errors(heard)]
            == [e["message"].replace(str(game_id + 1000), "N") for e in errors(missing)] != []
            and not any(name == "state" for name, _ in heard))


def test_attack_a_stranger_cannot_watch_by_default(app, db, game, connect_as, carol, client_of, make_user):
    assert watching.setting(db, carol["id"]) == "friends"
    assert refused_like_a_missing_game(connect_as, carol, game)
    page = client_of(carol)
    assert page.get(f"/play/{game}").status_code == 404 == page.get(f"/play/{game + 1000}").status_code
    assert watching.watchable(db, carol["id"]) == []


def test_a_friend_of_either_player_and_a_past_opponent_may_watch(app, db, game, connect_as, carol, alice, bob,
                                                                 befriend, client_of):
    befriend(carol, bob)
    state = Seat(connect_as(carol), game).join()
    assert state["game"] == game and state["seat"] is None
    assert client_of(carol).get(f"/play/{game}").status_code == 200
    assert [g["id"] for g in watching.watchable(db, carol["id"])] == [game]


def test_anyone_with_the_link_once_both_players_allow_it(app, db, game, connect_as, carol, alice, bob):
    watching.choose(db, alice["id"], watching.LINK)
    assert refused_like_a_missing_game(connect_as, carol, game)  # bob still says friends: the stricter wins
    watching.choose(db, bob["id"], watching.LINK)
    assert Seat(connect_as(carol), game).join()["seat"] is None


def test_attack_nobody_shuts_out_even_friends_but_never_the_players(app, db, game, connect_as, carol, alice, bob,
                                                                    befriend, client_of):
    befriend(carol, alice)
    watching.choose(db, bob["id"], watching.NOBODY)
    assert refused_like_a_missing_game(connect_as, carol, game)
    assert client_of(carol).get(f"/play/{game}").status_code == 404
    assert watching.watchable(db, carol["id"]) == []
    assert Seat(connect_as(bob), game).join()["seat"] == 1  # the players always may
    assert client_of(bob).get(f"/play/{game}").status_code == 200


def test_attack_a_blocked_user_cannot_watch_whatever_the_setting(app, db, game, connect_as, carol, alice, bob,
                                                                 befriend):
    befriend(carol, alice)
    for user in (alice, bob):
        watching.choose(db, user["id"], watching.LINK)
    friends.block(db, bob["id"], carol["id"])
    assert refused_like_a_missing_game(connect_as, carol, game)
    assert watching.watchable(db, carol["id"]) == []


def test_the_replay_follows_the_same_rule(app, db, game, carol, alice, bob, client_of):
    app.extensions["brigade_online"].finish(db, game, 0, "resign")
    assert client_of(carol).get(f"/games/{game}/replay").status_code == 404
    for user in (alice, bob):
        watching.choose(db, user["id"], watching.LINK)
    assert client_of(carol).get(f"/games/{game}/replay").status_code == 200
    watching.choose(db, alice["id"], watching.NOBODY)
    assert client_of(carol).get(f"/games/{game}/replay").status_code == 404
    assert client_of(bob).get(f"/games/{game}/replay").status_code == 200


def test_a_bad_setting_is_refused_and_changes_nothing(app, db, alice, client_of):
    from tests.web.conftest import post
    answer = post(client_of(alice), "/friends/watch", {"watch": "everyone"}, follow_redirects=True)
    assert "Choose who may watch your games." in answer.get_data(as_text=True)
    assert watching.setting(db, alice["id"]) == "friends"
