"""The friends list as a service, without sockets: requests by name and by link, accepted or declined,
removing, blocking (a blocked user's requests are never shown, and they learn nothing of the block)."""

import pytest

from webapp.game import play
from webapp.social import friends


def names(rows):
    return [r["name"] for r in rows]


def test_a_request_by_name_is_accepted_and_both_see_the_friendship(db, alice, bob):
    assert friends.ask_by_name(db, alice["id"], "BOB") == "sent"  # any letter case
    assert names(friends.overview(db, bob["id"])["incoming"]) == ["alice"]
    assert names(friends.overview(db, alice["id"])["outgoing"]) == ["bob"]
    assert not friends.are_friends(db, alice["id"], bob["id"])
    friends.accept(db, bob["id"], alice["id"])
    assert friends.are_friends(db, alice["id"], bob["id"]) and friends.are_friends(db, bob["id"], alice["id"])
    assert names(friends.overview(db, alice["id"])["friends"]) == ["bob"]
    assert friends.overview(db, bob["id"])["incoming"] == []
    assert friends.ask(db, alice["id"], bob["id"]) == "friends"


def test_asking_someone_who_asked_you_first_accepts_at_once(db, alice, bob):
    friends.ask(db, alice["id"], bob["id"])
    assert friends.ask(db, bob["id"], alice["id"]) == "accepted"
    assert friends.are_friends(db, alice["id"], bob["id"])


def test_a_declined_request_is_gone_and_changes_nothing(db, alice, bob):
    friends.ask(db, alice["id"], bob["id"])
    friends.decline(db, bob["id"], alice["id"])
    assert friends.overview(db, bob["id"])["incoming"] == [] and friends.overview(db, alice["id"])["outgoing"] == []
    assert not friends.are_friends(db, alice["id"], bob["id"])
    with pytest.raises(play.NotFound):
        friends.accept(db, bob["id"], alice["id"])


def test_bad_names_and_oneself_are_refused_in_plain_words(db, alice):
    with pytest.raises(play.NotFound, match="No player has that name"):
        friends.ask_by_name(db, alice["id"], "nobody-here")
    with pytest.raises(play.NotFound):
        friends.ask_by_name(db, alice["id"], "")
    with pytest.raises(play.BadRequest, match="That is you"):
        friends.ask_by_name(db, alice["id"], "Alice")


def test_the_friend_link_names_its_owner_and_a_new_one_retires_the_old(db, alice, bob):
    token = friends.friend_token(db, alice["id"])
    assert friends.friend_token(db, alice["id"]) == token  # made once, kept
    assert friends.link_owner(db, token)["id"] == alice["id"]
    assert friends.ask(db, bob["id"], friends.link_owner(db, token)["id"]) == "sent"
    new = friends.new_friend_token(db, alice["id"])
    assert new != token and friends.link_owner(db, new)["id"] == alice["id"]
    with pytest.raises(play.NotFound):
        friends.link_owner(db, token)
    with pytest.raises(play.NotFound):
        friends.link_owner(db, "x" * 22)


def test_remove_ends_the_friendship_for_both(db, alice, bob, befriend):
    befriend(alice, bob)
    friends.remove(db, bob["id"], alice["id"])
    assert not friends.are_friends(db, alice["id"], bob["id"])
    assert friends.overview(db, alice["id"])["friends"] == []


def test_attack_a_blocked_user_keeps_requesting_and_is_never_shown(db, alice, bob, befriend):
    """bob blocks alice: the friendship ends; alice's new requests read "sent" (she learns nothing of
    the block) but bob never sees them, and they cannot become friends by asking either way round."""
    befriend(alice, bob)
    friends.block(db, bob["id"], alice["id"])
    assert not friends.are_friends(db, alice["id"], bob["id"]) and friends.blocked(db, alice["id"], bob["id"])
    for _ in range(3):
        assert friends.ask(db, alice["id"], bob["id"]) == "sent"
    assert friends.overview(db, bob["id"])["incoming"] == []
    with pytest.raises(play.NotFound):
        friends.accept(db, bob["id"], alice["id"])  # the hidden request cannot be accepted by accident
    with pytest.raises(play.Forbidden, match="unblock"):
        friends.ask(db, bob["id"], alice["id"])  # the blocker must unblock first: no accept through the back door
    assert not friends.are_friends(db, alice["id"], bob["id"])
    assert names(friends.overview(db, bob["id"])["blocked"]) == ["alice"]
    friends.unblock(db, bob["id"], alice["id"])
    assert names(friends.overview(db, bob["id"])["incoming"]) == ["alice"]  # her request shows once unblocked


def test_attack_request_spam_stops_at_the_cap(db, alice, make_user):
    others = [make_user(f"user{i}") for i in range(friends.MAX_PENDING + 2)]
    for other in others[:friends.MAX_PENDING]:
        friends.ask(db, alice["id"], other["id"])
    with pytest.raises(play.Forbidden):
        friends.ask(db, alice["id"], others[-1]["id"])
    assert len(friends.overview(db, alice["id"])["outgoing"]) == friends.MAX_PENDING
