"""Every rule of RULES.md has at least one test naming its id, and docs/rules-coverage.md is current."""

import os

from webapp import rulescoverage


def test_every_rule_has_a_test():
    found = rulescoverage.tests_by_rule()
    ids = rulescoverage.rule_ids()
    assert len(ids) > 100
    missing = [r for r in ids if r not in found]
    assert not missing, f"rules without a test: {missing}"


def test_the_coverage_page_is_current():
    with open(os.path.join(rulescoverage.ROOT, "docs", "rules-coverage.md"), encoding="utf-8") as fh:
        assert fh.read() == rulescoverage.render(), "run: python -m webapp.rulescoverage"
