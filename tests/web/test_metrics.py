"""/metrics (webapp/hosting/metrics.py): refused to other machines without the token, the families with it."""

from webapp.hosting import metrics
from webapp.store import connect, create_game

FAMILIES = ("brigade_http_requests_total", "brigade_http_request_seconds_bucket", "brigade_errors_total",
            "brigade_active_games", "brigade_database_bytes", "brigade_connected_sockets",
            "brigade_action_seconds", "brigade_cpu_move_seconds", "brigade_db_writers_waiting",
            "process_resident_memory_bytes")


def far(client, **headers):
    return client.get("/metrics", environ_base={"REMOTE_ADDR": "203.0.113.9"}, headers=headers)


def test_refused_from_another_machine_without_the_token(app, client):
    assert far(client).status_code == 403
    app.config["METRICS_TOKEN"] = "s3cret-token"
    assert far(client).status_code == 403
    assert far(client, Authorization="Bearer wrong").status_code == 403
    r = far(client, Authorization="Bearer s3cret-token")
    assert r.status_code == 200 and r.content_type.startswith("text/plain")


def test_refused_through_a_proxy_even_from_localhost(client):
    assert client.get("/metrics", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 403
    assert client.get("/metrics").status_code == 200  # the test client comes from 127.0.0.1


def test_serves_every_family(app, client, alice):
    db = connect(app.config["DATABASE"])
    create_game(db, "cpu", 3, {"decks": [["orc"] * 30] * 2, "seats": [{"user_id": alice["id"]}, None]})
    create_game(db, "cpu", 4, {"decks": [["orc"] * 30] * 2, "seats": [{"user_id": alice["id"]}, None]})
    db.conn.commit()
    db.close()
    client.get("/rules")
    client.get("/no-such-page")
    metrics.observe_action(0.02)
    metrics.count_socket(+1)
    metrics.observe_cpu_move(0.3)
    text = client.get("/metrics").get_data(as_text=True)
    for family in FAMILIES:
        assert family in text, family
    assert 'brigade_active_games{mode="cpu"} 2.0' in text
    assert 'endpoint="rules.index",method="GET",status="200"' in text
    assert 'status="404"' in text
    metrics.count_socket(-1)


def test_errors_are_counted_by_kind(app, client):
    @app.get("/boom-for-metrics")
    def boom():
        raise KeyError("x")
    app.config["PROPAGATE_EXCEPTIONS"] = False
    before = metrics.ERRORS.labels("KeyError")._value.get()
    assert client.get("/boom-for-metrics").status_code == 500
    assert metrics.ERRORS.labels("KeyError")._value.get() == before + 1
    assert 'brigade_errors_total{kind="KeyError"}' in client.get("/metrics").get_data(as_text=True)
