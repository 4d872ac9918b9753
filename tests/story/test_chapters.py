"""The chapter data (cards/story/*.toml): every chapter loads, decks and start positions are legal,
the first chapters teach the rules in order, and bad data is refused with the file and field named."""

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from webapp.decks.collection import LOANER
from webapp.game import replay, storychapters
from webapp.cards.decks import load_decks, parse_deck
from webapp.engine import Game, load_pool
from webapp.engine.board import CAPACITY, LANDS

STORY = Path(storychapters.story_dir())


@pytest.fixture(scope="module")
def chapters():
    return storychapters.load_chapters()


@pytest.fixture(scope="module")
def pool():
    return load_pool()


@pytest.fixture(scope="module")
def loaner(pool):
    return load_decks(pool)[LOANER]


def test_every_chapter_loads_in_order(chapters):
    assert len(chapters) >= 10
    assert [c.order for c in chapters] == list(range(1, len(chapters) + 1))
    assert len({c.id for c in chapters}) == len(chapters)
    assert [c.id for c in storychapters.chapters()] == [c.id for c in chapters]
    files = sorted(p.name for p in STORY.glob("*.toml"))
    assert len(files) == len(chapters), "one file per chapter"


def test_every_text_is_in_english_and_japanese(chapters):
    for c in chapters:
        for field in (c.title, c.narration_before, c.narration_after, c.opponent["name"]):
            assert field["en"].strip() and field["ja"].strip()
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", field["ja"]), f"{c.id}: Japanese text expected"
        for tip in c.tips:
            assert tip["text"]["en"].strip() and tip["text"]["ja"].strip()
        assert c.tips, f"{c.id}: Eringe has something to point at in every chapter"
        assert any(t["when"] == "start" for t in c.tips), f"{c.id}: a tip at the start"


def test_each_opponent_deck_is_a_valid_30_card_deck(chapters, pool):
    for c in chapters:
        deck = parse_deck({"id": f"x-{c.id}", "name": c.opponent["name"], "description": c.title,
                           "cards": dict(c.deck.counts)}, pool)
        assert sum(deck.counts.values()) == 30
        assert len(deck.card_ids()) == 30
        assert all(cid in pool for cid in deck.counts)


def test_every_custom_start_position_is_legal_and_the_human_moves_first(chapters, pool, loaner):
    starts = [c for c in chapters if c.start is not None]
    assert len(starts) >= 3
    for c in starts:
        for seed in (0, 1, 2**40):
            scenario = storychapters.fill_start(c.start, [loaner.card_ids(), c.deck.card_ids()], seed)
            game = Game.from_scenario(scenario, pool)  # raises on an illegal position
            s = game.state
            assert (s.first, s.active) == (0, 0) and game.waiting_for() == {0}, c.id
            assert game.result is None
            for land in range(len(LANDS)):
                for p in (0, 1):
                    assert s.level_on(land, p) <= CAPACITY[s.static.kinds[land]], (c.id, LANDS[land])
            # every card of the CPU's is one of its deck's 30, and it has all 30
            cpu = Counter(replay.scenario_cards(scenario, 1))
            assert cpu == Counter(c.deck.card_ids()), c.id
            assert len(s.hand[0]) <= 6


def test_the_first_chapters_teach_the_rules_in_order(chapters):
    """Summoning and leaders, marching and capacity, battle and formation, initiative, abilities and
    counters, spells and slots, quick summon, leader refill, the round-12 judgment."""
    expected = ["R5.4", "R8.4", "R9.4", "R9.7", "R11.4", "R12.2", "R9.2", "R15.1", "R16.1"]
    for c, rule in zip(chapters, expected, strict=False):  # the first nine chapters
        assert rule in c.teaches["rules"], f"chapter {c.order} ({c.id}) should teach {rule}"
    # and Eringe points at the moment that matters, the first time it happens
    whens = {c.order: {t["when"] for t in c.tips} for c in chapters}
    assert "first_battle" in whens[3] and "first_failed_attack" in whens[3]
    assert "first_battle" in whens[4]
    assert "first_spell" in whens[6]
    assert "first_quick_summon" in whens[7]
    assert "first_refill" in whens[8]
    assert "judgment" in whens[9]
    targets = {c.order: {t["target"] for t in c.tips} for c in chapters}
    assert {"hand", "land:H0", "end-turn"} <= targets[1]
    assert "initiative" in targets[4] and "chain" in targets[5] and "slots" in targets[6]
    assert "quick-summon" in targets[7]


def test_japanese_uses_the_rulebooks_terms(chapters):
    by_order = {c.order: c.narration_before["ja"] + "".join(t["text"]["ja"] for t in c.tips) for c in chapters}
    for order, terms in {1: ["旅団長", "本陣", "召喚"], 2: ["進軍", "上限", "沼", "背界", "合流"],
                         3: ["隊列", "先頭", "最後尾", "守備"], 4: ["先攻", "速さ", "同時攻撃", "ダイス"],
                         5: ["【普通】", "【対抗】", "宣言", "見送る", "不発"], 6: ["スペル枠", "魔力"],
                         7: ["即時召喚", "上限"], 8: ["補充", "旅団長"], 9: ["判定", "土地"]}.items():
        for term in terms:
            assert term in by_order[order], f"chapter {order}: {term!r}"


def test_goals_and_rewards(chapters, pool):
    kinds = Counter(c.goal["type"] for c in chapters)
    assert kinds["win"] >= 1 and kinds["take_land"] >= 1
    for c in chapters:
        assert c.reward["packs"] or c.reward["cards"]
        assert all(cid in pool for cid in c.reward["cards"])
        assert c.goal_text("en") and c.goal_text("ja")
    assert storychapters.chapter("citadel-road").goal == {"type": "take_land", "land": "H1", "by_round": 8}


# ---------------------------------------------------------------- bad data


@pytest.fixture
def story_copy(tmp_path):
    """A copy of cards/story to break one file of."""
    folder = tmp_path / "story"
    shutil.copytree(STORY, folder)
    return folder


def edit(folder, name, old, new):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def refused(folder, *parts):
    with pytest.raises(storychapters.StoryDataError) as info:
        storychapters.load_chapters(str(folder))
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


def test_an_unknown_key_is_refused_naming_file_and_field(story_copy):
    path = edit(story_copy, "01-first-muster.toml", 'order = 1\n', 'order = 1\nmood = "easy"\n')
    refused(story_copy, str(path), "chapter 'first-muster'", "field 'mood'", "unknown key")


def test_a_level_that_is_not_easy_normal_or_hard_is_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", 'difficulty = "easy"', 'difficulty = "brutal"')
    refused(story_copy, "01-first-muster.toml", "field 'difficulty'", "'easy', 'normal', 'hard'", "'brutal'")


def test_each_chapter_names_its_cpu_level_and_they_rise(chapters):
    levels = [c.difficulty for c in chapters]
    order = ["easy", "normal", "hard"]
    assert levels[0] == "easy" and levels[-1] == "hard"
    assert [order.index(x) for x in levels] == sorted(order.index(x) for x in levels)


def test_unknown_keys_inside_tables_are_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", "[goal]\n", "[goal]\nbonus = 1\n")
    refused(story_copy, "01-first-muster.toml", "field 'goal.bonus'")


def test_a_deck_of_29_cards_is_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", "goblin-gambler = 8", "goblin-gambler = 7")
    refused(story_copy, "01-first-muster.toml", "field 'opponent.deck'", "exactly 30 cards", "29")


def test_a_deck_with_an_unknown_card_is_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", "goblin-gambler = 8", "goblin-gambler = 7\nno-such-goblin = 1")
    refused(story_copy, "01-first-muster.toml", "field 'opponent.deck'", "no-such-goblin", "no such card")


def test_a_deck_with_a_spell_nobody_can_pay_for_is_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", "goblin-gambler = 8", "goblin-gambler = 7\nholy-light = 1")
    refused(story_copy, "01-first-muster.toml", "field 'opponent.deck'", "holy-light", "R12.2")


def test_an_illegal_start_position_is_refused(story_copy):
    # level 3 + 3 on a base of capacity 5 (R4.4)
    edit(story_copy, "08-three-crowns.toml", '{ card = "orc", land = "H0", leader = true },',
         '{ card = "fire-giant", land = "H0", leader = true },')
    refused(story_copy, "08-three-crowns.toml", "chapter 'three-crowns'", "field 'start'", "capacity")


def test_a_start_where_the_cpu_moves_first_is_refused(story_copy):
    edit(story_copy, "06-ember-slots.toml", "[start]\nround = 2\n", "[start]\nround = 2\nactive = 1\n")
    refused(story_copy, "06-ember-slots.toml", "field 'start.active'", "R5.1")


def test_a_start_without_a_leader_is_refused(story_copy):
    edit(story_copy, "07-quick-reinforcements.toml", '{ card = "marsh-lizardman", land = "H1", leader = true },',
         '{ card = "marsh-lizardman", land = "H1" },')
    edit(story_copy, "07-quick-reinforcements.toml", '{ card = "hearth-tonttu", land = "H1", leader = true },',
         '{ card = "hearth-tonttu", land = "H1" },')
    refused(story_copy, "07-quick-reinforcements.toml", "field 'start'", "leader")


def test_a_start_with_cpu_cards_outside_its_deck_is_refused(story_copy):
    edit(story_copy, "08-three-crowns.toml", '{ card = "imp", land = "H1", leader = true },',
         '{ card = "orc", land = "H1", leader = true },')
    refused(story_copy, "08-three-crowns.toml", "field 'start.players[1].units[2]'", "opponent's deck")


def test_a_start_with_an_unknown_key_is_refused(story_copy):
    edit(story_copy, "02-river-crossing.toml", "[start]\nround = 2\n", "[start]\nround = 2\nweather = 1\n")
    refused(story_copy, "02-river-crossing.toml", "field 'start'", "weather")


def test_bad_tips_goals_and_rewards_are_refused(story_copy):
    cases = [
        ('when = "start"', 'when = "whenever"', "field 'tips[0].when'"),
        ('target = "hand"', 'target = "the-moon"', "field 'tips[0].target'"),
        ('type = "win"', 'type = "survive"', "field 'goal.type'"),
        ("packs = 1", "packs = 0", "field 'reward.packs'"),
    ]
    for old, new, field in cases:
        folder = story_copy.parent / f"case-{abs(hash(old))}"
        shutil.copytree(story_copy, folder)
        edit(folder, "01-first-muster.toml", old, new)
        refused(folder, "01-first-muster.toml", field)


def test_a_missing_japanese_text_is_refused(story_copy):
    edit(story_copy, "01-first-muster.toml", 'title = { en = "The Prince\'s Muster", ja = "王子の旅団、集う" }',
         'title = { en = "The Prince\'s Muster" }')
    refused(story_copy, "field 'title'", "ja")


def test_a_take_land_goal_needs_a_land_and_a_round(story_copy):
    edit(story_copy, "10-citadel-road.toml", 'land = "H1"\n', 'land = "H0"\n')
    refused(story_copy, "10-citadel-road.toml", "field 'goal.land'")


def test_two_chapters_with_one_order_are_refused(story_copy):
    edit(story_copy, "02-river-crossing.toml", "order = 2\n", "order = 1\n")
    refused(story_copy, "field 'order'")


def test_a_broken_toml_file_is_refused_naming_it(story_copy):
    (story_copy / "99-broken.toml").write_text("id = \n", encoding="utf-8")
    refused(story_copy, "99-broken.toml", "not valid TOML")


#: Words of a chapter's closing that would be false for some wins its goal allows: "your leaders held"
#: when one of them fell, "the lands are yours" when the leaders decided, "all three crowns in the
#: dust" when the round-12 judgment did (R1.1, R16.1), and leaders "chosen by the first summon" (R5.4).
UNTRUE_CLOSINGS = ("leaders held", "lands are yours", "crowns are in the dust", "hand never ran dry", "by the first summon",
                   "旅団長は持ちこたえ", "数えてみれば、土地は", "すべて地に落ち", "手札は最後まで尽きなかった", "最初の召喚で")


def test_closing_words_are_true_of_every_win_the_goal_allows(chapters):
    """Eringe's closing words come after any win that meets the goal (every leader fallen, the
    judgment, an opponent who left): they say nothing that only some of those wins make true."""
    for ch in chapters:
        for lang in ("en", "ja"):
            text = ch.narration_after[lang]
            found = [w for w in UNTRUE_CLOSINGS if w in text]
            assert not found, (ch.id, lang, found)
