"""The project's Python sources, each read and parsed once per test process.

Several tests read the code rather than run it (the import directions, SQL only in the store, the one
config list, the one rate limiter, the one clock). Each parsed every module of webapp/ again, about a
second of CPU apiece; they share the trees here. The trees are read-only: a test never changes one.
"""

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEBAPP = ROOT / "webapp"


@functools.cache
def webapp_files():
    """Every .py file under webapp/, sorted."""
    return tuple(sorted(WEBAPP.rglob("*.py")))


@functools.cache
def tree(path):
    """The module at ``path`` parsed (``path`` a Path under the repository)."""
    return ast.parse(Path(path).read_text(encoding="utf-8"), str(path))


@functools.cache
def nodes(path):
    """Every node of ``tree(path)``, in ``ast.walk``'s order."""
    return tuple(ast.walk(tree(path)))
