"""R16: the round-12 judgment (more lands, then the nearer front position by position, else a draw).

Distances to the enemy base (R4.7): for player 0, H1 = 0, L5/L6 = 1, L3/L4 = 2, L1/L2 = 3, H0 = 4;
for player 1, H0 = 0, L1/L2 = 1, L3/L4 = 2, L5/L6 = 3, H1 = 4.
"""

from tests.engine.helpers import assert_illegal, do, events_of, scenario, unit

ALL = ("H0", "L1", "L2", "L3", "L4", "L5", "L6", "H1")


def owners(p0=(), p1=()):
    out = {land: None for land in ALL}
    out.update({land: 0 for land in p0})
    out.update({land: 1 for land in p1})
    return out


def final_turn(p0_lands, p1_lands, p0_units=None, p1_units=None, first=0, round=12):
    """The second player's round-12 main step, with the given land owners."""
    second = 1 - first
    return scenario({"units": p0_units or [unit("orc", "H0", "a0", leader=True)]},
                    {"units": p1_units or [unit("orc", "H1", "b0", leader=True)]},
                    round=round, first=first, active=second, owners=owners(p0_lands, p1_lands))


def judge(g):
    ev = do(g, g.state.active, "end_turn")
    return ev, events_of(ev, "judgment")


def test_r16_1_more_lands_wins():
    """R16.1 (1): the player with more lands (own base included) wins."""
    g = final_turn(["H0", "L1", "L2"], ["H1", "L5"])
    ev, j = judge(g)
    assert j[0]["lands"] == [3, 2]
    assert g.result == {"winner": 0, "reason": "judgment"}
    assert events_of(ev, "game_over") == [{"type": "game_over", "winner": 0, "reason": "judgment"}]
    assert g.waiting_for() == set()


def test_r16_1_more_lands_wins_for_player_1_too():
    """R16.1 (1): more lands wins whichever player has them."""
    g = final_turn(["H0"], ["H1", "L5", "L6", "L4"])
    _, j = judge(g)
    assert j[0]["lands"] == [1, 4]
    assert g.result == {"winner": 1, "reason": "judgment"}


def test_r16_1_captured_enemy_base_counts_for_the_captor():
    """R16.1 (1): a captured enemy base counts as one of the captor's lands, not the owner's."""
    g = final_turn(["H0", "H1"], ["L6"],
                   p0_units=[unit("orc", "H0", "a0", leader=True), unit("orc", "H1", "a1")],
                   p1_units=[unit("orc", "L6", "b0", leader=True)])
    _, j = judge(g)
    assert j[0]["lands"] == [2, 1]
    assert g.result["winner"] == 0


def test_r16_1_lands_count_by_ownership_not_by_units_standing_there():
    """R16.1 (1), R4.5: lands stay yours after your monsters leave; empty owned lands count."""
    g = final_turn(["H0", "L1", "L3"], ["H1", "L5"])       # nobody stands on L1, L3 or L5
    _, j = judge(g)
    assert j[0]["lands"] == [3, 2]
    assert g.result["winner"] == 0


def test_r16_1_equal_lands_nearer_first_position_wins():
    """R16.1 (2): equal counts; nearest-first lists compared position by position: p0 [1, 3, 4]
    beats p1 [2, 2, 4] at the first position, although both sum to 8."""
    g = final_turn(["H0", "L1", "L5"], ["H1", "L3", "L4"])
    _, j = judge(g)
    assert j[0]["lands"] == [3, 3]
    assert j[0]["fronts"] == [[1, 3, 4], [2, 2, 4]]
    assert sum(j[0]["fronts"][0]) == sum(j[0]["fronts"][1]) == 8
    assert g.result == {"winner": 0, "reason": "judgment"}


def test_r16_1_first_difference_decides_even_at_a_later_position():
    """R16.1 (2): equal first positions; the second position decides: p1 [1, 2, 4] beats
    p0 [1, 3, 4]."""
    g = final_turn(["H0", "L1", "L5"], ["H1", "L2", "L4"])
    _, j = judge(g)
    assert j[0]["fronts"] == [[1, 3, 4], [1, 2, 4]]
    assert g.result == {"winner": 1, "reason": "judgment"}


def test_r16_1_captured_base_is_the_nearest_front():
    """R16.1 (2): a captured enemy base is at distance 0, nearer than any middle land."""
    g = final_turn(["H1", "L1"], ["L5", "L6"],
                   p0_units=[unit("orc", "H1", "a0", leader=True)],
                   p1_units=[unit("orc", "L5", "b0", leader=True)])
    _, j = judge(g)
    assert j[0]["lands"] == [2, 2]
    assert j[0]["fronts"] == [[0, 3], [3, 3]]
    assert g.result["winner"] == 0


def test_r16_1_same_counts_and_same_fronts_is_a_draw():
    """R16.1 (3): same number of lands and identical front lists: a draw."""
    g = final_turn(["H0", "L3", "L1"], ["H1", "L4", "L6"])
    _, j = judge(g)
    assert j[0]["fronts"] == [[2, 3, 4], [2, 3, 4]]
    assert g.result == {"winner": None, "reason": "judgment"}


def test_r16_1_only_own_bases_is_a_draw():
    """R16.1 (3): each holds only its own base: 1 land each, fronts [4] and [4]: a draw."""
    g = final_turn(["H0"], ["H1"])
    _, j = judge(g)
    assert j[0]["lands"] == [1, 1]
    assert g.result["winner"] is None


def test_r16_1_no_judgment_after_the_first_players_round_12_turn():
    """R16.1: the first player's round-12 turn ending only passes the turn to the second player."""
    g = scenario(round=12, first=0, active=0)
    ev = do(g, 0, "end_turn")
    assert not events_of(ev, "judgment") and g.result is None
    assert g.state.round == 12 and g.waiting_for() == {1}
    ev = do(g, 1, "end_turn")
    assert events_of(ev, "judgment") and g.result is not None


def test_r16_1_no_judgment_after_the_second_players_round_11_turn():
    """R16.1/R1.4: the judgment comes only after round 12; round 11 ends into round 12."""
    g = final_turn(["H0", "L1"], ["H1"], round=11)
    ev = do(g, 1, "end_turn")
    assert not events_of(ev, "judgment") and g.result is None
    assert g.state.round == 12 and g.waiting_for() == {0}


def test_r16_1_judgment_follows_the_second_player_when_player_1_went_first():
    """R16.1: with player 1 first, player 0's round-12 turn is the last; player 1's is not."""
    g = scenario(round=12, first=1, active=1, owners=owners(["H0", "L1"], ["H1"]))
    ev = do(g, 1, "end_turn")
    assert not events_of(ev, "judgment") and g.waiting_for() == {0}
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "judgment")[0]["lands"] == [2, 1]
    assert g.result == {"winner": 0, "reason": "judgment"}


def test_r16_1_no_actions_after_the_judgment():
    """R16.1: the judgment ends the game; nothing more is accepted."""
    g = final_turn(["H0", "L1"], ["H1"])
    judge(g)
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    assert_illegal(g, 0, {"type": "end_turn"}, match="over")


def test_r16_1_judgment_counts_lands_taken_in_the_last_turn():
    """R16.1: a land taken by a march in the second player's last turn counts."""
    g = final_turn(["H0", "L1"], ["H1", "L5"],
                   p1_units=[unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")])
    # before: p0 {H0, L1}, p1 {H1, L5}: 2 : 2; p1 takes the empty L3 and keeps L5 (R4.5)
    do(g, 1, {"type": "march", "units": ["b1"], "to": "L3"})
    _, j = judge(g)
    assert j[0]["lands"] == [2, 3]
    assert g.result["winner"] == 1


def test_r16_1_the_view_shows_the_judgments_standing_during_the_game_and_it_is_the_judgments_verdict():
    """R16.1 as a score: every reader's view carries ``standing`` (lands held, the fronts nearest
    first, who the judgment would favour now), from public information only, and at round 12 the
    judgment decides exactly as the standing said just before."""
    for p0, p1, leading in ((["H0", "L1", "L2"], ["H1", "L5"], 0),
                            (["H0", "L3"], ["H1", "L6"], 0),       # 2 lands each; fronts [2, 4] against [3, 4]
                            (["H0", "L1"], ["H1", "L4"], 1),       # 2 lands each; fronts [3, 4] against [2, 4]
                            (["H0", "L1"], ["H1", "L5"], None)):   # [3, 4] against [3, 4]: a draw
        g = final_turn(p0, p1)
        views = [g.view(r) for r in (0, 1, None)]
        standing = views[0]["standing"]
        assert all(v["standing"] == standing for v in views)
        assert standing["lands"] == [len(p0), len(p1)]
        _, j = judge(g)
        assert j[0]["lands"] == standing["lands"] and j[0]["fronts"] == standing["fronts"]
        assert standing["leading"] == leading == g.result["winner"], (p0, p1, standing)
