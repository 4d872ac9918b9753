"""The online service without sockets (docs/architecture.md): what the players must hear goes through
the notifier it is given (webapp/game/notify.py), and its ticker's work is steps the notifier's owner
calls. Here the notifier is a recorder; the socket hub's own is tested by every other file here."""

import pytest

from webapp.game import invitations, online, play
from webapp.game.notify import Notifier


class Recorder(Notifier):
    """A notifier that keeps what it was told."""

    def __init__(self):
        self.sent, self.pushed, self.woken = [], [], 0

    def to_game(self, game_id, event, payload):
        self.sent.append((game_id, event, payload))

    def push(self, db, played):
        self.pushed.append(played)

    def watch_clocks(self):
        self.woken += 1


@pytest.fixture
def told(app):
    return Recorder()


@pytest.fixture
def service(app, told):
    out = online.Online(app, notifier=told)
    yield out
    out.stop()


def joined(db, invite, alice, bob, loaner, clock_ms=15 * 60_000, started_ms_ago=0):
    game_id, code = invite(alice, clock_ms)
    return invitations.join(db, code, bob, loaner, now=online.now_ms() - started_ms_ago)


def test_a_tracked_game_asks_for_the_ticker_and_stopping_ends_the_watch(db, invite, alice, bob, loaner, service, told):
    assert not service.watching()
    service.track(db, joined(db, invite, alice, bob, loaner))
    assert told.woken == 1 and service.watching()
    service.stop()
    assert not service.watching()


def test_the_tickers_look_ends_a_game_whose_clocks_ran_out_and_pushes_it(db, invite, alice, bob, loaner, service, told):
    row = joined(db, invite, alice, bob, loaner, clock_ms=1000, started_ms_ago=5000)
    service.track(db, row)
    service.look(db)  # both seats were choosing leaders when both clocks ran out: a draw (R18.4)
    [played] = told.pushed
    assert played.row["id"] == row["id"] and played.row["status"] == "finished"
    assert played.row["result"]["winner"] is None and played.row["result"]["reason"] == "timeout"
    assert play.load_row(db, row["id"])["status"] == "finished"
    assert not service.watching()  # the game over is forgotten


def test_an_action_after_the_seats_time_ends_the_game_instead(db, invite, alice, bob, loaner, service, told):
    row = joined(db, invite, alice, bob, loaner, clock_ms=1000, started_ms_ago=5000)
    game = play.game_of(db, row)
    played = service.act(db, row, 0, game.legal_actions(0)[0], row["version"])
    assert played.seat is None and played.row["result"]["reason"] == "timeout"
    assert told.pushed == [played]


def test_emotes_rematches_and_starts_go_to_the_games_room(db, invite, alice, bob, loaner, service, told):
    row = joined(db, invite, alice, bob, loaner)
    service.started(db, row)
    service.emote(db, "sid-1", row["id"], bob["id"], "greet")
    play.act(db, row["id"], alice["id"], {"type": "resign"}, row["version"])
    service.rematch(db, row["id"], bob["id"])
    assert [(game, event) for game, event, _ in told.sent] == [
        (row["id"], "started"), (row["id"], "emote"), (row["id"], "rematch")]
    assert told.sent[1][2] == {"game": row["id"], "seat": 1, "emote": "greet"}
    assert told.sent[2][2]["offered_by"] == 1 and told.sent[2][2]["new_game"] is None


def test_clocks_are_for_online_games_only(db, alice, loaner, service):
    game_id = play.create_cpu_game(db, alice, [loaner, loaner])
    row = play.load_row(db, game_id)
    with pytest.raises(play.Illegal):
        service.act(db, row, 0, {"type": "resign"}, row["version"])


def test_a_game_the_host_ends_is_over_in_its_state_and_pushed_to_both_seats(db, invite, alice, bob, loaner, service, told):
    """The host's end (from /admin): nobody wins, the game is "aborted", its state says so with the
    host's words (so a reload shows it), and the service pushes that last state through the notifier;
    the game's clocks are no longer watched. Both seats' views carry the result; the spectators' too."""
    row = joined(db, invite, alice, bob, loaner)
    service.track(db, row)
    played = play.end_by_host(db, row["id"], "stuck after the update", by="hostess")
    service.ended_by_host(db, played)
    assert told.pushed == [played] and not service.watching()
    stored = play.load_row(db, row["id"])
    assert stored["status"] == "aborted"
    assert stored["result"] == {"winner": None, "reason": "host", "note": "stuck after the update", "by": "hostess"}
    again = play.game_of(db, stored)  # what a reload builds the boards from
    for reader in (0, 1, None):
        assert again.view(reader)["result"] == {"winner": None, "reason": "host", "note": "stuck after the update"}
        if reader is not None:
            assert again.legal_actions(reader) == []
    assert invitations.is_invitation(stored) is False  # a reload joins it as a game, not as a cancelled invitation
    with pytest.raises(play.Illegal):
        play.end_by_host(db, row["id"], "again")
