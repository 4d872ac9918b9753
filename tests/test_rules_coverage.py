"""Every rule of docs/rules/RULES.md has at least one test naming its id, docs/rules-coverage.md is
current, and the repository's copy of the rules is the same as ../shared/rules/ when that is beside it."""

import functools
import hashlib
import os

import pytest

from webapp.tools import rulescoverage


@functools.cache
def rule_tests():
    """Every test file parsed once for both tests below (about 2 s of CPU)."""
    return rulescoverage.tests_by_rule()


def test_every_rule_has_a_test():
    found = rule_tests()
    ids = rulescoverage.rule_ids()
    assert len(ids) > 100
    missing = [r for r in ids if r not in found]
    assert not missing, f"rules without a test: {missing}"


def test_the_coverage_page_is_current():
    with open(os.path.join(rulescoverage.ROOT, "docs", "rules-coverage.md"), encoding="utf-8") as fh:
        assert fh.read() == rulescoverage.render(rule_tests()), "run: python -m webapp.tools.rulescoverage"


RULE_FILES = ("RULES.md", "rulebook-ja.txt")
SHARED_RULES = os.path.join(os.path.dirname(rulescoverage.ROOT), "shared", "rules")


def test_the_rules_live_in_the_repository():
    """The rules the tests read are the repository's own: a clone with nothing beside it has them."""
    here = os.path.join(rulescoverage.ROOT, "docs", "rules")
    assert os.path.join(here, "RULES.md") == rulescoverage.RULES
    for name in RULE_FILES:
        with open(os.path.join(here, name), encoding="utf-8") as fh:
            assert fh.read().strip()


def recorded_sums():
    """{file: sha256} of docs/rules/SHA256SUMS: the sums of the shared revision the copies were made from
    (``cd docs/rules && sha256sum RULES.md rulebook-ja.txt > SHA256SUMS`` after copying them over)."""
    with open(os.path.join(rulescoverage.ROOT, "docs", "rules", "SHA256SUMS"), encoding="utf-8") as fh:
        return {name: digest for digest, name in (line.split() for line in fh if line.strip())}


def sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


@pytest.mark.parametrize("name", RULE_FILES)
def test_the_repository_rules_match_the_shared_rules(name):
    """docs/rules/ holds byte-for-byte copies of ../shared/rules/: each copy has the sum recorded when it
    was copied (a clone with nothing beside it checks that much: no copy was edited by hand), and where
    ../shared is beside the repository, the shared file has that sum too (the copy is its revision)."""
    recorded = recorded_sums()[name]
    assert sha256(os.path.join(rulescoverage.ROOT, "docs", "rules", name)) == recorded, \
        f"docs/rules/{name} is not the copy its sum in docs/rules/SHA256SUMS records: copy it over from ../shared"
    shared = os.path.join(SHARED_RULES, name)
    if os.path.exists(shared):
        assert sha256(shared) == recorded, \
            f"../shared/rules/{name} has moved on: copy it to docs/rules/ and record its sum in docs/rules/SHA256SUMS"
