"""The pure modules of static/js under node's built-in test runner (tests/js/*.test.mjs), run by
pytest so they run wherever the suite runs: Debian's nodejs, which scripts/test installs; without
node this fails (the ``node`` fixture), it never skips."""

import subprocess

from webapp import ROOT


def test_the_pure_javascript_modules_pass_their_node_tests(node):
    files = sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no tests/js/*.test.mjs"
    run = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout[-2000:]
