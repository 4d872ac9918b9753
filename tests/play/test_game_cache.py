"""The play service's GameCache: games kept in memory between actions are only ever served for the
same database file, game and version, are never changed by what a caller does with the Game it
gets, and leave memory when the game ends."""

import random

import pytest

from webapp import store
from webapp.ai import RandomPlayer
from webapp.game import gamecache, play
from webapp.engine import Game
from webapp.store import connect, create_user, get_loaner, load_game, migrate, seed_from_files


def fresh_db(folder):
    folder.mkdir()
    db = connect(folder / "brigade.db")
    migrate(db)
    seed_from_files(db)
    return db


@pytest.fixture
def two_dbs(tmp_path):
    dbs = [fresh_db(tmp_path / "a"), fresh_db(tmp_path / "b")]
    yield dbs
    for db in dbs:
        db.close()


def cpu_game(db, seed):
    user = create_user(db, "alice", "x")
    deck = get_loaner(db, "princes-brigade")["id"]
    return play.create_cpu_game(db, user, deck, seed=seed)


def first_leaders(game):
    return next(a for a in game.legal_actions(0) if a["type"] == "choose_leaders")


def test_a_game_is_served_from_memory_only_at_its_stored_version(two_dbs, monkeypatch):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=1)
    row, game = play.load(db, game_id)
    played = play.apply(db, row, 0, first_leaders(game), row["version"])
    decoded = []
    real = Game.from_json.__func__
    monkeypatch.setattr(Game, "from_json", classmethod(lambda cls, text, pool=None: decoded.append(1) or real(cls, text, pool)))
    row, again = play.load(db, game_id)
    assert decoded == [] and again.version == played.game.version  # from memory
    old = dict(row, version=row["version"] - 1, state=load_game(db, game_id)["state"])
    assert gamecache.GAMES.get(db, old) is None  # an older version is never served from memory


def test_the_same_id_in_another_database_file_is_another_game(two_dbs):
    a, b = two_dbs
    id_a, id_b = cpu_game(a, seed=1), cpu_game(b, seed=2)
    assert id_a == id_b
    for db in (a, b):
        row, game = play.load(db, id_a)
        play.apply(db, row, 0, first_leaders(game), row["version"])
    views = [play.load(db, id_a)[1].view(0) for db in (a, b)]
    assert views[0] != views[1]
    for db, view in zip((a, b), views, strict=True):
        assert Game.from_json(load_game(db, id_a)["state"]).view(0) == view


def test_changing_a_loaded_game_does_not_change_the_kept_one(two_dbs):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=3)
    row, game = play.load(db, game_id)
    before = game.view(0)
    game.apply(0, first_leaders(game))
    assert play.load(db, game_id)[1].view(0) == before


def test_a_finished_game_leaves_memory(two_dbs):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=4)
    row, game = play.load(db, game_id)
    played = play.apply(db, row, 0, {"type": "resign"}, row["version"])
    assert played.row["status"] == "finished"
    assert gamecache.GAMES.get(db, load_game(db, game_id)) is None
    assert all(key[1] != game_id or key[0] != db.path for key in gamecache.GAMES.entries)


def test_a_row_at_the_kept_version_skips_the_snapshot_yet_gives_it_exactly(two_dbs, monkeypatch):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=5)
    rng = random.Random(5)
    row = play.load_row(db, game_id)
    loads = []
    real_load = store.load_game
    monkeypatch.setattr(store, "load_game", lambda *args, **kw: loads.append(dict(real_load(*args, **kw))) or dict(loads[-1]))
    decoded = []
    real = Game.from_json.__func__
    monkeypatch.setattr(Game, "from_json", classmethod(lambda cls, text, pool=None: decoded.append(1) or real(cls, text, pool)))
    game = play.game_of(db, row)
    for _ in range(40):
        seat = min(game.waiting_for())
        action = RandomPlayer(seed=rng.getrandbits(32)).choose(game.copy(), seat)
        played = play.apply(db, row, seat, action, row["version"])
        row = play.load_row(db, game_id)
        if row["status"] != "active":
            break
        assert "state" not in loads[-1]  # not read from the file
        stored = real_load(db, game_id)
        assert row == stored and row["state"] == played.row["state"]
        game = play.game_of(db, row)
        assert game.view(seat) == played.game.view(seat)
    assert decoded == [1]  # the first load only


def test_a_game_another_writer_moved_is_read_whole(two_dbs):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=6)
    row, game = play.load(db, game_id)
    played = play.apply(db, row, 0, first_leaders(game), row["version"])
    assert play.load_row(db, game_id)["state"] == played.row["state"] == played.game.to_json()
    # another process's write: the store alone, so this process's cache still holds the older version
    after = played.game.copy()
    seat = min(after.waiting_for())
    action = RandomPlayer(seed=1).choose(after.copy(), seat)
    after.apply(seat, action)
    store.append_action(db, game_id, played.version, seat, action, after.to_json())
    row = play.load_row(db, game_id)
    assert row["state"] == after.to_json() and row["version"] == played.version + 1
    assert play.game_of(db, row).view(seat) == after.view(seat)
    with pytest.raises(play.Stale):  # the old row's write loses the version race
        stale = dict(played.row, version=played.version)
        play.apply(db, stale, seat, action, played.version)


def test_an_action_at_the_kept_version_reads_no_row_and_stores_the_same(two_dbs, monkeypatch):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=7)
    user_id = load_game(db, game_id)["seats"][0]
    row, game = play.load(db, game_id)
    played = play.move_as(db, game_id, user_id, first_leaders(game), row["version"])
    while 0 not in played.game.waiting_for():  # the CPU's moves, as its runner writes them
        action = RandomPlayer(seed=1).choose(played.game.copy(), 1)
        played = play.apply(db, played.row, 1, action, played.version)
    loads = []
    real_load = store.load_game
    monkeypatch.setattr(store, "load_game", lambda *args, **kw: loads.append(1) or real_load(*args, **kw))
    action = RandomPlayer(seed=2).choose(played.game.copy(), 0)
    again = play.move_as(db, game_id, user_id, action, played.version)
    assert loads == []  # the row kept with the game served
    stored = real_load(db, game_id)
    assert stored["version"] == again.version == played.version + 1
    assert stored["state"] == again.game.to_json()
    # the row as stored, but for its ``updated`` time (a Played's row never had the write's own time)
    assert dict(again.row, updated=None) == dict(stored, updated=None)


def test_a_refusal_on_the_kept_row_is_the_stored_games_answer(two_dbs):
    db = two_dbs[0]
    game_id = cpu_game(db, seed=8)
    user_id = load_game(db, game_id)["seats"][0]
    row, game = play.load(db, game_id)
    played = play.move_as(db, game_id, user_id, first_leaders(game), row["version"])
    # another process ends the game: the store alone, so this process still keeps the older row
    store.end_game(db, game_id, played.version, "aborted", {"winner": None, "reason": "host"})
    seat = min(played.game.waiting_for())
    action = RandomPlayer(seed=3).choose(played.game.copy(), seat)  # (the CPU's seat: refused as well)
    with pytest.raises(play.Stale, match="is at version"):  # what the read row says, as without the kept one
        play.move_as(db, game_id, user_id, action, played.version)
    assert load_game(db, game_id)["version"] == played.version + 1  # nothing written
    with pytest.raises(play.Forbidden):  # a stranger: refused on the kept row and on the read one alike
        play.move_as(db, game_id, user_id + 1000, action, played.version)


def test_a_write_from_memory_names_the_games_creation_too(two_dbs):
    """The same id and version in a file made anew is another game: a write from a kept row names the
    game's creation time, so it never lands on that other game."""
    db = two_dbs[0]
    game_id = cpu_game(db, seed=9)
    row, game = play.load(db, game_id)
    with pytest.raises(store.StaleVersion):
        store.append_action(db, game_id, row["version"], 0, first_leaders(game), row["state"],
                            created="2000-01-01T00:00:00.000Z")
    assert load_game(db, game_id)["version"] == row["version"] and store.list_actions(db, game_id) == []
    assert store.append_action(db, game_id, row["version"], 0, first_leaders(game), row["state"],
                               created=row["created"]) == row["version"] + 1
