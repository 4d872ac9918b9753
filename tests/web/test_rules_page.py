"""The rules page (/rules): the rulebook for players, English and Japanese, without rule numbers or
"[decided]" marks, every rule reachable by its anchor (the target of "Why?" links)."""

import re
from pathlib import Path

from webapp.web import rules

ROOT = Path(__file__).resolve().parents[2]


def visible(html):
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_rule_books_are_the_shared_ones_byte_for_byte():
    for name in ("RULES.md", "rulebook-ja.txt"):
        shared = Path("/work/shared/rules") / name
        if shared.exists():
            assert (ROOT / "docs" / "rules" / name).read_bytes() == shared.read_bytes()


def test_every_rule_is_on_the_english_page_by_its_anchor_without_its_number(client):
    html = client.get("/rules").get_data(as_text=True)
    ids = re.findall(r"^- (R\d+\.\d+[a-z]?) ", (ROOT / "docs/rules/RULES.md").read_text(encoding="utf-8"), re.M)
    assert len(ids) > 100
    for rid in ids:
        assert f'id="{rules.anchor(rid)}"' in html, rid
    text = visible(html)
    assert not re.search(r"\bR\d+(\.\d+)?\b", text)
    assert "[decided" not in text and "**" not in text
    assert "Object of the game and how it ends" in text and "Words used in the game" in text
    # a citation is a link to the rule it cites, named by its section
    assert '(see <a href="#r4-6">Board and lands</a>)' in html
    # every in-page link lands somewhere
    for target in set(re.findall(r'href="#([^"]+)"', html)):
        assert f'id="{target}"' in html, target


def test_revision_notes_are_left_out_and_a_list_of_citations_reads_as_those_rules():
    """Players read the rules, not their history: "(revision 3)" notes are left out; "for R1.1 and
    R15" inside a sentence reads "for those rules (see <section> and <section>)", each a link."""
    html = {r["id"]: str(r["html"]) for s in rules.english()[0] for r in s["rules"]}
    assert not any("revision" in h for h in html.values())
    assert ('stays destroyed for those rules (see <a href="#r1-1">Object of the game and how it ends</a> and '
            '<a href="#r15">Destroying a leader; refill</a>):') in html["R5.5"]
    assert html["R5.5"].endswith("that unit is an ordinary monster.")
    assert html["R8.3"].endswith("including lands with enemies (a battle follows).")


def test_the_japanese_page_has_the_eighteen_sections(client):
    html = client.get("/rules?lang=ja").get_data(as_text=True)
    sections = re.findall(r'<section class="rules-section" id="(ja-\d+)"', html)
    assert sections == [f"ja-{n}" for n in range(1, 19)]
    assert "対戦の目的と決着" in html and "エリンゲ" in html and "<li>" in html and "<table" in html


def test_the_rules_are_linked_from_the_nav_for_everyone(client, alice_client):
    assert client.get("/rules").status_code == 200
    for c in (client, alice_client):
        assert 'href="/rules"' in c.get("/rules").get_data(as_text=True)
    assert 'href="/rules#r5-2"' in alice_client.get("/story/first-muster").get_data(as_text=True)
    assert 'href="/rules#r5-1"' in alice_client.get("/play").get_data(as_text=True)
