"""A cleared chapter is recorded and its reward granted exactly once: finish called twice, the hook
and the done page both finishing, the final action sent twice, two connections at once."""

import threading
from pathlib import Path

import pytest

from webapp.game import modes, play, story, storychapters, storygoals, storyprogress
from webapp.engine import choices
from webapp.store import connect, get_collection, get_progress, list_packs

from .conftest import play_out, unlock_up_to


def story_packs(db, user_id, ch):
    return [p for p in list_packs(db, user_id) if p["source"] == ch.pack_source]


def won_game(db, user, chapter_id, seed=1):
    """A story game of the chapter that the human has won (the CPU disconnected)."""
    gid = story.start_chapter(db, user, chapter_id, seed=seed)
    play.end(db, gid, 0, "disconnect")
    return gid


def test_finish_records_the_clear_and_grants_the_packs_once(db, alice):
    """The play service finishes the chapter when the game ends; finishing again grants nothing."""
    ch = storychapters.chapter("first-muster")
    gid = won_game(db, alice, ch.id)  # play.end runs the story hook: recorded and granted here
    assert len(story_packs(db, alice["id"], ch)) == ch.reward["packs"] == 1
    out = storyprogress.finish(db, alice["id"], gid)
    assert out.cleared and out.verdict.met and out.granted is None
    progress = get_progress(db, alice["id"])[ch.id]
    assert progress["cleared"] and progress["reward_granted"] and progress["best"]["game"] == gid
    again = storyprogress.finish(db, alice["id"], gid)
    assert again.cleared and again.granted is None
    assert len(story_packs(db, alice["id"], ch)) == 1
    assert story_packs(db, alice["id"], ch)[0]["source"] == "story:1"


def test_card_rewards_are_added_once(db, alice):
    ch = unlock_up_to(db, alice["id"], "shield-wall")
    before = get_collection(db, alice["id"])
    gid = won_game(db, alice, ch.id)
    for _ in range(3):
        story.on_game_over(db, play.load_row(db, gid))
        storyprogress.finish(db, alice["id"], gid)
    after = get_collection(db, alice["id"])
    assert {cid: after.get(cid, 0) - before.get(cid, 0) for cid in ch.reward["cards"]} == ch.reward["cards"]


def test_clearing_again_with_another_game_grants_nothing_more(db, alice):
    ch = storychapters.chapter("first-muster")
    storyprogress.finish(db, alice["id"], won_game(db, alice, ch.id, seed=1))
    out = storyprogress.finish(db, alice["id"], won_game(db, alice, ch.id, seed=2))
    assert out.cleared and out.granted is None
    assert len(story_packs(db, alice["id"], ch)) == 1


def test_a_lost_game_records_nothing(db, alice):
    gid = story.start_chapter(db, alice, "first-muster", seed=1)
    play.end(db, gid, 1, "resign")
    out = storyprogress.finish(db, alice["id"], gid)
    assert not out.cleared and not out.verdict.met and out.granted is None
    assert get_progress(db, alice["id"]) == {} and list_packs(db, alice["id"]) == []


def test_only_the_player_of_the_game_can_finish_it(db, alice, bob):
    gid = won_game(db, alice, "first-muster")
    with pytest.raises(play.Forbidden):
        storyprogress.finish(db, bob["id"], gid)
    assert get_progress(db, bob["id"]) == {}


def test_a_cpu_game_is_not_a_story_game(db, alice, loaner):
    gid = play.create_cpu_game(db, alice, loaner, seed=1)
    play.end(db, gid, 0, "disconnect")
    with pytest.raises(play.NotFound):
        storyprogress.finish(db, alice["id"], gid)
    assert story.on_game_over(db, play.load_row(db, gid)) is None


def test_the_final_action_sent_twice_grants_once(db, alice):
    """The bot plays a chapter out through play.act; the action that won is sent again (a double click,
    a retried socket message): it is refused as stale, and the hook, the done page and a second hook
    all finish the game without a second grant."""
    ch = storychapters.chapter("first-muster")
    for seed in range(20):
        gid = story.start_chapter(db, alice, ch.id, seed=seed)
        sent = []
        row = play_out(db, gid, alice["id"], bot_seed=seed, sent=sent)
        if (row["result"] or {}).get("winner") != 0 or not sent or sent[-1][1] != row["version"] - 1:
            continue  # the CPU made the last move: try another seed
        assert len(story_packs(db, alice["id"], ch)) == 1  # play_out's hook already finished it
        action, version = sent[-1]
        with pytest.raises(play.Stale):
            play.act(db, gid, alice["id"], action, version)
        with pytest.raises(play.Illegal):
            play.act(db, gid, alice["id"], action, row["version"])
        story.on_game_over(db, play.load_row(db, gid))
        assert storyprogress.finish(db, alice["id"], gid).granted is None
        assert len(story_packs(db, alice["id"], ch)) == 1
        assert get_progress(db, alice["id"])[ch.id]["reward_granted"]
        return
    raise AssertionError("no seed let the human make the winning move")


def test_two_connections_finishing_at_once_grant_once(app, db, alice, monkeypatch):
    """Four finishes race (the end-of-game hook held back so none has run): one grants."""
    ch = storychapters.chapter("first-muster")
    with monkeypatch.context() as m:
        m.setitem(modes.MODES, "story", modes.MODES["story"]._replace(game_over=lambda db, row: None))
        gid = won_game(db, alice, ch.id)
    assert story_packs(db, alice["id"], ch) == []
    results, errors = [], []
    barrier = threading.Barrier(4)

    def worker():
        conn = connect(app.config["DATABASE"])
        try:
            barrier.wait()
            results.append(storyprogress.finish(conn, alice["id"], gid).granted)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sum(1 for r in results if r) == 1
    assert len(story_packs(db, alice["id"], ch)) == 1


def test_on_game_over_never_raises(db, alice, monkeypatch):
    gid = won_game(db, alice, "first-muster")

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(story, "finish", broken)
    assert story.on_game_over(db, play.load_row(db, gid)) is None


def test_a_take_land_goal_met_mid_game_clears_before_the_game_ends(db, alice, tmp_path, monkeypatch):
    """take_land is judged "at the round": finish (the done page) clears it while the game goes on."""
    folder = tmp_path / "story"
    folder.mkdir()
    text = (Path(storychapters.story_dir()) / "02-river-crossing.toml").read_text(encoding="utf-8")
    text = text.replace("order = 2\n", "order = 1\n").replace('land = "H1"\nby_round = 8', 'land = "L5"\nby_round = 3')
    (folder / "01-ford.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("BRIGADE_STORY", str(folder))
    ch = storychapters.chapter("river-crossing")
    assert storychapters.chapters() == [ch] and ch.goal == {"type": "take_land", "land": "L5", "by_round": 3}

    gid = story.start_chapter(db, alice, ch.id, seed=1)
    row, game = play.load(db, gid)
    assert not storyprogress.finish(db, alice["id"], gid).cleared
    entry = next(a for a in game.legal_actions(0) if a["type"] == "march" and a["to"] == "L5")
    march = choices.fill(entry, choices.joiners(entry)[:1])
    play.act(db, gid, alice["id"], march, row["version"])
    row, game = play.load(db, gid)
    assert row["status"] == "active" and game.state.owners[5] == 0
    out = storyprogress.finish(db, alice["id"], gid)
    assert out.cleared and out.verdict == storygoals.Verdict(True, True, 2, "took L5 in round 2")
    assert out.granted == {"packs": [], "cards": ch.reward["cards"]}
    assert storyprogress.finish(db, alice["id"], gid).granted is None
    # the game goes on, and its end changes nothing more
    play.end(db, gid, 1, "resign")
    story.on_game_over(db, play.load_row(db, gid))
    assert get_progress(db, alice["id"])[ch.id]["best"]["round"] == 2


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_the_app_registers_the_story_mode_with_play():
    """Play imports no mode (tests/test_import_graph.py): story registers itself when imported, and the
    app imports it with its pages, so a fresh process that only makes the app has the story hook."""
    import subprocess
    import sys

    probe = ("from webapp.game import modes, play\nassert 'story' not in modes.MODES\n"
             "from webapp import create_app\ncreate_app({'TESTING': True, 'INSTANCE_PATH': __import__('tempfile').mkdtemp()})\n"
             "assert 'story' in modes.MODES\n"
             "from webapp.game import story\nassert modes.MODES['story'].game_over is story.on_game_over\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
