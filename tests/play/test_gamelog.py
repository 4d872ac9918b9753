"""The game log: every engine event (docs/engine.md, "Events") in plain words, for each reader."""

import random
import re
from pathlib import Path

import pytest

from webapp.game import gamelog
from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.engine import Game, load_pool
from webapp.engine.randomplay import random_deck

ROOT = Path(__file__).resolve().parents[2]
POOL = load_pool()
NAMES = ["Alice", "CPU"]
UNITS = {"p0c3": ("orc", 0), "p0c4": ("goblin-raider", 0), "p1c2": ("salamander", 1),
         "p1c7": ("orc", 1), "p0c29": ("fireball", 0)}


def say(event, viewer=0):
    return gamelog.describe([event], UNITS, NAMES, viewer, POOL)


# One example of every event type, with what player 0 ("you") reads.
CASES = [
    ({"type": "leaders_chosen", "player": 1}, "The CPU chooses leaders."),
    ({"type": "leaders_revealed", "leaders": {"0": ["p0c3", "p0c4"], "1": ["p1c2"]}},
     "Leaders revealed: your Orc and Goblin Raider; the CPU's Salamander."),
    ({"type": "turn_started", "player": 0, "round": 3}, "Round 3: your turn."),
    ({"type": "drew", "player": 1, "count": 2}, "The CPU draws 2 cards."),
    ({"type": "summoned", "unit": "p0c3", "card": "orc", "owner": 0, "land": "H0"}, "You summon Orc to your base."),
    ({"type": "marched", "player": 0, "units": ["p0c3"], "from": ["H0"], "to": "L1", "battle": False},
     "Your Orc marches from your base to L1."),
    ({"type": "land_taken", "player": 1, "land": "L5"}, "The CPU takes L5."),
    ({"type": "battle_started", "land": "L5", "attacker": 0, "parties": {"0": ["p0c3", "p0c4"], "1": ["p1c2"]}},
     "Battle at L5: your Orc and Goblin Raider against the CPU's Salamander."),
    ({"type": "quick_summoned", "player": 1, "units": ["p1c7"], "cards": ["orc"]},
     "The CPU quick-summons Orc into the battle."),
    ({"type": "formation", "player": 0, "order": ["p0c4", "p0c3"]},
     "Your formation, front first: Goblin Raider and Orc."),
    ({"type": "initiative", "rolls": {"0": {"die": 6, "speed": 1, "total": 7}, "1": {"die": 2, "speed": 0, "total": 2}},
      "first": 0}, "Initiative: you 6 + 1 = 7 against the CPU 2 + 0 = 2; you strike first."),
    ({"type": "triggered", "unit": "p1c2", "card": "salamander", "owner": 1, "timing": "strikes_first"},
     "The CPU's Salamander triggers (its party strikes first)."),
    ({"type": "declared", "player": 0, "kind": "spell", "index": 1, "targets": ["p1c2"], "card": "fireball",
      "responds_to": 0, "paid": {"element": 1, "wild": 0}}, "You cast Fireball on the CPU's Salamander in answer."),
    ({"type": "passed", "player": 1}, "The CPU lets it through."),
    ({"type": "resolved", "player": 0, "kind": "spell", "card": "fireball"}, "Fireball resolves."),
    ({"type": "fizzled", "player": 0, "kind": "spell", "card": "fireball", "reason": "target_gone"},
     "Fireball fizzles: its target is gone."),
    ({"type": "cancelled", "player": 1, "card": "fireball", "index": 0}, "The CPU's Fireball is cancelled."),
    ({"type": "attack", "player": 1, "power": 6, "simultaneous": False, "units": ["p1c2", "p1c7"]},
     "The CPU's Salamander and Orc attack with power 6."),
    ({"type": "damage", "unit": "p0c3", "amount": 2, "life": 1, "carry": 0}, "Your Orc takes 2 damage, 1 life left."),
    ({"type": "boosted", "unit": "p0c4", "power": 2, "life": -1, "speed": 0},
     "Your Goblin Raider gets +2 power and \u22121 life."),
    ({"type": "negated", "unit": "p1c2"}, "The CPU's Salamander loses its abilities for this battle."),
    ({"type": "slots_granted", "unit": "p0c3", "slots": {"fire": 2}}, "Your Orc gains 2 fire slots."),
    ({"type": "tribe_changed", "unit": "p0c3", "tribe": "Orc Lord"}, "Your Orc becomes an Orc Lord."),
    ({"type": "level_changed", "unit": "p1c7", "by": 1, "level": 3}, "The CPU's Orc's level rises by 1 to 3."),
    ({"type": "returned", "unit": "p1c7", "card": "orc", "owner": 1, "to": "hand"}, "The CPU's Orc returns to the CPU's hand."),
    ({"type": "destroyed", "unit": "p1c2", "card": "salamander", "owner": 1, "leader": True, "land": "L5",
      "reason": "attack"}, "The CPU's Salamander is destroyed: a leader falls."),
    ({"type": "no_attack", "player": 1}, "The CPU goes on without attacking."),
    ({"type": "battle_ended", "land": "L5", "attacker": 0, "success": True, "returned": []}, "You win the battle at L5."),
    ({"type": "refill", "player": 0}, "You refill your hand: an enemy leader fell."),
    ({"type": "capacity_restored", "land": "L3"}, "L3 has its full capacity again."),
    ({"type": "discarded", "player": 0, "cards": ["fireball"], "ids": ["p0c29"]}, "You discard Fireball."),
    ({"type": "march_ability", "unit": "p0c4", "card": "goblin-raider", "owner": 0},
     "Your Goblin Raider uses its [March] ability."),
    ({"type": "turn_ended", "player": 1, "round": 4}, "The CPU's turn ends."),
    ({"type": "judgment", "lands": [4, 3], "fronts": [[1, 2, 3, 4], [2, 3, 4]]},
     "Judgment after round 12: you hold 4 lands, the CPU holds 3."),
    ({"type": "resigned", "player": 1}, "The CPU resigns."),
    ({"type": "game_over", "winner": 0, "reason": "leaders"}, "Game over: you win (every enemy leader fell)."),
]


def documented_event_types():
    text = (ROOT / "docs" / "engine.md").read_text()
    section = text.split("## Events", 1)[1].split("happened:", 1)[1].split("Fizzle reasons", 1)[0]
    return re.findall(r"`([a-z_]+)[ `]", section)


def test_every_documented_event_type_has_words_and_a_case():
    documented = documented_event_types()
    assert len(documented) == 36
    assert set(documented) == set(gamelog.EVENT_TYPES)
    assert {event["type"] for event, _ in CASES} == set(documented)


@pytest.mark.parametrize("event, words", CASES, ids=[e["type"] for e, _ in CASES])
def test_each_event_in_plain_words(event, words):
    assert say(event) == [words]


@pytest.mark.parametrize("reason, words", [
    ("cancelled", "Fireball fizzles: it was cancelled."),
    ("source_destroyed", "Fireball fizzles: its source is gone."),
    ("negated", "Fireball fizzles: its source lost its abilities."),
    ("target_gone", "Fireball fizzles: its target is gone."),
    ("slots_gone", "Fireball fizzles: the spell slots that paid for it are gone."),
])
def test_r11_7_each_fizzle_reason(reason, words):
    assert say({"type": "fizzled", "player": 0, "kind": "spell", "card": "fireball", "reason": reason}) == [words]


def test_a_resolution_and_the_damage_it_deals_are_one_sentence():
    events = [{"type": "resolved", "player": 0, "kind": "spell", "card": "fireball"},
              {"type": "damage", "unit": "p1c2", "amount": 3, "life": 0},
              {"type": "destroyed", "unit": "p1c2", "card": "salamander", "owner": 1, "leader": False,
               "land": "L5", "reason": "effect"}]
    assert gamelog.describe(events, UNITS, NAMES, 0, POOL) == [
        "Fireball resolves: 3 damage to the CPU's Salamander.",
        "The CPU's Salamander is destroyed."]


def test_an_attack_lists_the_damage_carried_down_the_formation():
    events = [{"type": "attack", "player": 0, "power": 6, "simultaneous": False, "units": ["p0c3"]},
              {"type": "damage", "unit": "p1c2", "amount": 4, "life": 0, "carry": 2},
              {"type": "damage", "unit": "p1c7", "amount": 2, "life": 3, "carry": 0}]
    assert gamelog.describe(events, UNITS, NAMES, 0, POOL) == [
        "Your Orc attacks with power 6: 4 damage to the CPU's Salamander "
        "and 2 damage to the CPU's Orc (3 life left)."]


def test_the_other_seat_and_a_spectator_read_names_not_you():
    event = {"type": "marched", "player": 0, "units": ["p0c3"], "from": ["H0"], "to": "L1", "battle": False}
    assert say(event, viewer=1) == ["Alice's Orc marches from Alice's base to L1."]
    assert say(event, viewer=None) == ["Alice's Orc marches from Alice's base to L1."]
    assert say({"type": "drew", "player": 0, "count": 1}, viewer=1) == ["Alice draws 1 card."]


def test_initiative_puts_the_readers_roll_first_and_says_a_tie():
    event = {"type": "initiative", "rolls": {"0": {"die": 3, "speed": 0, "total": 3},
                                             "1": {"die": 1, "speed": 2, "total": 3}}, "first": None}
    assert say(event, viewer=1) == ["Initiative: you 1 + 2 = 3 against Alice 3 + 0 = 3; a tie: both parties strike at once."]


def test_a_converging_march_into_a_battle():
    event = {"type": "marched", "player": 1, "units": ["p1c2", "p1c7"], "from": ["L6", "H1"], "to": "L5",
             "battle": True}
    assert say(event) == ["The CPU's Salamander and Orc march from the CPU's base and L6 to L5 and attack."]


def test_a_failed_attack_says_where_the_survivors_go():
    event = {"type": "battle_ended", "land": "L5", "attacker": 1, "success": False,
             "returned": [{"unit": "p1c7", "land": "L6"}]}
    assert say(event) == ["The CPU's attack on L5 fails; back go Orc to L6."]


def test_a_draw_and_a_loss():
    assert say({"type": "game_over", "winner": None, "reason": "draw"}) == ["Game over: a draw."]
    assert say({"type": "game_over", "winner": 1, "reason": "judgment"}) == [
        "Game over: the CPU wins (by the round-12 judgment)."]


def test_a_players_name_keeps_its_letter_case():
    assert gamelog.describe([{"type": "resigned", "player": 0}], UNITS, ["alice", "CPU"], 1, POOL) == [
        "alice resigns."]


@pytest.mark.parametrize("seed", range(6))
def test_every_event_of_real_games_reads_as_words(seed):
    rng = random.Random(seed)
    game = Game.new(random_deck(rng, POOL), random_deck(rng, POOL), seed=seed, first=None, pool=POOL)
    players = [BaselinePlayer(seed=seed, pool=POOL), RandomPlayer(seed=seed)]
    st = game.state.static
    units = {n: (c.id, o) for n, c, o in zip(st.names, st.cards, st.owner, strict=True)}
    while game.result is None:
        p = min(game.waiting_for())
        events = game.apply(p, players[p].choose(game, p))
        for viewer in (0, 1, None):
            for line in gamelog.describe(events, units, NAMES, viewer, POOL):
                assert line and line[0].isupper() and line.endswith("."), line
                assert "(" + events[0]["type"] + ")" not in line and "None" not in line, line
                assert not re.search(r"\bp[01]c\d+\b|\bR\d+\.\d+\b", line), line


def test_two_units_of_one_card_are_told_apart_by_ordinals_counting_only_units_on_view():
    units = {"p0c3": ("goblin-raider", 0), "p0c8": ("goblin-raider", 0), "p0c20": ("goblin-raider", 0),
             "p1c2": ("salamander", 1)}
    march = {"type": "marched", "player": 0, "units": ["p0c8"], "from": ["H0"], "to": "L1", "battle": False}
    # alone on view: no ordinal; the third copy still in the deck (p0c20) is never counted
    assert gamelog.describe([march], units, NAMES, 0, POOL, public=["p0c8", "p1c2"]) == [
        "Your Goblin Raider marches from your base to L1."]
    assert gamelog.describe([march], units, NAMES, 0, POOL, public=["p0c3", "p0c8"]) == [
        "Your second Goblin Raider marches from your base to L1."]
    assert gamelog.describe([march], units, NAMES, 1, POOL, public=["p0c3", "p0c8"]) == [
        "Alice's second Goblin Raider marches from Alice's base to L1."]
    destroyed = {"type": "destroyed", "unit": "p0c3", "card": "goblin-raider", "owner": 0, "leader": False,
                 "reason": "attack"}
    assert gamelog.describe([destroyed], units, NAMES, 1, POOL, public=["p0c8"]) == [
        "Alice's first Goblin Raider is destroyed."]


def test_a_story_opponent_is_named_as_written_and_the_cpu_with_the():
    event = {"type": "summoned", "unit": "p1c2", "card": "salamander", "owner": 1, "land": "H1"}
    assert say(event) == ["The CPU summons Salamander to the CPU's base."]
    assert gamelog.describe([event], UNITS, ["Alice", "Goblin Scouts"], 0, POOL) == [
        "Goblin Scouts summons Salamander to Goblin Scouts' base."]
    assert gamelog.describe([event], UNITS, ["Alice", "The River Kappa"], 0, POOL) == [
        "The River Kappa summons Salamander to the River Kappa's base."]


@pytest.mark.parametrize("text, words", [
    ("a deck is exactly 30 cards (R2.1); this one has 29", "a deck is exactly 30 cards; this one has 29"),
    ("R8.7: no second attack here this turn", "no second attack here this turn"),
    ("You play first (R5.1, R5.7).", "You play first."),
    ("not allowed (R5.4: 1-3 monsters)", "not allowed (1-3 monsters)"),
    ("p0c3 is exhausted (R8.2)", "your Orc is exhausted"),
    ("p1c9 is not in your hand", "that card is not in your hand"),
])
def test_a_message_for_players_loses_rule_numbers_and_ids(text, words):
    assert gamelog.plain(text, lambda uid: "your Orc" if uid == "p0c3" else None) == words
    assert gamelog.rule_numbers("see R8.7 and R8.7, R13.5a") == ["R8.7", "R13.5a"]


@pytest.mark.parametrize("lang, expected", [
    ("en", "Initiative: you 5 \u2212 1 = 4 against the CPU 3 + 2 = 5; the CPU strikes first."),
    ("ja", "先攻決め：あなた 5 \u2212 1 = 4 対 CPU 3 + 2 = 5。CPUが先攻。"),
])
def test_r9_1_an_initiative_roll_with_a_negative_speed_reads_as_a_sum_never_plus_minus(lang, expected):
    event = {"type": "initiative", "rolls": {"0": {"die": 5, "speed": -1, "total": 4},
                                             "1": {"die": 3, "speed": 2, "total": 5}}, "first": 1}
    line = gamelog.describe([event], UNITS, NAMES, 0, POOL, lang=lang)
    assert line == [expected]
    assert "+-" not in line[0] and "+\u2212" not in line[0]
