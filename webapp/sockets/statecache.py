"""The states the server built, kept encoded: ``Built`` (one seat's view and legal actions at one
version) and ``StateCache`` (the latest of each game and seat, bounded by bytes)."""

import collections
import threading

import orjson


def encoded(obj):
    """``orjson.dumps(obj, option=OPT_NON_STR_KEYS)``, the same bytes: without the option first (half
    the time: orjson's path for keys that may not be strings is the slower one, and the server's
    payloads and views have string keys only), with it when a key is not a string (TypeError)."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


class Built:
    """One seat's view and legal actions at one version, built once: encoded (``view`` and ``legal``,
    orjson Fragments the packet encoder copies as they are, and ``legal_json``, their bytes) and the
    view itself (``tree``, what the next version's update is the difference from)."""

    __slots__ = ("view", "legal", "waiting", "tree", "view_size", "legal_json")

    def __init__(self, tree, view_json, legal_json, waiting):
        self.tree, self.waiting = tree, waiting
        self.view, self.legal = orjson.Fragment(view_json), orjson.Fragment(legal_json)
        self.view_size, self.legal_json = len(view_json), legal_json

    def parts(self):
        """(view, legal actions, waiting_for) as ``seatstate.state_for`` takes them."""
        return self.view, self.legal, self.waiting


class StateCache:
    """The costly parts of a ``state`` (the seat's view and legal actions, already encoded as JSON)
    of the latest version of each (game, seat), so a repeated ``join`` of an unchanged game builds
    nothing, and the states an action pushes serve the joins after it. An entry is kept under
    (game, seat) and served only at its own version (and game creation time); a newer version
    replaces it. Bounded by the bytes it holds (least recently used first)."""

    def __init__(self, budget):
        self.budget = budget
        self.entries = collections.OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()

    def latest(self, game_id, seat):
        """(parts, version, created) kept for the seat at whichever version is kept, or None."""
        with self.lock:
            entry = self.entries.get((game_id, seat))
            return None if entry is None else (entry[0], *entry[2])

    def get(self, key):
        """The parts kept for ``key`` = (game, seat, version, created), or None."""
        with self.lock:
            entry = self.entries.get(key[:2])
            if entry is None or entry[2] != key[2:]:
                return None
            self.entries.move_to_end(key[:2])
            return entry

    def put(self, key, entry, size):
        """Keep ``entry`` for ``key`` = (game, seat, version, created), unless a later version of the
        same game is kept already (a join that read the row before an action's push built the next
        version): the kept state stays what the seat's next update is built on."""
        with self.lock:
            kept = self.entries.get(key[:2])
            if kept is not None and kept[2][1] == key[3] and kept[2][0] > key[2]:
                return
            old = self.entries.pop(key[:2], None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.budget:
                return
            self.entries[key[:2]] = (entry, size, key[2:])
            self.bytes += size
            while self.bytes > self.budget:
                _, dropped = self.entries.popitem(last=False)
                self.bytes -= dropped[1]

    def drop_game(self, game_id):
        """Forget a game's states (it ended: its last states were sent; a late join builds again)."""
        with self.lock:
            for seat in (0, 1, None):
                old = self.entries.pop((game_id, seat), None)
                if old is not None:
                    self.bytes -= old[1]

    def __len__(self):
        with self.lock:
            return len(self.entries)

