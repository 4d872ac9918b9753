"""The socket layer, the play service and the CPU feed /metrics and the host log (webapp/hosting/metrics.py,
webapp/hosting/hostlog.py): after a whole CPU game over Socket.IO the action, socket and CPU-move counts
moved by what was played, and the log has one line per event (refusals with their reason word),
as text and as JSON, without the payloads."""

import json
import logging
import re

import pytest

from webapp.hosting import hostlog, metrics
from webapp.game import play
from webapp.ai import BaselinePlayer
from webapp.store import list_actions, load_game

from .helpers import play_seat, received, states


def sample(text, name):
    """The value of an unlabelled sample in Prometheus text, or 0."""
    m = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


@pytest.fixture
def unlimited(app):
    app.config["RATE_LIMIT"] = 10_000


def test_a_whole_cpu_game_shows_in_metrics_and_in_the_host_log(app, db, connect_as, alice, loaner, caplog, unlimited):
    caplog.set_level(logging.INFO)
    http = app.test_client()
    before = http.get("/metrics").get_data(as_text=True)
    game_id = play.create_cpu_game(db, alice, loaner, seed=77_000_000_005)
    client = connect_as(alice)
    during = http.get("/metrics").get_data(as_text=True)
    assert sample(during, "brigade_connected_sockets") == sample(before, "brigade_connected_sockets") + 1

    client.emit("action", {"game": game_id, "action": {"type": "end_main"}, "version": 999})  # refused: stale
    assert [p["code"] for n, p in received(app, client) if n == "error"] == ["stale"]
    seen = play_seat(app, client, game_id, BaselinePlayer(seed=5))
    assert states(seen)[-1]["status"] == "finished"
    client.disconnect()
    after = http.get("/metrics").get_data(as_text=True)

    row = load_game(db, game_id)
    actions = list_actions(db, game_id)
    cpu_seat = 1 - play.seat_of(row, alice["id"])
    mine = sum(1 for a in actions if a["player"] != cpu_seat)
    cpu = len(actions) - mine
    assert mine > 5 and cpu > 5
    # every stored action was timed once; the CPU thought once per move it made
    assert sample(after, "brigade_action_seconds_count") - sample(before, "brigade_action_seconds_count") == len(actions)
    assert sample(after, "brigade_cpu_move_seconds_count") - sample(before, "brigade_cpu_move_seconds_count") == cpu
    assert sample(after, "brigade_action_seconds_sum") > sample(before, "brigade_action_seconds_sum")
    assert sample(after, "brigade_connected_sockets") == sample(before, "brigade_connected_sockets")

    lines = [r for r in caplog.records if r.name == "brigade.socket"]
    kinds = [(r.event, r.outcome) for r in lines]
    assert kinds[0] == ("connect", "ok") and kinds[-1] == ("disconnect", "ok")
    assert ("action", "stale") in kinds and ("join", "ok") in kinds
    assert kinds.count(("action", "ok")) == mine
    assert all(r.user == alice["id"] for r in lines)
    assert all(r.ms is not None and r.ms >= 0 for r in lines if r.event in ("join", "action"))
    over = [r.getMessage() for r in caplog.records if r.name == "brigade.game"]
    assert over == [f"game {game_id} (cpu) over at version {row['version']}: winner {row['result']['winner']}, "
                    f"{row['result']['reason']}"]

    # The same lines as JSON (LOG_FORMAT = "json"): the fields, and never a payload's content.
    as_json = [json.loads(hostlog.JsonFormatter().format(r)) for r in lines]
    stale = next(x for x in as_json if x["outcome"] == "stale")
    assert (stale["event"], stale["user"], stale["logger"], stale["level"]) == ("action", alice["id"], "brigade.socket",
                                                                                  "INFO")
    text = json.dumps(as_json)
    assert "end_main" not in text and "legal_actions" not in text and '"version"' not in text


def test_a_refused_event_is_logged_with_its_reason_word(app, db, connect_as, alice, bob, loaner, caplog):
    caplog.set_level(logging.INFO)
    game_id = play.create_cpu_game(db, alice, loaner, seed=77_000_000_006)
    intruder = connect_as(bob)
    intruder.emit("action", {"game": game_id, "action": {"type": "end_main"}, "version": 0})
    intruder.emit("join", {"game": 10**9})
    intruder.emit("action", {"game": "x"})
    received(app, intruder)
    outcomes = [(r.event, r.outcome, r.user) for r in caplog.records if r.name == "brigade.socket"]
    assert ("action", "forbidden", bob["id"]) in outcomes
    assert ("join", "not_found", bob["id"]) in outcomes
    assert ("action", "bad_request", bob["id"]) in outcomes
    app.config["RATE_LIMIT"] = 1
    for _ in range(3):
        intruder.emit("join", {"game": game_id})
    received(app, intruder)
    assert ("join", "rate_limited", bob["id"]) in [(r.event, r.outcome, r.user) for r in caplog.records
                                              if r.name == "brigade.socket"]
    assert metrics.SOCKETS._value.get() >= 1


def test_a_server_bug_in_an_event_is_counted_by_kind_and_logged_as_error(app, db, connect_as, alice, loaner, caplog,
                                                                         monkeypatch):
    caplog.set_level(logging.INFO)
    game_id = play.create_cpu_game(db, alice, loaner, seed=77_000_000_007)
    client = connect_as(alice)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    before = metrics.ERRORS.labels("RuntimeError")._value.get()
    monkeypatch.setattr(play, "apply", broken)
    client.emit("action", {"game": game_id, "action": {"type": "end_main"}, "version": 0})
    assert [p["code"] for n, p in received(app, client) if n == "error"] == ["internal"]
    assert metrics.ERRORS.labels("RuntimeError")._value.get() == before + 1
    assert ("action", "error") in [(r.event, r.outcome) for r in caplog.records if r.name == "brigade.socket"]
