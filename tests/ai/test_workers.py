"""Thinking in worker processes: answers from a worker, the baseline when a worker dies or is stuck, the hint."""

import logging
import os
import re
import signal
import threading
import time

import pytest

from webapp.ai import workers
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


@pytest.fixture
def pool():
    workers.shutdown()
    workers.configure(1)
    yield workers.pool()
    workers.shutdown()
    workers.configure(None)


def main_step_game(seed=2, round_=3):
    game, rng = random_game(seed, POOL)
    while game.result is None and (game.state.round < round_ or game.state.phase != "main"
                                   or len(game.legal_actions(game.state.active)) < 4):
        game.apply(*random_action(game, rng))
    return game, game.state.active


def test_the_hard_cpu_thinks_in_a_worker_process(pool):
    game, p = main_step_game()
    t = workers.think(game, p, "hard", seed=1, seconds=0.1)
    assert not t.fallback and t.iterations > 0 and 0 <= t.win <= 1
    assert game.is_legal(p, t.action)
    assert pool.count == 1 and len(pool.idle) == 1  # the worker stays for the next move
    again = workers.think(game, p, "hard", seed=1, seconds=0.05)
    assert not again.fallback and pool.count == 1


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_a_worker_killed_mid_search_gives_the_baseline_move_and_the_game_goes_on(pool, caplog):
    game, p = main_step_game()
    workers.think(game, p, "hard", seed=1, seconds=0.05)  # a started worker
    pid = pool.idle[-1].pid

    def kill_soon():
        deadline = time.monotonic() + 5
        while pid not in pool.busy and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(pid, signal.SIGKILL)  # given its job or about to be: either way it dies mid-move

    killer = threading.Thread(target=kill_soon)
    killer.start()
    with caplog.at_level(logging.WARNING, logger="webapp.ai.workers"):
        t = workers.think(game, p, "hard", seed=1, seconds=2.0)
    killer.join()
    assert t.fallback and "died" in t.reason and game.is_legal(p, t.action)
    assert any("fell back to the baseline" in r.getMessage() for r in caplog.records)
    assert pool.count == 0
    game.apply(p, t.action)  # the game goes on, and the next Hard move has a new worker
    q = min(game.waiting_for())
    t2 = workers.think(game, q, "hard", seed=2, seconds=0.05)
    assert game.is_legal(q, t2.action) and pool.count == 1
    assert pool.idle[-1].pid != pid


def test_a_stuck_worker_is_killed_at_its_deadline(pool, monkeypatch):
    game, p = main_step_game()
    workers.think(game, p, "hard", seed=1, seconds=0.05)
    worker = pool.idle[-1]
    monkeypatch.setattr(workers, "GRACE", 0.0)
    # 0.05 s asked, the worker searches 3 s (a job that overruns): the deadline passes first
    t0 = time.monotonic()
    with pytest.raises(workers.ThinkFailed, match="no answer"):
        pool.run((game.to_json(), p, "hard", 1, 3.0), 0.05)
    assert time.monotonic() - t0 < 2.5
    assert not worker.is_alive() and pool.count == 0


def test_easy_and_normal_choose_in_process_without_a_pool():
    workers.shutdown()
    game, p = main_step_game()
    for name in ("easy", "baseline"):
        t = workers.think(game, p, name, seed=3)
        assert game.is_legal(p, t.action) and t.win is None and not t.fallback
    assert workers._POOL is None


def test_suggest_gives_a_legal_move_a_chance_and_a_plain_sentence(pool):
    game, p = main_step_game(seed=5)
    hint = workers.suggest(game, p, seconds=0.1, seed=4)
    assert game.is_legal(p, hint["action"]) and 0 <= hint["win"] <= 1
    s = hint["sentence"]
    assert re.search(r"about an? \d{1,3}% chance to win", s), s
    assert not re.search(r"p[01]c\d+|R\d+\.\d+", s), s  # no instance ids, no rule numbers
    assert s[0].isupper() and s.endswith(".")


def test_describe_names_cards_and_lands_in_plain_words():
    game, p = main_step_game(seed=6)
    st = game.state
    card = st.hand[p][0]
    name = game.card_name(card)
    assert workers.describe(game, p, {"type": "discard", "cards": [st.static.names[card]]}) == f"Discard {name}"
    units = [u for u in st.land if st.static.owner[u] == p][:1]
    assert workers.describe(game, p, {"type": "march", "units": [st.static.names[u] for u in units],
                                      "to": "H1" if p == 0 else "H0"}).endswith("to the enemy base")
    assert workers.describe(game, p, {"type": "end_turn"}) == "End your turn"
