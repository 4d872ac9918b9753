"""Profiles (webapp/social/profiles.py): rating history, games, win rate by deck and per-card figures
from stored games; and the attack: another account's profile shows no deck and no card of theirs."""

import json
from pathlib import Path

import pytest

from webapp.game import play, positions
from webapp.social import profiles

POSITION = json.loads((Path(__file__).parents[1] / "browser/positions/online-battle.json").read_text())


@pytest.fixture
def finished(app, db, alice, bob):
    """finished(winner_seat) -> the id of a rated online game (round 5) that ended with seat 1 - winner resigning."""
    def make(winner):
        scenario = dict(POSITION, round=5)
        scenario.pop("about", None)
        game_id = positions.start(db, "online", [alice, bob], scenario, seed=5, rated=True)
        runtime = app.extensions["brigade_online"]
        row = play.load_row(db, game_id)
        runtime.track(db, row)
        runtime.act(db, row, 1 - winner, {"type": "resign"}, row["version"])
        return game_id
    return make


def test_a_profile_counts_games_ratings_and_cards_from_stored_games(app, db, alice, bob, finished):
    ids = [finished(0), finished(0), finished(1)]
    mine = profiles.profile(db, alice["id"], viewer=alice["id"])
    assert (mine["played"], mine["won"], mine["rate"]) == (3, 2, 67)
    assert [g["id"] for g in mine["games"]] == ids[::-1] and [g["outcome"] for g in mine["games"]] == ["lost", "won", "won"]
    assert [h["game_id"] for h in mine["history"]] == ids and mine["rating"]["games"] == 3
    assert len(mine["chart"]["dots"]) == 4  # the start and one point a game
    assert mine["by_deck"] == [{"deck_id": None, "games": 3, "won": 2, "rate": 67, "deck": None}]
    cards = {f["card"]: f for f in mine["cards"]}
    setup = play.load_row(db, ids[0])["setup"]
    assert set(cards) == set(setup["decks"][0])  # every card of her deck, no other
    hand = POSITION["players"][0]["hand"]
    in_hand = hand[0] if isinstance(hand[0], str) else hand[0]["card"]
    assert cards[in_hand]["drawn"] == 3 and cards[in_hand]["drawn_won"] == 2  # in her hand in all three games
    assert all(f["in_deck"] == 3 and f["in_deck_won"] == 2 for f in cards.values())
    assert all(f["played"] == 0 for f in cards.values())  # nobody played a card: each game was resigned at once


def test_cards_played_count_summons_quick_summons_and_spells_as_the_engine_logged_them(app, db, alice, bob):
    """At the position alice summons an Orc Shaman, marches into bob's land, quick summons a Salamander
    in the battle and casts War Cry; bob resigns. Those three were played; the Ember Drake and the
    Fireballs she held were drawn, not played; a card that stayed in her deck was neither."""
    scenario = dict(POSITION, round=5)
    scenario.pop("about", None)
    game_id = positions.start(db, "online", [alice, bob], scenario, seed=5, rated=True)
    runtime = app.extensions["brigade_online"]
    runtime.track(db, play.load_row(db, game_id))

    def legal(seat, kind, **match):
        game = play.game_of(db, play.load_row(db, game_id))
        return next(a for a in game.legal_actions(seat) if a["type"] == kind
                    and all(a.get(k) == v for k, v in match.items()))

    def act(seat, action):
        row = play.load_row(db, game_id)
        runtime.act(db, row, seat, action, row["version"])

    game = play.game_of(db, play.load_row(db, game_id))
    held = {game.state.static.cards[c].id: game.state.static.names[c] for c in game.state.hand[0]}
    act(0, {"type": "summon", "card": held["orc-shaman"]})
    act(0, {"type": "march", "units": legal(0, "march", to="L4")["from"], "to": "L4"})
    act(0, {"type": "quick_summon", "cards": [held["salamander"]]})  # a defensive quick summon is the same action
    act(0, legal(0, "formation", choose=None))
    act(1, legal(1, "formation", choose=None))
    act(0, legal(0, "spell", card=held["war-cry"]))
    act(1, {"type": "resign"})
    cards = {f["card"]: f for f in profiles.profile(db, alice["id"], viewer=alice["id"])["cards"]}
    for card in ("orc-shaman", "salamander", "war-cry"):
        assert (cards[card]["played"], cards[card]["played_won"], cards[card]["drawn"]) == (1, 1, 1), card
    for card in ("ember-drake", "fireball"):
        assert (cards[card]["played"], cards[card]["drawn"], cards[card]["drawn_won"]) == (0, 1, 1), card
    never = [f for f in cards.values() if f["card"] not in held]
    assert never and all(f["drawn"] == 0 and f["played"] == 0 and f["in_deck"] == 1 for f in never)


def test_leaders_summoned_at_the_start_count_as_played(app, db, alice, bob, started):
    game_id = started()
    runtime = app.extensions["brigade_online"]
    chosen = {}
    for seat in (0, 1):
        row = play.load_row(db, game_id)
        game = play.game_of(db, row)
        choice = next(a for a in game.legal_actions(seat) if a["type"] == "choose_leaders")
        chosen[seat] = {game.state.static.cards[game.state.static.names.index(n)].id for n in choice["cards"]}
        runtime.act(db, row, seat, choice, row["version"])
    row = play.load_row(db, game_id)
    runtime.act(db, row, 1, {"type": "resign"}, row["version"])
    cards = {f["card"]: f for f in profiles.profile(db, alice["id"], viewer=alice["id"])["cards"]}
    assert {c for c, f in cards.items() if f["played"]} == chosen[0]  # hers alone, not bob's
    assert all(cards[c]["drawn"] == 1 for c in chosen[0])  # from the opening hand


def test_attack_another_accounts_profile_shows_no_deck_and_no_card(app, db, alice, bob, finished, client_of):
    finished(0)
    theirs = profiles.profile(db, alice["id"], viewer=bob["id"])
    assert "cards" not in theirs and "by_deck" not in theirs and not theirs["own"]
    page = client_of(bob).get("/players/alice").get_data(as_text=True)
    mine = client_of(alice).get("/players/alice").get_data(as_text=True)
    assert 'data-testid="cards"' in mine and 'data-testid="by-deck"' in mine
    assert 'data-testid="cards"' not in page and 'data-testid="by-deck"' not in page
    assert 'data-testid="rating-chart"' in page  # the rating and its history are the ladder's, public
    assert client_of(bob).get("/players/nobody-of-that-name").status_code == 404
