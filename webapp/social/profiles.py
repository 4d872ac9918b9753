"""A player's profile: rating and its history (an inline SVG chart made here), their finished online
games, and, on one's own profile only, win rate by deck and per-card figures.

What another account may see is what the ladder and the lobby show anyway: the rating, its history,
the finished online games (opponent, result, date) and the overall win rate. A player's decks and the
cards in them are theirs: win rate by deck and the per-card figures are on their own profile only, so
no profile tells anyone what another player's decks hold.

Per-card figures over the player's finished games against people and the CPU, as 17lands gives them:
per card, the games it was in the deck (``in_deck``), and of those the games it was drawn (in the
player's hand at some point, the opening hand included) and played, each with its win rate. Played
is what the engine's log of events says the player put into play (``PLAYED_EVENTS``): summoned on
their turn, quick summoned into a battle (attacking or defending, R9.2), a spell declared (cast, even
if it fizzled), or summoned as a leader. Each figure comes with its count, so a small sample reads as
one. They come from replaying each stored game (webapp/game/replay.py) once: a game's figures are
kept in memory by (database file, game, its creation, seat) since a finished game never changes.
"""

import collections
import threading

from webapp.game import play, replay
from webapp.social import ratings
from webapp.store import list_actions, list_decks, list_games
from webapp.store import social as store_social

#: The engine's events that put one of the player's cards into play (webapp/engine: turn.py, battle.py).
PLAYED_EVENTS = ("summoned", "quick_summoned", "declared", "leaders_revealed")
#: Finished games whose per-card figures are counted (the newest first).
CARD_GAMES = 200


class GameFacts:
    """Per finished game and seat, what the figures need: deck counts, drawn and played card ids."""

    def __init__(self, size=4096):
        self.size = size
        self.kept = collections.OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, build):
        with self.lock:
            if key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
        value = build()
        with self.lock:
            self.kept[key] = value
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return value


FACTS = GameFacts()


def played_in(events, seat, ids):
    """The card ids of ``seat`` that ``events`` (one step's, the engine's log) put into play; ``ids``:
    {unit name: card id}."""
    out = set()
    for e in events:
        kind = e.get("type")
        if kind == "summoned" and e.get("owner") == seat:
            out.add(e["card"])
        elif kind == "quick_summoned" and e.get("player") == seat:
            out.update(e["cards"])
        elif kind == "declared" and e.get("player") == seat and e.get("kind") == "spell":
            out.add(e["card"])
        elif kind == "leaders_revealed":
            out.update(ids[n] for n in e["leaders"].get(str(seat), ()) if n in ids)
    return out


def seat_facts(db, row, seat):
    """(deck {card: count}, drawn {card}, played {card}, names {card: {lang: name}}) of one seat of a
    finished game, by replay."""
    setup = row["setup"]
    deck = collections.Counter(setup["decks"][seat] or [])
    drawn, played = set(), set()
    ids = None
    for step in replay.steps(setup, list_actions(db, row["id"])):
        s = step.game.state
        if ids is None:
            ids = {n: s.static.cards[i].id for i, n in enumerate(s.static.names)}
            titles = {cid: dict(s.static.pool[cid].data["name"]) for cid in deck if cid in s.static.pool}
        drawn.update(s.static.cards[c].id for c in s.hand[seat])
        played |= played_in(step.events, seat, ids)
    return dict(deck), drawn, played, titles


def card_figures(db, user_id):
    """[{"card", "in_deck", "in_deck_won", "drawn", "drawn_won", "played", "played_won"}] over the user's
    finished games (CARD_GAMES newest), most games in deck first."""
    totals = collections.defaultdict(lambda: collections.Counter())
    titles = {}
    games = [g for g in list_games(db, user_id, status="finished") if g["mode"] in ("online", "cpu", "story")]
    for g in games[:CARD_GAMES]:
        row = play.load_row(db, g["id"])
        seat = play.seat_of(row, user_id)
        if seat is None or (row["mode"] == "story" and row["setup"].get("scenario")):
            continue  # a story chapter that starts at its own position: not a deck the player built
        key = (getattr(db, "path", None), row["id"], row["created"], seat)  # another file's game 1 is another game
        deck, drawn, played, named = FACTS.get(key, lambda r=row, s=seat: seat_facts(db, r, s))
        won = (row["result"] or {}).get("winner") == seat
        titles.update(named)
        for card in deck:
            t = totals[card]
            t["in_deck"] += 1
            t["in_deck_won"] += won
            if card in drawn:
                t["drawn"] += 1
                t["drawn_won"] += won
            if card in played:
                t["played"] += 1
                t["played_won"] += won
    out = [dict(t, card=card, names=titles.get(card, {})) for card, t in totals.items()]
    for f in out:
        for key in ("in_deck", "in_deck_won", "drawn", "drawn_won", "played", "played_won"):
            f.setdefault(key, 0)
    return sorted(out, key=lambda f: (-f["in_deck"], f["card"]))


def rate(won, of):
    return None if not of else round(100 * won / of)


def by_deck(games):
    """[{"deck_id", "games", "won", "rate"}] of the user's finished online games, most played first."""
    count = collections.defaultdict(lambda: [0, 0])
    for g in games:
        deck = (g["setup"].get("deck_ids") or [None, None])[g["seat"]]
        count[deck][0] += 1
        count[deck][1] += (g["result"] or {}).get("winner") == g["seat"]
    return sorted(({"deck_id": d, "games": n, "won": w, "rate": rate(w, n)} for d, (n, w) in count.items()),
                  key=lambda r: -r["games"])


def chart(history, width=560, height=160, pad=24):
    """The rating history as SVG parts: {"points", "low", "high", "dots": [(x, y, rating)]}, or None with
    fewer than one point. The y axis spans the lowest to the highest rating (at least 100 points)."""
    values = [ratings.START["rating"]] + [h["rating"] for h in history]
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    if high - low < 100:
        middle = (high + low) / 2
        low, high = middle - 50, middle + 50
    step = (width - 2 * pad) / (len(values) - 1)
    dots = [(round(pad + i * step, 1), round(height - pad - (v - low) / (high - low) * (height - 2 * pad), 1), round(v))
            for i, v in enumerate(values)]
    return {"points": " ".join(f"{x},{y}" for x, y, _ in dots), "low": round(low), "high": round(high),
            "dots": dots, "width": width, "height": height, "pad": pad}


def profile(db, user_id, viewer, with_cards=True):
    """What the profile page shows ``viewer`` about ``user_id`` (module docstring)."""
    own = viewer == user_id
    games = store_social.finished_online_games(db, user_id)
    won = sum((g["result"] or {}).get("winner") == g["seat"] for g in games)
    history = ratings.history(db, user_id)
    out = {"own": own, "rating": ratings.rating_of(db, user_id), "history": history, "chart": chart(history),
           "games": [{"id": g["id"], "opponent": g["opponent"], "updated": g["updated"],
                      "outcome": outcome(g)} for g in reversed(games[-20:])],
           "played": len(games), "won": won, "rate": rate(won, len(games))}
    if own:
        decks = {d["id"]: d for d in list_decks(db, user_id)}
        out["by_deck"] = [dict(r, deck=decks.get(r["deck_id"])) for r in by_deck(games)]
        out["cards"] = card_figures(db, user_id) if with_cards else []
    return out


def outcome(g):
    winner = (g["result"] or {}).get("winner")
    return "draw" if winner not in (0, 1) else "won" if winner == g["seat"] else "lost"
