"""The chat service without sockets (webapp/social/chat.py): who writes where, what each reader is
sent, mutes, reports, the limits. The notifier is a recorder, as a service used without live
connections is given (webapp/game/notify.py)."""

import pytest

from webapp.game import online, play
from webapp.social import chat
from webapp.store import chat as chat_store


class Recorder:
    """A notifier that keeps what it was asked to send: [(audience, event, payload)]."""

    def __init__(self):
        self.sent = []

    def to_seat(self, game_id, seat, event, payload):
        self.sent.append((("seat", game_id, seat), event, payload))

    def to_spectators(self, game_id, event, payload):
        self.sent.append((("spectators", game_id), event, payload))

    def to_game(self, game_id, event, payload):
        self.sent.append((("game", game_id), event, payload))


@pytest.fixture
def service(app):
    return chat.Chat(app, Recorder())


def test_a_players_message_goes_to_both_seats_and_never_to_the_spectators(service, db, started, alice):
    game_id = started()
    message = service.post(db, game_id, alice["id"], "good luck!")
    assert message == {"game": game_id, "channel": "players", "id": message["id"], "seat": 0, "name": "alice",
                       "text": "good luck!"}
    assert [audience for audience, _, _ in service.notifier.sent] == [("seat", game_id, 0), ("seat", game_id, 1)]
    assert "user_id" not in message  # readers never get an internal user id


def test_a_spectators_message_goes_to_the_spectators_alone(service, db, started, carol):
    game_id = started()
    message = service.post(db, game_id, carol["id"], "nice opening")
    assert message["channel"] == "spectators" and message["seat"] is None and message["name"] == "carol"
    assert [audience for audience, _, _ in service.notifier.sent] == [("spectators", game_id)]


def test_each_reader_reads_their_own_channel_only(service, db, started, alice, bob, carol):
    game_id = started()
    service.post(db, game_id, alice["id"], "hi bob")
    service.post(db, game_id, carol["id"], "go alice")
    for user, channel, texts in ((alice, "players", ["hi bob"]), (bob, "players", ["hi bob"]),
                                 (carol, "spectators", ["go alice"])):
        read = service.history(db, game_id, user["id"])
        assert read["channel"] == channel and [m["text"] for m in read["messages"]] == texts
        assert read["max_length"] == 200


def test_a_message_is_cleaned_of_controls_and_kept_as_plain_text(service, db, started, alice):
    game_id = started()
    text = service.post(db, game_id, alice["id"], "  <b>hi</b>\u202e\x00 there\r\n ")["text"]
    assert text == "<b>hi</b> there"  # kept as text: the board shows it with textContent
    assert chat_store.recent_messages(db, game_id, "players", 10)[0]["text"] == "<b>hi</b> there"


@pytest.mark.parametrize("text", ["", "   ", "\u200b\u202e", "\x00\x01"])
def test_an_empty_message_is_refused_and_nothing_is_stored(service, db, started, alice, text):
    game_id = started()
    with pytest.raises(play.BadRequest):
        service.post(db, game_id, alice["id"], text)
    assert chat_store.recent_messages(db, game_id, "players", 10) == [] and service.notifier.sent == []


def test_the_length_limit(service, app, db, started, alice):
    game_id = started()
    service.post(db, game_id, alice["id"], "x" * 200)
    with pytest.raises(play.BadRequest, match="at most 200 characters"):
        service.post(db, game_id, alice["id"], "x" * 201)
    app.config["CHAT_MAX_LENGTH"] = 10
    with pytest.raises(play.BadRequest, match="at most 10 characters"):
        service.post(db, game_id, alice["id"], "x" * 11)
    assert len(chat_store.recent_messages(db, game_id, "players", 10)) == 1


def test_the_rate_limit_per_user(service, app, db, started, alice, bob, clock):
    game_id = started()
    for n in range(5):  # CHAT_LIMIT = 5 in CHAT_WINDOW = 10 s
        service.post(db, game_id, alice["id"], f"m{n}")
    with pytest.raises(online.RateLimited, match="At most 5 messages in 10 s"):
        service.post(db, game_id, alice["id"], "one too many")
    service.post(db, game_id, bob["id"], "bob has his own")
    clock.advance(10.01)
    service.post(db, game_id, alice["id"], "later")
    texts = [m["text"] for m in chat_store.recent_messages(db, game_id, "players", 20)]
    assert "one too many" not in texts and texts[-1] == "later"


def test_a_muted_opponents_messages_are_not_sent_to_the_one_who_muted(service, db, started, alice, bob):
    game_id = started()
    service.post(db, game_id, bob["id"], "before")
    assert service.mute(db, game_id, alice["id"], True) == {"game": game_id, "muted": True}
    service.notifier.sent.clear()
    service.post(db, game_id, bob["id"], "after")
    assert [audience for audience, _, _ in service.notifier.sent] == [("seat", game_id, 1)]  # bob's own echo
    read = service.history(db, game_id, alice["id"])
    assert read["muted"] is True and read["messages"] == []
    assert [m["text"] for m in service.history(db, game_id, bob["id"])["messages"]] == ["before", "after"]
    assert service.history(db, game_id, bob["id"])["muted"] is False  # bob is not told
    service.notifier.sent.clear()
    service.post(db, game_id, alice["id"], "alice still speaks")
    assert len(service.notifier.sent) == 2  # bob did not mute alice
    service.mute(db, game_id, alice["id"], False)
    assert [m["text"] for m in service.history(db, game_id, alice["id"])["messages"]] == \
        ["before", "after", "alice still speaks"]


def test_a_mute_lasts_into_the_next_game(service, db, started, alice, bob):
    first = started()
    service.mute(db, first, alice["id"], True)
    second = started()
    service.notifier.sent.clear()
    service.post(db, second, bob["id"], "again")
    assert [audience for audience, _, _ in service.notifier.sent] == [("seat", second, 1)]
    assert service.history(db, second, alice["id"])["muted"] is True


def test_only_players_mute(service, db, started, carol):
    with pytest.raises(play.Forbidden):
        service.mute(db, started(), carol["id"], True)


def test_a_report_is_kept_once_and_listed_for_the_host(service, db, started, alice, bob, carol, host):
    game_id = started()
    rude = service.post(db, game_id, bob["id"], "rude words")
    assert service.report(db, game_id, alice["id"], rude["id"]) == {"game": game_id, "message": rude["id"]}
    service.report(db, game_id, alice["id"], rude["id"])  # again: still one report
    listed = chat.reported(db)
    assert [(m["id"], m["text"], m["name"], m["reports"]) for m in listed] == [(rude["id"], "rude words", "bob", 1)]
    assert chat.dismiss(db, rude["id"], host["id"]) == 1
    db.conn.commit()
    assert chat.reported(db) == []


def test_what_cannot_be_reported(service, db, started, alice, bob, carol):
    game_id, other_game = started(), started()
    mine = service.post(db, game_id, alice["id"], "mine")
    stands = service.post(db, game_id, carol["id"], "from the stands")
    elsewhere = service.post(db, other_game, bob["id"], "another game")
    with pytest.raises(play.Illegal):
        service.report(db, game_id, alice["id"], mine["id"])
    for message_id in (stands["id"], elsewhere["id"], 10**9):  # the other channel, another game, none
        with pytest.raises(play.NotFound) as refused:
            service.report(db, game_id, alice["id"], message_id)
        assert refused.value.message == "That message is not in this chat."
    assert chat.reported(db) == []


def test_chat_is_for_started_online_games(service, db, invite, alice, loaner):
    cpu_game = play.create_cpu_game(db, alice, loaner, seed=1)
    with pytest.raises(play.Forbidden):
        service.post(db, cpu_game, alice["id"], "hello CPU")
    waiting, _ = invite(alice)
    with pytest.raises(play.Illegal):
        service.post(db, waiting, alice["id"], "anyone?")
    assert service.notifier.sent == []
