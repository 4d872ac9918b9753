"""The searching CPU ("hard"): determinized Monte Carlo search with UCB1 at the root.

Fair with hidden information by construction: the only ways it looks at the game are
`legal_actions(p)` and `view(p)` of its own seat and `Game.determinize(p, rng)`, which fills what
the seat cannot see (the opponent's hand and deck, both piles' order, the RNG) with guesses
consistent with what it saw. Each iteration draws a new imagined world, tries one candidate
action in it (chosen by UCB1 over the candidates' average results so far), plays on with the
baseline CPU for both sides to the end of the next two turns (or the end of the game), and scores
the outcome: 1 won, 0 lost, ½ a draw, otherwise a logistic of a board evaluation. The most tried
candidate is played. Candidate actions are capped: the baseline's own choice is always among
them, with the other kinds of move, and a sample of the rest ranked by the baseline's scoring.
"""

import math
import random
import time

from webapp.engine import DISTANCE, choices, load_pool

from .baseline import BaselinePlayer

MARCH_SAMPLE = 200  # marches scored for the candidate list at most
DEFAULT_BUDGET = 0.5  # seconds per decision (the host's CPU_HARD_SECONDS overrides it)


class SearchResult:
    """What a search found: the action, its estimated win chance, the candidates' statistics."""

    __slots__ = ("action", "candidates", "elapsed", "iterations", "stats", "visits", "win")

    def __init__(self, action, win, visits, iterations, candidates, elapsed):
        self.action, self.win, self.visits = action, win, visits
        self.iterations, self.candidates, self.elapsed = iterations, candidates, elapsed
        self.stats = None  # per candidate: visits, win, lost, leader_fell, lead (Search.finish)


class SearchPlayer:
    name = "hard"

    def __init__(self, seed=None, pool=None, budget=DEFAULT_BUDGET, iterations=None, max_candidates=10,
                 horizon_turns=2, max_rollout_actions=120, explore=0.7, clock=time.perf_counter):
        self.rng = random.Random(seed)
        # What the budget is measured on: wall time for a game (the player waits on it); a bench may
        # pass time.thread_time to give the search the same work on a busy machine as on a quiet one.
        self.clock = clock
        self.pool = pool or load_pool()
        self.budget = budget
        self.iterations = iterations  # a fixed count instead of the time budget (tests: deterministic)
        self.max_candidates = max_candidates
        self.horizon_turns = horizon_turns
        self.max_rollout_actions = max_rollout_actions
        self.explore = explore
        self.baseline = BaselinePlayer(seed=self.rng.getrandbits(32), pool=self.pool)
        self.last = None  # the last SearchResult

    def choose(self, game, player):
        return self.search(game, player).action

    # ------------------------------------------------------------ the search

    def search(self, game, player):
        """The whole search at once: `begin`, then `Search.run` until the budget is spent."""
        s = self.begin(game, player)
        while s.run() is None:
            pass
        return s.result

    def begin(self, game, player):
        """A search that can be run in slices (`Search.run(seconds)`), each slice counted against the
        budget: the worker pool takes turns between games with it."""
        return Search(self, game, player)

    def rollout_stats(self, world, player, leaders_before):
        """What one imagined line showed for `player`: (lost, a leader fell, land lead) at its end."""
        s = world.state
        r = world.result
        lost = r is not None and r.get("winner") not in (None, player)
        mine = sum(1 for u in s.leaders if s.static.owner[u] == player)
        lead = sum(1 for o in s.owners if o == player) - sum(1 for o in s.owners if o == 1 - player)
        return lost, mine < leaders_before, lead

    def pick(self, visits, totals, it):
        for i, v in enumerate(visits):
            if v == 0:
                return i
        log = math.log(it)
        return max(range(len(visits)),
                   key=lambda i: totals[i] / visits[i] + self.explore * math.sqrt(log / visits[i]))

    def rollout(self, world, player, active, deadline=None, turns=None):
        """Play on with the baseline for both sides; the outcome for `player` (`outcome`). Stops at the
        horizon (`turns` turn changes, `horizon_turns` if None, counted from the turn `active` was
        playing at the root, so ending the turn gets no extra turn), after `max_rollout_actions`, or at
        `deadline` (a time of ``self.clock``) if given."""
        horizon = self.horizon_turns if turns is None else turns
        passed = 0
        steps = 0
        if world.state.active != active:
            active = world.state.active
            passed += 1
        bl = self.baseline
        while world.result is None and steps < self.max_rollout_actions:
            if deadline is not None and self.clock() > deadline:
                break
            p = mover(world)
            # the baseline's choice (from the view's parts it reads): an entry as listed, or filled
            world.apply_listed(p, bl.choose(world, p, glance=True))
            steps += 1
            if world.state.active != active:
                active = world.state.active
                passed += 1
                if passed >= horizon:
                    break
        return outcome(world, player)

    # ------------------------------------------------------------ candidates

    def candidates(self, game, player, legal):
        """At most `max_candidates` distinct actions worth trying, the baseline's choice first."""
        cap = self.max_candidates
        first = self.baseline.choose(game, player)
        out = [first]
        seen = {key(first)}

        def add(a):
            k = key(a)
            if k not in seen and len(out) < cap:
                seen.add(k)
                out.append(a)

        view = game.view(player)
        # compact entries (docs/engine.md): marches as the baseline's sets plus random ones, quick
        # summons and formations as a few samples of their choices
        units = {u["id"]: u for u in view["units"]}
        flat = []
        for a in legal:
            if a["type"] == "march" and choices.is_compact(a):
                flat += self.baseline.march_sets(a, units)
                flat += [choices.fill(a, p) for p in choices.samples(a, self.rng, extra=3)[len(a["from"]):]]
            elif choices.is_compact(a):
                flat += [choices.fill(a, p) for p in choices.samples(a, self.rng, extra=3)]
            else:
                flat.append(a)
        legal = flat
        kinds = {}
        for a in legal:
            kinds.setdefault(a["type"], []).append(a)
        # always worth a look: ending the turn, passing, attacking, every summon, [March] ability and
        # declaration (spells, abilities)
        for t in ("end_turn", "attack", "pass"):
            for a in kinds.get(t, []):
                add(a)
        for t in ("summon", "march_ability", "spell", "ability"):
            for a in kinds.get(t, [])[:4]:
                add(a)
        marches = kinds.get("march", [])
        if len(marches) > MARCH_SAMPLE:  # at most a few per unit and destination; be safe all the same
            marches = self.rng.sample(marches, MARCH_SAMPLE)
        if marches:
            ranked = self.rank_marches(view, marches, player)
            for a in ranked[: max(2, (cap - len(out)) // 2 + 1)]:
                add(a)
        rest = [a for a in legal if key(a) not in seen and a["type"] != "discard"]
        if kinds.get("choose_leaders"):
            rest = sorted(rest, key=lambda a: -self.leader_score(view, a, player))
        else:
            self.rng.shuffle(rest)
        for a in rest:
            add(a)
        return out

    def rank_marches(self, view, marches, player):
        units = {u["id"]: u for u in view["units"]}
        bl = self.baseline
        bl.read_board(view, player)
        scored = [(bl.march_score(view, a, units, view["lands"], player, 1 - player), i, a)
                  for i, a in enumerate(marches)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [a for _s, _i, a in scored]

    def leader_score(self, view, a, player):
        hand = {h["id"]: h["card"] for h in view["players"][player]["hand"]}
        cards = [hand[c] for c in a["cards"]]
        level = sum(self.pool[c].level for c in cards)
        return sum(self.baseline.worth(c) for c in cards) + (3 if len(cards) >= 2 else 0) - 1.5 * max(0, level - 3)


class Sliced:
    """A resumable search of the CPU player ``self.sp``: ``run(seconds)`` does a slice of the budget (or of
    a fixed number of iterations) and returns None while some is left, the SearchResult once done.
    Subclasses give ``iterate(deadline)`` (one imagined line) and ``finish()`` (the result), and set
    ``it``, ``spent`` and ``result``."""

    def run(self, seconds=None):
        """Search for `seconds` more of the budget (all that is left if None); the result when done."""
        if self.result is not None:
            return self.result
        sp = self.sp
        begun = sp.clock()
        left = (sp.budget or 0) - self.spent
        deadline = begun + (left if seconds is None else min(left, seconds))
        done = False
        while True:
            if sp.iterations is not None:
                if self.it >= sp.iterations:
                    done = True
                    break
                if seconds is not None and self.it and sp.clock() >= deadline:
                    break
            elif self.it and sp.clock() >= deadline:  # out of time: the baseline's choice if untried
                done = sp.clock() - begun + self.spent >= (sp.budget or 0)
                break
            self.it += 1
            self.iterate(None if sp.iterations is not None else begun + left)
        self.spent += sp.clock() - begun
        if not done:
            return None
        return self.finish()


class Search(Sliced):
    """One decision's search, resumable: `run(seconds)` does a slice (None while budget is left, the
    SearchResult once done). Besides each candidate's visits and total value it counts, over the
    imagined lines after it, how often the seat lost, how often one of its leaders fell, and its
    average land lead at the line's end (what the hint's reasons are made of, webapp/ai/reasons.py)."""

    def __init__(self, player_obj, game, player):
        sp = self.sp = player_obj
        self.game, self.player = game, player
        self.start = sp.clock()
        self.spent = 0.0
        self.result = None
        legal = [a for a in game.legal_actions(player) if a["type"] != "resign"]
        if len(legal) == 1 and not choices.is_compact(legal[0]):
            self.result = sp.last = SearchResult(legal[0], None, [0], 0, [legal[0]], 0.0)
            return
        self.cands = sp.candidates(game, player, legal)
        n = len(self.cands)
        self.visits, self.totals = [0] * n, [0.0] * n
        self.losses, self.leader_falls, self.leads = [0] * n, [0] * n, [0.0] * n
        self.root_active = game.state.active  # public: whose turn it is (the horizon counts from it)
        self.leaders_before = sum(1 for u in game.view(player)["units"] if u["owner"] == player and u["leader"])
        self.it = 0
        self.spent = sp.clock() - self.start

    def iterate(self, deadline):
        sp, player = self.sp, self.player
        k = sp.pick(self.visits, self.totals, self.it)
        world = self.game.determinize(player, sp.rng)
        action = self.cands[k]
        if not world.is_legal(player, action):  # cannot happen for the seat's own moves; be safe
            self.visits[k] += 1
            return
        world.apply_listed(player, action)  # just checked
        value = sp.rollout(world, player, self.root_active, deadline)
        lost, fell, lead = sp.rollout_stats(world, player, self.leaders_before)
        self.visits[k] += 1
        self.totals[k] += value
        self.losses[k] += lost
        self.leader_falls[k] += fell
        self.leads[k] += lead

    def finish(self):
        visits, totals = self.visits, self.totals
        best = ranked(visits, totals)[0]
        win = totals[best] / visits[best] if visits[best] else None
        self.result = self.sp.last = SearchResult(self.cands[best], win, visits, self.it, self.cands, self.spent)
        self.result.stats = [
            {"visits": v, "win": (t / v if v else None), "lost": (lo / v if v else None),
             "leader_fell": (f / v if v else None), "lead": (ld / v if v else None)}
            for v, t, lo, f, ld in zip(visits, totals, self.losses, self.leader_falls, self.leads, strict=True)]
        return self.result


def ranked(visits, totals):
    """Candidates' indexes, the most tried first, then the best average, then the list's order: the
    first is the move a search plays."""
    return sorted(range(len(visits)), key=lambda i: (-visits[i], -(totals[i] / visits[i] if visits[i] else 0), i))


def mover(world):
    """Who acts next in an imagined line: the seat waited for, or the lower of two in a simultaneous step."""
    waiting = world.waiting_for()
    return min(waiting) if len(waiting) > 1 else next(iter(waiting))


def key(action):
    """A hashable form of an action (for telling candidates apart)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


def outcome(world, player):
    """The rollout's value for `player` in [0, 1]: the result, or a logistic of `evaluate`."""
    r = world.result
    if r is not None:
        w = r.get("winner")
        return 0.5 if w is None else (1.0 if w == player else 0.0)
    mine, theirs = evaluate(world, player)
    return 1.0 / (1.0 + math.exp(-(mine - theirs) / (0.15 * (mine + theirs) + 3.0)))


def evaluate(world, player):
    """Board scores (`player`'s, the opponent's) from the imagined world: its units' strength
    (leaders count double, and a side with one leader left is in danger), lands held (more and more
    as the round-12 judgment nears, R16.1) and how near they are to the enemy base, cards in hand."""
    s = world.state
    cards, owner = s.static.cards, s.static.owner
    score = [0.0, 0.0]
    leaders = [0, 0]
    land_weight = 2.0 + 0.5 * s.round  # the nearer the round-12 judgment, the more lands count (R16.1)
    for u in s.land:
        c = cards[u]
        q = owner[u]
        worth = 1.0 + 0.5 * max(c.power, 0) + 0.35 * c.life + 0.15 * c.speed
        if u in s.leaders:
            leaders[q] += 1
            worth *= 2.0
        score[q] += worth
    for q in (0, 1):
        if leaders[q] == 1:
            score[q] -= 4.0
        lands = [land for land, o in enumerate(s.owners) if o == q]
        score[q] += land_weight * len(lands) + 0.3 * sum(4 - DISTANCE[q][land] for land in lands if DISTANCE[q][land] is not None)
        score[q] += 0.4 * len(s.hand[q])
    return max(score[player], 0.0), max(score[1 - player], 0.0)
