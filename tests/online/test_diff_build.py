"""``updates.diff`` with its shortcuts (issue 16: a part that is the same object is skipped; the changes of
a view's part are kept by the parts' identity, so the seats and spectators of one state, whose views
share their public parts, compare them once) gives exactly the operations of the plain comparison, and
they patch the old view into the new one, over random games and for hand-made trees."""

import orjson
from hypothesis import strategies as st

from tests.lanes import check, lanes
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game
from webapp.sockets import updates
from webapp.sockets.updates import DEPTH, diff, patch

POOL = load_pool()


def encoded(value):
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


# ---------------------------------------------------------------- the plain comparison (the oracle)


def plain_diff(old, new):
    out = []
    if type(old) is not type(new) or old != new:
        _plain(old, new, [], out, 0)
    return out


def _plain(old, new, path, out, depth):
    """Append the operations from ``old`` to ``new``, which are known to differ (in value or type: the
    caller compared them, so a changed subtree is compared once per level, not twice)."""
    if type(old) is not type(new) or depth >= DEPTH:
        out.append([path, new])
        return
    kind = type(new)
    if kind is dict and _plain_same_order(old, new):
        for key, value in new.items():
            if key not in old:
                out.append([path + [key], value])
            else:
                before = old[key]
                if before != value or type(before) is not type(value):  # (the cheap test first: most are equal)
                    _plain(before, value, path + [key], out, depth + 1)
        for key in old:
            if key not in new:
                out.append([path + [key]])
        return
    if kind is list:
        keyed = _plain_keyed(old, new)
        if not keyed and len(new) == len(old):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b or type(a) is not type(b):
                    _plain(a, b, path + [i], out, depth + 1)
            return
        if keyed:
            at = {item["id"]: i for i, item in enumerate(old)}
            order = [at.get(item["id"], -1) for item in new]
            if order != list(range(len(old))):
                out.append([path, None, order])
            for i, item in enumerate(new):
                if order[i] < 0:
                    out.append([path + [i], item])
                elif old[order[i]] != item:
                    _plain(old[order[i]], item, path + [i], out, depth + 1)
            return
    out.append([path, new])


def _plain_keyed(old, new):
    """True for two arrays of objects with distinct ``id``s (units, hand cards) whose ids moved, came
    or went: they are matched by id (a ``[path, null, order]`` operation rearranges the old items)."""
    if not old or not new or type(old[0]) is not dict or "id" not in old[0]:
        return False
    try:
        before = [item["id"] for item in old]
        after = [item["id"] for item in new]
    except (TypeError, KeyError):
        return False
    return before != after and len(set(before)) == len(before) and len(set(after)) == len(after)


def _plain_same_order(old, new):
    """True if setting ``new``'s added keys on ``old`` (minus its deleted ones) gives ``new``'s key order
    (a new key lands last, as in a JavaScript object); else the object is sent whole."""
    if list(old) == list(new):
        return True
    kept = [key for key in old if key in new]
    return list(new)[:len(kept)] == kept


# ---------------------------------------------------------------- the properties


def same_diffs(seed):
    """After each action, the two seats' and the spectator's changes (in that order, as the server
    builds them) are the plain ones and patch to the new view."""
    game, rng = random_game(seed, POOL)
    before = {seat: game.view(seat) for seat in (0, 1, None)}
    steps = 0
    while game.result is None and steps < 250:
        game.apply(*random_action(game, rng))
        steps += 1
        for seat in (0, 1, None):
            after = game.view(seat)
            ops = diff(before[seat], after)
            assert ops == plain_diff(before[seat], after)
            assert encoded(patch(before[seat], ops)) == encoded(after)
            assert diff(before[seat], after) == ops  # (again: from what was kept)
            before[seat] = after


@lanes(fast=5, full=40)
def test_the_changes_of_random_games_are_the_plain_ones(examples):
    check(same_diffs, examples, seed=st.integers(0, 10_000))


def test_one_part_in_two_places_is_compared_in_each():
    x, y = {"a": [1, 2], "b": 1}, {"a": [1, 3], "b": 1}
    old, new = {"p": x, "q": x, "r": [x]}, {"p": y, "q": y, "r": [y]}
    ops = diff(old, new)
    assert ops == plain_diff(old, new) == [[["p", "a", 1], 3], [["q", "a", 1], 3], [["r", 0, "a", 1], 3]]
    assert diff({"q": x}, {"q": y}) == [[["q", "a", 1], 3]]
    assert patch(old, ops) == new


def test_kept_changes_are_forgotten_and_made_again():
    base = {"u": [{"id": "p0c1", "life": 1}]}
    for k in range(updates.SHARED_SIZE * 2 + 3):
        new = {"u": [{"id": "p0c1", "life": k + 2}]}
        assert diff(base, new) == [[["u", 0, "life"], k + 2]]
        assert len(updates._SHARED) <= updates.SHARED_SIZE
    deep = {"a": {"b": {"c": {"d": {"e": 1}}}}}
    assert diff(deep, {"a": {"b": {"c": {"d": {"e": 2}}}}}) == [[["a", "b", "c", "d"], {"e": 2}]] and DEPTH == 4
    same = {"v": [1]}
    assert diff(same, same) == [] and diff({"v": [1]}, {"v": [1.0]}) == plain_diff({"v": [1]}, {"v": [1.0]})


def test_the_servers_encoding_is_the_non_string_keys_encoding_byte_for_byte():
    """``statecache.encoded`` tries orjson without ``OPT_NON_STR_KEYS`` first (the faster path): the
    bytes are the option's, for views, their changes, and trees with integer keys or other values."""
    from webapp.sockets.statecache import encoded as server_encoded

    game, rng = random_game(11, POOL)
    before = [game.view(seat) for seat in (0, 1, None)]
    for _ in range(60):
        if game.result is not None:
            break
        game.apply(*random_action(game, rng))
        after = [game.view(seat) for seat in (0, 1, None)]
        for old, new in zip(before, after, strict=True):
            assert server_encoded(new) == encoded(new)
            assert server_encoded(diff(old, new)) == encoded(diff(old, new))
        before = after
    for tree in ({1: "a", "b": [{2: None}]}, {"x": [1, 2.5, True, None, "é"]}, [], {}):
        assert server_encoded(tree) == encoded(tree)
