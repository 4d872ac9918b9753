"""Watching a game against the CPU (issue 26 F14, docs/security.md "Watching"). Before, a CPU game or a
story battle was open to anyone logged in who knew its address: a stranger walking the ids opened
the board and joined its socket room as a spectator. Now the one watching rule covers them too: the
player's choice, by default friends (the friends list and past online opponents). Written as the
attack: a stranger opening and socket-joining another user's CPU game and story battle is answered
exactly as for a game that does not exist; a friend may watch, unless the player says nobody."""

import pytest

from tests.online.helpers import Seat, errors
from tests.security.conftest import client_of
from webapp.game import play, story, storychapters
from webapp.social import watching


@pytest.fixture
def games(db, alice, loaner):
    """{"cpu": id, "story": id}: alice's CPU game and story battle, both in progress."""
    return {"cpu": play.create_cpu_game(db, alice, loaner),
            "story": story.start_chapter(db, alice, storychapters.chapters()[0].id, seed=5)}


def heard_on_join(connect_as, user, game_id):
    seat = Seat(connect_as(user), game_id)
    seat.client.emit("join", {"game": game_id})
    return seat.pull()


def answered_as_missing(app, connect_as, user, game_id):
    """Whether ``user`` is told of ``game_id`` exactly what a game id that does not exist tells them: the
    socket's join (no state, the same error word for word) and the board page (the same 404 page, but
    for its own address in the language switch)."""
    missing = game_id + 1000
    heard, nothing = heard_on_join(connect_as, user, game_id), heard_on_join(connect_as, user, missing)
    same_error = ([(e["code"], e["message"].replace(str(game_id), "N")) for e in errors(heard)]
                  == [(e["code"], e["message"].replace(str(missing), "N")) for e in errors(nothing)] != [])
    browser = client_of(app, user)
    page, no_page = (browser.get(f"/play/{gid}") for gid in (game_id, missing))
    same_page = (page.status_code == no_page.status_code == 404
                 and page.get_data(as_text=True).replace(f"/play/{game_id}", "N")
                 == no_page.get_data(as_text=True).replace(f"/play/{missing}", "N"))
    return same_error and same_page and not any(name == "state" for name, _ in heard)


@pytest.mark.parametrize("kind", ["cpu", "story"])
def test_attack_a_stranger_cannot_watch_a_game_against_the_cpu(app, db, games, connect_as, alice, carol, kind):
    game_id = games[kind]
    assert watching.setting(db, alice["id"]) == watching.FRIENDS  # the default
    assert answered_as_missing(app, connect_as, carol, game_id)
    assert Seat(connect_as(alice), game_id).join()["seat"] == 0  # the player always may
    assert client_of(app, alice).get(f"/play/{game_id}").status_code == 200


@pytest.mark.parametrize("kind", ["cpu", "story"])
def test_a_friend_may_watch_unless_the_player_says_nobody(app, db, games, connect_as, alice, carol, befriend, kind):
    game_id = games[kind]
    befriend(carol, alice)
    state = Seat(connect_as(carol), game_id).join()
    assert state["game"] == game_id and state["seat"] is None  # a spectator's view
    assert client_of(app, carol).get(f"/play/{game_id}").status_code == 200
    watching.choose(db, alice["id"], watching.NOBODY)
    assert answered_as_missing(app, connect_as, carol, game_id)


def test_anyone_with_the_link_when_the_player_allows_it(app, db, games, connect_as, alice, carol):
    watching.choose(db, alice["id"], watching.LINK)
    for game_id in games.values():
        assert Seat(connect_as(carol), game_id).join()["seat"] is None
        assert client_of(app, carol).get(f"/play/{game_id}").status_code == 200
