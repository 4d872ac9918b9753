"""Chat over Socket.IO (docs/protocol.md "Chat"), with Flask-SocketIO's test client: alice and bob
play an online game, carol watches it. Each socket gets its own channel's messages and nothing else."""

from tests.play.helpers import take

from .conftest import answers, said


def test_the_players_chat_reaches_both_players_and_no_spectator(table):
    game_id, s = table
    s["alice"].emit("chat", {"game": game_id, "text": "good luck, have fun"})
    for name in ("alice", "bob"):
        got = said(s[name])
        assert [(m["name"], m["seat"], m["text"], m["channel"]) for m in got] == \
            [("alice", 0, "good luck, have fun", "players")]
    assert said(s["carol"]) == []


def test_the_spectators_chat_reaches_the_spectators_and_no_player(table, connect_as, make_user, befriend, bob):
    game_id, s = table
    dave_user = make_user("dave")
    befriend(bob, dave_user)  # a friend of a player may watch (docs/security.md "Watching")
    dave = connect_as(dave_user)
    dave.emit("join", {"game": game_id})
    take(dave)
    s["carol"].emit("chat", {"game": game_id, "text": "alice is winning", "channel": "spectators"})
    assert [m["text"] for m in said(s["carol"])] == ["alice is winning"]
    assert [(m["name"], m["seat"], m["channel"]) for m in said(dave)] == [("carol", None, "spectators")]
    assert said(s["alice"]) == [] and said(s["bob"]) == []


def test_opening_the_chat_sends_the_readers_channel(table):
    game_id, s = table
    s["alice"].emit("chat", {"game": game_id, "text": "one"})
    s["carol"].emit("chat", {"game": game_id, "text": "two"})
    for sock in s.values():
        take(sock)
    s["bob"].emit("chat_history", {"game": game_id})
    (name, read), = answers(s["bob"])
    assert name == "chat_history" and read["channel"] == "players" and read["muted"] is False
    assert [m["text"] for m in read["messages"]] == ["one"]
    s["carol"].emit("chat_history", {"game": game_id})
    (name, read), = answers(s["carol"])
    assert read["channel"] == "spectators" and [m["text"] for m in read["messages"]] == ["two"]


def test_mute_then_the_opponents_messages_stop_coming(table):
    game_id, s = table
    s["alice"].emit("chat_mute", {"game": game_id, "muted": True})
    assert answers(s["alice"]) == [("chat_muted", {"game": game_id, "muted": True})]
    s["bob"].emit("chat", {"game": game_id, "text": "are you there?"})
    assert said(s["alice"]) == []
    assert [m["text"] for m in said(s["bob"])] == ["are you there?"]  # the muted sender sees their own line
    s["alice"].emit("chat_mute", {"game": game_id, "muted": False})
    take(s["alice"])
    s["bob"].emit("chat", {"game": game_id, "text": "hello again"})
    assert [m["text"] for m in said(s["alice"])] == ["hello again"]


def test_report_a_message_and_the_host_sees_it(table, host_client):
    game_id, s = table
    s["bob"].emit("chat", {"game": game_id, "text": "<script>alert(1)</script> you are bad"})
    message = said(s["alice"])[0]
    s["alice"].emit("chat_report", {"game": game_id, "message": message["id"]})
    assert answers(s["alice"]) == [("chat_reported", {"game": game_id, "message": message["id"]})]
    page = host_client.get("/admin/chat")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; you are bad" in html and "<script>alert(1)" not in html


def test_emotes_are_kept_beside_the_chat(table):
    game_id, s = table
    s["alice"].emit("emote", {"game": game_id, "emote": "greet"})
    for sock in s.values():  # an emote is for the whole room, spectators too, as before
        assert [m["emote"] for m in said(sock, "emote")] == ["greet"]
