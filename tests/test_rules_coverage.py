"""Every rule of docs/rules/RULES.md has at least one test naming its id, docs/rules-coverage.md is
current, and the repository's copy of the rules is the same as ../shared/rules/ when that is beside it."""

import os

import pytest

from webapp.tools import rulescoverage


def test_every_rule_has_a_test():
    found = rulescoverage.tests_by_rule()
    ids = rulescoverage.rule_ids()
    assert len(ids) > 100
    missing = [r for r in ids if r not in found]
    assert not missing, f"rules without a test: {missing}"


def test_the_coverage_page_is_current():
    with open(os.path.join(rulescoverage.ROOT, "docs", "rules-coverage.md"), encoding="utf-8") as fh:
        assert fh.read() == rulescoverage.render(), "run: python -m webapp.tools.rulescoverage"


RULE_FILES = ("RULES.md", "rulebook-ja.txt")
SHARED_RULES = os.path.join(os.path.dirname(rulescoverage.ROOT), "shared", "rules")


def test_the_rules_live_in_the_repository():
    """The rules the tests read are the repository's own: a clone with nothing beside it has them."""
    here = os.path.join(rulescoverage.ROOT, "docs", "rules")
    assert os.path.join(here, "RULES.md") == rulescoverage.RULES
    for name in RULE_FILES:
        with open(os.path.join(here, name), encoding="utf-8") as fh:
            assert fh.read().strip()


@pytest.mark.parametrize("name", RULE_FILES)
def test_the_repository_rules_match_the_shared_rules(name):
    """docs/rules/ holds byte-for-byte copies of ../shared/rules/ (skipped where that is absent)."""
    shared = os.path.join(SHARED_RULES, name)
    if not os.path.exists(shared):
        pytest.skip("../shared/rules is not beside the repository")
    with open(shared, "rb") as a, open(os.path.join(rulescoverage.ROOT, "docs", "rules", name), "rb") as b:
        assert b.read() == a.read(), f"docs/rules/{name} differs from ../shared/rules/{name}: copy it over"
