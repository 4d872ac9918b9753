"""A stranger cannot learn an invitation's code or take its seat (issue 12, Medium).

The attack on the old server: GET /lobby/invite/<id> (ids are sequential) as any logged-in user
redirected to /join/<CODE>, revealing the code; POST join then took the seat. Codes were 6
characters, and nothing limited guessing them.
"""

import math
import re
import secrets

from tests.security.conftest import client_of, post, text
from webapp.game import invitations, onlinelobby, play
from webapp.social import watching


def test_a_stranger_walking_the_invitation_ids_learns_no_code(app, db, alice, carol, loaner):
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    stranger = client_of(app, carol, "203.0.113.7")
    for gid in range(1, game_id + 3):
        response = stranger.get(f"/lobby/invite/{gid}")
        assert response.status_code == 404
        assert code not in text(response) and code not in response.headers.get("Location", "")
        cancel = post(stranger, f"/lobby/invite/{gid}/cancel")
        assert cancel.status_code == 404
    assert code not in text(stranger.get("/lobby"))
    assert play.load_row(db, game_id)["status"] == "waiting"
    # Nobody took the seat; the inviter still sees the code.
    assert code in text(client_of(app, alice).get(f"/lobby/invite/{game_id}"))


def test_the_friend_who_joined_goes_to_the_board(app, db, alice, bob, loaner):
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)
    response = client_of(app, bob).get(f"/lobby/invite/{game_id}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/play/{game_id}")


def test_friends_watching_a_game_see_no_code_in_the_lobby(app, db, alice, bob, carol, loaner):
    _, bobs_game = invitations.create_invitation(db, bob, loaner, 60_000)
    invitations.join(db, bobs_game, carol, loaner)               # carol is bob's friend now
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.join(db, code, bob, loaner)                      # alice vs bob, which carol may watch
    lobby = dict(onlinelobby.lobby(db, carol["id"]), watch=watching.watchable(db, carol["id"]))
    assert any(r["id"] == game_id for r in lobby["watch"])
    assert all(r.get("code") is None for rows in lobby.values() for r in rows)
    assert code not in text(client_of(app, carol).get("/lobby"))


def test_codes_are_too_many_to_guess():
    bits = invitations.CODE_LENGTH * math.log2(len(invitations.CODE_ALPHABET))
    assert bits >= 45
    codes = {invitations.new_code() for _ in range(2000)}
    assert len(codes) == 2000 and all(re.fullmatch(f"[{invitations.CODE_ALPHABET}]{{{invitations.CODE_LENGTH}}}", c) for c in codes)


def guess():
    return "".join(secrets.choice(invitations.CODE_ALPHABET) for _ in range(invitations.CODE_LENGTH))


def test_guessing_codes_is_cut_off_per_user_and_per_address(app, db, alice, carol, make_user, loaner):
    _, code = invitations.create_invitation(db, alice, loaner, 60_000)
    limit = app.config["JOIN_CODE_LIMIT"]
    guesser = client_of(app, carol, "203.0.113.7")
    for _ in range(limit):
        assert guesser.get(f"/join/{guess()}").status_code == 404
    # Cut off: even the right code, or a typed one, gets no answer about the game.
    for response in (guesser.get(f"/join/{code}"), guesser.get(f"/join?code={guess()}", follow_redirects=True),
                     post(guesser, f"/join/{code}", {"deck": str(loaner)})):
        assert response.status_code == 429 and "Try again in" in text(response)
        assert int(response.headers["Retry-After"]) > 0
    assert play.load_row(db, invitations.game_by_code(db, code))["status"] == "waiting"
    # Another account from the same address is cut off too; the guesser from another address as well.
    dave = make_user("dave")
    assert client_of(app, dave, "203.0.113.7").get(f"/join/{guess()}").status_code == 429
    assert client_of(app, carol, "198.51.100.1").get(f"/join/{guess()}").status_code == 429
    # A friend with the real link is not held back by someone else's guessing.
    erin = make_user("erin")
    assert client_of(app, erin, "192.0.2.9").get(f"/join/{code}").status_code == 200


def test_opening_a_real_link_again_and_again_is_never_limited(app, db, alice, bob, loaner):
    _, code = invitations.create_invitation(db, alice, loaner, 60_000)
    friend = client_of(app, bob, "10.0.0.2")
    for _ in range(app.config["JOIN_CODE_LIMIT"] * 2):
        assert friend.get(f"/join/{code}").status_code == 200


def test_a_strangers_socket_on_a_waiting_invitation_hears_no_code(app, db, alice, carol, loaner, connect_as):
    game_id, code = invitations.create_invitation(db, alice, loaner, 60_000)
    stranger = connect_as(carol)
    stranger.emit("join", {"game": game_id})
    heard = stranger.get_received()
    assert any(m["name"] == "invitation" for m in heard)
    assert code not in repr(heard)
    owner = connect_as(alice)
    owner.emit("join", {"game": game_id})
    assert code in repr(owner.get_received())  # the inviter's own page gets it
