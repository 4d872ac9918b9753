"""The testing-only route that moves a server's clock (webapp/web/testing_clock.py): there with
TESTING on, absent on a normal server."""

import re

from webapp import create_app

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def token(client):
    return TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)


def test_with_testing_on_the_route_moves_the_servers_clock(client, clock):
    answer = client.post("/testing/clock", data={"csrf_token": token(client), "advance": "61.5"})
    assert answer.status_code == 200 and answer.get_json() == {"offset": 61.5}
    assert clock.offset() == 61.5


def test_bad_seconds_get_a_clear_error_and_move_nothing(client, clock):
    for sent, says in (("-3", "forward by a finite number"), ("soon", "could not convert"), ("", "missing")):
        answer = client.post("/testing/clock", data={"csrf_token": token(client), "advance": sent})
        assert answer.status_code == 400 and says in answer.get_json()["error"]
    assert clock.offset() == 0.0


def test_without_the_csrf_token_it_is_refused(client, clock):
    assert client.post("/testing/clock", data={"advance": "10"}).status_code == 400
    assert clock.offset() == 0.0


def test_a_normal_server_has_no_such_route(instance, clock):
    app = create_app({"INSTANCE_PATH": instance})  # TESTING off: as python -m webapp serves
    client = app.test_client()
    answer = client.post("/testing/clock", data={"csrf_token": token(client), "advance": "10"})
    assert answer.status_code == 404
    assert not any(rule.rule.startswith("/testing/clock") for rule in app.url_map.iter_rules())
    assert clock.offset() == 0.0
