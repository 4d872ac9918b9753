"""The game log in Japanese (webapp/game/gamelog/ja.py): every event in the rulebook's words, never an
English word (names and land labels aside), an instance id or a rule number."""

import random
import re

import pytest

from tests.play.test_gamelog import CASES, NAMES, POOL, UNITS
from webapp.game import gamelog, seatnames
from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.engine import Game
from webapp.engine.randomplay import random_deck

#: What may stay in Latin letters in a Japanese line: the seats' names and the lands' labels.
LATIN_OK = re.compile(r"(?<![A-Za-z])(?:Alice|CPU|L[1-6])(?![A-Za-z0-9])")


def japanese(line):
    rest = LATIN_OK.sub("", line)
    assert line.endswith("。"), line
    assert not re.search(r"[A-Za-z]{2,}", rest), line
    assert not re.search(r"\bp[01]c\d+\b|\bR\d+\.\d+\b|None", line), line


@pytest.mark.parametrize("event, english", CASES, ids=[e["type"] for e, _ in CASES])
def test_each_event_in_japanese(event, english):
    lines = gamelog.describe([event], UNITS, NAMES, 0, POOL, lang="ja")
    assert len(lines) == 1
    japanese(lines[0])
    assert lines != gamelog.describe([event], UNITS, NAMES, 0, POOL)


def test_the_rulebook_words_and_the_reader():
    say = lambda e, viewer=0: gamelog.describe([e], UNITS, NAMES, viewer, POOL, lang="ja")[0]  # noqa: E731
    assert say({"type": "turn_started", "player": 0, "round": 3}) == "3巡目：あなたの手番。"
    assert say({"type": "turn_started", "player": 0, "round": 3}, viewer=1) == "3巡目：Aliceの手番。"
    assert say({"type": "summoned", "unit": "p1c2", "card": "salamander", "owner": 1, "land": "H1"}) == \
        "CPUがサラマンダーをCPUの本陣に召喚しました。"
    assert "先攻" in say({"type": "initiative", "first": 1,
                         "rolls": {"0": {"die": 1, "speed": 0, "total": 1}, "1": {"die": 5, "speed": 1, "total": 6}}})
    assert "旅団長が倒れました" in say({"type": "destroyed", "unit": "p1c2", "card": "salamander", "owner": 1,
                                   "leader": True, "land": "L5", "reason": "attack"})
    # twins on view are told apart as the English log does ("the second Orc")
    both = {"p1c7": ("orc", 1), "p1c8": ("orc", 1)}
    assert gamelog.describe([{"type": "damage", "unit": "p1c8", "amount": 1, "life": 1}], both, NAMES, 0, POOL,
                            public=["p1c7", "p1c8"], lang="ja") == ["CPUの2体目のオークが1ダメージを受けました（残り生命力1）。"]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_game_reads_japanese_for_every_reader(seed):
    rng = random.Random(seed)
    game = Game.new(random_deck(rng, POOL), random_deck(rng, POOL), seed=seed, first=None, pool=POOL)
    players = [BaselinePlayer(seed=seed, pool=POOL), RandomPlayer(seed=seed)]
    st = game.state.static
    units = {n: (c.id, o) for n, c, o in zip(st.names, st.cards, st.owner, strict=True)}
    lines = 0
    while game.result is None:
        p = min(game.waiting_for())
        events = game.apply(p, players[p].choose(game, p))
        for viewer in (0, 1, None):
            for line in gamelog.describe(events, units, NAMES, viewer, POOL, lang="ja"):
                japanese(line)
                lines += 1
    assert lines > 50


def test_a_seat_reads_the_log_in_its_players_language(app, make_user):
    from webapp.store import get_db
    from webapp.store.marks import set_mark
    with app.app_context():
        ja, en = make_user("hanako"), make_user("bob")
        set_mark(get_db(), ja["id"], "locale", "ja")
        row = {"seats": [ja["id"], en["id"]]}
        assert [seatnames.seat_lang(row, s) for s in (0, 1, None)] == ["ja", "en", "en"]
        assert seatnames.seat_lang({"seats": [ja["id"], None]}, 1) == "en"  # the CPU's seat
    assert seatnames.seat_lang(row, 0) == "en"  # outside the app: English, never an error
