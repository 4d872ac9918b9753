"""Users: unique names ignoring case, lookups, logins."""

import pytest

from webapp.store import (BadName, NameTaken, UserNotFound, create_user, get_user, get_user_by_name,
                          record_login, set_password_hash, user_count)


def test_create_user_returns_the_stored_user(db):
    user = create_user(db, "  Alice ", "hash")
    assert user["name"] == "Alice" and user["password_hash"] == "hash"
    assert user["is_admin"] is False and user["last_login"] is None
    assert get_user(db, user["id"]) == user


def test_names_are_unique_in_any_letter_case(db, alice):
    with pytest.raises(NameTaken, match="'ALICE' is taken"):
        create_user(db, "ALICE", "other")
    assert user_count(db) == 1


def test_an_empty_name_is_refused(db):
    with pytest.raises(BadName):
        create_user(db, "   ", "hash")


def test_get_user_by_name_ignores_case_and_returns_none_when_missing(db, alice):
    assert get_user_by_name(db, "aLiCe")["id"] == alice["id"]
    assert get_user_by_name(db, "nobody") is None


def test_get_user_raises_for_an_unknown_id(db):
    with pytest.raises(UserNotFound, match="no user has id 42"):
        get_user(db, 42)


def test_record_login_and_new_password_hash(db, alice):
    record_login(db, alice["id"])
    set_password_hash(db, alice["id"], "new")
    user = get_user(db, alice["id"])
    assert user["last_login"] and user["password_hash"] == "new"
