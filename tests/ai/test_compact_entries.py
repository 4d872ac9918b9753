"""Every CPU answers a real action (never a compact entry) where the legal list is compact: a crowded
board's marches, and an over-capacity choice that is the only entry besides resign."""

import pytest

from tests.property.test_compact_choices import crowded, over_capacity
from webapp.ai import PLAYERS, workers
from webapp.ai.search import SearchPlayer
from webapp.engine import choices, load_pool

POOL = load_pool()


def players():
    out = {name: cls(seed=3) for name, cls in PLAYERS.items() if name not in ("hard",)}
    out["hard"] = SearchPlayer(seed=3, pool=POOL, iterations=6)
    return out


@pytest.mark.parametrize("position", [crowded, over_capacity])
def test_each_cpu_answers_an_action_the_engine_accepts(position):
    for name, player in players().items():
        g = position()
        a = player.choose(g, 0)
        assert not choices.is_compact(a) and a["type"] != "resign", (name, a)
        assert g.is_legal(0, a), (name, a)


def test_the_baseline_converges_and_leaves_the_weakest_behind():
    g = crowded()
    a = PLAYERS["baseline"](seed=1).choose(g, 0)
    assert g.is_legal(0, a)
    g = over_capacity()
    a = PLAYERS["baseline"](seed=1).choose(g, 0)
    assert a["type"] == "destroy_over_capacity" and g.is_legal(0, a)
    assert sum(g.state.static.levels[g.state.static.index[u]] for u in a["units"]) >= 4


def test_think_never_passes_a_compact_entry_on():
    """workers.think's shortcut for a single legal entry skips compact ones: the hard CPU thinks."""
    g = over_capacity()
    legal = [a for a in g.legal_actions(0) if a["type"] != "resign"]
    assert len(legal) == 1 and choices.is_compact(legal[0])
    t = workers.think(g, 0, "hard", seed=1, seconds=0.2)
    assert g.is_legal(0, t.action)
