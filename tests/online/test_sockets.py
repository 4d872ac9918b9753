"""Online games over Flask-SocketIO's test clients: start, a full game, hidden leader choices, claims,
clocks, resign, rematch, spectators, a third user, emotes (R18)."""

import json
import re

import pytest

from webapp.game import invitations, play
from webapp.social import watching
from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.tools.bot import SentView
from webapp.store import list_actions, load_game

from tests.play.helpers import assert_no_leak

from .conftest import AUTO_AFTER, CLAIM_AFTER, log_in
from .helpers import Seat, errors, events, states, wait_until


@pytest.fixture
def seats(started, connect_as, alice, bob):
    """seats(**started kwargs) -> (game id, alice's Seat, bob's Seat), both joined."""
    def make(**kwargs):
        game_id = started(**kwargs)
        a, b = Seat(connect_as(alice), game_id), Seat(connect_as(bob), game_id)
        a.join()
        b.join()
        return game_id, a, b
    return make


def play_out(seat_a, seat_b, policies=None, limit=3000):
    """Both seats play with their policies (by default a baseline and a random player, new for each
    game) until the game ends; return the final state."""
    policies = policies or (BaselinePlayer(seed=1), RandomPlayer(seed=2))
    for _ in range(limit):
        sa, sb = seat_a.latest(), seat_b.latest()
        if sa["status"] != "active" and sb["status"] != "active":
            return sa
        moved = False
        for seat, policy in ((seat_a, policies[0]), (seat_b, policies[1])):
            fresh = seat.latest()
            if fresh["status"] == "active" and fresh["seat"] in fresh["waiting_for"]:
                seat.act(policy.choose(SentView(fresh), fresh["seat"]), fresh["version"])
                moved = True
        if not moved:
            seat_a.pull(), seat_b.pull()
    raise AssertionError("the game did not end")


def test_a_full_game_between_two_users(app, db, seats):
    game_id, a, b = seats()
    first = a.latest()
    assert first["mode"] == "online" and first["seat"] == 0 and b.latest()["seat"] == 1
    assert first["waiting_for"] == [0, 1]  # both choose leaders at once (R5.7)
    dice = first["view"]["opening"]["dice"]
    assert dice == b.latest()["view"]["opening"]["dice"] and dice[-1][0] != dice[-1][1]  # shown to both (R5.1)
    assert first["view"]["first"] == (0 if dice[-1][0] > dice[-1][1] else 1)
    assert first["online"]["clock"] == {"limit_ms": 900_000, "left_ms": first["online"]["clock"]["left_ms"],
                                        "running": [True, True]}
    assert first["players"] == [{"name": "alice", "cpu": False}, {"name": "bob", "cpu": False}]
    final = play_out(a, b)
    row = load_game(db, game_id)
    assert row["status"] == "finished" and final["view"]["result"] == row["result"]
    assert play.rebuild(db, game_id).to_json() == row["state"]
    assert not any(errors(s.seen) for s in (a, b) if any(e["code"] != "stale" for e in errors(s.seen)))
    assert assert_no_leak(db, game_id, states(a.seen) + states(b.seen)) > 20
    stored = invitations.info(db, game_id)["clock"]
    assert stored["from"] == [None, None] and stored["version"] == row["version"]


def let_anyone_watch(db, *users):
    """The players let anyone with the link watch their games (the default is friends only: docs/security.md)."""
    for user in users:
        watching.choose(db, user["id"], watching.LINK)


def test_the_leader_choice_stays_hidden_until_both_have_chosen(app, db, seats, connect_as, alice, bob, carol):
    game_id, a, b = seats()
    let_anyone_watch(db, alice, bob)
    watcher = Seat(connect_as(carol), game_id)
    watcher.join()
    mine = a.latest()["legal_actions"][0]
    a.act(mine)
    theirs_before = b.pull()
    assert states(theirs_before)[-1]["view"]["players"][0]["leaders_chosen"] is True
    for _, payload in theirs_before + watcher.pull():  # nothing names alice's leaders yet
        text = json.dumps(payload)
        assert not any(f'"{cid}"' in text for cid in mine["cards"]), text[:300]
    assert "leader_choice" not in states(theirs_before)[-1]["view"]["players"][0]
    b.act(b.latest()["legal_actions"][0])
    after = states(b.seen)[-1]
    assert after["view"]["leaders"][0] == mine["cards"]  # revealed once both chose


def test_a_spectator_watches_the_public_view_and_cannot_act(app, db, seats, connect_as, alice, bob, carol):
    game_id, a, b = seats()
    let_anyone_watch(db, alice, bob)
    watcher = Seat(connect_as(carol), game_id)
    state = watcher.join()
    assert state["seat"] is None and state["legal_actions"] == []
    assert all("hand" not in p for p in state["view"]["players"])
    for event, payload in (("action", {"game": game_id, "action": {"type": "resign"}, "version": state["version"]}),
                           ("claim", {"game": game_id}), ("emote", {"game": game_id, "emote": "wow"}),
                           ("rematch", {"game": game_id})):
        watcher.client.emit(event, payload)
        assert [e["code"] for e in errors(watcher.pull())] == ["forbidden"], event
    assert load_game(db, game_id)["status"] == "active"
    a.act(a.latest()["legal_actions"][0])
    seen = watcher.latest()
    assert seen["version"] == 1 and all("hand" not in p for p in seen["view"]["players"])


def test_each_spectator_reads_the_log_in_their_own_language(app, db, seats, connect_as, alice, bob, carol, make_user):
    """Spectators are told the game in their language (a room per language): carol reads Japanese
    (her account's mark), dave English, from the same actions."""
    from webapp.store.marks import set_mark
    set_mark(db, carol["id"], "locale", "ja")
    dave = make_user("dave")
    game_id, a, b = seats()
    let_anyone_watch(db, alice, bob)
    ja, en = Seat(connect_as(carol), game_id), Seat(connect_as(dave), game_id)
    ja.join(), en.join()
    for seat in (a, b):
        seat.act(seat.latest()["legal_actions"][0])
    ja_log = [line for st in states(ja.pull()) for line in st["log"]]
    en_log = [line for st in states(en.pull()) for line in st["log"]]
    assert ja_log and en_log
    assert any("旅団長" in line for line in ja_log) and not any(re.search(r"[A-Za-z]{4}", line.replace("alice", "")
                                                                             .replace("bob", "")) for line in ja_log), ja_log
    assert any("leaders" in line for line in en_log) and not any(re.search(r"[぀-ヿ一-鿿]", line) for line in en_log), en_log


def test_a_third_user_gets_no_seat(app, db, invite, loaner, alice, bob, carol, connect_as):
    game_id, code = invite(alice)
    invitations.join(db, code, bob, loaner)
    with pytest.raises(invitations.Full):
        invitations.join(db, code, carol, loaner)
    with pytest.raises(play.Forbidden):
        invitations.join(db, invitations.create_invitation(db, alice, loaner, 60_000)[1], alice, loaner)
    let_anyone_watch(db, alice, bob)
    c = Seat(connect_as(carol), game_id)
    assert c.join()["seat"] is None
    c.client.emit("action", {"game": game_id, "action": {"type": "resign"}, "version": 0})
    assert errors(c.pull())[0]["code"] == "forbidden"
    assert load_game(db, game_id)["seats"][1] == bob["id"]


def test_resign_ends_the_game_for_the_other_player(app, db, seats):
    game_id, a, b = seats()
    b.act({"type": "resign"})
    final = a.latest()
    assert final["status"] == "finished" and final["view"]["result"] == {"winner": 0, "reason": "resign"}
    assert final["online"]["clock"]["running"] == [False, False]


def test_a_clock_runs_only_while_the_game_waits_for_its_player(app, db, seats):
    game_id, a, b = seats()
    a.act(a.latest()["legal_actions"][0])
    clock = invitations.info(db, game_id)["clock"]
    assert clock["from"][0] is None and clock["from"][1] is not None and clock["left"][0] < 900_000
    b.act(b.latest()["legal_actions"][0])
    st = a.latest()
    waiting = st["waiting_for"][0]
    clock = invitations.info(db, game_id)["clock"]
    assert [s for s in (0, 1) if clock["from"][s] is not None] == [waiting]
    assert st["online"]["clock"]["running"] == [waiting == 0, waiting == 1]


def test_a_clock_at_zero_loses_the_game(app, db, seats, clock):
    game_id, a, b = seats(clock_ms=60_000)
    a.act(a.latest()["legal_actions"][0])  # alice chose; bob's clock runs out
    clock.advance(60)
    final = wait_until(lambda: (s := a.latest())["status"] == "finished" and s)
    assert final["view"]["result"] == {"winner": 0, "reason": "timeout"}
    assert final["online"]["clock"]["left_ms"][1] == 0


def test_both_clocks_out_during_the_leader_choice_is_a_draw(app, db, seats, clock):
    game_id, a, b = seats(clock_ms=60_000)
    clock.advance(60)
    final = wait_until(lambda: (s := a.latest())["status"] == "finished" and s)
    assert final["view"]["result"] == {"winner": None, "reason": "timeout"}
    assert load_game(db, game_id)["result"] == {"winner": None, "reason": "timeout"}


def test_an_action_after_the_clock_ran_out_ends_the_game_instead(app, db, seats, clock):
    game_id, a, b = seats(clock_ms=60_000)
    app.extensions["brigade_online"].stop()  # no ticker: the action itself finds the clock at 0
    a.act(a.latest()["legal_actions"][0])
    clock.advance(60)
    b.act(b.latest()["legal_actions"][0])
    assert b.latest()["view"]["result"] == {"winner": 0, "reason": "timeout"}
    assert [a["player"] for a in list_actions(db, game_id)] == [0]


def test_presence_claim_and_automatic_claim(app, db, seats, clock):
    game_id, a, b = seats()
    a.act(a.latest()["legal_actions"][0])  # now the game waits for bob only
    b.pull()
    b.client.disconnect()
    presence = events(a.pull(), "presence")[-1]["presence"]
    assert presence[0]["connected"] and not presence[1]["connected"]
    assert 0 < presence[1]["claim_in_ms"] <= CLAIM_AFTER * 1000 < presence[1]["auto_in_ms"] <= AUTO_AFTER * 1000
    a.client.emit("claim", {"game": game_id})
    refused = errors(a.pull())
    assert refused[0]["code"] == "illegal" and "you may claim in" in refused[0]["message"]
    clock.advance(CLAIM_AFTER)
    a.client.emit("claim", {"game": game_id})
    final = a.latest()
    assert final["view"]["result"] == {"winner": 0, "reason": "disconnect"}


def test_the_win_is_claimed_automatically_after_the_longer_grace(app, db, seats, clock):
    game_id, a, b = seats()
    a.act(a.latest()["legal_actions"][0])
    b.client.disconnect()
    clock.advance(AUTO_AFTER)  # the ticker's next look ends the game
    final = wait_until(lambda: (s := a.latest())["status"] == "finished" and s, timeout=5)
    assert final["view"]["result"] == {"winner": 0, "reason": "disconnect"}


def test_nobody_claims_while_it_is_your_own_move_or_when_both_are_away(app, db, seats, clock):
    game_id, a, b = seats()
    b.act(b.latest()["legal_actions"][0])  # bob chose: the game waits for alice
    b.client.disconnect()
    clock.advance(CLAIM_AFTER)
    a.client.emit("claim", {"game": game_id})
    assert "waits for you" in errors(a.pull())[0]["message"]
    a.client.disconnect()  # both away: nobody claims, the game goes on (clocks decide)
    clock.advance(AUTO_AFTER)  # past the automatic claim too
    app.extensions["brigade_online"].look(db)  # the ticker's look, here and now
    assert load_game(db, game_id)["status"] == "active"


def test_emotes_are_relayed_and_unknown_ones_refused(app, db, seats):
    game_id, a, b = seats()
    a.client.emit("emote", {"game": game_id, "emote": "greet"})
    assert events(b.pull(), "emote") == [{"game": game_id, "seat": 0, "emote": "greet"}]
    assert events(a.pull(), "emote") == [{"game": game_id, "seat": 0, "emote": "greet"}]
    a.client.emit("emote", {"game": game_id, "emote": "you are bad"})
    bad = errors(a.pull())
    assert bad[0]["code"] == "bad_request" and "unknown emote" in bad[0]["message"]
    a.client.emit("emote", {"game": game_id, "emote": "<b>" * 40})
    assert errors(a.pull())[0]["code"] == "bad_request"
    assert events(b.pull(), "emote") == []
    for _ in range(3):
        b.client.emit("emote", {"game": game_id, "emote": "wow"})
    assert len(events(a.pull(), "emote")) == 3  # 3 in 5 s per socket (ONLINE_EMOTE_LIMIT)
    assert [e["code"] for e in errors(b.pull())] == []
    b.client.emit("emote", {"game": game_id, "emote": "wow"})
    assert [e["code"] for e in errors(b.pull())] == ["rate_limited"]


def test_a_rematch_offered_and_accepted_swaps_the_first_player(app, db, seats):
    game_id, a, b = seats()
    first = a.latest()["view"]["first"]
    a.client.emit("rematch", {"game": game_id})
    assert errors(a.pull())[0]["code"] == "illegal"  # not over yet
    b.act({"type": "resign"})
    a.client.emit("rematch", {"game": game_id})
    offer = events(b.pull(), "rematch")[-1]
    assert offer == {"game": game_id, "offered_by": 0, "new_game": None, "url": None}
    b.client.emit("rematch", {"game": game_id})
    accepted = events(a.pull(), "rematch")[-1]
    new_id = accepted["new_game"]
    assert accepted["url"] == f"/play/{new_id}" and new_id != game_id
    old, new = load_game(db, game_id), load_game(db, new_id)
    assert new["setup"]["decks"] == old["setup"]["decks"] and new["seats"] == old["seats"]
    assert new["setup"]["first"] == 1 - first and new["setup"]["rematch_of"] == game_id
    a2 = Seat(a.client, new_id)
    st = a2.join()
    assert st["view"]["first"] == 1 - first and st["online"]["rematch_of"] == game_id
    a.client.emit("rematch", {"game": game_id})  # asking again changes nothing
    assert events(a.pull(), "rematch")[-1]["new_game"] == new_id


def test_a_waiting_invitation_answers_join_and_tells_the_room_when_it_starts(app, db, invite, loaner, alice, bob,
                                                                            connect_as):
    game_id, code = invite(alice)
    a = Seat(connect_as(alice), game_id)
    a.client.emit("join", {"game": game_id})
    assert events(a.pull(), "invitation") == [{"game": game_id, "status": "waiting", "code": code,
                                               "url": f"/join/{code}"}]
    b = Seat(connect_as(bob), game_id)
    b.client.emit("join", {"game": game_id})
    assert events(b.pull(), "invitation") == [{"game": game_id, "status": "waiting"}]  # no code for others
    b.client.emit("action", {"game": game_id, "action": {"type": "resign"}, "version": 0})
    assert errors(b.pull())[0]["code"] == "forbidden"
    row = invitations.join(db, code, bob, loaner)
    app.extensions["brigade_online"].started(db, row)
    assert events(a.pull(), "started") == [{"game": game_id, "url": f"/play/{game_id}"}]


def test_a_cancelled_invitation_tells_its_open_pages_and_its_own_link_does_not_lead_to_a_board(
        app, db, loaner, alice, connect_as):
    http = app.test_client()
    token = log_in(http, alice)
    answer = http.post("/lobby/invite", data={"deck": str(loaner), "clock": "15", "csrf_token": token})
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    code = invitations.info(db, game_id)["code"]
    other_tab = Seat(connect_as(alice), game_id)
    other_tab.client.emit("join", {"game": game_id})
    other_tab.pull()
    http.post(f"/lobby/invite/{game_id}/cancel", data={"csrf_token": token})
    assert events(other_tab.pull(), "invitation") == [{"game": game_id, "status": "aborted"}]
    page = http.get(f"/join/{code}")  # the inviter's own link: no board for a game that never began
    assert page.status_code == 409 and "This invitation was cancelled." in page.get_data(as_text=True)
