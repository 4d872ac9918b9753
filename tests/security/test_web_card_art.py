"""Card art is drawn once, not on every request (issue 12, Low). The attack on the old server: the
public art address drew the card again for every request (~48 ms each), without logging in."""

from webapp.web import cardfiles


def test_asking_for_the_same_art_again_and_again_draws_it_once(client, monkeypatch):
    drawn = []
    real = cardfiles.card_svg

    def counting(card, lang, **kw):
        drawn.append((card.id, lang))
        return real(card, lang, **kw)

    monkeypatch.setattr(cardfiles, "card_svg", counting)
    cardfiles.drawn.cache_clear()
    bodies = {client.get("/collection/art/en/imp.svg").get_data() for _ in range(30)}
    client.get("/collection/art/ja/imp.svg")
    assert len(bodies) == 1 and drawn == [("imp", "en"), ("imp", "ja")]


def test_a_browser_that_has_the_art_gets_a_304(client):
    first = client.get("/collection/art/en/imp.svg")
    assert first.headers["ETag"] and "max-age" in first.headers["Cache-Control"]
    again = client.get("/collection/art/en/imp.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.get_data()


def test_unknown_cards_are_not_kept(client):
    cardfiles.drawn.cache_clear()
    for n in range(20):
        assert client.get(f"/collection/art/en/no-such-card-{n}.svg").status_code == 404
    assert cardfiles.drawn.cache_info().currsize == 0
