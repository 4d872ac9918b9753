"""The dependency locks (requirements/*.txt, made by scripts/lock) agree with pyproject.toml: a package
added to pyproject.toml without running scripts/lock fails here with the command to run, instead of
an ImportError somewhere else (scripts/test installs from the lock only)."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.M)


def pins(name):
    """{canonical package name: version} of a lock file."""
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    return {canonicalize_name(n): v for n, v in PIN.findall(text)}


def wanted(extra=None):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(r) for r in project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])]


def problems(requirements, locked, lock_name):
    out = []
    for req in requirements:
        version = locked.get(canonicalize_name(req.name))
        if version is None:
            out.append(f"{req.name} is in pyproject.toml but not in requirements/{lock_name}")
        elif not req.specifier.contains(version, prereleases=True):
            out.append(f"requirements/{lock_name} pins {req.name}=={version}, outside {req.specifier}")
    return out


def test_every_dependency_is_locked_within_its_range():
    found = problems(wanted(), pins("base.txt"), "base.txt") + problems(wanted("test"), pins("test.txt"), "test.txt")
    assert not found, "run scripts/lock and commit requirements/:\n" + "\n".join(found)


def test_the_test_lock_holds_the_games_packages_at_the_same_versions():
    base, test = pins("base.txt"), pins("test.txt")
    assert base, "requirements/base.txt pins nothing"
    differ = {name: (version, test.get(name)) for name, version in base.items() if test.get(name) != version}
    assert not differ, f"run scripts/lock (base.txt vs test.txt): {differ}"


def test_every_pin_carries_its_hashes():
    for name in ("base.txt", "test.txt"):
        text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
        entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
        unhashed = [e.split()[0] for e in entries if e.strip() and not e.startswith("#") and "--hash=sha256:" not in e]
        assert not unhashed, f"requirements/{name}: no hashes for {unhashed}"
