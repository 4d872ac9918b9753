"""The server stores ``gamecache.snapshot_text(game)``: it must be ``game.to_json()`` exactly (docs/storage.md:
``state`` is the engine's ``to_json()`` text), only made faster with orjson."""

import random

from tests.engine.helpers import card, scenario, unit
from tests.lanes import lanes
from webapp.game import gamecache, play, storychapters
from webapp.engine import Game
from webapp.engine.randomplay import random_action, random_game


def same_text(game):
    text = gamecache.snapshot_text(game)
    assert text == game.to_json()
    assert Game.from_json(text).to_json() == text  # and it round-trips


@lanes(fast=10, full=60)  # random games: ten in the fast lane, sixty in the whole run
def test_every_state_of_random_games_is_written_as_to_json_writes_it(examples):
    states = 0
    for seed in range(examples):
        game, rng = random_game(seed, first=seed % 2)
        same_text(game)
        while game.result is None:
            player, action = random_action(game, rng)
            game.apply(player, action)
            same_text(game)
            states += 1
    assert states > 50 * examples


def test_a_game_ended_from_outside_the_rules_and_a_resigned_one():
    game, rng = random_game(7)
    for _ in range(40):
        game.apply(*random_action(game, rng))
    ended = game.copy()
    ended.set_result(1, "timeout")
    same_text(ended)
    game.apply(min(game.waiting_for()), {"type": "resign"})
    same_text(game)


def test_scenarios_with_cards_of_their_own_and_text_beyond_ascii():
    cards = {"odd": card(name={"en": "Ünïcode \"quoted\" \\ back\tslash", "ja": "テスト\u2028改行"}, power=7)}
    game = scenario(p0={"units": [unit("odd", "H0", "a0", leader=True), unit("odd", "L1", "a1")],
                        "hand": ["odd", "orc"]}, cards=cards)
    same_text(game)
    rng = random.Random(3)
    for _ in range(10):
        if game.result is not None:
            break
        player = min(game.waiting_for())
        actions = [a for a in game.legal_actions(player) if a["type"] != "resign"]
        from webapp.engine.choices import random_action_of
        game.apply(player, random_action_of(rng.choice(actions), rng))
        same_text(game)


def test_every_story_chapter_start():
    for ch in storychapters.chapters():
        decks = [play.deck_list(ch.deck.counts), play.deck_list(ch.deck.counts)]
        setup = {"decks": decks, "seed": 5, "first": 0, "leader_mode": "sequential"}
        if ch.start is not None:
            setup["scenario"] = storychapters.fill_start(ch.start, decks, 5)
        same_text(play.new_game(setup))


def test_what_orjson_refuses_goes_through_to_json():
    game, _ = random_game(1)
    game.state.rng = 2**70  # not a state the engine makes (its RNG is 64 bits): orjson refuses it
    assert gamecache.snapshot_text(game) == game.to_json()
