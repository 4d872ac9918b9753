"""The gauntlet draft through its service on the app's real SQLite file: 30 picks of one of three
(R2.1 kept), refused picks change nothing, games at rising difficulty counted once each, the run's
end at three losses or seven wins with its packs and shards, and a run restored by a new app on the same
file, in its draft and in its games."""

import pytest

from tests.web.conftest import log_in, post
from webapp import create_app, store
from webapp.engine import load_pool
from webapp.game import cpuseats, gauntlet, play
from webapp.store import shards as store_shards

POOL = load_pool()


def draft(db, user, run, prefer="spell"):
    """Make every pick, taking a spell when one is offered (the worst case for R2.1)."""
    while run["status"] == "drafting":
        cards = gauntlet.offer(run["seed"], run["picks"])
        spells = [c for c in cards if POOL[c].kind == prefer]
        run = gauntlet.pick(db, user["id"], run["id"], (spells or cards)[0], len(run["picks"]))
    return run


def test_r2_1_a_draft_makes_a_30_card_deck_with_monsters(app, db, alice):
    owned = store.get_collection(db, alice["id"])
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=11))
    assert run["status"] == "playing" and len(run["picks"]) == gauntlet.DECK_SIZE
    assert any(POOL[c].kind == "monster" for c in run["picks"])  # R2.1
    assert store.get_collection(db, alice["id"]) == owned  # the drafted deck is the run's only
    assert not set(run["picks"]) - set(POOL)


def test_the_last_pick_offers_only_monsters_to_a_deck_without_one():
    spells = [c for c in POOL if POOL[c].kind == "spell"][:29]
    assert all(POOL[c].kind == "monster" for c in gauntlet.offer(3, spells))


def test_offers_are_three_distinct_cards_with_at_most_one_spell_and_the_same_each_time():
    for n in range(30):
        picks = ["orc"] * n
        cards = gauntlet.offer(42, picks)
        assert len(set(cards)) == 3 and sum(POOL[c].kind == "spell" for c in cards) <= 1
        assert gauntlet.offer(42, picks) == cards


def test_bad_picks_are_refused_and_change_nothing(app, db, alice, bob):
    run = gauntlet.start_run(db, alice, seed=5)
    cards = gauntlet.offer(run["seed"], run["picks"])
    outside = next(c for c in POOL if c not in cards)
    with pytest.raises(play.BadRequest):
        gauntlet.pick(db, alice["id"], run["id"], outside, 0)
    with pytest.raises(play.Stale):
        gauntlet.pick(db, alice["id"], run["id"], cards[0], 1)
    with pytest.raises(play.Forbidden):
        gauntlet.pick(db, bob["id"], run["id"], cards[0], 0)
    assert store.gauntlet.get_run(db, run["id"])["picks"] == []
    gauntlet.pick(db, alice["id"], run["id"], cards[0], 0)
    with pytest.raises(play.Stale):  # the same click again
        gauntlet.pick(db, alice["id"], run["id"], cards[0], 0)
    assert store.gauntlet.get_run(db, run["id"])["picks"] == [cards[0]]
    assert gauntlet.start_run(db, alice)["id"] == run["id"]  # one unfinished run per player


def test_games_rise_in_difficulty_and_three_losses_end_the_run_with_its_packs(app, db, alice):
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=7), prefer="monster")
    levels = []
    for outcome in (0, 0, 1, 0, 1, 1):  # win, win, loss, win, loss, loss
        game_id = gauntlet.play_next(db, alice, run["id"])
        assert gauntlet.play_next(db, alice, run["id"]) == game_id  # the game in progress, not a second one
        row = play.load_row(db, game_id)
        assert row["mode"] == "gauntlet" and row["setup"]["decks"][0] == sorted(run["picks"])
        levels.append(cpuseats.cpu_difficulty(row))
        play.end(db, game_id, outcome, "resign")
        run = store.gauntlet.get_run(db, run["id"])
    assert levels == ["easy", "easy", "normal", "normal", "normal", "normal"]
    assert run["status"] == "finished" and (run["wins"], run["losses"]) == (3, 3)
    packs = [p for p in store.list_packs(db, alice["id"]) if p["source"] == f"gauntlet:{run['id']}"]
    assert len(packs) == gauntlet.reward_for(3) == 2 and run["reward"]["packs"] == [p["id"] for p in sorted(packs, key=lambda p: p["id"])]
    assert not [p for p in store.list_packs(db, alice["id"]) if p["source"].startswith("win:")]  # no Victory packs
    assert run["reward"]["shards"] == gauntlet.shards_for(3) == 60
    assert store_shards.get_balance(db, alice["id"]) == 60 == store_shards.ledger_sum(db, alice["id"])
    with pytest.raises(play.Illegal):
        gauntlet.play_next(db, alice, run["id"])
    assert gauntlet.start_run(db, alice)["id"] != run["id"]  # a new run may begin


def test_a_game_is_counted_once_however_often_its_end_is_reported(app, db, alice):
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=8), prefer="monster")
    game_id = gauntlet.play_next(db, alice, run["id"])
    play.end(db, game_id, 0, "resign")
    row = play.load_row(db, game_id)
    assert gauntlet.on_game_over(db, row) is None
    run = store.gauntlet.get_run(db, run["id"])
    assert (run["wins"], run["losses"], run["results"]) == (1, 0, [{"game": game_id, "won": True}])


def test_seven_wins_end_the_run_with_five_packs(app, db, alice):
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=9), prefer="monster")
    for _ in range(7):
        play.end(db, gauntlet.play_next(db, alice, run["id"]), 0, "resign")
    run = store.gauntlet.get_run(db, run["id"])
    assert run["status"] == "finished" and run["wins"] == 7 and len(run["reward"]["packs"]) == 5
    assert run["reward"]["shards"] == 300 and store_shards.get_balance(db, alice["id"]) == 300


def test_rewards_by_wins_rise_and_a_run_without_a_win_gives_a_pack_and_no_shards(app, db, alice):
    packs = [gauntlet.reward_for(w) for w in range(gauntlet.MAX_WINS + 1)]
    shards = [gauntlet.shards_for(w) for w in range(gauntlet.MAX_WINS + 1)]
    assert packs == sorted(packs) and shards == sorted(shards) and shards[-1] < 400  # less than a rare's craft
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=10), prefer="monster")
    for _ in range(3):
        play.end(db, gauntlet.play_next(db, alice, run["id"]), 1, "resign")
    run = store.gauntlet.get_run(db, run["id"])
    assert (run["status"], len(run["reward"]["packs"]), run["reward"]["shards"]) == ("finished", 1, 0)
    assert store_shards.get_balance(db, alice["id"]) == 0 == store_shards.ledger_sum(db, alice["id"])
    client = app.test_client()
    log_in(client, alice)
    page = client.get("/gauntlet").get_data(as_text=True)
    assert "Rewards by wins" in page and "7 wins: 5 packs · 300 shards" in page


def test_a_draft_in_progress_survives_a_restart(app, db, alice, instance):
    """A new app on the same database file shows the same draft: the picks made and the same offer."""
    client = app.test_client()
    log_in(client, alice)
    assert post(client, "/gauntlet/start").status_code == 302
    run = gauntlet.current(db, alice["id"])
    for n in range(10):
        card = gauntlet.offer(run["seed"], run["picks"])[n % 3]
        assert post(client, "/gauntlet/pick", {"card": card, "picks": str(n)}).status_code == 302
        run = gauntlet.current(db, alice["id"])
    before = client.get("/gauntlet").get_data(as_text=True)
    offered = gauntlet.offer(run["seed"], run["picks"])

    again = create_app({"TESTING": True, "INSTANCE_PATH": instance, "CPU_DELAY": 0})
    c2 = again.test_client()
    log_in(c2, alice)
    page = c2.get("/gauntlet").get_data(as_text=True)
    assert "10 / 30" in page and "10 / 30" in before
    for card in offered:
        assert f'value="{card}"' in page
    restored = gauntlet.current(db, alice["id"])
    assert restored["picks"] == run["picks"] and len(restored["picks"]) == 10


def test_a_run_in_its_games_survives_a_restart(app, db, alice, instance):
    """After the draft, a win and a loss, and the third game begun, a new app on the same database file
    shows the run as it stood, takes the player back to the same game, and counts that game when it ends."""
    run = draft(db, alice, gauntlet.start_run(db, alice, seed=11), prefer="monster")
    play.end(db, gauntlet.play_next(db, alice, run["id"]), 0, "resign")
    play.end(db, gauntlet.play_next(db, alice, run["id"]), 1, "resign")
    client = app.test_client()
    log_in(client, alice)
    begun = post(client, "/gauntlet/play")
    game_id = store.gauntlet.get_run(db, run["id"])["game_id"]
    assert begun.status_code == 302 and begun.headers["Location"].endswith(f"/play/{game_id}")

    again = create_app({"TESTING": True, "INSTANCE_PATH": instance, "CPU_DELAY": 0})
    c2 = again.test_client()
    log_in(c2, alice)
    page = c2.get("/gauntlet").get_data(as_text=True)
    assert "1 win, 1 loss" in page and "Back to the board" in page  # each count in its own plural
    assert post(c2, "/lang", {"lang": "ja"}).status_code == 303
    assert "1勝1敗" in c2.get("/gauntlet").get_data(as_text=True)
    assert post(c2, "/lang", {"lang": "en"}).status_code == 303
    back = post(c2, "/gauntlet/play")
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/play/{game_id}")
    assert c2.get(f"/play/{game_id}").status_code == 200
    row = play.load_row(db, game_id)
    assert row["mode"] == "gauntlet" and row["setup"]["decks"][0] == sorted(run["picks"])
    play.end(db, game_id, 0, "resign")
    restored = store.gauntlet.get_run(db, run["id"])
    assert (restored["wins"], restored["losses"], restored["game_id"]) == (2, 1, None)
    assert [r["won"] for r in restored["results"]] == [True, False, True]
    nxt = gauntlet.play_next(db, alice, run["id"])
    assert nxt != game_id and cpuseats.cpu_difficulty(play.load_row(db, nxt)) == "normal"
