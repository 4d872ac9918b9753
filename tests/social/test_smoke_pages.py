"""The friends pages render for a user with nothing yet, and with a friend (both languages)."""

from tests.web.conftest import post


def test_the_pages_render(app, alice, bob, client_of, befriend):
    befriend(alice, bob)
    client = client_of(alice)
    for url in ("/friends", "/ladder", "/players/alice", "/players/bob", "/lobby"):
        got = client.get(url)
        assert got.status_code == 200, (url, got.data[:2000])
    assert b"bob" in client.get("/friends").data
    assert post(client, "/lang", {"lang": "ja", "next": "/friends"}).status_code in (302, 303)
    for url in ("/friends", "/ladder", "/players/alice"):
        assert client.get(url).status_code == 200
