"""Players never read an instance id (``p0c17``) or a rule number (``R8.7``): not in the log lines of
a whole CPU game over Socket.IO, not in the refusals sent to them, not on the pages of the board,
the play list, the story and the rules, nor in the end screen's data."""

import re

import pytest

from tests.play.helpers import errors, play_seat, received, states
from tests.web.conftest import log_in
from webapp.game import play, story, storychapters
from webapp.ai import BaselinePlayer
from webapp.engine import load_pool

INSTANCE_ID = re.compile(r"\bp[01]c\d+\b")
RULE_NUMBER = re.compile(r"\bR\d+\.\d+\b")


def plain(text, where):
    assert not INSTANCE_ID.search(text), f"{where}: an instance id in {text!r}"
    assert not RULE_NUMBER.search(text), f"{where}: a rule number in {text!r}"


def visible_text(html):
    """What a page shows: no scripts (their JSON is data), no styles, no tags (titles are tooltips)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def client(app, alice):
    c = app.test_client()
    log_in(c, alice)
    return c


@pytest.mark.parametrize("seed", [11, 12])
def test_a_whole_cpu_game_over_the_socket_reads_in_plain_words(app, db, connect_as, alice, loaner, client, seed):
    app.config["RATE_LIMIT"] = 10_000  # the test sends faster than a player
    game_id = play.create_cpu_game(db, alice, loaner, seed=seed)
    sock = connect_as(alice)
    # refusals first: an opponent's card, a made-up unit, a march nobody can make
    sock.emit("join", {"game": game_id})
    first = states(received(app, sock))[-1]
    for action in ({"type": "choose_leaders", "cards": ["p1c0"]}, {"type": "choose_leaders", "cards": ["p0c0", "p0c1", "p0c2", "p0c3"]},
                   {"type": "march", "units": ["p0c5"], "to": "H1"}, {"type": "summon", "card": "p0c9"}):
        sock.emit("action", {"game": game_id, "action": action, "version": first["version"]})
        refused = errors(received(app, sock))
        assert refused, action
        for e in refused:
            plain(e["message"], f"refusal of {action}")
    messages = play_seat(app, sock, game_id, BaselinePlayer(seed=seed))
    lines = [line for s in states(messages) for line in s["log"]]
    assert len(lines) > 30 and any("Game over" in line for line in lines)
    for line in lines:
        plain(line, "log")
    assert any(re.search(r"\b(your|the CPU's) [A-Z]", line) for line in lines)
    info = client.get(f"/play/{game_id}/end.json").get_json()
    for text in [p["label"] for p in info["packs"]] + [n["label"] for n in info["next"]]:
        plain(text, "end screen")


def test_the_pages_a_player_reads_carry_no_ids_or_rule_numbers(client, db, alice, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=3)
    story_id = story.start_chapter(db, alice, "first-muster", seed=3)
    urls = ["/play", f"/play/{game_id}", f"/play/{story_id}", "/story", "/rules", "/rules?lang=ja",
            f"/story/game/{story_id}.json"]
    for ch in storychapters.chapters():
        urls += [f"/story/{ch.id}", f"/story/{ch.id}?lang=ja", f"/story/{ch.id}/done"]
        # every chapter open, so every briefing is shown
        from webapp.store import record_clear
        record_clear(db, alice["id"], ch.id)
    for url in urls:
        r = client.get(url, follow_redirects=True)
        assert r.status_code == 200, url
        text = r.get_data(as_text=True) if url.endswith(".json") else visible_text(r.get_data(as_text=True))
        if url.endswith(".json"):
            info = r.get_json()
            text = " ".join([info["goal"], info["goal_short"], info["title"], info["opponent"]["name"]]
                            + [t["text"] for t in info["tips"]])
        plain(text, url)
    assert "starts in the middle of a battle" not in client.get("/story/river-crossing?lang=en").get_data(as_text=True)
    assert "starts from a set position: round 2, your turn" in client.get("/story/river-crossing?lang=en").get_data(as_text=True)


def test_a_refusal_never_names_a_card_the_reader_cannot_see(db, alice, loaner):
    game_id = play.create_cpu_game(db, alice, loaner, seed=4)
    row, game = play.load(db, game_id)
    hidden = "p1c0"  # the CPU's card: in its hand or deck, hidden from seat 0
    text = play.plain_refusal(db, row, game, 0, f"{hidden} is not yours (R7.1)")
    assert text == "that card is not yours"
    mine = game.view(0)["players"][0]["hand"][0]
    named = play.plain_refusal(db, row, game, 0, f"{mine['id']} cannot go there (R8.4, R8.5)")
    card = load_pool()[mine["card"]].data["name"]["en"]
    assert named == f"your {card} cannot go there"


def test_every_chapters_words_are_plain():
    """What the story pages and the board show of a chapter, in both languages, including the closing
    words a done page shows only after a clear and the goal and start texts."""
    for ch in storychapters.chapters():
        for lang in ("en", "ja"):
            texts = [ch.title[lang], ch.narration_before[lang], ch.narration_after[lang], ch.teaches[lang],
                     ch.opponent["name"][lang], ch.goal_text(lang), ch.goal_short(lang), ch.start_text(lang) or ""]
            texts += [t["text"] for t in ch.tips_for(lang)]
            for text in texts:
                plain(text, f"chapter {ch.id} ({lang})")
