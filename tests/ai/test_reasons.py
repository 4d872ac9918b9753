"""The hint's reasons (webapp/ai/reasons.py, worded by webapp/game/hintwords.py): facts from the asking
seat's view and the search's own statistics, the same for games that differ only in what the seat
cannot see (R18.6), in plain words in both languages, without ids or rule numbers."""

import re

import pytest
from flask_babel import force_locale

from tests.ai.test_search import POOL, positions
from tests.engine.test_determinize import hidden_twin
from tests.lanes import lanes
from webapp.ai import SearchPlayer, reasons
from webapp.game import hintwords

NO_IDS = re.compile(r"p[01]c\d+|R\d+\.\d+|\bH[01]\b")


def found(game, p, seed):
    r = SearchPlayer(seed=seed, pool=POOL, iterations=30).search(game, p)
    return r, reasons.explain(game.view(p), p, r)


@lanes(fast=1, full=3)  # random games: one in the fast lane, three in the whole run
def test_the_reason_is_the_same_for_games_that_differ_only_in_what_the_seat_cannot_see(app, examples):
    """R18.6: the opponent's hand and deck replaced by other cards, both piles reshuffled, another RNG:
    the same move, the same facts, the same runner-up and the same words, in English and Japanese."""
    checked = with_runner = differ = 0
    for seed, step, game, p in positions(seeds=range(examples)):
        twin = hidden_twin(game, p, seed * 31 + step)
        differ += twin.to_json() != game.to_json()
        ra, wa = found(game, p, step)
        rb, wb = found(twin, p, step)
        assert (ra.action, wa) == (rb.action, wb), (seed, step, p)
        for lang in ("en", "ja"):
            with app.test_request_context(), force_locale(lang):
                hint_a = {"action": ra.action, "win": ra.win, "why": wa}
                hint_b = {"action": rb.action, "win": rb.win, "why": wb}
                assert hintwords.words(game, p, hint_a, lang) == hintwords.words(twin, p, hint_b, lang)
        checked += 1
        with_runner += wa["runner_up"] is not None
    assert checked >= 10 * examples // 3 and differ == checked and with_runner >= checked // 2


def test_the_reasons_name_no_ids_or_rules_in_either_language(app):
    said = 0
    for seed, step, game, p in positions(seeds=range(2), every=11):
        r, why = found(game, p, seed + step)
        for lang in ("en", "ja"):
            with app.test_request_context(), force_locale(lang):
                got = hintwords.words(game, p, {"action": r.action, "win": r.win, "why": why}, lang)
            text = " ".join([got["sentence"], *got["why"], got["runner_up"] or ""])
            assert not NO_IDS.search(text), text
            if lang == "ja":
                assert not re.search(r"\b(March|Summon|Next best|the CPU)\b", text), text
            said += len(got["why"]) + (got["runner_up"] is not None)
    assert said > 0


def unit(uid, card, owner, land, power, life, leader=False):
    return {"id": uid, "card": card, "owner": owner, "land": land, "power": power, "life": life, "leader": leader}


def view_of(units, owners):
    lands = {code: {"owner": owners.get(code), "capacity": 6} for code in ("H0", "L1", "L2", "L3", "L4", "L5", "L6", "H1")}
    return {"units": units, "lands": lands, "players": [{"hand": []}, {"hand": []}]}


def test_a_last_leader_marching_alone_beside_the_enemy_army_is_named_as_the_risk():
    """The failure a hint-follower met: its last leader sent alone next to the foe's army."""
    units = [unit("p0c1", "orc-lord", 0, "L2", 3, 4, leader=True),
             unit("p1c1", "ogre", 1, "L5", 5, 5), unit("p1c2", "ogre", 1, "L6", 4, 5)]
    view = view_of(units, {"H0": 0, "H1": 1, "L2": 0})
    facts = reasons.board_facts(view, 0, {"type": "march", "units": ["p0c1"], "to": "L4"})
    exposed = [p for k, p, good in facts if k == "leader_exposed"]
    assert exposed == [{"card": "orc-lord", "land": "L4", "power": 9, "life": 4, "alone": True, "last": True}]
    takes = [p for k, p, good in facts if k == "takes"]
    assert takes == [{"land": "L4", "mine": 3, "theirs": 1}]  # H0, L2 and L4 to H1


def test_the_search_facts_say_only_gaps_worth_saying():
    best = {"visits": 20, "win": 0.6, "lost": 0.1, "leader_fell": 0.1, "lead": 1.5}
    other = {"visits": 10, "win": 0.4, "lost": 0.15, "leader_fell": 0.5, "lead": 1.4}
    assert reasons.search_facts(best, other) == [("leader_falls", {"this": 10, "other": 50})]
    assert reasons.search_facts(best, best) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_leader_risk_reads_in_plain_words(app, lang):
    from webapp.engine.randomplay import random_game
    game, _ = random_game(3, POOL)
    with app.test_request_context(), force_locale(lang):
        w = hintwords.Words(game, 0, lang)
        text = w.fact("leader_exposed", {"card": "orc-lord", "land": "L4", "power": 9, "life": 4, "alone": True, "last": True})
    name = POOL["orc-lord"].data["name"][lang]
    assert name in text and "L4" in text and "9" in text and "4" in text
    assert ("last leader" in text) if lang == "en" else ("最後の旅団長" in text)
