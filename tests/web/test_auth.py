"""Register, log in, log out: forms, refusals that store nothing, throttling, sessions and redirects."""


import pytest

from tests.web.conftest import stored_hash
from webapp import accounts, create_app
from webapp.store import connect
from webapp.store.users import get_user_by_name
from webapp.web.security import safe_next
from webapp.accounts.passwords import MAX_LENGTH, MIN_LENGTH

from .conftest import PASSWORD, log_in, post


def make_app(tmp_path, **config):
    """An app like the ``app`` fixture's, with extra configuration."""
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", **config})


def users(app):
    """Every stored user as (name, is_admin), in id order."""
    db = connect(app.config["DATABASE"])
    try:
        return [(r["name"], bool(r["is_admin"])) for r in db.query("SELECT name, is_admin FROM users ORDER BY id")]
    finally:
        db.conn.close()


def stored_user(app, name):
    db = connect(app.config["DATABASE"])
    try:
        return get_user_by_name(db, name)
    finally:
        db.conn.close()


def register(client, name, password=PASSWORD, confirm=None, **fields):
    return post(client, "/register", {"name": name, "password": password,
                                      "confirm": password if confirm is None else confirm, **fields})


def log_in_form(client, name, password=PASSWORD, address="127.0.0.1", **fields):
    return post(client, "/login", {"name": name, "password": password, **fields},
                environ_base={"REMOTE_ADDR": address})


def session_user(client):
    with client.session_transaction() as sess:
        return sess.get("user_id")


def text(response):
    return response.get_data(as_text=True)


# Pages


def test_register_page_has_the_form_and_its_stylesheet(client):
    response = client.get("/register")
    page = text(response)
    assert response.status_code == 200
    for field in ('name="csrf_token"', 'name="name"', 'name="password"', 'name="confirm"',
                  'autocomplete="new-password"', "/static/css/auth.css"):
        assert field in page
    assert 'name="invite_code"' not in page
    assert client.get("/static/css/auth.css").status_code == 200


def test_login_page_has_the_form(client):
    response = client.get("/login")
    page = text(response)
    assert response.status_code == 200
    for field in ('name="csrf_token"', 'name="name"', 'name="password"', 'autocomplete="current-password"',
                  "/static/css/auth.css", 'href="/register"'):
        assert field in page


def test_nav_offers_log_in_and_register_to_visitors_and_log_out_to_users(client, alice_client):
    visitor = text(client.get("/"))
    assert 'href="/login"' in visitor and 'href="/register"' in visitor
    member = text(alice_client.get("/"))
    assert 'action="/logout"' in member and "alice" in member
    assert 'href="/login"' not in member


def test_logged_in_user_is_sent_on_from_the_forms(alice_client):
    assert alice_client.get("/login").headers["Location"] == "/"
    assert alice_client.get("/register?next=/decks/").headers["Location"] == "/decks/"


# Registering


def test_register_makes_the_account_and_logs_it_in(app, client):
    response = register(client, "Alice")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    user = stored_user(app, "alice")
    assert user["name"] == "Alice"
    assert user["password_hash"].startswith("scrypt:") and PASSWORD not in user["password_hash"]
    assert session_user(client) == user["id"]
    assert "Welcome to Brigade, Alice!" in text(client.get("/"))


def test_the_first_account_is_the_admin_and_no_other(app, client):
    register(client, "first")
    register(app.test_client(), "second")
    assert users(app) == [("first", True), ("second", False)]


def test_name_is_kept_without_surrounding_spaces(app, client):
    register(client, "  alice  ")
    assert users(app) == [("alice", True)]


@pytest.mark.parametrize("name", ["a", "a" * 32, "Zed_the-2nd", "0123"])
def test_names_of_1_to_32_letters_digits_underscores_and_hyphens_are_taken(app, client, name):
    assert register(client, name).status_code == 302
    assert users(app) == [(name, True)]


@pytest.mark.parametrize("password", ["p" * MIN_LENGTH, "p" * MAX_LENGTH, "ünïcødé pässwörd ✓"])
def test_passwords_within_the_length_limits_are_taken(app, client, password):
    assert register(client, "alice", password).status_code == 302
    assert users(app) == [("alice", True)]


@pytest.mark.parametrize("name, message", [
    ("", "Choose a name."),
    ("   ", "Choose a name."),
    ("a" * 33, "A name has at most 32 characters (this one has 33)."),
    ("x" * 5000, "A name has at most 32 characters"),
    ("al ice", "A name may hold only letters A–Z, digits, _ and -."),
    ("alice!", "A name may hold only letters A–Z, digits, _ and -."),
    ("Ålice", "A name may hold only letters A–Z, digits, _ and -."),
    ("<b>x</b>", "A name may hold only letters A–Z, digits, _ and -."),
    ("a\x00b", "A name may hold only letters A–Z, digits, _ and -."),
])
def test_bad_names_are_refused_and_nothing_is_stored(app, client, name, message):
    response = register(client, name)
    assert response.status_code == 400
    assert message in text(response)
    assert "<b>x</b>" not in text(response)  # echoed names are escaped
    assert users(app) == []
    assert session_user(client) is None


@pytest.mark.parametrize("password, confirm, message", [
    ("", "", f"A password needs at least {MIN_LENGTH} characters."),
    ("p" * (MIN_LENGTH - 1), None, f"A password needs at least {MIN_LENGTH} characters."),
    ("p" * (MAX_LENGTH + 1), None, f"A password has at most {MAX_LENGTH} characters."),
    (PASSWORD, PASSWORD + "!", "The two passwords differ."),
])
def test_bad_passwords_are_refused_and_nothing_is_stored(app, client, password, confirm, message):
    response = register(client, "alice", password, confirm)
    assert response.status_code == 400
    page = text(response)
    assert message in page
    if password:
        assert password not in page  # a password is never echoed back
    assert users(app) == []


def test_a_name_taken_in_another_letter_case_is_refused(app, client, alice):
    response = register(client, "ALICE")
    assert response.status_code == 400
    assert "The name &#39;ALICE&#39; is taken" in text(response)
    assert users(app) == [("alice", False)]


def test_every_problem_with_the_form_is_listed_at_once(app, client):
    page = text(register(client, "bad name", "short"))
    assert "A name may hold only" in page and f"at least {MIN_LENGTH} characters" in page
    assert users(app) == []


def test_refused_form_keeps_the_name_but_never_the_password(client):
    page = text(register(client, "alice", PASSWORD, "different confirm"))
    assert 'value="alice"' in page
    assert PASSWORD not in page and "different confirm" not in page


# Registration modes


@pytest.fixture
def invite_app(tmp_path):
    return make_app(tmp_path, REGISTRATION="invite", INVITE_CODE="friends-of-the-prince",
                    LOGIN_LIMIT_ADDRESS=3)


def test_invite_mode_asks_for_the_code(invite_app):
    page = text(invite_app.test_client().get("/register"))
    assert 'name="invite_code"' in page


def test_invite_mode_admits_the_right_code(invite_app):
    client = invite_app.test_client()
    response = register(client, "alice", invite_code=" friends-of-the-prince ")
    assert response.status_code == 302
    assert users(invite_app) == [("alice", True)]


@pytest.mark.parametrize("fields", [{}, {"invite_code": ""}, {"invite_code": "friends-of-the-princ"},
                                    {"invite_code": "FRIENDS-OF-THE-PRINCE"}, {"invite_code": "ü" * 300}])
def test_invite_mode_refuses_a_wrong_or_missing_code_and_stores_nothing(invite_app, fields):
    client = invite_app.test_client()
    response = register(client, "alice", **fields)
    assert response.status_code == 400
    assert "That invite code is not right." in text(response)
    assert users(invite_app) == []
    assert session_user(client) is None


def test_a_wrong_invite_code_tells_nothing_about_names(invite_app, tmp_path):
    register(invite_app.test_client(), "alice", invite_code="friends-of-the-prince")
    page = text(register(invite_app.test_client(), "alice", invite_code="guess"))
    assert "is taken" not in page


def test_guessing_invite_codes_is_throttled_per_address(invite_app):
    client = invite_app.test_client()
    for _ in range(3):
        assert register(client, "alice", invite_code="guess").status_code == 400
    response = register(client, "alice", invite_code="friends-of-the-prince")
    assert response.status_code == 429
    assert "Too many failed invite codes" in text(response) and "Try again in" in text(response)
    assert users(invite_app) == []
    other = invite_app.test_client()
    response = post(other, "/register", {"name": "bob", "password": PASSWORD, "confirm": PASSWORD,
                                         "invite_code": "friends-of-the-prince"},
                    environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert response.status_code == 302


@pytest.mark.parametrize("config", [{"REGISTRATION": "invite"}, {"REGISTRATION": "invite", "INVITE_CODE": ""},
                                    {"REGISTRATION": "closed"}, {"REGISTRATION": "Open"}])
def test_a_mode_that_admits_nobody_shows_no_form_and_refuses(tmp_path, config):
    app = make_app(tmp_path, **config)
    client = app.test_client()
    page = text(client.get("/register"))
    assert "Registration is closed on this server." in page and 'name="password"' not in page
    response = register(client, "alice", invite_code="")
    assert response.status_code == 403
    assert users(app) == []


# The starter collection (webapp.decks.packs.grant_starter)


def test_a_new_account_gets_its_starter_collection(app, client, monkeypatch):
    calls = []
    monkeypatch.setattr(accounts, "grant_starter", lambda db, user_id: calls.append((db.conn.in_transaction, user_id)))
    register(client, "alice")
    assert calls == [(True, stored_user(app, "alice")["id"])]  # inside the account's transaction


def test_a_new_account_gets_the_real_starter_collection(app, client):
    register(client, "alice")
    db = connect(app.config["DATABASE"])
    try:
        total = db.execute("SELECT coalesce(sum(count), 0) FROM collection WHERE user_id = ?",
                           [session_user(client)]).fetchone()[0]
    finally:
        db.conn.close()
    assert 0 < total < 30  # R2.2: fewer than 30, so the loaner deck matters


def test_an_account_whose_starter_collection_fails_is_not_stored(app, client, monkeypatch):
    def grant_starter(db, user_id):
        db["packs"].insert({"user_id": user_id, "source": "welcome", "created": "now"})
        raise RuntimeError("no cards")
    monkeypatch.setattr(accounts, "grant_starter", grant_starter)
    with pytest.raises(RuntimeError):
        register(client, "alice")
    assert users(app) == []


# Logging in and out


def test_log_in_starts_the_session_and_records_the_time(app, client, alice):
    assert alice["last_login"] is None
    response = log_in_form(client, "alice")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert session_user(client) == alice["id"]
    assert stored_user(app, "alice")["last_login"] is not None
    assert "Welcome back, alice." in text(client.get("/"))


def test_log_in_ignores_the_letter_case_of_the_name(client, alice):
    assert log_in_form(client, " ALICE ").status_code == 302
    assert session_user(client) == alice["id"]


@pytest.mark.parametrize("name, password", [("alice", "wrong password"), ("nobody", PASSWORD),
                                            ("alice", ""), ("", ""), ("a" * 500, PASSWORD),
                                            ("alice", "x" * (MAX_LENGTH + 1)), ("alice", PASSWORD.upper())])
def test_a_wrong_name_or_password_gets_the_same_message(client, alice, name, password):
    response = log_in_form(client, name, password)
    assert response.status_code == 401
    page = text(response)
    assert "Wrong name or password." in page
    assert "no user" not in page.lower() and "unknown" not in page.lower()
    assert session_user(client) is None


def test_unknown_and_known_names_fail_with_the_same_page(client, alice, make_user):
    make_user("bobby")
    known = text(log_in_form(client, "bobby", "wrong password"))
    unknown = text(log_in_form(client, "bobbz", "wrong password"))
    assert known.replace("bobby", "NAME") == unknown.replace("bobbz", "NAME")


def test_log_out_ends_the_session(alice_client):
    response = post(alice_client, "/logout")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert session_user(alice_client) is None
    page = text(alice_client.get("/"))
    assert "You have logged out." in page and 'href="/login"' in page


def test_log_out_is_post_only(alice_client, alice):
    assert alice_client.get("/logout").status_code == 405
    assert session_user(alice_client) == alice["id"]


# CSRF


def test_register_without_the_csrf_token_is_refused(app, client):
    client.get("/register")
    response = client.post("/register", data={"name": "alice", "password": PASSWORD, "confirm": PASSWORD})
    assert response.status_code == 400
    assert users(app) == []


def test_login_without_the_csrf_token_is_refused(client, alice):
    response = client.post("/login", data={"name": "alice", "password": PASSWORD})
    assert response.status_code == 400
    assert session_user(client) is None


def test_login_with_a_wrong_csrf_token_is_refused(client, alice):
    client.get("/login")
    response = client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf_token": "forged"})
    assert response.status_code == 400
    assert session_user(client) is None


def test_logout_without_the_csrf_token_is_refused(alice_client, alice):
    assert alice_client.post("/logout").status_code == 400
    assert session_user(alice_client) == alice["id"]


def test_the_form_carries_the_token_the_session_expects(client, alice):
    page = text(client.get("/login"))
    with client.session_transaction() as sess:
        token = sess["csrf"]
    assert f'name="csrf_token" value="{token}"' in page
    response = client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302


# Sessions


def test_log_in_starts_a_fresh_session_with_a_fresh_csrf_token(client, alice):
    with client.session_transaction() as sess:
        sess["csrf"] = old = "token-before-login"
        sess["planted"] = "by someone else"
    client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf_token": old})
    with client.session_transaction() as sess:
        assert sess["user_id"] == alice["id"]
        assert "planted" not in sess
        assert sess["csrf"] and sess["csrf"] != old
    # The token from before the login no longer works.
    assert client.post("/logout", data={"csrf_token": old}).status_code == 400


def test_register_also_starts_a_fresh_session(client):
    with client.session_transaction() as sess:
        sess["planted"] = "x"
    register(client, "alice")
    with client.session_transaction() as sess:
        assert "planted" not in sess and sess["csrf"] != "test-token"


def session_cookie(response):
    """The Set-Cookie header of the session (a log-in also sets the device cookie)."""
    return next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))


def test_session_cookie_is_httponly_and_not_secure_over_plain_http(client, alice):
    cookie = session_cookie(log_in_form(client, "alice"))
    assert cookie.startswith("session=") and "HttpOnly" in cookie
    assert "Secure" not in cookie


def test_session_cookie_is_samesite_lax(client, alice):
    assert "SameSite=Lax" in session_cookie(log_in_form(client, "alice"))


def test_session_cookie_is_secure_behind_tls(tmp_path):
    app = make_app(tmp_path, PREFERRED_URL_SCHEME="https")
    register(app.test_client(), "alice")
    response = log_in_form(app.test_client(), "alice")
    for cookie in response.headers.getlist("Set-Cookie"):  # the session's and the device's
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_session_for_a_deleted_user_is_dropped(app, client, alice):
    log_in(client, alice)
    db = connect(app.config["DATABASE"])
    db.execute("DELETE FROM users WHERE id = ?", [alice["id"]])
    db.conn.close()
    assert 'href="/login"' in text(client.get("/"))
    assert session_user(client) is None


# Throttling failed log-ins


@pytest.fixture
def strict_app(tmp_path):
    """At most 3 failures a minute per account and address, 3 per account from unknown places and 5
    per address in 60 s."""
    return make_app(tmp_path, LOGIN_LIMIT_ACCOUNT=3, LOGIN_LIMIT_ADDRESS=5, LOGIN_WINDOW=60,
                    LOGIN_DELAYS=((3, 60),))


@pytest.fixture
def strict_users(strict_app):
    db = connect(strict_app.config["DATABASE"])
    try:
        from webapp.store.users import create_user
        return {name: create_user(db, name, stored_hash(PASSWORD)) for name in ("alice", "bob")}
    finally:
        db.conn.close()


class StoppedClock:
    """The throttles' clock, standing still until moved (a wait in seconds must not depend on the
    test's speed)."""

    def __init__(self, app, at=1000.0):
        self.now = at
        app.extensions["login_throttle"].set_clock(lambda: self.now)

    def advance(self, seconds):
        self.now += seconds


def test_failed_log_ins_from_strangers_hold_back_strangers_only(strict_app, strict_users):
    client = strict_app.test_client()
    assert log_in_form(client, "alice", address="10.0.0.50").status_code == 302  # alice's own address
    StoppedClock(strict_app)
    for n in range(3):
        assert log_in_form(app_client(strict_app), "alice", "wrong password",
                           address=f"10.0.0.{n}").status_code == 401
    response = log_in_form(app_client(strict_app), "Alice", PASSWORD, address="10.0.0.99")  # a new place
    assert response.status_code == 429
    page = text(response)
    assert "Too many failed log-ins for this account or from your address." in page
    assert "Try again in 60 seconds." in page
    assert response.headers["Retry-After"] == "60"
    # alice from where she logged in before, and other accounts, are not held back.
    assert log_in_form(app_client(strict_app), "alice", address="10.0.0.50").status_code == 302
    assert log_in_form(app_client(strict_app), "bob", address="10.0.0.99").status_code == 302


def app_client(app):
    return app.test_client()


def test_failed_log_ins_from_one_address_are_limited_for_any_account(strict_app, strict_users):
    client = strict_app.test_client()
    for n in range(5):
        assert log_in_form(client, f"guess{n}", "wrong password", address="10.1.1.1").status_code == 401
    response = log_in_form(client, "bob", PASSWORD, address="10.1.1.1")
    assert response.status_code == 429
    assert "Try again in" in text(response)
    # The same account from another address is fine.
    assert log_in_form(client, "bob", PASSWORD, address="10.2.2.2").status_code == 302


def test_log_in_is_allowed_again_once_the_window_has_passed(strict_app, strict_users):
    client = strict_app.test_client()
    clock = StoppedClock(strict_app)
    for _ in range(3):
        log_in_form(client, "alice", "wrong password")
    assert log_in_form(client, "alice").status_code == 429
    clock.advance(59)
    response = log_in_form(client, "alice")
    assert response.status_code == 429 and "Try again in 1 second." in text(response)
    clock.advance(1)
    assert log_in_form(client, "alice").status_code == 302


def test_a_good_log_in_resets_the_accounts_count_but_not_the_addresss(strict_app, strict_users):
    client = strict_app.test_client()
    for _ in range(2):
        log_in_form(client, "alice", "wrong password")
    assert log_in_form(client, "alice").status_code == 302
    client = strict_app.test_client()
    for _ in range(2):
        assert log_in_form(client, "alice", "wrong password").status_code == 401
    # 2 + 2 failures from this address so far: one more and the address is locked.
    assert log_in_form(client, "bob", "wrong password").status_code == 401
    assert log_in_form(client, "bob").status_code == 429


def test_throttle_limits_come_from_the_config(strict_app):
    guard = strict_app.extensions["login_throttle"]
    assert (guard.account.limit, guard.address.limit) == (3, 5)
    assert guard.account.seconds == guard.address.seconds == 60
    assert [(w.limit, w.seconds) for w in guard.steps] == [(3, 60)]


@pytest.mark.parametrize("seconds, phrase", [(0, "1 second"), (1, "1 second"), (45, "45 seconds"),
                                             (89, "89 seconds"), (90, "2 minutes"), (300, "5 minutes"),
                                             (301, "6 minutes")])
def test_wait_text(seconds, phrase):
    assert accounts.wait_text(seconds) == phrase


# Redirects after logging in


def test_log_in_goes_on_to_the_page_asked_for(client, alice):
    page = text(client.get("/login?next=/decks/%3Fsort%3Dname"))
    assert 'name="next" value="/decks/?sort=name"' in page
    response = log_in_form(client, "alice", next="/decks/?sort=name")
    assert response.headers["Location"] == "/decks/?sort=name"


def test_register_goes_on_to_the_page_asked_for(client):
    assert register(client, "alice", next="/collection/").headers["Location"] == "/collection/"


EVIL = ["//evil.example", "//evil.example/decks", "https://evil.example/", "http:evil.example",
        "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "/\n/evil.example",
        "javascript:alert(1)", "evil.example", " //evil.example", "/" + "a" * 3000]


@pytest.mark.parametrize("target", EVIL)
def test_log_in_never_redirects_off_the_site(client, alice, target):
    response = log_in_form(client, "alice", next=target)
    assert response.status_code == 302 and response.headers["Location"] == "/"


@pytest.mark.parametrize("target", EVIL)
def test_register_never_redirects_off_the_site(client, target):
    assert register(client, "alice", next=target).headers["Location"] == "/"


def test_an_unsafe_next_is_not_put_in_the_form(client):
    page = text(client.get("/login", query_string={"next": "//evil.example"}))
    assert "evil.example" not in page
    page = text(client.get("/register", query_string={"next": "//evil.example"}))
    assert "evil.example" not in page


@pytest.mark.parametrize("target", ["/", "/decks/", "/decks/3?x=1#top", "/collection/?q=a%20b"])
def test_safe_next_keeps_local_paths(target):
    assert safe_next(target) == target


@pytest.mark.parametrize("target", EVIL + [None, "", "?x=1", "decks/"])
def test_safe_next_refuses_everything_else(target):
    assert safe_next(target) is None


def test_a_name_registered_by_a_racing_request_is_refused_and_nothing_stored(app, monkeypatch, client):
    # Another request registers the name between the check and the insert.
    monkeypatch.setattr(accounts, "get_user_by_name", lambda db, name: None)
    register(client, "alice")
    response = register(app.test_client(), "ALICE")
    assert response.status_code == 400 and "is taken" in text(response)
    assert users(app) == [("alice", True)]



def test_behind_a_proxy_the_throttle_sees_the_client_address(tmp_path):
    """PROXY_FIX: X-Forwarded-For from nginx names the client, so one client cannot lock out all."""
    from flask import request

    for proxied, expected in ((True, "203.0.113.9"), (False, "127.0.0.1")):
        app = make_app(tmp_path / str(proxied), PROXY_FIX=proxied)
        app.add_url_rule("/_addr", "addr", lambda: request.remote_addr)
        got = app.test_client().get("/_addr", headers={"X-Forwarded-For": "203.0.113.9"},
                                    environ_base={"REMOTE_ADDR": "127.0.0.1"})
        assert got.get_data(as_text=True) == expected
