"""The seed of an online game never leaves the server before the game ends (issue 12, High).

The attack: the inviter fetches everything they can about their own waiting invitation (its page,
the board, both replay addresses, the lobby), then, once a friend has joined, tries every number
they saw as the game's seed to predict the friend's opening hand. On the old server replay.json
of a waiting invitation returned the seed, which the join kept: the prediction came true.
"""

import json
import logging
import re

from tests.security.conftest import client_of, post, text
from webapp.game import invitations, play
from webapp.engine import Game


def fetch_all(client, game_id):
    """Every page and payload the inviter can ask for about the game: {address: (status, body)}."""
    seen = {}
    for url in (f"/lobby/invite/{game_id}", f"/play/{game_id}", f"/play/{game_id}/replay.json",
                f"/games/{game_id}/replay", f"/games/{game_id}/replay.json", "/lobby", "/play"):
        response = client.get(url)
        seen[url] = (response.status_code, text(response))
    return seen


def predicted_hands(numbers, row, seat):
    """The seat's opening hand under each candidate seed (what an attacker would compute)."""
    setup = row["setup"]
    out = set()
    for seed in numbers:
        if not 0 <= seed < 2**63:
            continue
        game = Game.new(*setup["decks"], seed=seed, first=None, leader_mode=setup.get("leader_mode", "simultaneous"))
        out.add(tuple(c["card"] for c in game.view(seat)["players"][seat]["hand"]))
    return out


def test_the_inviter_cannot_predict_the_friends_hand(app, db, alice, bob, loaner, caplog, connect_as):
    caplog.set_level(logging.DEBUG)
    inviter = client_of(app, alice)
    answer = post(inviter, "/lobby/invite", {"deck": str(loaner), "clock": "15"})
    game_id = int(re.search(r"/lobby/invite/(\d+)$", answer.headers["Location"]).group(1))
    before = fetch_all(inviter, game_id)
    live = connect_as(alice)  # the invitation page's socket, too
    live.emit("join", {"game": game_id})
    before["socket join"] = (200, json.dumps([m["args"] for m in live.get_received()]))
    numbers = {int(n) for _, body in before.values() for n in re.findall(r"\d{1,19}", body)}

    code = invitations.info(db, game_id)["code"]
    friend = client_of(app, bob, "10.0.0.2")
    assert post(friend, f"/join/{code}", {"deck": str(loaner)}).status_code == 302
    row = play.load_row(db, game_id)
    assert row["status"] == "active"
    after = fetch_all(inviter, game_id)
    live.emit("join", {"game": game_id})  # the inviter's own first state of the game
    after["socket state"] = (200, json.dumps([m["args"] for m in live.get_received()]))
    numbers |= {int(n) for _, body in after.values() for n in re.findall(r"\d{1,19}", body)}

    actual = tuple(c["card"] for c in Game.from_json(row["state"]).view(1)["players"][1]["hand"])
    assert actual not in predicted_hands(numbers, row, 1), "the inviter predicted the friend's hand"
    # Replays of a waiting invitation are refused outright (not only for lack of a seed).
    assert before[f"/play/{game_id}/replay.json"][0] == 409
    assert before[f"/games/{game_id}/replay.json"][0] == 409
    assert before[f"/games/{game_id}/replay"][0] == 409
    # The real seed was drawn at the join and shows up nowhere the inviter looked, nor in the log.
    seed = row["seed"]
    assert seed == row["setup"]["seed"] != invitations.NO_SEED
    assert all(str(seed) not in body for _, body in [*before.values(), *after.values()])
    assert all(str(seed) not in record.getMessage() for record in caplog.records)


def test_an_invitation_is_stored_without_its_seed(db, alice, loaner):
    game_id, _ = invitations.create_invitation(db, alice, loaner, 60_000)
    row = play.load_row(db, game_id)
    assert row["seed"] == invitations.NO_SEED and "seed" not in row["setup"]


def test_a_cancelled_invitation_has_no_replay(app, db, alice, loaner):
    game_id, _ = invitations.create_invitation(db, alice, loaner, 60_000)
    invitations.cancel(db, game_id, alice["id"])
    inviter = client_of(app, alice)
    assert inviter.get(f"/play/{game_id}/replay.json").status_code == 409
    assert inviter.get(f"/games/{game_id}/replay.json").status_code == 409


def test_the_seed_of_a_rematch_is_drawn_when_it_is_accepted(app, db, alice, bob, started):
    game_id = started()
    row = play.load_row(db, game_id)
    play.apply(db, row, 1, {"type": "resign"}, row["version"])
    assert invitations.offer_rematch(db, game_id, alice["id"])["game"] is None  # offered: no game yet
    new = invitations.offer_rematch(db, game_id, bob["id"])["game"]
    assert play.load_row(db, new)["seed"] != row["seed"]


def test_state_payloads_of_a_game_in_progress_name_no_seed(app, db, alice, bob, started, connect_as):
    game_id = started()
    seed = play.load_row(db, game_id)["seed"]
    client = connect_as(alice)
    client.emit("join", {"game": game_id})
    sent = json.dumps([m["args"] for m in client.get_received()])
    assert '"state"' in sent or "view" in sent
    assert str(seed) not in sent and '"seed"' not in sent and '"rng"' not in sent
