"""The log text of seeded games in English and Japanese, for every reader and several seat names: a
characterization record for changes to the narrator (docs/decisions/0136-one-narrator-one-vocabulary.md).

    .venv/bin/python tests/play/gamelog_record.py /tmp/before   # writes /tmp/before-en.txt and -ja.txt

It prints each language's line count and SHA-256; run it before and after a change and compare."""

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game
from webapp.ai import PLAYERS
from webapp.game import gamelog, hintwords, seatstate
from tests.play.test_gamelog import CASES, UNITS

POOL = load_pool()
NAMES = (["Alice", "CPU"], ["The River Kappa", "Goblin Scouts"], ["alice", "bob"], ["太郎", "CPU"])
out = {"en": [], "ja": []}

def write(events, instances, public):
    for lang in ("en", "ja"):
        for names in NAMES:
            for reader in (0, 1, None):
                out[lang].extend(gamelog.describe(events, instances, names, reader, POOL, public, lang=lang))

for seed in range(12):
    game, rng = random_game(seed, POOL)
    steps = 0
    while game.result is None and steps < 400:
        events = game.apply(*random_action(game, rng))
        write(events, seatstate.instances(game), seatstate.public_units(game))
        steps += 1
for seed in (1, 7, 42, 99, 123, 2024):
    game, _ = random_game(seed, POOL)
    players = [PLAYERS["baseline"](seed=seed + p, pool=POOL) for p in (0, 1)]
    while game.result is None:
        player = sorted(game.waiting_for())[0]
        events = game.apply(player, players[player].choose(game, player))
        write(events, seatstate.instances(game), seatstate.public_units(game))
# every documented case, and variations
events = [e for e, _ in CASES]
write(events, UNITS, ())
extra = [
    {"type": "unknown_thing"},
    {"type": "taken_back", "player": 0}, {"type": "taken_back", "player": 1},
    {"type": "drew", "player": 0, "count": 1}, {"type": "drew", "player": 1, "count": 1},
    {"type": "quick_summoned", "player": 0, "units": []}, {"type": "quick_summoned", "player": 1, "units": []},
    {"type": "initiative", "rolls": {"0": {"die": 5, "speed": -1, "total": 4}, "1": {"die": 4, "speed": 0, "total": 4}}, "first": None},
    {"type": "declared", "player": 1, "kind": "attack", "units": ["p1c2", "p1c7"], "targets": ["p0c3"], "coin": "heads"},
    {"type": "declared", "player": 1, "kind": "ability", "unit": "p1c2", "card": "salamander", "coin": "tails"},
    {"type": "declared", "player": 0, "kind": "ability", "unit": "p0c3", "card": "orc"},
    {"type": "declared", "player": 0, "kind": "spell", "card": "fireball"},
    {"type": "resolved", "player": 0, "kind": "attack"}, {"type": "resolved", "player": 1, "kind": "ability", "card": "orc"},
    {"type": "damage", "unit": "p1c2", "amount": 3, "life": 0, "carry": 0},
    {"type": "resolved", "player": 1, "kind": "spell", "card": "fireball"},
    {"type": "damage", "unit": "p0c3", "amount": 3, "life": 0, "carry": 0},
    {"type": "damage", "unit": "p0c4", "amount": 1, "life": 2, "carry": 0},
    {"type": "attack", "player": 0, "power": 3, "simultaneous": True, "units": ["p0c3"]},
    {"type": "damage", "unit": "p1c2", "amount": 3, "life": 0, "carry": 0},
    {"type": "attack", "player": 1, "power": 3, "simultaneous": True, "units": []},
    {"type": "fizzled", "player": 1, "kind": "ability", "card": "orc", "reason": "weird_reason"},
    {"type": "fizzled", "player": 1, "kind": "attack", "reason": "cancelled"},
    {"type": "fizzled", "player": 1, "kind": "spell", "card": "fireball", "reason": "source_destroyed"},
    {"type": "fizzled", "player": 1, "kind": "spell", "card": "fireball", "reason": "negated"},
    {"type": "fizzled", "player": 1, "kind": "spell", "card": "fireball", "reason": "slots_gone"},
    {"type": "fizzled", "player": 1, "kind": "spell", "card": "fireball", "reason": "cancelled"},
    {"type": "boosted", "unit": "p1c2", "power": 0, "life": 0, "speed": 0},
    {"type": "boosted", "unit": "p1c2", "power": -1, "life": 2, "speed": 3},
    {"type": "slots_granted", "unit": "p1c2", "slots": {"wild": 1, "water": 1, "dark": 3}},
    {"type": "slots_granted", "unit": "p1c2", "slots": {"fire": 1}},
    {"type": "tribe_changed", "unit": "p0c3", "tribe": None}, {"type": "tribe_changed", "unit": "p0c3", "tribe": "Dragon"},
    {"type": "tribe_changed", "unit": "p0c3", "tribe": "Undead"},
    {"type": "level_changed", "unit": "p1c7", "by": -2, "level": 1},
    {"type": "returned", "unit": "p0c3", "card": "orc", "owner": 0, "to": "discard"},
    {"type": "returned", "unit": "p0c3", "card": "orc", "owner": 0, "to": "hand"},
    {"type": "destroyed", "unit": "p0c3", "card": "orc", "owner": 0, "reason": "sacrifice"},
    {"type": "destroyed", "unit": "p0c3", "card": "orc", "owner": 0, "reason": "over_capacity"},
    {"type": "destroyed", "unit": "p0c3", "card": "orc", "owner": 0, "reason": "weird"},
    {"type": "battle_ended", "land": "H1", "attacker": 0, "success": False,
     "returned": [{"unit": "p0c3", "land": "H0"}, {"unit": "p0c4", "land": "L2"}]},
    {"type": "battle_ended", "land": "L2", "attacker": 1, "success": False, "returned": []},
    {"type": "battle_ended", "land": "H0", "attacker": 1, "success": True, "returned": []},
    {"type": "refill", "player": 1}, {"type": "no_attack", "player": 0}, {"type": "passed", "player": 0},
    {"type": "resigned", "player": 0}, {"type": "leaders_chosen", "player": 0},
    {"type": "judgment", "lands": [1, 1], "fronts": []}, {"type": "judgment", "lands": [0, 5], "fronts": []},
    {"type": "turn_ended", "player": 0, "round": 4},
    {"type": "land_taken", "player": 0, "land": "H1"},
    {"type": "capacity_restored", "land": "H0"},
    {"type": "marched", "player": 1, "units": ["p1c2", "p1c7"], "from": ["L5", "L6"], "to": "H0", "battle": True},
    {"type": "marched", "player": 1, "units": ["p1c2"], "from": ["L5", "L6", "H1"], "to": "L3", "battle": True},
    {"type": "battle_started", "land": "H0", "attacker": 1, "parties": {"0": [], "1": ["p1c2"]}},
    {"type": "leaders_revealed", "leaders": {"0": [], "1": ["p1c2", "p1c7"]}},
    {"type": "discarded", "player": 1, "cards": ["orc", "fireball", "salamander"]},
    {"type": "discarded", "player": 1, "cards": ["nosuchcard"], "ids": [None]},
    {"type": "formation", "player": 1, "order": ["p1c2", "p1c7", "p1c9"]},
    {"type": "triggered", "unit": "p1c2", "card": "salamander", "owner": 1, "timing": "strikes_second"},
    {"type": "triggered", "unit": "p1c2", "card": "salamander", "owner": 1, "timing": "on_destroy"},
    {"type": "triggered", "unit": "p1c2", "card": "salamander", "owner": 1, "timing": "some_timing"},
    {"type": "summoned", "unit": "p1c9", "card": None, "owner": 1, "land": "L1"},
] + [{"type": "game_over", "winner": w, "reason": r} for w in (0, 1, None)
     for r in ("leaders", "judgment", "draw", "resign", "timeout", "disconnect", "puzzle", "host", None, "odd")]
write(extra, UNITS, ())
twins = {"p0c3": ("orc", 0), "p0c4": ("orc", 0), "p0c5": ("orc", 0), "p1c7": ("orc", 1), "p1c8": ("orc", 1)}
write([{"type": "summoned", "unit": "p0c5", "card": "orc", "owner": 0, "land": "L1"},
       {"type": "battle_ended", "land": "H1", "attacker": 0, "success": False, "returned": [{"unit": "p0c4", "land": "H0"}]},
       {"type": "quick_summoned", "player": 0, "units": ["p0c4", "p0c5"], "cards": ["orc", "orc"]},
       {"type": "damage", "unit": "p1c8", "amount": 1, "life": 1}], twins, ["p0c3", "p0c4", "p1c7", "p1c8"])
# the hint's words (webapp/game/hintwords.py) for every kind of move and fact
hints = []
game, _ = random_game(3, POOL)
st = game.state.static
mine = [st.names[i] for i in range(len(st.names)) if st.owner[i] == 0][:4]
cards = [c.id for c in POOL.values()][:3]
moves = [{"type": "summon", "card": mine[0]}, {"type": "march", "units": mine[:2], "to": "H1"},
         {"type": "march", "units": mine[:3], "to": "L3"}, {"type": "march_ability", "unit": mine[0]},
         {"type": "discard", "cards": mine[:1]}, {"type": "end_turn"}, {"type": "choose_leaders", "cards": mine[:3]},
         {"type": "quick_summon", "cards": []}, {"type": "formation", "order": mine[:2]},
         {"type": "ability", "unit": mine[0]}, {"type": "ability", "unit": mine[0], "targets": mine[1:3]},
         {"type": "spell", "card": mine[1]}, {"type": "spell", "card": mine[1], "targets": mine[2:3]},
         {"type": "attack"}, {"type": "pass"}, {"type": "destroy_over_capacity", "units": mine[:2]}, {"type": "resign"}]
facts = [("attack", {"land": "H1", "power": 3, "their_life": 5}), ("takes", {"land": "L2", "mine": 3, "theirs": 2}),
         ("leader_exposed", {"card": cards[0], "land": "L4", "power": 9, "life": 4, "last": True}),
         ("leader_exposed", {"card": cards[1], "land": "H0", "power": 2, "life": 1}), ("base_open", {"power": 4}),
         ("summon", {"card": cards[2]}), ("holds", {"life": 5, "power": 3}), ("leader_falls", {"this": 10, "other": 50}),
         ("losses", {"this": 20, "other": 30}), ("land_lead", {"this": 1.5, "other": 0.5}), ("nothing", {})]
for i, m in enumerate(moves):
    why = {"facts": facts[i % 5: i % 5 + 3], "risks": facts[(i + 2) % 11:(i + 2) % 11 + 1]}
    if i % 3 == 0:
        why.update(runner_up=moves[(i + 1) % len(moves)], against=facts[i % 10: i % 10 + 2], runner_up_win=0.4)
    elif i % 3 == 1:
        why.update(runner_up=moves[(i + 1) % len(moves)], runner_up_win=0.25 if i % 2 else None)
    hints.append((game, 0, {"action": m, "win": None if i % 4 == 0 else 0.55, "why": why}))
for lang in ("en", "ja"):
    out[lang].extend(repr(hintwords.words(game, p, hint, lang)) for game, p, hint in hints)
for lang in ("en", "ja"):
    text = "\n".join(out[lang])
    Path(f"{sys.argv[1]}-{lang}.txt").write_text(text, encoding="utf-8")
    print(lang, len(out[lang]), hashlib.sha256(text.encode()).hexdigest())
