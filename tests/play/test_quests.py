"""Daily quests (docs/cards.md "Daily quests"): the pool as data, three a day in the host's time zone,
counted from the engine's events of each finished game (once), one reroll a day, rewards claimed once
(a double click and racing claims pay once), on the home page and the end screen."""

import datetime
import threading

import pytest

from tests.story.conftest import play_out
from tests.web.conftest import log_in, post
from webapp.game import play, quests, replay
from webapp.store import connect, list_actions, list_packs, load_game
from webapp.store import games as store_games
from webapp.store import quests as store_quests
from webapp.store import shards as store_shards


def quest(goal, target, element=None, shards=10, packs=0):
    return quests.Quest(f"q-{goal}", goal, target, {"en": goal, "ja": goal}, shards, packs, element)


# ---------------------------------------------------------------- the pool and the day

def test_the_shipped_pool_reads_in_both_languages():
    pool = quests.read_pool()
    assert len(pool) >= quests.PER_DAY + 1
    for q in pool.values():
        assert q.text["en"] and q.text["ja"] and q.shards + q.packs > 0


@pytest.mark.parametrize("record, problem", [
    ('goal = "fly"\ntarget = 1', "goal must be"),
    ('goal = "play"\ntarget = 0', "target"),
    ('goal = "play"\ntarget = 1\ntext = { en = "x" }', "both en and ja"),
    ('goal = "play"\ntarget = 1\nelement = "fire"\ntext = { en = "x", ja = "x" }\nreward = { shards = 1 }', "element"),
    ('goal = "play"\ntarget = 1\ntext = { en = "x", ja = "x" }\nreward = { shards = 0 }', "reward"),
])
def test_a_bad_quest_record_is_refused_by_name(tmp_path, record, problem):
    path = tmp_path / "q.toml"
    path.write_text(f'[[quest]]\nid = "bad"\n{record}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=problem):
        quests.read_pool(path)


def test_three_different_quests_a_day_the_same_on_every_look():
    a = quests.draw(1, "2026-12-04")
    assert len(set(a)) == quests.PER_DAY and a == quests.draw(1, "2026-12-04")
    assert any(quests.draw(1, f"2026-12-{d:02d}") != a for d in range(5, 12))


def test_the_day_follows_the_hosts_time_zone(clock):
    """Tokyo's midnight (15:00 UTC) starts a new day there while UTC is still on the same date."""
    now = clock.utcnow()
    to_3pm = (datetime.datetime(now.year, now.month, now.day, 14, 59, tzinfo=datetime.UTC) - now).total_seconds()
    clock.advance(to_3pm + (86400 if to_3pm < 0 else 0))
    tokyo = {"QUEST_DAY_ZONE": "Asia/Tokyo"}
    before_utc, before_tokyo = quests.today(), quests.today(tokyo)
    clock.advance(120)  # 15:01 UTC: midnight has passed in Tokyo only
    assert quests.today() == before_utc
    assert quests.today(tokyo) > before_tokyo
    assert quests.next_day_starts(tokyo) > clock.utcnow()


def test_a_zone_that_is_no_zone_stops_the_start():
    with pytest.raises(ValueError, match="QUEST_DAY_ZONE"):
        quests.configure({"QUEST_DAY_ZONE": "Mars/Olympus"})


# ---------------------------------------------------------------- how a game advances a quest

def test_spells_summons_and_lands_are_counted_for_the_seat_only():
    events = [{"type": "declared", "kind": "spell", "player": 0}, {"type": "declared", "kind": "attack", "player": 0},
              {"type": "declared", "kind": "spell", "player": 1}, {"type": "summoned", "owner": 0},
              {"type": "quick_summoned", "owner": 0}, {"type": "summoned", "owner": 1},
              {"type": "land_taken", "player": 0}, {"type": "land_taken", "player": 1}]
    amounts, _ = quests.seat_facts(events, 0, {"winner": 0}, [], {})
    assert amounts == {"play": 1, "win": 1, "spells": 1, "summons": 2, "lands": 1, "lands_in_game": 1}


def test_lands_in_one_game_take_the_best_game_not_the_sum():
    q = quest("lands_in_game", 3)
    two = {"lands_in_game": 2}
    assert quests.advance(q, 0, two, set()) == 2
    assert quests.advance(q, 2, two, set()) == 2  # a second game of two lands is not three in one game
    assert quests.advance(q, 2, {"lands_in_game": 4}, set()) == 3


def test_a_win_with_an_element_needs_that_main_element():
    q = quest("win", 1, element="water")
    assert quests.advance(q, 0, {"win": 1}, {"fire"}) == 0
    assert quests.advance(q, 0, {"win": 1}, {"water", "fire"}) == 1  # a tie counts for both


def set_quests(db, user_id, ids):
    day = quests.today()
    store_quests.deal(db, user_id, day, ids)
    return day


def test_a_played_game_advances_the_quests_from_its_own_events_once(db, alice, loaner):
    set_quests(db, alice["id"], ["play-3", "spells-5", "summons-12"])
    game_id = play.create_cpu_game(db, alice, loaner, seed=3)
    row = play_out(db, game_id, alice["id"])
    events = [e for step in replay.steps(row["setup"], list_actions(db, game_id)) for e in step.events]
    mine = quests.seat_facts(events, 0, row["result"], [], {})[0]
    got = {q.quest.id: q.progress for q in quests.of_day(db, alice["id"])}
    assert got == {"play-3": 1, "spells-5": min(5, mine["spells"]), "summons-12": min(12, mine["summons"])}
    assert mine["summons"] > 0  # the game summoned something: the count is a real one
    assert quests.after_game(db, load_game(db, game_id)) == {}  # counted once
    assert {q.quest.id: q.progress for q in quests.of_day(db, alice["id"])} == got


def test_a_game_stored_here_action_by_action_is_counted_without_a_replay(db, alice, loaner, monkeypatch):
    """Each stored action's events are counted as it is written (``quests.note``): the end replays
    nothing, and the counts are the replay's."""
    set_quests(db, alice["id"], ["play-3", "spells-5", "summons-12"])
    game_id = play.create_cpu_game(db, alice, loaner, seed=3)
    replays = []
    real = quests.game_events
    monkeypatch.setattr(quests, "game_events", lambda *args: replays.append(1) or real(*args))
    row = play_out(db, game_id, alice["id"])
    assert replays == []
    events, reached = real(db, row)
    mine = quests.seat_facts(events, 0, row["result"], [], {})[0]
    assert mine["summons"] > 0 and reached >= 5
    got = {q.quest.id: q.progress for q in quests.of_day(db, alice["id"])}
    assert got == {"play-3": 1, "spells-5": min(5, mine["spells"]), "summons-12": min(12, mine["summons"])}


def test_a_game_with_a_write_this_process_did_not_count_is_replayed(db, alice, loaner, monkeypatch):
    """A stored write the count did not see (another process's, a take-back) drops the count: the
    game's end replays its actions, and the quests advance by the replay's events."""
    set_quests(db, alice["id"], ["play-3", "spells-5", "summons-12"])
    game_id = play.create_cpu_game(db, alice, loaner, seed=4)
    row, game = play.load(db, game_id)
    seat = min(game.waiting_for())
    action = next(a for a in game.legal_actions(seat) if a["type"] == "choose_leaders")
    game.apply(seat, action)
    store_games.append_action(db, game_id, row["version"], seat, action, game.to_json())  # past the service
    play.GAMES.put(db, dict(row, version=row["version"] + 1), game, game.to_json())
    replays = []
    real = quests.game_events
    monkeypatch.setattr(quests, "game_events", lambda *args: replays.append(1) or real(*args))
    row = play_out(db, game_id, alice["id"])
    assert replays == [1]
    events, _ = real(db, row)
    mine = quests.seat_facts(events, 0, row["result"], [], {})[0]
    got = {q.quest.id: q.progress for q in quests.of_day(db, alice["id"])}
    assert got == {"play-3": 1, "spells-5": min(5, mine["spells"]), "summons-12": min(12, mine["summons"])}


def test_the_counts_per_seat_are_the_seats_facts():
    events = [{"type": "declared", "kind": "spell", "player": 1}, {"type": "summoned", "owner": 0},
              {"type": "land_taken", "player": 1}, {"type": "quick_summoned", "owner": 1}]
    counts = quests.tally(events[:2])
    counts = quests.tally(events[2:], counts)
    for seat in (0, 1):
        assert quests.seat_facts((), seat, None, [], {}, counts=counts) == quests.seat_facts(events, seat, None, [], {})


def test_a_game_cut_short_by_resigning_counts_for_nothing(db, alice, loaner):
    """Resigning in round 1 again and again finishes no quest (the rewards' line, webapp/game/fairplay.py)."""
    set_quests(db, alice["id"], ["play-3", "win-2", "spells-5"])
    for seed in (4, 5, 6):
        game_id = play.create_cpu_game(db, alice, loaner, seed=seed)
        play.abandon(db, game_id, alice["id"])
    got = {q.quest.id: q.progress for q in quests.of_day(db, alice["id"])}
    assert got == {"play-3": 0, "win-2": 0, "spells-5": 0}


# ---------------------------------------------------------------- claims and rerolls

def done_quest(db, user_id, quest_id="spells-5", slot=0):
    day = set_quests(db, user_id, [quest_id, "play-3", "win-2"] if slot == 0 else ["play-3", quest_id, "win-2"])
    target = quests.pool()[quest_id].target
    db.execute("UPDATE daily_quests SET progress = ? WHERE user_id = ? AND day = ? AND slot = ?",
               [target, user_id, day, slot])
    return quests.pool()[quest_id]


def test_a_quest_not_done_cannot_be_claimed(db, alice):
    set_quests(db, alice["id"], ["spells-5", "play-3", "win-2"])
    with pytest.raises(quests.QuestError, match="not done"):
        quests.claim(db, alice["id"], 0)
    assert store_shards.get_balance(db, alice["id"]) == 0


def test_a_done_quest_pays_once_even_when_claimed_twice(db, alice):
    q = done_quest(db, alice["id"])
    quests.claim(db, alice["id"], 0)
    with pytest.raises(quests.QuestError, match="claimed already"):
        quests.claim(db, alice["id"], 0)
    assert store_shards.get_balance(db, alice["id"]) == q.shards == store_shards.ledger_sum(db, alice["id"])


def test_a_pack_reward_grants_one_pack(db, alice):
    done_quest(db, alice["id"], "lands-3-in-a-game")
    quests.claim(db, alice["id"], 0)
    assert [p["source"] for p in list_packs(db, alice["id"])] == [f"quest:{quests.today()}:lands-3-in-a-game"]


def race(db_path, n, job):
    barrier, results = threading.Barrier(n), []

    def run():
        conn = connect(db_path)
        try:
            barrier.wait()
            job(conn)
            results.append("ok")
        except quests.QuestError:
            results.append("refused")
        finally:
            conn.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_eight_racing_claims_pay_once(app, db, alice):
    q = done_quest(db, alice["id"])
    results = race(app.config["DATABASE"], 8, lambda c: quests.claim(c, alice["id"], 0))
    assert results.count("ok") == 1 and results.count("refused") == 7
    assert store_shards.get_balance(db, alice["id"]) == q.shards == store_shards.ledger_sum(db, alice["id"])


def test_one_reroll_a_day_even_when_racing(app, db, alice, clock):
    before = set_quests(db, alice["id"], ["spells-5", "play-3", "win-2"])
    results = race(app.config["DATABASE"], 6, lambda c: quests.reroll(c, alice["id"], 0))
    assert results.count("ok") == 1
    now = [q.quest.id for q in quests.of_day(db, alice["id"])]
    assert now[0] not in ("spells-5", "play-3", "win-2") and now[1:] == ["play-3", "win-2"]
    with pytest.raises(quests.QuestError, match="reroll"):
        quests.reroll(db, alice["id"], 1)
    clock.advance(86400)  # the next day brings a new reroll (and new quests)
    assert quests.today() != before and quests.can_reroll(db, alice["id"])


def test_a_claimed_quest_is_not_rerolled(db, alice):
    done_quest(db, alice["id"])
    quests.claim(db, alice["id"], 0)
    with pytest.raises(quests.QuestError, match="claimed"):
        quests.reroll(db, alice["id"], 0)
    assert quests.can_reroll(db, alice["id"])


# ---------------------------------------------------------------- the pages

@pytest.fixture
def client(app, alice):
    c = app.test_client()
    log_in(c, alice)
    return c


def test_the_home_page_shows_the_days_quests_and_claims(client, db, alice):
    q = done_quest(db, alice["id"])
    page = client.get("/").get_data(as_text=True)
    assert "Today&#39;s quests" in page or "Today's quests" in page
    assert q.text["en"] in page and 'action="/quests/0/claim"' in page
    assert post(client, "/quests/0/claim").status_code == 303
    assert post(client, "/quests/0/claim").status_code == 303  # the double click
    assert store_shards.get_balance(db, alice["id"]) == q.shards
    assert "claimed already" in client.get("/").get_data(as_text=True)
    assert post(client, "/quests/7/claim").status_code == 404


def test_the_home_page_in_japanese(client, db, alice):
    set_quests(db, alice["id"], ["spells-5", "play-3", "win-2"])
    client.set_cookie("lang", "ja")
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert quests.pool()["spells-5"].text["ja"] in page


def test_the_end_screen_lists_the_quests_the_game_advanced(client, db, alice, loaner):
    set_quests(db, alice["id"], ["play-3", "lands-6", "win-water"])
    game_id = play.create_cpu_game(db, alice, loaner, seed=3)
    play_out(db, game_id, alice["id"])
    info = client.get(f"/play/{game_id}/end.json").get_json()
    items = {i["text"]: i for i in info["quests"]["items"]}
    assert items["Finish 3 battles"]["status"] == "1 of 3 done"
    assert "Win a battle with a water deck" not in items  # the loaner is a fire and earth deck
    cut = play.create_cpu_game(db, alice, loaner, seed=4)
    play.abandon(db, cut, alice["id"])
    assert client.get(f"/play/{cut}/end.json").get_json()["quests"] is None


def test_quests_need_a_login_and_the_csrf_token(app, db, alice):
    done_quest(db, alice["id"])
    anonymous = app.test_client()
    assert anonymous.post("/quests/0/claim").status_code in (302, 400, 403)
    logged = app.test_client()
    log_in(logged, alice)
    assert logged.post("/quests/0/claim").status_code in (400, 403)
    assert store_shards.get_balance(db, alice["id"]) == 0


def test_a_failure_while_paying_leaves_the_quest_unclaimed(db, alice, monkeypatch):
    """The claim and its payment are one transaction: a crash in between claims nothing."""
    done_quest(db, alice["id"])

    def boom(*args, **kwargs):
        raise RuntimeError("power cut")

    monkeypatch.setattr(store_shards, "exchange", boom)
    with pytest.raises(RuntimeError):
        quests.claim(db, alice["id"], 0)
    monkeypatch.undo()
    assert not quests.of_day(db, alice["id"])[0].claimed
    quests.claim(db, alice["id"], 0)  # and it can be claimed afterwards
    assert quests.of_day(db, alice["id"])[0].claimed
