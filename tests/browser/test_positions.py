"""The browser tests' positions (tests/browser/positions/*.json) are legal scenarios, checked without a browser.

Each file is loaded as ``tests/browserkit.py`` ``start_at`` sends it and built the way the testing
start path builds it (``webapp.game.positions``: the missing draw piles filled from the Prince's
Brigade, ``Game.from_scenario``), so a broken position fails here, in the fast lane, not in a
browser test minutes later."""

import json
import random

import pytest

from tests.browserkit import POSITIONS, position
from webapp.cards.decks import load_decks
from webapp.decks.collection import LOANER
from webapp.engine import Game, load_pool
from webapp.game.replay import scenario_with_decks

FILES = sorted(POSITIONS.glob("*.json"))


def test_there_are_positions():
    assert FILES, f"no positions in {POSITIONS}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_position_is_a_legal_game_waiting_for_a_move(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data.get("about"), str) and data["about"].strip(), "say what the position is for in 'about'"
    pool = load_pool()
    loaner = load_decks(pool)[LOANER].card_ids()
    scenario = scenario_with_decks(dict(position(path.stem), seed=0), [loaner, loaner], random.Random(0))
    game = Game.from_scenario(scenario, pool)
    assert game.result is None
    assert game.waiting_for(), "the position waits for nobody"
