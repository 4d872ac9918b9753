"""The docs' links lead somewhere: every relative link in README.md and docs/**/*.md names a file that
exists (and, with an anchor into a Markdown file, a heading there); every numbered decision record is in
the index of docs/decisions/README.md; and a reference such as ``docs/protocol.md "Updates"`` in code,
templates or docs names a heading of that file, or a bold lead or paragraph opening with those words
(docs/contributing.md "Docs")."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
#: Where a quoted reference to a doc and one of its parts may stand.
SOURCES = ("webapp", "tests", "bench", "scripts", "static/js", "static/css", "templates", "docs")
SOURCE_SUFFIXES = {".py", ".js", ".css", ".html", ".md", ".toml", ""}

LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
QUOTED = re.compile(r"\b(docs/[\w/.-]+\.md),? \(?\"([^\"\n]{2,120})\"")


def prose(text):
    """The text with fenced blocks and code spans blanked out (a link inside code is no link)."""
    text = FENCE.sub("", text)
    return CODE.sub(lambda m: "x" * len(m.group(0)), text)


def headings(path):
    return HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its words
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for heading in headings(path):
        base = slug(heading)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out


def links(page):
    text = prose(page.read_text(encoding="utf-8"))
    for pattern in (LINK, IMAGE):
        for match in pattern.finditer(text):
            target = match.group(1).strip("<>")
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            yield target


def broken(page, target):
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    if not dest.exists():
        return f"{target}: no such file"
    if anchor and dest.suffix == ".md" and anchor.lower() not in anchors(dest):
        return f"{target}: no heading #{anchor} in {dest.name}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_its_heading(page):
    problems = [problem for target in links(page) if (problem := broken(page, target))]
    assert not problems, f"{page.relative_to(ROOT)}: " + "; ".join(problems)


def test_the_checker_finds_a_broken_link_and_a_missing_heading(tmp_path):
    (tmp_path / "there.md").write_text("# A page\n\n## Load runs (`bench`)\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](there.md#load-runs-bench) [gone](missing.md) `[code](nowhere.md)`\n"
                    "[bad anchor](there.md#nothing) [web](https://example.org/x)\n", encoding="utf-8")
    found = [broken(page, t) for t in links(page)]
    assert found[0] is None
    assert [bool(x) for x in found] == [False, True, True]  # the code span and the web link are not read
    assert "no such file" in found[1] and "no heading #nothing" in found[2]


def test_the_decision_index_lists_every_numbered_record():
    folder = ROOT / "docs" / "decisions"
    index = (folder / "README.md").read_text(encoding="utf-8")
    records = sorted(p.name for p in folder.glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert records, "no numbered decision records"
    missing = [name for name in records if f"]({name})" not in index]
    assert not missing, f"docs/decisions/README.md does not list {missing}"
    numbers = [name[:4] for name in records]
    assert len(numbers) == len(set(numbers)), "two records share a number"
    for name in records:  # the shape of docs/decisions/README.md "Adding one", loosely: a title, a date, why
        text = (folder / name).read_text(encoding="utf-8")
        assert text.startswith("# "), f"{name}: a record starts with its title"
        assert re.search(r"\b20\d\d-\d\d-\d\d\b", text), f"{name}: a record gives its date (YYYY-MM-DD)"
        assert re.search(r"\bwhy\b", text, re.I), f"{name}: a record says why"


def quoted_references():
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and ".venv" not in path.parts:
                text = path.read_text(encoding="utf-8", errors="replace")
                for match in QUOTED.finditer(text):
                    yield path, match.group(1), match.group(2)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for match in QUOTED.finditer(text):
        yield ROOT / "README.md", match.group(1), match.group(2)


#: Loose references in code, each to a part of the doc that is not a heading, a bold lead or a paragraph
#: opening with those words. This list may only shrink: point such a comment at a heading instead.
KNOWN_LOOSE = {
    ("webapp/web/play.py", "docs/protocol.md", "End screen"),
    ("webapp/web/play.py", "docs/protocol.md", "Hint"),
    ("static/js/play-hint.js", "docs/protocol.md", "Hint"),
    ("static/js/play-sound.js", "docs/protocol.md", "events"),
    ("tests/security/test_read_only_database.py", "docs/security.md", "The database"),
}


def plain(text):
    return re.sub(r"[`*]", "", text).strip().lower()


def names_a_part(doc, title):
    """A heading holds the title, or a bold lead does (``**Rewards**``), or a paragraph or list item
    opens with it ("Flood control (…)")."""
    want = plain(title)
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    if any(want in plain(h) for h in headings(doc)):
        return True
    if any(want in plain(b) for b in re.findall(r"\*\*([^*\n]+)\*\*", text)):
        return True
    return any(plain(line).lstrip("-| ").startswith(want) for line in text.splitlines())


def test_quoted_references_to_a_doc_name_one_of_its_headings():
    problems, loose = [], set()
    for path, doc, title in quoted_references():
        where = path.relative_to(ROOT).as_posix()
        if not (ROOT / doc).is_file():
            problems.append(f'{where}: {doc} "{title}": no such file')
        elif not names_a_part(ROOT / doc, title):
            if (where, doc, title) in KNOWN_LOOSE:
                loose.add((where, doc, title))
            else:
                problems.append(f'{where}: {doc} "{title}": no heading or lead with these words')
    assert not problems, "\n".join(problems)
    assert loose == KNOWN_LOOSE, f"fixed, take them off KNOWN_LOOSE: {sorted(KNOWN_LOOSE - loose)}"


def test_the_reference_check_finds_a_missing_part(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Doc\n\n## Load runs\n\n- **Rewards** (one line)\n\nFlood control (limits) …\n", encoding="utf-8")
    assert names_a_part(doc, "Load runs") and names_a_part(doc, "Rewards") and names_a_part(doc, "flood control")
    assert not names_a_part(doc, "Updates")
