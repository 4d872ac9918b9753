"""Board settings per account (issue 14): GET/POST /play/settings.json, webapp/game/boardsettings.py."""

import pytest

from webapp.game import boardsettings


def post_json(client, body):
    with client.session_transaction() as sess:
        token = sess.setdefault("csrf", "test-token")
    return client.post("/play/settings.json", json=body, headers={"X-CSRF-Token": token})


def test_defaults_until_saved(alice_client):
    r = alice_client.get("/play/settings.json")
    assert r.status_code == 200
    assert r.get_json() == dict(boardsettings.DEFAULTS, saved=False)


def test_saved_settings_come_back_and_stay_per_account(app, alice_client, bob):
    r = post_json(alice_client, {"anim": "fast", "autopass": True, "volume": 30})
    assert r.status_code == 200
    assert r.get_json() == dict(boardsettings.DEFAULTS, anim="fast", autopass=True, volume=30)
    r = post_json(alice_client, {"lang": "ja"})
    got = alice_client.get("/play/settings.json").get_json()
    assert got == dict(boardsettings.DEFAULTS, anim="fast", autopass=True, volume=30, lang="ja", saved=True)
    # bob's are his own
    from tests.web.conftest import log_in
    other = app.test_client()
    log_in(other, bob)
    assert other.get("/play/settings.json").get_json() == dict(boardsettings.DEFAULTS, saved=False)


def test_confirm_before_summoning_is_off_until_switched_on(alice_client):
    """Issue 27: the summon's confirm step is a setting of its own, off by default."""
    assert alice_client.get("/play/settings.json").get_json()["confirmsummon"] is False
    assert post_json(alice_client, {"confirmsummon": True}).get_json()["confirmsummon"] is True
    assert alice_client.get("/play/settings.json").get_json()["confirmsummon"] is True
    assert post_json(alice_client, {"confirmsummon": "yes"}).status_code == 400


@pytest.mark.parametrize("body", [
    {"anim": "slow"}, {"autopass": "yes"}, {"volume": 101}, {"volume": True}, {"volume": 2.5},
    {"lang": "fr"}, {"colour": "red"}, {}, [], "fast", {"anim": "fast", "sound": 1},
])
def test_bad_settings_are_refused_and_change_nothing(alice_client, body):
    post_json(alice_client, {"sound": False})
    r = post_json(alice_client, body)
    assert r.status_code == 400
    assert r.get_json()["error"] == "bad_request" and r.get_json()["message"]
    assert alice_client.get("/play/settings.json").get_json() == dict(boardsettings.DEFAULTS, sound=False, saved=True)


def test_settings_need_a_login_and_the_csrf_token(client, alice_client):
    assert client.get("/play/settings.json").status_code in (302, 401)
    r = alice_client.post("/play/settings.json", json={"anim": "fast"})
    assert r.status_code in (400, 403)
    assert alice_client.get("/play/settings.json").get_json()["anim"] == "normal"


def test_a_stored_value_from_another_version_falls_back_to_the_default(app, alice):
    from webapp.store import connect
    from webapp.store.marks import set_mark
    db = connect(app.config["DATABASE"])
    try:
        set_mark(db, alice["id"], boardsettings.MARK, {"anim": "warp", "volume": 10, "new": 1})
        assert boardsettings.load(db, alice["id"]) == dict(boardsettings.DEFAULTS, volume=10)
    finally:
        db.conn.close()
