"""The card economy over 30 days: packs, daily quests and crafting for a player of N games a day.

    python bench/economy.py [--days 30] [--games 1 3 10] [--win 0.5] [--players 20] [--seed 1]

A simulated player starts as a new account does (the starter collection and the welcome pack,
webapp/decks/packs.py) and plays N games a day against the CPU, winning each with probability
``--win``; every win opens a Victory pack (packs.draw_pack at the real odds). Each day three quests are
dealt as the server deals them (webapp/game/quests.py ``draw``, the pool of cards/quests/daily.toml);
each game advances them by the amounts of one of 40 seeded games' engine events (the baseline CPU
with automatic decks on both sides,
``quests.seat_facts``, ``quests.advance``), and done quests are claimed (shards, packs). The player's
deck is the one the automatic deckbuilder makes (webapp/decks/build.py) and decides its main element.

Two policies are run on the same seeds:
- ``packs``: no crafting; quest shards pile up unused;
- ``craft``: at each day's end, spare copies (beyond 3 of a card and beyond the deck's use) are
  disenchanted (webapp/decks/crafting.py DISENCHANT) and shards craft the cheapest missing cards of
  the two-element deck closest to complete (CRAFT), monsters first, two copies of a card at most; then
  the cheapest kinds not owned yet.

Printed per policy and N, averaged over ``--players``: owned kinds (of the pool), copies, shards in
hand, and **complete playable decks**: of the 15 pairs of elements, those for which the cards owned of
the two elements alone make a 30-card deck of at least 20 monsters that the deck check finds playable
with no warning (webapp/decks/check.py: every spell payable).
docs/cards.md "Crafting" keeps the table.
"""

import argparse
import os
import random
import sys
import time
from collections import Counter
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.decks import build as deckbuild, packs  # noqa: E402
from webapp.decks.check import DECK_SIZE, check_deck  # noqa: E402
from webapp.decks.crafting import CRAFT, DISENCHANT, spare  # noqa: E402
from webapp.engine import load_pool  # noqa: E402
from webapp.engine.carddefs import ELEMENTS  # noqa: E402
from webapp.ai import BaselinePlayer  # noqa: E402
from webapp.engine import Game  # noqa: E402
from webapp.game import quests, replay  # noqa: E402

KEEP = 3  # copies of a card the crafting player keeps before disenchanting the rest
SAMPLES = 40  # games whose events give a game's quest amounts


def game_samples(pool, seed):
    """[(amounts for seat 0, amounts for seat 1)] of seeded games (``quests.seat_facts``): the baseline CPU on
    both sides, each with the automatic deck of a collection of 5-10 packs."""
    out = []
    for i in range(SAMPLES):
        rng = random.Random(seed * 1000 + i)
        decks = []
        for _ in (0, 1):
            owned = Counter()
            for _ in range(rng.randint(5, 10)):
                owned.update(packs.draw_pack(pool, rng))
            decks.append([c for c, n in deckbuild.build(dict(owned), pool).items() for _ in range(n)])
        players = [BaselinePlayer(seed=i * 2 + p, pool=pool) for p in (0, 1)]
        game, actions = Game.new(decks[0], decks[1], seed=i, first=None, pool=pool), []
        while game.result is None:
            p = rng.choice(sorted(game.waiting_for()))
            action = players[p].choose(game, p)
            game.apply(p, action)
            actions.append({"seq": len(actions) + 1, "player": p, "action": action})
        # what play's game_over pays for the quests: the game replayed from its setup, its events counted
        started = time.process_time()
        setup = {"decks": decks, "seed": i, "first": None}
        events = [e for step in replay.steps(setup, actions) for e in step.events]
        out.append(tuple(quests.seat_facts(events, seat, game.result, decks[seat], pool)[0] for seat in (0, 1)))
        COUNTING.append((time.process_time() - started, len(actions)))
    return out


COUNTING = []  # (CPU seconds, actions) of counting each sample game's quests


def pair_cards(owned, pool, pair):
    return {cid: n for cid, n in owned.items() if pool[cid].element in pair}


#: A complete deck holds at least this many monsters (the automatic deckbuilder's aim, docs/decks.md).
MONSTERS = 20


def complete_pairs(owned, pool):
    """The pairs of elements whose owned cards alone make a complete deck: 30 cards of the two elements,
    playable (webapp/decks/check.py) with no warning (every spell payable), at least MONSTERS monsters."""
    done = []
    for pair in combinations(ELEMENTS, 2):
        mine = pair_cards(owned, pool, pair)
        if sum(n for c, n in mine.items() if pool[c].kind == "monster") < MONSTERS or sum(mine.values()) < DECK_SIZE:
            continue
        deck = deckbuild.build(mine, pool)
        report = check_deck(deck, pool, owned)
        if sum(deck.values()) == DECK_SIZE and report.playable and not report.messages("warning"):
            done.append(pair)
    return done


def craft_toward_a_pair(owned, shards, pool, most=40):
    """Spend shards on the cheapest missing monsters (at most two copies of a card) of the open pair of
    elements with the most monsters owned, until it is complete; (owned, shards, cards crafted)."""
    crafted = 0
    while crafted < most:
        done = set(complete_pairs(owned, pool))
        open_pairs = [pair for pair in combinations(ELEMENTS, 2) if pair not in done]
        if not open_pairs:
            break
        best = max(open_pairs, key=lambda pair: (sum(n for c, n in pair_cards(owned, pool, pair).items()
                                                     if pool[c].kind == "monster"), pair))
        card = min((c for c in pool.values() if c.element in best and c.kind == "monster" and owned.get(c.id, 0) < 2
                    and CRAFT[c.rarity] <= shards),
                   key=lambda c: (CRAFT[c.rarity], owned.get(c.id, 0), c.level or 0, c.id), default=None)
        if card is None:
            break
        shards -= CRAFT[card.rarity]
        owned[card.id] = owned.get(card.id, 0) + 1
        crafted += 1
    while crafted < most:  # then the cheapest kinds not owned yet
        card = min((c for c in pool.values() if not owned.get(c.id) and CRAFT[c.rarity] <= shards),
                   key=lambda c: (CRAFT[c.rarity], c.id), default=None)
        if card is None:
            break
        shards -= CRAFT[card.rarity]
        owned[card.id] = 1
        crafted += 1
    return owned, shards, crafted


def simulate(games_a_day, days, win, seed, policy, pool, samples):
    rng = random.Random(seed)
    owned = Counter(packs.STARTER)
    owned.update(packs.draw_pack(pool, rng))
    shards, rows, by = 0, [], Counter()
    for day in range(1, days + 1):
        deck = deckbuild.build(dict(owned), pool)
        elements = quests.main_elements([c for c, n in deck.items() for _ in range(n)], pool)
        ids = quests.draw(seed, f"day-{day}")
        pool_q = quests.pool()
        todays = [[pool_q[q], 0, False] for q in ids]
        for i, entry in enumerate(todays):  # the day's reroll: a win with an element the deck lacks
            if entry[0].element and entry[0].element not in elements:
                others = sorted(set(pool_q) - set(ids))
                todays[i] = [pool_q[random.Random(f"reroll:{seed}:{day}").choice(others)], 0, False]
                break
        for _ in range(games_a_day):
            won = rng.random() < win
            amounts = dict(rng.choice(samples)[0], win=int(won))
            if won:
                owned.update(packs.draw_pack(pool, rng))
                by["victory packs"] += 1
            for entry in todays:
                if not entry[2]:
                    entry[1] = quests.advance(entry[0], entry[1], amounts, elements)
                    if entry[1] >= entry[0].target:
                        entry[2] = True
                        shards += entry[0].shards
                        by["quest shards"] += entry[0].shards
                        for _ in range(entry[0].packs):
                            owned.update(packs.draw_pack(pool, rng))
                            by["quest packs"] += 1
        if policy == "craft":
            deck = deckbuild.build(dict(owned), pool)
            for cid, n in spare(dict(owned), deck).items():
                extra = min(n, owned[cid] - KEEP)
                if extra > 0:
                    owned[cid] -= extra
                    shards += DISENCHANT[pool[cid].rarity] * extra
                    by["disenchant shards"] += DISENCHANT[pool[cid].rarity] * extra
            owned, shards, crafted = craft_toward_a_pair(owned, shards, pool)
            by["crafted cards"] += crafted
        owned = Counter({c: n for c, n in owned.items() if n > 0})
        rows.append((sum(1 for n in owned.values() if n), sum(owned.values()), shards, len(complete_pairs(owned, pool))))
    return rows, by


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--games", type=int, nargs="+", default=[1, 3, 10])
    ap.add_argument("--win", type=float, default=0.5)
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pool = load_pool()
    t0 = time.process_time()
    samples = game_samples(pool, args.seed)
    mean = {k: sum(s[0][k] for s in samples) / len(samples) for k in ("spells", "summons", "lands")}
    print(f"pool {len(pool)} cards; a game's quest amounts from {SAMPLES} games: "
          + ", ".join(f"{k} {v:.1f}" for k, v in mean.items()))
    costs = sorted(c for c, _ in COUNTING)
    print(f"counting a finished game's quests (replay and count, {min(n for _, n in COUNTING)}-"
          f"{max(n for _, n in COUNTING)} actions): CPU median {1000 * costs[len(costs) // 2]:.1f} ms, "
          f"max {1000 * costs[-1]:.1f} ms")
    print(f"CRAFT {CRAFT}, DISENCHANT {DISENCHANT}; win rate {args.win}; {args.players} players each; "
          f"days {args.days}")
    for n in args.games:
        for policy in ("packs", "craft"):
            runs = [simulate(n, args.days, args.win, args.seed * 7919 + p, policy, pool, samples)
                    for p in range(args.players)]
            print(f"\n{n} game(s) a day, {policy}:")
            print("day  kinds  copies  shards  complete decks")
            for d in sorted({0, 4, 9, 14, 19, 29, args.days - 1} & set(range(args.days))):
                avg = [sum(r[0][d][i] for r in runs) / len(runs) for i in range(4)]
                print(f"{d + 1:>3}  {avg[0]:5.1f}  {avg[1]:6.1f}  {avg[2]:6.0f}  {avg[3]:5.2f}")
            totals = Counter()
            for _, by in runs:
                totals.update(by)
            print("  per player over the days: " + ", ".join(f"{k} {v / len(runs):.0f}" for k, v in sorted(totals.items())))
    print(f"\n{time.process_time() - t0:.0f} s of CPU")


if __name__ == "__main__":
    main()
