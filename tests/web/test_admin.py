"""The host's admin area through its pages (docs/admin.md): hosts only, CSRF, every action audited,
invitation codes, reset links, disabling, ending games, granting packs, the create-host command."""

import re

import pytest

from webapp.__main__ import main
from webapp.store import connect
from webapp.store.admin import list_audit

from .conftest import PASSWORD, log_in, post

GET_ROUTES = ["/admin/", "/admin/users", "/admin/users/{uid}", "/admin/invitations", "/admin/games",
              "/admin/games?status=all", "/admin/audit"]
POST_ROUTES = ["/admin/backup", "/admin/registration", "/admin/users/{uid}/disable", "/admin/users/{uid}/enable",
               "/admin/users/{uid}/host", "/admin/users/{uid}/reset-link", "/admin/users/{uid}/grant-pack",
               "/admin/invitations", "/admin/invitations/ABCDEFGHJK/revoke", "/admin/games/{gid}/end"]


def db_of(app):
    return connect(app.config["DATABASE"])


def query(app, sql, params=()):
    db = db_of(app)
    try:
        return db.execute(sql, params).fetchall()
    finally:
        db.close()


@pytest.fixture
def host(make_user, app):
    user = make_user("hostess")
    db = db_of(app)
    db.execute("UPDATE users SET is_admin = 1 WHERE id = ?", [user["id"]])
    db.conn.commit()
    db.close()
    return dict(user, is_admin=True)


@pytest.fixture
def host_client(app, host):
    client = app.test_client()
    log_in(client, host)
    return client


@pytest.fixture
def game(app, alice, bob):
    db = db_of(app)
    from webapp.game import positions
    game_id = positions.start(db, "online", [alice, bob], {"phase": "leaders", "players": [{}, {}]}, seed=7)  # in progress
    db.conn.commit()
    db.close()
    return game_id


def audit_actions(app):
    db = db_of(app)
    try:
        return [e["action"] for e in list_audit(db)]
    finally:
        db.close()


def test_every_admin_route_refuses_a_user_who_is_not_a_host(app, alice_client, alice, game):
    for route in GET_ROUTES:
        assert alice_client.get(route.format(uid=alice["id"], gid=game)).status_code == 403, route
    for route in POST_ROUTES:
        r = post(alice_client, route.format(uid=alice["id"], gid=game), {"mode": "open", "reason": "x", "uses": "1"})
        assert r.status_code == 403, route
    assert audit_actions(app) == []
    assert query(app, "SELECT is_admin, disabled FROM users WHERE id = ?", [alice["id"]]) == [(0, 0)]


def test_a_visitor_is_sent_to_log_in(client):
    r = client.get("/admin/users")
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    assert client.post("/admin/backup").status_code in (302, 400)


def test_every_admin_post_needs_the_csrf_token(app, host_client, host, alice, game):
    for route in POST_ROUTES:
        r = host_client.post(route.format(uid=alice["id"], gid=game),
                             data={"mode": "closed", "reason": "x", "csrf_token": "wrong"})
        assert r.status_code == 400 and b"CSRF" in r.data, route
    assert audit_actions(app) == []


def test_the_pages_show_for_a_host(host_client, host, alice, game):
    for route in GET_ROUTES:
        r = host_client.get(route.format(uid=alice["id"], gid=game))
        assert r.status_code == 200, route
        assert b"<script>" not in r.data  # the CSP forbids inline scripts
    page = host_client.get("/admin/").get_data(as_text=True)
    assert "Version running" in page and "Database size" in page and "Back up now" in page
    assert "1 online" in page
    assert "alice" in host_client.get("/admin/users?q=LIC").get_data(as_text=True)
    assert "bob" not in host_client.get("/admin/users?q=LIC").get_data(as_text=True)


def test_disabling_ends_sessions_and_refuses_log_in_until_enabled(app, host_client, alice, alice_client):
    assert alice_client.get("/decks").status_code == 200
    r = post(host_client, f"/admin/users/{alice['id']}/disable")
    assert r.status_code == 302
    assert alice_client.get("/decks").status_code == 302  # the session ended: sent to log in
    fresh = app.test_client()
    r = post(fresh, "/login", {"name": "alice", "password": PASSWORD})
    assert r.status_code == 401 and "disabled" in r.get_data(as_text=True)
    post(host_client, f"/admin/users/{alice['id']}/enable")
    assert post(fresh, "/login", {"name": "alice", "password": PASSWORD}).status_code == 302
    assert audit_actions(app) == ["enable", "disable"]


def test_a_host_cannot_disable_themselves(app, host_client, host):
    post(host_client, f"/admin/users/{host['id']}/disable")
    assert query(app, "SELECT disabled FROM users WHERE id = ?", [host["id"]]) == [(0,)]


def test_make_host_gives_the_area(app, host_client, alice, alice_client):
    assert alice_client.get("/admin/").status_code == 403
    post(host_client, f"/admin/users/{alice['id']}/host", {"host": "1"})
    assert alice_client.get("/admin/").status_code == 200
    assert audit_actions(app) == ["make host"]


def reset_link_of(host_client, user_id):
    r = post(host_client, f"/admin/users/{user_id}/reset-link", follow_redirects=True)
    found = re.search(r'value="(http://localhost/reset/[^"]+)"', r.get_data(as_text=True))
    assert found, "the reset link is shown once"
    # shown once: the next view of the page no longer holds it
    assert "/reset/" not in host_client.get(f"/admin/users/{user_id}").get_data(as_text=True)
    return found.group(1).replace("http://localhost", "")


def test_a_reset_link_sets_the_password_once_and_ends_old_sessions(app, host_client, alice, alice_client):
    path = reset_link_of(host_client, alice["id"])
    friend = app.test_client()
    assert "alice" in friend.get(path).get_data(as_text=True)
    bad = post(friend, path, {"password": "short", "confirm": "short"})
    assert bad.status_code == 400
    r = post(friend, path, {"password": "a new long password", "confirm": "a new long password"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/login")
    assert alice_client.get("/decks").status_code == 302  # the old session ended
    assert post(app.test_client(), "/login", {"name": "alice", "password": "a new long password"}).status_code == 302
    assert post(app.test_client(), "/login", {"name": "alice", "password": PASSWORD}).status_code == 401
    again = post(app.test_client(), path, {"password": "another long password", "confirm": "another long password"})
    assert again.status_code == 404
    assert app.test_client().get(path).status_code == 404
    assert audit_actions(app) == ["password reset used", "reset link"]


def test_a_new_reset_link_replaces_the_old_and_an_expired_one_fails(app, host_client, alice):
    first = reset_link_of(host_client, alice["id"])
    second = reset_link_of(host_client, alice["id"])
    assert app.test_client().get(first).status_code == 404
    query(app, "SELECT 1")  # nothing
    db = db_of(app)
    db.execute("UPDATE password_resets SET expires = '2000-01-01T00:00:00.000Z'")
    db.conn.commit()
    db.close()
    assert app.test_client().get(second).status_code == 404


def test_invitation_codes_with_uses_and_expiry(app, host_client):
    post(host_client, "/admin/registration", {"mode": "invite"})
    r = post(host_client, "/admin/invitations", {"uses": "2", "days": "3", "note": "the twins"}, follow_redirects=True)
    code = re.search(r"New invitation code ([A-Z0-9]{10})", r.get_data(as_text=True)).group(1)

    def register(name, code):
        return post(app.test_client(), "/register", {"name": name, "password": PASSWORD, "confirm": PASSWORD,
                                                     "invite_code": code})
    assert register("nocode", "WRONGCODE1").status_code == 400
    assert register("twin1", code.lower()).status_code == 302
    assert register("twin2", code).status_code == 302
    assert register("twin3", code).status_code == 403  # no uses left: no code admits, so registration is closed
    page = host_client.get("/admin/invitations").get_data(as_text=True)
    assert "twin1, twin2" in page and "the twins" in page
    # expiry
    r = post(host_client, "/admin/invitations", {"uses": "5", "days": "1"}, follow_redirects=True)
    code2 = re.search(r"New invitation code ([A-Z0-9]{10})", r.get_data(as_text=True)).group(1)
    db = db_of(app)
    db.execute("UPDATE invite_codes SET expires = '2000-01-01T00:00:00.000Z' WHERE code = ?", [code2])
    db.conn.commit()
    db.close()
    assert register("late", code2).status_code in (400, 403)
    assert query(app, "SELECT count(*) FROM users WHERE name IN ('late', 'twin3', 'nocode')") == [(0,)]
    assert audit_actions(app) == ["new invitation code", "new invitation code", "registration mode"]


def test_registration_mode_changes_at_run_time(app, host_client):
    post(host_client, "/admin/registration", {"mode": "closed"})
    r = post(app.test_client(), "/register", {"name": "late", "password": PASSWORD, "confirm": PASSWORD})
    assert r.status_code == 403 and "closed" in r.get_data(as_text=True)
    assert post(host_client, "/admin/registration", {"mode": "bogus"}).status_code == 302
    assert audit_actions(app) == ["registration mode"]


def test_revoking_a_code(app, host_client):
    post(host_client, "/admin/registration", {"mode": "invite"})
    r = post(host_client, "/admin/invitations", {"uses": "3", "days": "3"}, follow_redirects=True)
    code = re.search(r"New invitation code ([A-Z0-9]{10})", r.get_data(as_text=True)).group(1)
    post(host_client, f"/admin/invitations/{code}/revoke")
    r = post(app.test_client(), "/register", {"name": "x1", "password": PASSWORD, "confirm": PASSWORD,
                                              "invite_code": code})
    assert r.status_code in (400, 403)
    assert audit_actions(app)[0] == "revoke invitation code"


def test_ending_a_game_records_the_reason(app, host_client, game, alice):
    assert post(host_client, f"/admin/games/{game}/end", {"reason": ""}).status_code == 302
    assert query(app, "SELECT status FROM games WHERE id = ?", [game]) == [("active",)]
    post(host_client, f"/admin/games/{game}/end", {"reason": "stuck since Tuesday"})
    status, result = query(app, "SELECT status, result FROM games WHERE id = ?", [game])[0]
    assert status == "aborted" and "stuck since Tuesday" in result
    page = host_client.get("/admin/games?status=aborted").get_data(as_text=True)
    assert "stuck since Tuesday" in page
    db = db_of(app)
    entry = list_audit(db)[0]
    db.close()
    assert entry["action"] == "end game" and entry["detail"]["reason"] == "stuck since Tuesday"
    assert entry["actor"] == "hostess"
    # once over, it cannot be ended again
    post(host_client, f"/admin/games/{game}/end", {"reason": "again"})
    assert audit_actions(app) == ["end game"]


def test_granting_a_pack(app, host_client, alice):
    before = query(app, "SELECT count(*) FROM packs WHERE user_id = ?", [alice["id"]])[0][0]
    post(host_client, f"/admin/users/{alice['id']}/grant-pack", {"source": "gift", "count": "2"})
    assert query(app, "SELECT count(*) FROM packs WHERE user_id = ? AND source = 'gift' AND opened_at IS NULL",
                 [alice["id"]]) == [(2,)]
    post(host_client, f"/admin/users/{alice['id']}/grant-pack", {"source": "nonsense", "count": "2"})
    post(host_client, f"/admin/users/{alice['id']}/grant-pack", {"source": "gift", "count": "99"})
    assert query(app, "SELECT count(*) FROM packs WHERE user_id = ?", [alice["id"]])[0][0] == before + 2
    assert audit_actions(app) == ["grant pack"]


def test_back_up_now(app, host_client, tmp_path):
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    r = post(host_client, "/admin/backup", follow_redirects=True)
    assert "Backed up to" in r.get_data(as_text=True)
    files = list((tmp_path / "backups").glob("brigade-*.db"))
    assert len(files) == 1 and files[0].stat().st_size > 0
    assert "Last backup" in host_client.get("/admin/").get_data(as_text=True)
    assert audit_actions(app) == ["backup"]


def test_create_host_command_prints_a_single_use_link(app, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BRIGADE_INSTANCE_PATH", str(tmp_path / "instance"))
    db_file = app.config["DATABASE"]
    assert main(["admin", "--db", db_file, "create-host", "Keeper", "--url", "https://brigade.example"]) == 0
    out = capsys.readouterr().out
    link = re.search(r"https://brigade\.example(/reset/\S+)", out).group(1)
    assert query(app, "SELECT is_admin FROM users WHERE name = 'Keeper'") == [(1,)]
    client = app.test_client()
    r = post(client, link, {"password": "lanterns over the bay", "confirm": "lanterns over the bay"})
    assert r.status_code == 302
    assert post(app.test_client(), link, {"password": "x" * 20, "confirm": "x" * 20}).status_code == 404
    logged = app.test_client()
    assert post(logged, "/login", {"name": "keeper", "password": "lanterns over the bay"}).status_code == 302
    assert logged.get("/admin/").status_code == 200
    # an existing account is only marked
    assert main(["admin", "--db", db_file, "create-host", "Keeper"]) == 0
    assert "password is unchanged" in capsys.readouterr().out
    assert audit_actions(app)[-1] == "create host"


def test_host_accounts_setting_makes_hosts_at_start(tmp_path, caplog):
    from webapp import create_app
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "inst", "HOST_ACCOUNTS": ["Founder"]})
    assert query(app, "SELECT is_admin FROM users WHERE name = 'Founder'") == [(1,)]
    assert any("/reset/" in r.getMessage() for r in caplog.records)


def test_last_seen_is_noted_at_most_every_few_minutes(app, alice, alice_client):
    assert query(app, "SELECT last_seen FROM users WHERE id = ?", [alice["id"]]) == [(None,)]
    alice_client.get("/decks")
    first = query(app, "SELECT last_seen FROM users WHERE id = ?", [alice["id"]])[0][0]
    assert first is not None
    alice_client.get("/rules")
    assert query(app, "SELECT last_seen FROM users WHERE id = ?", [alice["id"]])[0][0] == first


def test_n7_the_host_accounts_setting_wins_and_the_page_says_so(tmp_path):
    """Issue 26 N7: a host removed in the admin area came back at every restart through HOST_ACCOUNTS.
    The setting wins (it is the server owner's file, read at every start): the admin area refuses to
    remove such a host, says where to do it, and a restart keeps them a host; any other host can be
    removed, and stays removed after a restart."""
    from webapp import create_app
    config = {"TESTING": True, "INSTANCE_PATH": tmp_path / "inst", "HOST_ACCOUNTS": "Founder, Keeper"}
    app = create_app(config)
    from webapp.store import create_user, get_user_by_name
    db = db_of(app)
    try:
        founder, keeper = get_user_by_name(db, "Founder"), get_user_by_name(db, "Keeper")
        other = create_user(db, "cohost", "x")
        db.execute("UPDATE users SET is_admin = 1 WHERE id = ?", [other["id"]])
        db.conn.commit()
    finally:
        db.close()
    client = app.test_client()
    log_in(client, keeper)
    page = client.get(f"/admin/users/{founder['id']}").get_data(as_text=True)
    assert "HOST_ACCOUNTS" in page and "Remove host" not in page
    refused = post(client, f"/admin/users/{founder['id']}/host", {"host": "0"}, follow_redirects=True)
    assert "take the name out there" in refused.get_data(as_text=True)
    assert query(app, "SELECT is_admin FROM users WHERE name = 'Founder'") == [(1,)]
    assert "remove host" not in audit_actions(app)
    assert "Remove host" in client.get(f"/admin/users/{other['id']}").get_data(as_text=True)
    post(client, f"/admin/users/{other['id']}/host", {"host": "0"})
    create_app(config)  # a restart
    assert query(app, "SELECT name, is_admin FROM users WHERE name IN ('Founder', 'cohost') ORDER BY is_admin") == \
        [("cohost", 0), ("Founder", 1)]


def test_n8_the_reset_link_never_rides_in_the_session_cookie(app, host_client, alice):
    """Issue 26 N8: the link sat in the signed (readable, not encrypted) session cookie for one page
    view. Now it is in the page that answers the POST only, not cached; no Set-Cookie carries it."""
    import base64
    import zlib
    r = post(host_client, f"/admin/users/{alice['id']}/reset-link")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    token = re.search(r'value="http://localhost/reset/([^"]+)"', r.get_data(as_text=True)).group(1)
    for header in r.headers.getlist("Set-Cookie"):
        value = header.split(";")[0].split("=", 1)[1]
        payload = value.lstrip(".").split(".")[0]
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        if value.startswith("."):
            raw = zlib.decompress(raw)
        assert token.encode() not in raw and b"/reset/" not in raw
    assert "/reset/" not in host_client.get(f"/admin/users/{alice['id']}").get_data(as_text=True)
