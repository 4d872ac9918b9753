"""The bot client finishes every chapter against the CPU: the human seat played by webapp.ai's
BaselinePlayer through play.act, the CPU (baseline too, whatever the chapter's level: the lessons are
checked here, the levels in bench/story_levels.py) through cpumoves.cpu_turns, no sockets. A chapter the
bot cannot clear within a few seeds is too hard for a beginner, and fails here."""

import random
from collections import Counter

import pytest

from webapp.decks import collection, packs
from webapp.game import play, story, storychapters, storyprogress
from webapp.engine import load_pool
from webapp.store import get_collection, get_deck, get_loaner, get_progress, list_packs, load_game, save_deck

from .conftest import play_out, unlock_up_to

SEEDS = 8
LESSONS = 9  # summoning and leaders ... the round-12 judgment


@pytest.mark.parametrize("chapter_id", [c.id for c in storychapters.chapters()])
def test_the_bot_clears_the_chapter(db, make_user, chapter_id):
    user = make_user(f"bot-{chapter_id}")
    ch = unlock_up_to(db, user["id"], chapter_id)
    tried = []
    for seed in range(SEEDS):
        gid = story.start_chapter(db, user, ch.id, seed=seed, cpu_name="baseline")
        row = play_out(db, gid, user["id"], bot_seed=seed)  # the hook finishes the game as it ends
        progress = get_progress(db, user["id"]).get(ch.id)
        tried.append((seed, row["result"]))
        if progress and progress["cleared"]:
            assert progress["reward_granted"] and isinstance(progress["best"]["round"], int)
            packs = [p for p in list_packs(db, user["id"]) if p["source"] == ch.pack_source]
            assert len(packs) == ch.reward["packs"]
            # the done page's safety net finds it done already
            assert storyprogress.finish(db, user["id"], gid).granted is None
            return
    raise AssertionError(f"the bot did not clear {ch.id} in {SEEDS} seeds: {tried}")


def own_deck(db, user_id):
    """What a player does when the loaner stays home (R2.3): build a legal deck of 30 owned cards."""
    pool = load_pool()
    owned = get_collection(db, user_id)
    monsters = sorted((cid for cid, n in owned.items() for _ in range(n) if pool[cid].kind == "monster"),
                      key=lambda cid: (-(pool[cid].power + pool[cid].life), cid))
    slots = {k for cid in monsters for k in pool[cid].slots}
    spells = [cid for cid, n in sorted(owned.items()) for _ in range(n) if pool[cid].kind == "spell"
              and (not pool[cid].data.get("mana") or pool[cid].element in slots or "wild" in slots)]
    cards = (monsters + spells)[:30]
    deck_id = save_deck(db, user_id, "My brigade", Counter(cards))
    assert collection.Collection.of(db, user_id).deck_problem(get_deck(db, user_id, deck_id)) is None
    return deck_id


def test_the_lessons_in_a_row_by_one_new_player(db, make_user):
    """A new account (starter collection, welcome pack) goes through the lessons (the chapters that teach
    the rules, R5 to R16) in order, opening its packs as they come; each chapter opens the next. It
    starts with the Prince's Brigade, and once it owns 30 cards (the loaner deck stays home) it builds
    a deck of its own cards, greedily, and goes on with that."""
    user = make_user("walker")
    packs.grant_starter(db, user["id"])
    rng = random.Random(7)
    used = []
    lessons = storychapters.chapters()[:LESSONS]
    for n, ch in enumerate(lessons):
        for pack in list_packs(db, user["id"], unopened_only=True):
            packs.open_pack(db, user["id"], pack["id"], load_pool(), {}, rng)
        assert storyprogress.unlocked(get_progress(db, user["id"]))[-1] == ch.id
        try:
            story.story_deck(db, user["id"])
        except play.Forbidden:
            own_deck(db, user["id"])
        for seed in range(SEEDS):
            gid = story.start_chapter(db, user, ch.id, seed=seed, cpu_name="baseline")
            used.append(load_game(db, gid)["setup"]["deck_ids"][0])
            play_out(db, gid, user["id"], bot_seed=seed)
            if (get_progress(db, user["id"]).get(ch.id) or {}).get("cleared"):
                break
        else:
            raise AssertionError(f"stuck at chapter {n + 1}")
    assert len(get_progress(db, user["id"])) == LESSONS
    assert used[0] == get_loaner(db, collection.LOANER)["id"] != used[-1]  # the loaner first, an own deck later
    assert storyprogress.unlocked(get_progress(db, user["id"]))[-1] == storychapters.chapters()[LESSONS].id
