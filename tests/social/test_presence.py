"""Presence (webapp/social/presence.py): offline, online, playing; kept in memory with one process and in
the cluster's Redis with several, where a process that dies stops counting once its heartbeat lapses."""

import pytest

from tests.online.helpers import Seat
from tests.online.test_cluster import redis_url  # noqa: F401 (a module-scoped redis-server fixture)
from webapp.hosting import cluster as cluster_module
from webapp.social import presence


def test_a_socket_makes_its_user_online_and_a_seat_makes_them_playing():
    local = presence.Local()
    assert local.status([1]) == {1: ("offline", None)}
    local.set(1, "s1", None)
    local.set(1, "s2", None)
    assert local.status([1, 2]) == {1: ("online", None), 2: ("offline", None)}
    local.set(1, "s2", 7)
    assert local.status([1]) == {1: ("playing", 7)}
    local.drop(1, "s2")
    assert local.status([1]) == {1: ("online", None)}  # the other tab is still open
    local.drop(1, "s1")
    assert local.status([1]) == {1: ("offline", None)}


def test_the_sockets_of_a_user_move_their_presence(app, db, connect_as, alice, bob, started):
    """Through the real handlers: connect, join a game at a seat, leave it, disconnect."""
    game_id = started()
    assert presence.status([alice["id"], bob["id"]]) == {alice["id"]: ("offline", None), bob["id"]: ("offline", None)}
    socket = connect_as(alice)
    assert presence.status([alice["id"]])[alice["id"]] == ("online", None)
    seat = Seat(socket, game_id)
    assert seat.join()["game"] == game_id
    assert presence.status([alice["id"]])[alice["id"]] == ("playing", game_id)
    socket.emit("leave", {"game": game_id})
    assert presence.status([alice["id"]])[alice["id"]] == ("online", None)
    socket.disconnect()
    assert presence.status([alice["id"]])[alice["id"]] == ("offline", None)


def test_a_spectator_is_online_not_playing(app, db, connect_as, carol, started, befriend, alice):
    game_id = started()
    befriend(alice, carol)  # she may watch alice's game
    watcher = Seat(connect_as(carol), game_id)
    assert watcher.join()["seat"] is None
    assert presence.status([carol["id"]])[carol["id"]] == ("online", None)


def test_each_app_starts_with_nobody_online(app, connect_as, alice):
    connect_as(alice)
    assert presence.status([alice["id"]])[alice["id"]][0] == "online"
    presence.attach(app)  # what a new app's sockets layer does
    assert presence.status([alice["id"]])[alice["id"]][0] == "offline"


@pytest.fixture
def redis_cluster(redis_url):  # noqa: F811
    made = cluster_module.Cluster(redis_url, prefix="presence-test")
    made.redis.flushdb()
    return made


@pytest.mark.slow
def test_with_several_processes_presence_is_shared_and_a_dead_process_lapses(redis_cluster, redis_url, clock):  # noqa: F811
    """Two processes share Redis: each sees the other's sockets. One process dies without closing its
    sockets (no disconnect, no more heartbeats): its users stay online only until TTL after its last beat."""
    one = presence.Shared(redis_cluster)
    other_cluster = cluster_module.Cluster(redis_url, prefix="presence-test")
    two = presence.Shared(other_cluster)
    one.set(1, "a", None)
    two.set(2, "b", 12)
    assert one.status([1, 2, 3]) == {1: ("online", None), 2: ("playing", 12), 3: ("offline", None)}
    assert two.status([1]) == {1: ("online", None)}
    clock.advance(cluster_module.TTL * 0.8)
    redis_cluster.beat()  # process one lives on and beats; process two has died
    clock.advance(cluster_module.TTL * 0.4)
    assert one.status([1, 2]) == {1: ("online", None), 2: ("offline", None)}
    one.drop(1, "a")
    assert one.status([1]) == {1: ("offline", None)}


def test_a_seat_at_a_game_that_ended_counts_as_online(app, db, connect_as, alice, started):
    from webapp.social import friends
    game_id = started()
    Seat(connect_as(alice), game_id).join()
    assert friends.presence_of(db, [alice["id"]])[alice["id"]] == ("playing", game_id)
    app.extensions["brigade_online"].finish(db, game_id, 1, "resign")
    assert friends.presence_of(db, [alice["id"]])[alice["id"]] == ("online", None)
