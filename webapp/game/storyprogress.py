"""A player's way through the story: which chapters are open (``unlocked``, ``chapter_states`` for the
map), and a story game's result recorded (``finish``: the clear, a better best result and the chapter's
reward, granted exactly once per player and chapter: ``store.claim_reward`` flips ``reward_granted``
in the same transaction as the grant)."""

from typing import NamedTuple

from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.decks import build as deckbuild
from webapp.engine import Game
from webapp.game import play, storychapters, storygoals
from webapp.store.marks import get_mark, set_mark


def unlocked(progress):
    """The ids of the chapters open to a player with this progress (``store.get_progress``), in order:
    the first chapter, every cleared one, and the one after each cleared chapter."""
    out = []
    previous_cleared = True
    for c in storychapters.chapters():
        cleared = bool((progress.get(c.id) or {}).get("cleared"))
        if previous_cleared or cleared:
            out.append(c.id)
        previous_cleared = cleared
    return out


def chapter_states(progress):
    """[(chapter, "cleared" | "open" | "locked", best)] for the map."""
    open_ids = set(unlocked(progress))
    out = []
    for c in storychapters.chapters():
        p = progress.get(c.id) or {}
        state = "cleared" if p.get("cleared") else "open" if c.id in open_ids else "locked"
        out.append((c, state, p.get("best")))
    return out


def better(new, old):
    """True when the result ``new`` beats the recorded best ``old`` (an earlier round is better)."""
    if not old or not isinstance(old, dict) or not isinstance(old.get("round"), int):
        return True
    return new["round"] < old["round"]


class Outcome(NamedTuple):
    """What ``finish`` found and did."""

    chapter: storychapters.Chapter
    game_id: int
    verdict: storygoals.Verdict
    cleared: bool            # the chapter is cleared (now or before)
    granted: dict | None     # {"packs": [pack ids], "cards": {id: n}} when this call granted the reward


def grant_reward(db, user_id, ch):
    """Give the chapter's reward (inside the caller's transaction); return what was given."""
    pack_ids = [store.grant_pack(db, user_id, ch.pack_source) for _ in range(ch.reward["packs"])]
    if ch.reward["cards"]:
        store.add_cards(db, user_id, ch.reward["cards"])
        deckbuild.after_grant(db, user_id)  # 30 cards for the first time: a first deck (docs/decks.md)
    return {"packs": pack_ids, "cards": dict(ch.reward["cards"])}


def finish(db, user_id, row):
    """Judge a story game of the user's and, if its goal is met, record the clear (and a better
    best result) and grant the reward — exactly once per user and chapter, however often this is
    called (``store.claim_reward`` and the grant share one transaction).

    ``row`` is the game's row or id; it is read again from the store, so a row whose state is older
    than the game is fine. Raises play.NotFound (not a story game) and play.Forbidden (not the
    user's game). Works on a game still being played too: a ``take_land`` goal met mid-game clears.
    """
    game_id = row["id"] if isinstance(row, dict) else row
    row = play.load_row(db, game_id)
    ch = storychapters.chapter_of(row)
    if row["seats"][0] is None or row["seats"][0] != user_id:
        raise play.Forbidden(gettext("This story game is not yours."))
    game = Game.from_json(row["state"])
    actions = store.list_actions(db, game_id) if ch.goal["type"] == "take_land" else None
    verdict = storygoals.judge(row, game, actions)
    if not verdict.met:
        cleared = bool((store.get_progress(db, user_id).get(ch.id) or {}).get("cleared"))
        return Outcome(ch, game_id, verdict, cleared, None)
    best = {"round": verdict.round, "game": game_id, "reason": verdict.reason}
    granted = None
    with store.transaction(db):
        old = (store.get_progress(db, user_id).get(ch.id) or {}).get("best")
        store.record_clear(db, user_id, ch.id, best if better(best, old) else None)
        if store.claim_reward(db, user_id, ch.id):
            granted = grant_reward(db, user_id, ch)
            set_mark(db, user_id, first_clear_mark(ch), {"game": game_id})
    return Outcome(ch, game_id, verdict, True, granted)


def first_clear_mark(ch):
    """The user mark that names the game which first cleared chapter ``ch`` (and so got its reward)."""
    return f"story_first_clear:{ch.id}"


def first_cleared_by(db, user_id, ch):
    """The id of the game that first cleared the chapter for the user and got its reward; None if
    not cleared, or cleared before this was recorded."""
    mark = get_mark(db, user_id, first_clear_mark(ch))
    return mark.get("game") if isinstance(mark, dict) else None


def reward_packs(db, user_id, ch):
    """The user's packs from this chapter's reward (to show them with the pack-opening view)."""
    return [p for p in store.list_packs(db, user_id) if p["source"] == ch.pack_source]
