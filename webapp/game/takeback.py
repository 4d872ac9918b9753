"""Taking back a move (misclick safety, docs/decisions/0125-take-back-drops-the-last-action.md): in a
game against the CPU (a CPU game or a story battle) the player may undo their last action of their
main step while it showed them nothing new and the CPU has not acted since. The stored game loses that action and is replayed from its setup
without it (webapp/game/replay.py), in one transaction that checks the version, so the game stays
its setup plus its actions, and its replay, its goals and its quests read it so.

The rule, ``revealed_nothing(before, after, seat)``, reads the engine's states just before and just
after the action:

* both are the seat's main step of the same turn, and the game is not over: so the action was a
  summon, a march that started no battle, a [March] ability or a discard; nothing that ended the turn
  (a draw), started a battle or asked for monsters to be destroyed;
* the engine's random stream and its forced dice are untouched: no die, no coin, no shuffle;
* both draw piles are untouched (nothing drawn or searched), and every card the seat sees after the
  action it saw before it (``views.seen_instances``: the board, both discard piles, its own hand and
  the opponent's cards shown in hand): no hidden card came into view.

Beside it, ``take_back`` asks that the last stored action be the seat's own (so the CPU has not acted
since; each take-back drops one, so take-backs one after the other go back at most to the start of
the turn: the action before it is the CPU's or a battle's). Online games between people never offer
it (Forbidden), and a user without a seat is told the game does not exist, as ``fork`` tells them.
Every other refusal is one sentence that names no card and no reason of the engine's, so it says
nothing the seat's view does not show.

The board learns whether it may offer the button from the seat's ``state`` (``take_back``, docs/
protocol.md): ``offered`` answers it from the action just played when there is one (the play service's
``Played.before``), else from a replay, remembered per game and version.
"""

from flask_babel import gettext

from webapp import store
from webapp.engine import Game, seen_instances
from webapp.game import cpuseats, gamecache, play, replay
from webapp.game.bounded import Bounded

#: The modes whose games offer take-backs: the player's games against the CPU.
MODES = ("cpu", "story")


def refused(game_id):
    """The one answer to every take-back the rule refuses: it says which moves can be taken back, never
    which part of the rule this one failed."""
    return play.Illegal(gettext("Only your last move of this turn can be taken back, and only while it showed "
                                "you nothing new (no card drawn or revealed, no battle, no dice) and the CPU "
                                "has not moved since."), game_id)


def missing(game_id):
    return play.NotFound(gettext("There is no such game."), game_id)


def revealed_nothing(before, after, seat):
    """Whether the action that took engine state ``before`` to ``after`` may be taken back by ``seat``
    (the rule of the module's docstring). Reads the states, changes nothing."""
    if after.result is not None or before.result is not None:
        return False
    for s in (before, after):
        if s.phase != "main" or s.active != seat:
            return False
    if before.round != after.round:
        return False
    if before.rng != after.rng or before.dice != after.dice:
        return False
    if before.deck != after.deck:
        return False
    return seen_instances(after, seat) <= seen_instances(before, seat)


def waits_in_main_step(row, game, seat):
    """The cheap half: a game of a take-back mode in progress, the seat a person's, its main step now."""
    if row.get("mode") not in MODES or row.get("status") != "active" or seat not in (0, 1):
        return False
    if row["seats"][seat] is None or seat in cpuseats.cpu_seats(row):
        return False
    s = game.state
    return s.result is None and s.phase == "main" and s.active == seat


class Remembered:
    """``offered``'s answers per game and version (a replay's answer costs a replay): {(file, id,
    created, version): bool}, in a ``Bounded`` memory of ``size`` answers."""

    def __init__(self, size=512):
        self.kept = Bounded(size)

    @property
    def entries(self):
        return self.kept.entries

    @staticmethod
    def key(db, row):
        return getattr(db, "path", None), row["id"], row["created"], row["version"]

    def get(self, db, row):
        return self.kept.get(self.key(db, row))

    def put(self, db, row, answer):
        return self.kept.put(self.key(db, row), answer)


REMEMBERED = Remembered()


def offered(db, row, game, seat, played=None):
    """The seat's ``take_back`` flag: None for a game without take-backs (online, puzzles…) or a
    spectator, else whether ``take_back`` would accept the seat's request now. ``played``, the Played
    that made this version if the caller has it, answers without reading anything."""
    if row.get("mode") not in MODES or seat not in (0, 1) or row["seats"][seat] is None:
        return None
    if not waits_in_main_step(row, game, seat):
        return False
    if played is not None and played.row["version"] == row["version"] and played.row["id"] == row["id"]:
        if played.seat != seat or played.before is None:
            return False  # the CPU's action, or the server's
        return REMEMBERED.put(db, row, revealed_nothing(played.before, game.state, seat))
    known = REMEMBERED.get(db, row)
    if known is not None:
        return known
    last = store.last_action(db, row["id"])
    if last is None or last["player"] != seat:
        return REMEMBERED.put(db, row, False)
    states = last_states(row["setup"], store.list_actions(db, row["id"]))
    return REMEMBERED.put(db, row, len(states) >= 2 and revealed_nothing(states[-2], states[-1], seat))


def last_states(setup, actions, keep=3):
    """The engine states after the last ``keep`` steps of the replay (the start counts), oldest first."""
    out = []
    for step in replay.steps(setup, actions):
        out.append(step.game.state)  # ``apply`` swaps in a new state: each one kept stays as it was
        if len(out) > keep:
            out.pop(0)
    return out


def take_back(db, game_id, user_id, version):
    """Undo the user's last action in game ``game_id`` at ``version``; return the Played of the game
    without it, whose one event, ``{"type": "taken_back", "player": seat}`` (the server's, not the
    engine's), the log words "You take back your last move.". Refusals change nothing: NotFound (no
    such game, or no seat of the user's), Forbidden (a game between people), Stale (``version`` is not
    the game's, or another writer moved it on meanwhile: a CPU move, a second take-back), Illegal
    (``refused``: the rule)."""
    try:
        row = play.load_row(db, game_id)
    except play.NotFound:
        raise missing(game_id) from None
    seat = play.seat_of(row, user_id)
    if seat is None:
        raise missing(game_id)
    if row["mode"] not in MODES:
        raise play.Forbidden(gettext("Moves can be taken back in games against the CPU, not between people."), game_id)
    if isinstance(version, bool) or not isinstance(version, int):
        raise play.BadRequest(f"a version is an integer, got {version!r}", game_id)
    if version != row["version"]:
        raise play.Stale(f"game {game_id} is at version {row['version']}, not {version}", game_id)
    if row["status"] != "active":
        raise play.Illegal(gettext("This game is over."), game_id)
    if not waits_in_main_step(row, play.game_of(db, row), seat):
        raise refused(game_id)
    actions = store.list_actions(db, game_id)
    if not actions or actions[-1]["player"] != seat:
        raise refused(game_id)
    states = last_states(row["setup"], actions)
    if len(states) < 2 or not revealed_nothing(states[-2], states[-1], seat):
        raise refused(game_id)
    game = Game(states[-2])
    text = gamecache.snapshot_text(game)
    try:
        new_version = store.take_back_action(db, game_id, version, actions[-1]["seq"], seat, text)
    except store.StaleVersion:
        raise play.Stale(f"game {game_id} moved on while the take-back was checked", game_id) from None
    row = dict(row, version=new_version, state=text)
    gamecache.GAMES.put(db, row, game, text)
    # the next take-back's answer is known now: the action before, from the state before it
    again = (len(actions) >= 2 and actions[-2]["player"] == seat and len(states) >= 3
             and waits_in_main_step(row, game, seat) and revealed_nothing(states[-3], states[-2], seat))
    REMEMBERED.put(db, row, again)
    return play.Played(new_version, [{"type": "taken_back", "player": seat}], game, row, seat)
