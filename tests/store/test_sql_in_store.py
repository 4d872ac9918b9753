"""All SQL lives in webapp/store/ (issue 17, docs/architecture.md): no statement text anywhere else."""

import ast
import re
from pathlib import Path

from tests import sources

ROOT = Path(__file__).resolve().parents[2]
SQL = re.compile(r"\b(SELECT\b.+\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE|ALTER\s+TABLE)\b", re.S)


def statements_outside_store():
    found = []
    for path in sources.webapp_files():
        if "store" in path.relative_to(ROOT / "webapp").parts[:1]:
            continue
        for node in sources.nodes(path):
            if isinstance(node, ast.JoinedStr):
                text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if SQL.search(text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    return found


def test_the_reader_finds_a_statement():
    assert SQL.search("SELECT 1 FROM packs WHERE user_id = ?")
    assert SQL.search("UPDATE games SET status = 'aborted'")
    assert not SQL.search("Select a deck from your collection")


def test_no_sql_outside_the_store():
    found = statements_outside_store()
    assert not found, "move these into a webapp/store/ function named for what it does:\n" + "\n".join(found)
