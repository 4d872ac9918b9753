"""Updates: a seat's ``state`` sent as the changes since the state the server sent it before
(docs/protocol.md "Updates").

``diff(old, new)`` lists the changes between two views as operations, ``patch(view, ops)`` applies
them to a copy. The browser's copy of ``patch`` is ``applyOps`` in static/js/play-transport.js;
tests and the load bench's clients use this one. An operation is a list:

* ``[path, value]``: set the value at ``path`` (a new key of an object, or an existing index of an
  array);
* ``[path]``: delete the key at ``path``;
* ``[path, null, order]``: rearrange the array at ``path``: item ``i`` of the new array is item
  ``order[i]`` of the old one, or null where ``order[i]`` is -1 (a later operation sets it).
  Arrays of objects with distinct ``id``s (units, cards in hand) are matched by id this way when
  their ids moved, came or went, then compared item by item.

A path is a list of object keys (strings) and array indices (integers), from the view's top.
Objects are compared key by key (a changed object whose keys would come out in another order is
sent whole, so the result keeps the new view's key order; equal objects are equal in any order)
and arrays of the same length item by item, down to ``DEPTH`` levels; anything else that changed
is sent whole (an array of other items that grew or shrank, a value below ``DEPTH``). Equal
subtrees are skipped with one ``==`` (C code), so the Python work is proportional to what changed.
"""

import copy

#: How deep ``diff`` looks into objects and arrays before sending a changed value whole: the view's
#: parts (1), one land, unit or player (2), one field of it (3), a field's own parts (4).
DEPTH = 4


def diff(old, new):
    """The operations that turn ``old`` into ``new`` (two views: dicts of JSON values)."""
    out = []
    if type(old) is not type(new) or old != new:
        _diff(old, new, [], out, 0)
    return out


def _diff(old, new, path, out, depth):
    """Append the operations from ``old`` to ``new``, which are known to differ (in value or type: the
    caller compared them, so a changed subtree is compared once per level, not twice)."""
    if type(old) is not type(new) or depth >= DEPTH:
        out.append([path, new])
        return
    kind = type(new)
    if kind is dict and len(old) == len(new) and list(old) == list(new):  # the same keys in the same order
        for key, value in new.items():
            before = old[key]
            if before is not value and (before != value or type(before) is not type(value)):
                if depth == 0 and type(value) in SHARED and type(before) is type(value) and key not in OWN:
                    _diff_shared(before, value, key, out)
                else:
                    _diff(before, value, path + [key], out, depth + 1)
        return
    if kind is dict and _same_order(old, new):
        for key, value in new.items():
            if key not in old:
                out.append([path + [key], value])
            else:
                before = old[key]
                if before is value:
                    continue
                if before != value or type(before) is not type(value):  # (the cheap test first: most are equal)
                    if depth == 0 and type(value) in SHARED and type(before) is type(value) and key not in OWN:
                        _diff_shared(before, value, key, out)
                    else:
                        _diff(before, value, path + [key], out, depth + 1)
        for key in old:
            if key not in new:
                out.append([path + [key]])
        return
    if kind is list:
        keyed = _keyed(old, new)
        if not keyed and len(new) == len(old):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b or type(a) is not type(b):
                    _diff(a, b, path + [i], out, depth + 1)
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
                    _diff(old[order[i]], item, path + [i], out, depth + 1)
            return
    out.append([path, new])


#: The changes of a view's part (``lands``, ``units``, ``battle`` …) between two parts, by the parts'
#: identity and the key: the views of one state share their public parts (webapp/engine/views.py), so
#: the seats' and spectators' updates after an action find the same pair of parts; the first reader's
#: changes serve the others. An entry holds both parts (their ids stay theirs while it lives); beyond
#: ``SHARED_SIZE`` entries the oldest goes. The operations are shared: callers only read them. Few entries
#: (an action changes a handful of the view's ten or so parts): old parts let go soon are freed while still
#: in the processor's caches (32 entries cost about a sixth more for the views and diffs of bench/view_path.py).
SHARED = (dict, list)
SHARED_SIZE = 12
_SHARED = {}
#: The view's parts each reader has a copy of its own (``players``: the seat's entry with its hand, a new
#: list per view, webapp/engine/views.py ``view``): no other reader's pair is ever the same objects, so
#: they are compared without ``_SHARED`` (whose entries they would only push out).
OWN = frozenset({"players"})


def _diff_shared(before, value, key, out):
    """``_diff`` of the view's part ``key`` (depth 1), from ``_SHARED`` when this pair was compared before."""
    memo = (id(before), id(value), key)
    kept = _SHARED.get(memo)
    if kept is not None and kept[0] is before and kept[1] is value:
        out.extend(kept[2])
        return
    ops = []
    _diff(before, value, [key], ops, 1)
    _SHARED[memo] = (before, value, ops)
    if len(_SHARED) > SHARED_SIZE:
        forget_oldest(_SHARED)
    out.extend(ops)


def forget_oldest(kept):
    """Drop the oldest entry of a dict used as a bounded memory (another thread may be dropping it too)."""
    try:  # noqa: SIM105 - contextlib.suppress makes an object per call: a third of this function's time
        kept.pop(next(iter(kept)), None)
    except (RuntimeError, StopIteration):  # changed by another thread meanwhile: the next call drops one
        pass


def _keyed(old, new):
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


def _same_order(old, new):
    """True if setting ``new``'s added keys on ``old`` (minus its deleted ones) gives ``new``'s key order
    (a new key lands last, as in a JavaScript object); else the object is sent whole."""
    if list(old) == list(new):
        return True
    kept = [key for key in old if key in new]
    return list(new)[:len(kept)] == kept


def patch(view, ops):
    """A copy of ``view`` with ``ops`` applied (``view`` is left as it was). ValueError on an operation
    that does not fit the view (a missing key on the way, an index out of range)."""
    view = copy.deepcopy(view)
    for op in ops:
        if not isinstance(op, list) or not 1 <= len(op) <= 3 or not isinstance(op[0], list) or not op[0]:
            raise ValueError(f"not an operation: {op!r}")
        path = op[0]
        node = view
        try:
            for key in path[:-1]:
                node = node[key]
            last = path[-1]
            if len(op) == 3:
                old = node[last]
                node[last] = [old[i] if i >= 0 else None for i in op[2]]
            elif len(op) == 2:
                if isinstance(node, list) and not 0 <= last < len(node):
                    raise IndexError(last)
                node[last] = op[1]
            else:
                del node[last]
        except (KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"operation {op!r} does not fit the view: {exc!r}") from None
    return view


def apply_update(state, update):
    """The full ``state`` an ``update`` makes of the ``state`` it was built against (``update["base"]``
    must be ``state["version"]``: else ValueError, and the client asks for a full state with ``join``)."""
    if state is None or state.get("game") != update.get("game") or state.get("version") != update.get("base"):
        raise ValueError("this update is not built on the state held")
    new = dict(state)
    for key, value in update.items():
        if key not in ("base", "view"):
            new[key] = value
    new["legal_actions"] = update.get("legal_actions", state["legal_actions"])
    new["view"] = patch(state["view"], update["view"])
    return new
