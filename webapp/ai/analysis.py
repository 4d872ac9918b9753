"""After a game: one seat's win chance at the start of every turn, its three biggest swings, and at each
what the Hard CPU would have done in that seat's place, and why.

Everything is seen from the analysed seat (`seat`), as its hint would have seen it: the chance at a
position is the average outcome of imagined lines from `Game.determinize(seat)` (never the real
hidden cards), the CPU's move at a swing is the search for that seat with the hint's reasons
(webapp/ai/reasons.py). So an analysis shows a player nothing their own view of the game did not.

`positions(setup_steps, seat)` picks the turns; `analyse(...)` runs the estimates and searches
through two functions it is given (the server hands it ones that think in the worker pool at low
priority, tests ones that think here with a fixed number of iterations) and reports its progress.
"""

from . import reasons
from .search import SearchPlayer, SearchResult, Sliced, outcome


class Estimate(Sliced):
    """A position's value for `player` as a resumable search with no move of its own: `run(seconds)`
    returns None while budget is left, then a SearchResult with `win` (and no action)."""

    def __init__(self, searcher, game, player):
        self.sp, self.game, self.player = searcher, game, player
        self.spent = 0.0
        self.it = 0
        self.total = 0.0
        self.result = None
        if game.result is not None:
            self.result = SearchResult(None, outcome(game, player), [0], 0, [], 0.0)

    def iterate(self, deadline):
        world = self.game.determinize(self.player, self.sp.rng)
        self.total += self.sp.rollout(world, self.player, world.state.active, deadline)

    def finish(self):
        self.result = SearchResult(None, self.total / self.it, [self.it], self.it, [], self.spent)
        return self.result


class Estimator(SearchPlayer):
    """The worker pool's "estimate" job: a SearchPlayer whose `begin` values the position instead."""

    name = "estimate"

    def begin(self, game, player):
        return Estimate(self, game, player)


def positions(steps, seat):
    """[(index, round, active, game copy, the seat's first action of that turn or None)]: the position
    at the start of every main step (a new active player or round), and the final one. `steps` are
    webapp.game.replay.steps' Steps."""
    out = []
    last = None
    for st in steps:
        g = st.game
        s = g.state
        if out and st.player == seat and out[-1][4] is None and out[-1][2] == seat:
            out[-1] = (*out[-1][:4], st.action)
        key = (s.round, s.active)
        if g.result is None and s.phase == "main" and key != last:
            last = key
            out.append((len(out), s.round, s.active, g.copy(), None))
        if g.result is not None:
            out.append((len(out), s.round, s.active, g.copy(), None))
            break
    return out


#: the least change of the win chance a swing is marked for (5 points): a smaller one is the
#: estimate's own noise, not a turn that mattered
MIN_SWING = 0.05


def marked(change):
    """Whether a change of the win chance is big enough to mark as a swing."""
    return abs(change) >= MIN_SWING


def swings(series, most=3):
    """The `most` biggest changes of the win chance between neighbouring points that are worth marking
    (`marked`): [(index, change)], the index of the point after the change, biggest first."""
    changes = [(i, series[i] - series[i - 1]) for i in range(1, len(series))
               if series[i] is not None and series[i - 1] is not None]
    changes = [(i, c) for i, c in changes if marked(c)]
    changes.sort(key=lambda t: (-abs(t[1]), t[0]))
    return changes[:most]


def analyse(steps, seat, estimate, suggest, progress=None):
    """The analysis of a finished game for `seat`: {"turns": [{"round", "active", "win"}], "swings":
    [{"turn", "change", "round", "active", "played", "cpu": {"action", "win", "why"}}]}.
    `estimate(game, seat)` gives a position's win chance (or None), `suggest(game, seat)` the
    CPU's {action, win, why} for a position where the seat is to move (or None); `progress(done,
    total)` is told after each step."""
    points = positions(steps, seat)
    total = len(points) + 3
    series = []
    for n, (_i, _round, _active, game, _played) in enumerate(points):
        series.append(estimate(game, seat))
        if progress is not None:
            progress(n + 1, total)
    turns = [{"round": r, "active": a, "win": w} for (_i, r, a, _g, _p), w in zip(points, series, strict=True)]
    out = []
    for k, (i, change) in enumerate(swings(series)):
        # the seat's own decision at or before the turn the swing happened in
        j = next((j for j in range(i - 1, -1, -1) if points[j][2] == seat and points[j][3].result is None
                  and seat in points[j][3].waiting_for()), None)
        cpu = suggest(points[j][3], seat) if j is not None else None
        out.append({"turn": i, "change": change, "round": points[i - 1][1], "active": points[i - 1][2],
                    "decision": j, "played": points[j][4] if j is not None else None, "cpu": cpu})
        if progress is not None:
            progress(len(points) + k + 1, total)
    if progress is not None:
        progress(total, total)
    return {"seat": seat, "turns": turns, "swings": out}


def local_estimate(iterations=40, seed=1):
    """An `estimate` that thinks here with a fixed number of imagined lines (tests, benches)."""
    def estimate(game, seat):
        e = Estimator(seed=seed, iterations=iterations).begin(game, seat)
        return e.run().win
    return estimate


def local_suggest(iterations=60, seed=1):
    """A `suggest` that searches here with a fixed number of iterations (tests, benches)."""
    def suggest(game, seat):
        r = SearchPlayer(seed=seed, iterations=iterations).search(game, seat)
        return {"action": r.action, "win": r.win, "why": reasons.explain(game.view(seat), seat, r)}
    return suggest
