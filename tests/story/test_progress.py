"""Starting chapters, the unlocking order, the story game's setup and how goals are judged."""

from collections import Counter

import pytest

from webapp.decks.collection import LOANER
from webapp.game import cpuseats, play, replay, seatnames, seatstate, story, storychapters, storygoals, storyprogress
from webapp.engine import Game
from webapp.store import add_cards, get_loaner, get_progress, list_actions, load_game, record_clear, save_deck

from .conftest import play_out, unlock_up_to


def ids():
    return [c.id for c in storychapters.chapters()]


def test_only_the_first_chapter_is_open_at_first():
    assert storyprogress.unlocked({}) == [ids()[0]]
    states = storyprogress.chapter_states({})
    assert [s for _, s, _ in states] == ["open"] + ["locked"] * (len(states) - 1)


def test_clearing_a_chapter_opens_the_next_one_in_order():
    chapters = ids()
    progress = {}
    for n, cid in enumerate(chapters):
        assert storyprogress.unlocked(progress) == chapters[:n + 1]
        progress[cid] = {"cleared": True, "best": None}
    assert storyprogress.unlocked(progress) == chapters
    # a chapter cleared out of order (data changed under a player) stays open, with the next one
    odd = {chapters[3]: {"cleared": True}}
    assert storyprogress.unlocked(odd) == [chapters[0], chapters[3], chapters[4]]
    states = dict((c.id, s) for c, s, _ in storyprogress.chapter_states(odd))
    assert states[chapters[3]] == "cleared" and states[chapters[4]] == "open" and states[chapters[1]] == "locked"


def test_a_locked_chapter_cannot_be_started(db, alice):
    with pytest.raises(play.Forbidden, match="locked"):
        story.start_chapter(db, alice, ids()[1])
    with pytest.raises(play.NotFound):
        story.start_chapter(db, alice, "no-such-chapter")
    record_clear(db, alice["id"], ids()[0])
    assert story.start_chapter(db, alice, ids()[1], seed=1)


def test_a_chapter_game_is_a_story_game_against_the_cpu_with_the_human_first(db, alice, loaner):
    gid = story.start_chapter(db, alice, "first-muster", seed=77)
    row, game = play.load(db, gid)
    setup = row["setup"]
    assert row["mode"] == "story" and setup["mode"] == "story" and setup["story"] == "first-muster"
    assert setup["seats"] == [{"user_id": alice["id"]}, {"cpu": "easy"}]  # chapter 1's level: Easy
    assert (setup["first"], setup["leader_mode"], row["seed"]) == (0, "sequential", 77)
    assert setup["deck_ids"] == [loaner, None]  # R2.3: the Prince's Brigade for a new player
    ch = storychapters.chapter("first-muster")
    assert sorted(setup["decks"][1]) == sorted(ch.deck.card_ids())
    assert game.waiting_for() == {0}  # R5.1 the human first, R5.7 the CPU after
    assert row["state"] == replay.new_game(setup).to_json()
    assert play.rebuild(db, gid).to_json() == row["state"]


def test_a_custom_start_is_stored_as_the_games_first_state(db, alice):
    ch = unlock_up_to(db, alice["id"], "ember-slots")
    gid = story.start_chapter(db, alice, ch.id, seed=5)
    row, game = play.load(db, gid)
    scenario = row["setup"]["scenario"]
    assert row["state"] == Game.from_scenario(scenario).to_json()
    assert (game.state.round, game.state.phase, game.waiting_for()) == (2, "main", {0})
    assert scenario["seed"] == 5 and scenario["first"] == 0 and scenario["leader_mode"] == "sequential"
    # the draw piles are the rest of each side's 30 cards: the CPU's deck, the human's Prince's Brigade
    assert Counter(row["setup"]["decks"][1]) == Counter(ch.deck.card_ids())
    placed = Counter(ch.start["players"][0]["hand"]) + Counter(u["card"] for u in ch.start["players"][0]["units"])
    brigade = Counter(play.deck_list(get_loaner(db, LOANER)["cards"]))
    assert Counter(scenario["players"][0]["deck"]) == brigade - placed
    assert Counter(row["setup"]["decks"][0]) == placed + (brigade - placed)
    # replaying the record from the scenario gives the stored game (what judge relies on)
    play_out(db, gid, alice["id"])
    row = load_game(db, gid)
    *_, last = (step.game for step in replay.steps(row["setup"], list_actions(db, gid)))
    assert last.to_json() == row["state"]


def test_the_player_may_choose_an_own_deck(db, alice):
    add_cards(db, alice["id"], {"orc": 30})
    own = save_deck(db, alice["id"], "Orcs", {"orc": 30})
    gid = story.start_chapter(db, alice, "first-muster", deck_id=own, seed=3)
    assert load_game(db, gid)["setup"]["decks"][0] == ["orc"] * 30
    # owning 30 cards, the loaner stays home (R2.3): the own deck is the default
    gid = story.start_chapter(db, alice, "first-muster", seed=4)
    assert load_game(db, gid)["setup"]["deck_ids"][0] == own


def test_a_player_with_30_cards_and_no_legal_deck_is_told_to_build_one(db, alice, loaner):
    add_cards(db, alice["id"], {"orc": 30})
    with pytest.raises(play.Forbidden, match="stays home"):
        story.start_chapter(db, alice, "first-muster")
    with pytest.raises(play.Forbidden):
        story.start_chapter(db, alice, "first-muster", deck_id=loaner)


# ---------------------------------------------------------------- judging


def finished(db, gid, winner, reason="resign"):
    play.end(db, gid, winner, reason)
    return play.load(db, gid)


def test_a_win_goal_is_met_by_a_win_only(db, alice):
    gid = story.start_chapter(db, alice, "first-muster", seed=1)
    row, game = play.load(db, gid)
    assert storygoals.judge(row, game) == storygoals.Verdict(False, False, None, "the battle goes on")
    row, game = finished(db, gid, 0, "disconnect")
    verdict = storygoals.judge(row, game)
    assert verdict.met and verdict.final and verdict.round == 1
    gid = story.start_chapter(db, alice, "first-muster", seed=2)
    row, game = finished(db, gid, 1)
    assert storygoals.judge(row, game) == storygoals.Verdict(False, True, None, "lost")
    gid = story.start_chapter(db, alice, "first-muster", seed=3)
    row, game = finished(db, gid, None, "draw")
    assert storygoals.judge(row, game) == storygoals.Verdict(False, True, None, "draw")


def test_take_land_is_judged_from_the_record_at_the_moment_it_happens(db, alice):
    """take_land {H1, by 8}: met as soon as the human holds the land in a round <= 8, even if lost again;
    judged by replaying the stored actions (the final state alone cannot tell)."""
    ch = unlock_up_to(db, alice["id"], "river-crossing")
    for seed in range(12):
        gid = story.start_chapter(db, alice, ch.id, seed=seed)
        row = play_out(db, gid, alice["id"], bot_seed=seed)
        game = Game.from_json(row["state"])
        actions = list_actions(db, gid)
        verdict = storygoals.judge(row, game, actions)
        assert verdict.final
        # the verdict agrees with a scan of every state of the game
        taken = [(g.state.round, g.state.owners[-1] == 0 or (g.result or {}).get("winner") == 0)
                 for g in (Game.from_json(step.game.to_json()) for step in replay.steps(row["setup"], actions))]
        first = next((r for r, ok in taken if ok and r <= 8), None)
        assert verdict.met == (first is not None) and verdict.round == first
        if verdict.met:
            return
    raise AssertionError("the bot never took the base")


def test_take_land_is_not_met_after_the_round(db, alice):
    ch = unlock_up_to(db, alice["id"], "citadel-road")
    gid = story.start_chapter(db, alice, ch.id, seed=9)
    row, game = play.load(db, gid)
    verdict = storygoals.judge(row, game, [])
    assert not verdict.met and not verdict.final
    row, game = finished(db, gid, 1)
    assert storygoals.judge(row, game, list_actions(db, gid)) == storygoals.Verdict(False, True, None,
                                                                         "H1 not taken by round 8")


def test_a_better_result_replaces_the_best(db, alice):
    assert storyprogress.better({"round": 5}, None) and storyprogress.better({"round": 5}, {"round": 7})
    assert not storyprogress.better({"round": 7}, {"round": 5}) and not storyprogress.better({"round": 5}, {"round": 5})
    first = story.start_chapter(db, alice, "first-muster", seed=1)
    play.end(db, first, 0, "disconnect")
    storyprogress.finish(db, alice["id"], first)
    assert get_progress(db, alice["id"])["first-muster"]["best"]["round"] == 1


def test_the_cpu_plays_at_the_chapters_level_unless_the_host_names_a_player(db, alice):
    for ch in storychapters.chapters():
        record_clear(db, alice["id"], ch.id)
    hard = next(c for c in storychapters.chapters() if c.difficulty == "hard")
    gid = story.start_chapter(db, alice, hard.id, seed=5, seconds=0.25)
    assert load_game(db, gid)["setup"]["seats"][1] == {"cpu": "hard", "seconds": 0.25}
    assert cpuseats.cpu_difficulty(load_game(db, gid)) == "hard"
    normal = next(c for c in storychapters.chapters() if c.difficulty == "normal")
    gid = story.start_chapter(db, alice, normal.id, seed=5)
    assert load_game(db, gid)["setup"]["seats"][1] == {"cpu": "baseline"}
    gid = story.start_chapter(db, alice, hard.id, seed=6, cpu_name="random")  # the host's CPU_PLAYER
    assert load_game(db, gid)["setup"]["seats"][1] == {"cpu": "random"}


def test_the_opponent_is_named_in_the_language_of_the_log(db, alice):
    """A story game's CPU seat is the chapter's opponent, named in the state's language (the board and
    the log of a Japanese player read ゴブリンの斥候隊, an English one Goblin Scouts)."""
    game_id = story.start_chapter(db, alice, ids()[0])
    row, game = play.load(db, game_id)
    names = seatnames.seat_names(db, row)
    ch = storychapters.chapter(ids()[0])
    cpu = next(iter(cpuseats.cpu_seats(row)))
    assert names[cpu] == ch.opponent["name"]["en"]
    for lang in ("en", "ja"):
        state = seatstate.state_for(row, game, 1 - cpu, names=names, lang=lang)
        assert state["players"][cpu]["name"] == ch.opponent["name"][lang]
        assert state["players"][1 - cpu]["name"] == alice["name"]
    assert seatnames.seat_names(db, row, "ja")[cpu] == ch.opponent["name"]["ja"] != ch.opponent["name"]["en"]
