"""Which finished games earn a reward: the one line drawn against farming (docs/security.md "Cost levers").

Two friends could farm Victory packs by resigning to each other in turn in round 2–4 (a game of a
minute). The line:

* **A game cut short earns nothing.** A game between two players that ended by resignation, a
  clock's timeout or a disconnection (R18) *before round 5* (``FULL_ROUND``) pays no pack. Round 5 is
  where a game has become a game: each player has had four main steps, the first battles have been
  fought (the bases are three lands apart, R4), and a resignation there costs both players minutes,
  not seconds. A game decided by the rules (every enemy leader fell, R1.1; the judgment, R16; a draw)
  counts whenever it ends: nothing outside the rules decided it.
* **A pair of players earns at most ``PAIR_WINS_PER_DAY`` packs from games against each other per
  day** (a UTC day, the server's clock: both players' days would differ otherwise), in both
  directions together. Games against the CPU and story battles pay every win: the CPU never
  resigns, so there is nobody to farm from.

Ratings (webapp/social/ratings.py) use the same line (``played_out``).
"""

from webapp import store

FULL_ROUND = 5
PAIR_WINS_PER_DAY = 3
CUT_SHORT = frozenset({"resign", "timeout", "disconnect"})


def played_out(result, round_reached):
    """Whether a finished game with ``result`` ({"winner", "reason"}) that reached ``round_reached``
    counts: decided by the rules, or ended by a player (or their clock or connection) from round 5 on."""
    if not result:
        return False
    return result.get("reason") not in CUT_SHORT or round_reached >= FULL_ROUND


def day_start():
    """The start of the current UTC day, as the store's time stamps are written (sortable text)."""
    return store.now()[:10] + "T00:00:00.000Z"


def pays_a_pack(db, row, game):
    """Whether the won game ``row`` (finished, its ``game`` at the end) pays its winner the Victory
    pack: played out, and, between two players, within the pair's packs of the day."""
    result = row.get("result") or {}
    seats, winner = row["seats"], result["winner"]
    loser = seats[1 - winner]
    if loser is None:
        return True  # against the CPU, which never resigns: nobody to farm from
    if not played_out(result, game.state.round):
        return False
    return store.count_win_packs_between(db, seats[winner], loser, day_start()) < PAIR_WINS_PER_DAY


def withheld(row, game, has_pack):
    """Why the winner of the finished game ``row`` between two players got no Victory pack: "cut_short"
    (ended by a player before round 5), "pair" (the pair's packs of the day were had), or None (a pack
    was paid, no player won, or a seat is the CPU's)."""
    result = row.get("result") or {}
    winner = result.get("winner")
    if winner not in (0, 1) or None in row["seats"] or has_pack:
        return None
    return "pair" if played_out(result, game.state.round) else "cut_short"
