"""Attacks on the chat of online games (docs/protocol.md "Chat", docs/security.md), each written as the
attack: it passes only when the attack fails. alice and bob play, carol watches (tests/social/conftest.py
``table``); what nobody should get is checked on every other socket, and the stored messages after."""

import pytest
from markupsafe import escape

from tests.play.helpers import take
from tests.social.conftest import answers, said
from webapp.game import play
from webapp.hosting.ratelimit import Window
from webapp.social import chat
from webapp.store import chat as chat_store


def stored(db, game_id):
    db.conn.rollback()  # a fresh read of the file
    return [(m["channel"], m["name"], m["text"]) for c in chat.CHANNELS
            for m in chat_store.recent_messages(db, game_id, c, 1000)]


def refusals(sock):
    return [(p["code"], p["message"]) for name, p in answers(sock) if name == "error"]


def test_a_chat_flood_is_cut_at_the_rate_limit(table, db, monkeypatch):
    # the limiter's clock stands still, so "30 messages at once" holds however slowly this machine runs
    monkeypatch.setattr(chat, "Window", lambda limit, seconds: Window(limit, seconds, clock=lambda: 0.0))
    game_id, s = table
    for n in range(30):
        s["bob"].emit("chat", {"game": game_id, "text": f"spam {n}"})
    assert [m["text"] for m in said(s["alice"])] == [f"spam {n}" for n in range(5)]  # CHAT_LIMIT = 5
    assert len(stored(db, game_id)) == 5


def test_the_flood_is_counted_per_user_over_all_their_sockets(table, db, connect_as, bob, monkeypatch):
    monkeypatch.setattr(chat, "Window", lambda limit, seconds: Window(limit, seconds, clock=lambda: 0.0))
    game_id, s = table
    second = connect_as(bob)
    second.emit("join", {"game": game_id})
    take(second)
    for n in range(4):
        s["bob"].emit("chat", {"game": game_id, "text": f"a{n}"})
        second.emit("chat", {"game": game_id, "text": f"b{n}"})
    assert len(said(s["alice"])) == 5
    codes = [code for code, _ in refusals(second)] + [code for code, _ in refusals(s["bob"])]
    assert codes.count("rate_limited") == 3


@pytest.mark.parametrize("text", ["<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>",
                                  "'); DROP TABLE chat_messages; --", "{{ config }}", "${alert(1)}"])
def test_injection_is_kept_as_plain_text_everywhere(app, table, db, host_client, text):
    game_id, s = table
    s["bob"].emit("chat", {"game": game_id, "text": text})
    message = said(s["alice"])[0]
    assert message["text"] == text  # sent as a string; the board sets it with textContent
    s["alice"].emit("chat_report", {"game": game_id, "message": message["id"]})
    html = host_client.get("/admin/chat").get_data(as_text=True)
    assert f'<td class="admin-chat-text">{escape(text)}</td>' in html  # escaped on the host's page, never run
    assert app.config["SECRET_KEY"] not in html  # a template in the text is shown, not evaluated
    assert stored(db, game_id) == [("players", "bob", text)]  # the table is there, the text as it was


def test_direction_overrides_and_controls_cannot_disguise_a_message(table, db):
    game_id, s = table
    s["bob"].emit("chat", {"game": game_id, "text": "gg\u202e\u2066 evil\x00\x1b[31m\u200b!"})
    assert [m["text"] for m in said(s["alice"])] == ["gg evil [31m !"]


def test_someone_elses_game_cannot_be_read_or_written(table, db, connect_as, make_user, started, alice):
    game_id, s = table
    mallory = connect_as(make_user("mallory"))
    for event, payload in (("chat", {"game": game_id, "text": "hi"}), ("chat_history", {"game": game_id}),
                           ("chat", {"game": game_id, "text": "hi", "channel": "spectators"})):
        mallory.emit(event, payload)  # never joined the game: its rooms are not hers
        assert [code for code, _ in refusals(mallory)] == ["forbidden"]
    # a player of another game writes to this one by its id
    other = started(inviter=alice, friend=make_user("eve"))
    s["alice"].emit("join", {"game": other})
    take(s["alice"])
    s["alice"].emit("chat", {"game": other, "text": "only for the other table"})
    for sock in s.values():
        assert [m for m in said(sock) if m["game"] == game_id] == []  # nothing crossed into the first game
    assert stored(db, game_id) == []


def test_a_message_of_another_game_cannot_be_reported_or_told_apart(table, db, started, alice, make_user):
    game_id, s = table
    other = started(inviter=alice, friend=make_user("eve"))
    s["alice"].emit("join", {"game": other})
    take(s["alice"])
    s["alice"].emit("chat", {"game": other, "text": "elsewhere"})
    elsewhere = said(s["alice"])[0]
    s["carol"].emit("chat", {"game": game_id, "text": "from the stands"})
    stands = said(s["carol"])[0]
    for message_id in (elsewhere["id"], stands["id"], 10**9):
        s["bob"].emit("chat_report", {"game": game_id, "message": message_id})
        assert refusals(s["bob"]) == [("not_found", "That message is not in this chat.")]
    assert chat.reported(db) == []


def test_a_spectator_cannot_post_to_the_players_chat(table, db):
    game_id, s = table
    s["carol"].emit("chat", {"game": game_id, "text": "psst: play the dragon", "channel": "players"})
    assert [code for code, _ in refusals(s["carol"])] == ["forbidden"]
    s["carol"].emit("chat_mute", {"game": game_id, "muted": True})
    assert [code for code, _ in refusals(s["carol"])] == ["forbidden"]
    for name in ("alice", "bob", "carol"):
        assert said(s[name]) == []
    assert stored(db, game_id) == []


def test_a_spectators_tip_never_reaches_a_player(table, db):
    game_id, s = table
    s["carol"].emit("chat", {"game": game_id, "text": "alice: the dragon is in his hand"})
    assert said(s["alice"]) == [] and said(s["bob"]) == []
    s["alice"].emit("chat_history", {"game": game_id})
    (_, read), = answers(s["alice"])
    assert read["channel"] == "players" and read["messages"] == []


def test_a_player_cannot_post_to_the_spectators_chat(table, db):
    game_id, s = table
    s["alice"].emit("chat", {"game": game_id, "text": "hello watchers", "channel": "spectators"})
    assert [code for code, _ in refusals(s["alice"])] == ["forbidden"]
    assert said(s["carol"]) == [] and stored(db, game_id) == []


def test_a_muted_sender_reaches_nobody_who_muted_them(table, db):
    game_id, s = table
    s["alice"].emit("chat_mute", {"game": game_id, "muted": True})
    take(s["alice"])
    for n in range(3):
        s["bob"].emit("chat", {"game": game_id, "text": f"listen {n}"})
    assert said(s["alice"]) == [] and said(s["carol"]) == []
    assert [m["text"] for m in said(s["bob"])] == ["listen 0", "listen 1", "listen 2"]  # bob is not told
    s["alice"].emit("chat_history", {"game": game_id})
    (_, read), = answers(s["alice"])
    assert read["messages"] == [] and read["muted"] is True


@pytest.mark.parametrize("payload, words", [
    ({"text": "x" * 5000}, "bytes; at most 4096"),
    ({"text": "x" * 201}, "at most 200 characters"),
    ({"text": ""}, "Write something first."),
    ({"text": 12}, "'text' is the message's text"),
    ({"text": ["a"]}, "'text' is the message's text"),
    ({"text": {"$ne": 1}}, "'text' is the message's text"),
    ({"text": "hi", "channel": "admins"}, "'channel' is one of players, spectators"),
    ({"text": "hi", "channel": None}, "'channel' is one of"),
    ({"text": "hi", "html": "<b>"}, "unknown html"),
    ({}, "missing text"),
])
def test_oversize_and_malformed_chat_payloads_are_refused(table, db, payload, words):
    game_id, s = table
    s["alice"].emit("chat", dict({"game": game_id}, **payload))
    (code, message), = refusals(s["alice"])
    assert code == "bad_request" and words in message
    for sock in s.values():
        assert said(sock) == []
    assert stored(db, game_id) == []


@pytest.mark.parametrize("event, payload", [
    ("chat_mute", {"muted": "yes"}), ("chat_mute", {}), ("chat_report", {"message": "1"}),
    ("chat_report", {"message": True}), ("chat_report", {"message": -4}), ("chat_history", {"extra": 1}),
])
def test_malformed_mutes_reports_and_history_requests_are_refused(table, db, event, payload):
    game_id, s = table
    s["alice"].emit(event, dict({"game": game_id}, **payload))
    assert [code for code, _ in refusals(s["alice"])] == ["bad_request"]
    assert chat.reported(db) == []
    assert db.execute("SELECT count(*) FROM chat_mutes").fetchone()[0] == 0


def test_a_cpu_game_has_no_chat(db, connect_as, alice, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=3)
    sock = connect_as(alice)
    sock.emit("join", {"game": game_id})
    take(sock)
    sock.emit("chat", {"game": game_id, "text": "hello CPU"})
    assert [code for code, _ in refusals(sock)] == ["forbidden"]
