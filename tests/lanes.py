"""Two lanes for a test that checks a property over many examples (docs/testing.md "Lanes"): a few examples in every
run, the full count under the ``slow`` marker, so ``scripts/test --fast`` stays quick and the whole
suite (``scripts/test``, CI) still checks everything it did.

    def keeps_the_invariants(seed): ...          # the property, one example

    @lanes(fast=10, full=60)
    def test_keeps_the_invariants(examples):
        check(keeps_the_invariants, examples, seed=SEEDS)   # hypothesis draws ``examples`` seeds
"""

import pytest
from hypothesis import HealthCheck, given, settings


def lanes(fast, full):
    """Parametrize a test over ``examples``: ``fast`` in every lane, ``full`` marked slow."""
    return pytest.mark.parametrize("examples", [pytest.param(fast, id=f"{fast}"),
                                                pytest.param(full, id=f"{full}", marks=pytest.mark.slow)])


def check(prop, examples, **strategies):
    """Check ``prop`` with hypothesis on ``examples`` examples drawn from ``strategies``; no deadline
    (a random game takes as long as it takes)."""
    settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])(given(**strategies)(prop))()
