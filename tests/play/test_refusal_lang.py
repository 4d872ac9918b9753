"""A refusal in the player's language (webapp/refusals.py, docs/i18n.md "Refusals"): a Japanese seat
reads a Japanese sentence chosen by the refusal's rule; an English seat keeps the engine's own words."""

import re
from pathlib import Path

import pytest

from webapp import i18n, refusals
from webapp.game import play

ENGINE = Path(__file__).resolve().parents[2] / "webapp" / "engine"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: the refusals a test provokes at the leader choice: (action of the seat's opening hand, the rule the
#: engine names). The cards are the seat's own (a hidden id is refused as one not in the game: R18.6).
REFUSED = [(lambda hand: {"type": "choose_leaders", "cards": hand[:4]}, "R5.4"),
           (lambda hand: {"type": "march", "units": hand[:1], "to": "H1"}, "R6.3"),
           (lambda hand: {"type": "summon", "card": hand[0]}, "R6.3")]


def hand_ids(game, seat=0):
    return [c["id"] for c in game.view(seat)["players"][seat]["hand"]]


@pytest.fixture
def japanese(alice):
    i18n.build()
    i18n.remember(alice["id"], "ja")
    yield
    i18n.USER_LANG.pop(alice["id"], None)


def test_every_rule_the_engine_refuses_by_has_a_sentence():
    source = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    rules = set(re.findall(r",\s*\"(R\d+\.\d+)\"\)?\s*$", source, flags=re.M))
    assert len(rules) >= 10, rules
    assert not rules - {rule for rule, _ in refusals.BY_RULE}, sorted(rules - {rule for rule, _ in refusals.BY_RULE})


def test_each_sentence_reads_in_japanese():
    i18n.build()
    for msgid in [*refusals.BY_RULE.values(), *refusals.BY_KIND.values(), refusals.OTHER]:
        ja = refusals.words("ja", None, None) if msgid == refusals.OTHER else refusals.translations("ja").gettext(msgid)
        assert JAPANESE.search(ja) and ja != msgid, msgid
    assert refusals.words("en", "R8.1", "march") is None
    assert refusals.sentence("R6.3", "summon") != refusals.sentence("R6.3", "march")


@pytest.mark.parametrize(("action", "rule"), REFUSED)
def test_a_japanese_seat_reads_the_refusal_in_japanese(db, alice, loaner, japanese, action, rule):
    game_id = play.create_cpu_game(db, alice, loaner, seed=5)
    row, game = play.load(db, game_id)
    action = action(hand_ids(game))
    with pytest.raises(play.Illegal) as refused:
        play.apply(db, row, 0, action, row["version"])
    text = refused.value.message
    assert JAPANESE.search(text) and not re.search(r"[A-Za-z]{2,}", text), text
    assert text == refusals.translations("ja").gettext(refusals.sentence(rule, action["type"]))
    assert play.load(db, game_id)[0]["version"] == row["version"]  # nothing changed


def test_an_english_seat_keeps_the_engines_words(db, alice, loaner):
    i18n.USER_LANG.pop(alice["id"], None)
    game_id = play.create_cpu_game(db, alice, loaner, seed=5)
    row, game = play.load(db, game_id)
    with pytest.raises(play.Illegal) as refused:
        play.apply(db, row, 0, {"type": "choose_leaders", "cards": hand_ids(game)[:4]}, row["version"])
    assert refused.value.message == "Choose 1 to 3 monsters from your opening hand, total level 5 at most."
