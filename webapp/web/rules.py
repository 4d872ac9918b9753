"""The rules page: the rulebook for players, in English (docs/rules/RULES.md) and Japanese
(docs/rules/rulebook-ja.txt), both read from the files the engine follows.

Players never read rule numbers: the English rules are shown without their ids (``R8.7``) and
without the "[decided]" markers, each rule keeps its id only as an anchor (``#r8-7``), so a "Why?"
link elsewhere (``rule_url("R8.7")``) lands on it, and a citation inside a rule ("(R4.6)") becomes a
link named by the section it points to. The two files have a small, fixed structure (headings,
bullet lines, one glossary table, plain lines), so a few lines of parsing read them; no Markdown
library is needed (docs/decisions/0025-rules-page-parses-the-rulebooks.md).
"""

import functools
import os
import re

from flask import Blueprint, render_template, request, url_for
from markupsafe import Markup, escape

from webapp import i18n

bp = Blueprint("rules", __name__)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES_DIR = os.path.join(ROOT, "docs", "rules")
SECTION = re.compile(r"^## R(\d{1,2}) (.+?)(?: \(.*\))?$")
RULE_LINE = re.compile(r"^- (R(\d{1,2})\.(\d{1,2}[a-z]?)) (.*)$")
CITATION = re.compile(r"\bR(\d{1,2})(?:\.(\d{1,2}[a-z]?))?\b(?: [a-d]\b)?")
CITATION_LIST = re.compile(r"\((?:see )?(R\d{1,2}(?:\.\d{1,2}[a-z]?)?(?:(?:, | and |–| or )R?\d{1,2}(?:\.\d{1,2}[a-z]?)?)*)\)")
DECIDED = re.compile(r"\s*\*\*\[decided[^\]]*\]\*\*\s*")
REVISION = re.compile(r"\s*\(revision \d+(?:: [^()]*)?\)")  # "(revision 3)": the rulebook's history, not a rule
BARE_LIST = re.compile(r"(?<!\()\bR\d{1,2}(?:\.\d{1,2}[a-z]?)?(?:(?:, | and | or )R\d{1,2}(?:\.\d{1,2}[a-z]?)?)+\b")


def anchor(rule_id):
    """``R8.7`` → ``r8-7``; ``R16`` → ``r16``."""
    return rule_id.lower().replace(".", "-")


def rule_url(rule_id, lang="en"):
    """Where a "Why?" link for a rule goes: its line on the rules page."""
    return url_for("rules.index", lang=lang if lang != "en" else None) + "#" + anchor(rule_id)


@functools.lru_cache(maxsize=1)
def english():
    """[{id, anchor, title, rules: [{id, anchor, html}]}] and the glossary rows, from RULES.md."""
    with open(os.path.join(RULES_DIR, "RULES.md"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    sections, glossary, current = [], [], None
    for line in lines:
        m = SECTION.match(line)
        if m:
            current = {"id": f"R{m.group(1)}", "anchor": f"r{m.group(1)}", "title": m.group(2), "rules": []}
            sections.append(current)
            continue
        if line.startswith("## "):
            current = None  # the glossary, the changes: not rules
            continue
        if line.startswith("|") and current is None and not sections:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells) and cells[:2] != ["JA", "EN"]:
                glossary.extend(zip(cells[0::2], cells[1::2], strict=False))
            continue
        m = RULE_LINE.match(line)
        if m and current is not None:
            current["rules"].append({"id": m.group(1), "anchor": anchor(m.group(1)), "html": None, "raw": m.group(4)})
    titles = {s["id"]: s["title"] for s in sections}
    for s in sections:
        for r in s["rules"]:
            r["html"] = words(r.pop("raw"), titles)
    return sections, glossary


def words(text, titles):
    """One rule's text as HTML for players: no "[decided]" marks, no revision notes, no ids; citations
    become links."""
    text = REVISION.sub("", DECIDED.sub(" ", text)).strip()

    def cite(ids):
        links, seen = [], set()
        for m in CITATION.finditer(ids):
            rid = f"R{m.group(1)}" + (f".{m.group(2)}" if m.group(2) else "")
            section = f"R{m.group(1)}"
            if section in seen or section not in titles:
                continue
            seen.add(section)
            links.append(f'<a href="#{anchor(rid)}">{escape(titles[section])}</a>')
        return links

    out, pos = [], 0
    for m in CITATION_LIST.finditer(text):
        out.append(fmt(text[pos:m.start()]))
        links = cite(m.group(1))
        out.append(f"(see {' and '.join(links)})" if links else "")
        pos = m.end()
    out.append(fmt(text[pos:]))
    html = "".join(out)
    # several citations in a sentence ("stays destroyed for R1.1 and R15") read "those rules (see …)"
    def bare_list(m):
        links = cite(m.group(0))
        return f"those rules (see {' and '.join(links)})" if links else m.group(0)
    html = BARE_LIST.sub(bare_list, html)
    # a citation among other words: after "(", "," or ";" it reads "see <section>"; inside a sentence
    # ("the moment R1.1 holds") it reads "that rule"; either way a link to the rule
    def bare(m):
        rid = f"R{m.group(1)}" + (f".{m.group(2)}" if m.group(2) else "")
        before = html[:m.start()].rstrip()
        section = titles.get(f"R{m.group(1)}")
        if section and (before.endswith(("(", ",", ";")) or before.endswith("see")):
            see = "" if before.endswith("see") else "see "
            return f'{see}<a href="#{anchor(rid)}">{escape(section)}</a>'
        return f'<a href="#{anchor(rid)}">that rule</a>'
    html = CITATION.sub(bare, html)
    html = re.sub(r'(see <a [^>]*>([^<]*)</a>)(?:, see <a [^>]*>\2</a>)+', r"\1", html)
    html = re.sub(r"\s+([.,;:])", r"\1", re.sub(r"\(\s*\)", "", html))
    return Markup(re.sub(r"\s{2,}", " ", html).strip())


def fmt(text):
    """The little Markdown the rules use: **bold** and `code`, escaped."""
    html = str(escape(text))
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html)


@functools.lru_cache(maxsize=1)
def japanese():
    """[{n, anchor, title, blocks: [(kind, content)]}] from rulebook-ja.txt; kind is p, ul, ol, table,
    h3 or tip (Eringe's words)."""
    with open(os.path.join(RULES_DIR, "rulebook-ja.txt"), encoding="utf-8") as fh:
        lines = [ln.rstrip() for ln in fh.read().splitlines()]
    headings, i = {}, 0
    while i < len(lines) and not re.match(r"^\d+\. ", lines[i]):
        i += 1
    while i < len(lines) and re.match(r"^\d+\. ", lines[i]):
        n, entry = lines[i].split(". ", 1)
        headings[entry] = (int(n), entry[len(n):])
        i += 1
    sections, current = [], None
    for line in lines[i:]:
        text = line.strip()
        if not text:
            continue
        if text in headings:
            n, title = headings[text]
            current = {"n": n, "anchor": f"ja-{n}", "title": title, "blocks": []}
            sections.append(current)
            continue
        if current is None:
            continue
        blocks = current["blocks"]
        if text.startswith("•"):
            kind, content = "ul", text.lstrip("• ").strip()
        elif re.match(r"^\d+\. ", text):
            kind, content = "ol", text.split(". ", 1)[1]
        elif "\t" in line:
            kind, content = "table", [c.strip() for c in line.split("\t")]
        elif text.startswith("エリンゲ") and len(text) > 4:
            kind, content = "tip", text[4:]
        elif len(text) <= 24 and not re.search(r"[。：:]", text):
            kind, content = "h3", text
        else:
            kind, content = "p", text
        if kind in ("ul", "ol", "table") and blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(content)
        else:
            blocks.append((kind, [content] if kind in ("ul", "ol", "table") else content))
    return sections


@bp.get("/rules")
def index():
    """The rules, in English or (``?lang=ja``) Japanese; open to everyone."""
    asked = request.args.get("lang")
    lang = asked if asked in ("en", "ja") else i18n.current()  # by default the page's language
    sections, glossary = english()
    return render_template("rules/index.html", lang=lang, sections=sections, glossary=glossary,
                           ja=japanese() if lang == "ja" else [])
