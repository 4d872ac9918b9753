"""Site-wide pages: the landing page (with a new player's first steps), the credits and the health check."""

from flask import Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request, session, url_for
from flask_babel import format_datetime, gettext, refresh
from flask_babel import lazy_gettext as _l

from webapp import i18n
from webapp.accounts import registration_mode
from webapp.cards.art import card_icons
from webapp.engine import load_pool
from webapp.game import boardsettings, quests, storychapters

from webapp.store import decks as store_decks
from webapp.store import get_db
from webapp.store import games as store_games
from webapp.store import packs as store_packs
from webapp.store import story as store_story
from webapp.store.marks import get_mark, set_mark
from webapp.web.security import login_required, nav_url, safe_next

bp = Blueprint("pages", __name__)

#: The first steps of a new account, in order: (key, title, what to do, endpoint of the page that does it).
STEPS = (
    ("pack", _l("Open your welcome pack"), _l("Six cards to start your collection, one by one."), "collection.packs_page"),
    ("chapter", _l("Win story chapter 1"), _l("Eringe shows you leaders and summoning; the prince lends you his brigade."),
     "story.index"),
    ("deck", _l("Battle with a deck of your own"),
     _l("At 30 cards a deck is built for you; use it, or build one in Decks with Fill for me."), "decks.index"),
    ("friend", _l("Invite a friend"), _l("Send a link or a code from Friends and battle each other live."), "lobby.index"),
)
#: The user mark that remembers the steps seen done (so a step stays ticked).
STEPS_MARK = "first_steps"


@bp.get("/")
def index():
    """Show the landing page; a logged-in player sees their first steps until all are done."""
    steps = first_steps(g.user["id"]) if g.get("user") else None
    return render_template("index.html", card_count=card_count(), steps=steps,
                           steps_done=sum(s["done"] for s in steps) if steps else 0,
                           registration_open=registration_mode(current_app.config, get_db()) != "closed",
                           daily=daily_quests(g.user["id"]) if g.get("user") else None)


@bp.record_once
def configure_quests(state):
    """A QUEST_DAY_ZONE naming no time zone stops the app at start, with the setting named."""
    quests.configure(state.app.config)


def quest_entry(q, lang):
    """What the home page and a game's end screen show of one of the day's quests."""
    reward = []
    if q.quest.shards:
        reward.append(gettext("%(n)s shards", n=q.quest.shards))
    if q.quest.packs:
        reward.append(gettext("a pack") if q.quest.packs == 1 else gettext("%(n)s packs", n=q.quest.packs))
    return {"slot": q.slot, "text": q.quest.words(lang), "progress": q.progress, "target": q.quest.target,
            "done": q.done, "claimed": q.claimed, "reward": ", ".join(reward)}


def daily_quests(user_id):
    """The home page's quests box: the day's three quests, the reroll left, when the next day starts."""
    db, lang = get_db(), i18n.current()
    return {"quests": [quest_entry(q, lang) for q in quests.of_day(db, user_id)],
            "reroll": quests.can_reroll(db, user_id),
            "next": format_datetime(quests.next_day_starts(), "short")}


def quest_slot(slot):
    if slot not in range(quests.PER_DAY):
        abort(404, description=gettext("There is no such quest today."))
    return slot


@bp.post("/quests/<int:slot>/claim")
@login_required
def claim_quest(slot):
    """Take a done quest's reward (once: a second click or a racing request is told so)."""
    try:
        q = quests.claim(get_db(), g.user["id"], quest_slot(slot))
    except quests.QuestError as exc:
        flash(str(exc), "error")
    else:
        got = quest_entry(quests.DayQuest(slot, q, q.target, True), i18n.current())["reward"]
        flash(gettext("Quest done: you got %(reward)s.", reward=got), "success")
    return redirect(url_for(".index") + "#quests", 303)


@bp.post("/quests/<int:slot>/reroll")
@login_required
def reroll_quest(slot):
    """Swap one unclaimed quest for another, once a day."""
    try:
        q = quests.reroll(get_db(), g.user["id"], quest_slot(slot))
    except quests.QuestError as exc:
        flash(str(exc), "error")
    else:
        flash(gettext("New quest: %(text)s.", text=q.words(i18n.current())), "success")
    return redirect(url_for(".index") + "#quests", 303)


@bp.get("/about")
def about():
    """Credits: where the card pictures come from (game-icons.net, CC BY 3.0) and which card shows which."""
    mapping, _ = card_icons()
    pool = load_pool()
    lang = i18n.current()
    icons = sorted(((pool[cid].data["name"].get(lang) or pool[cid].data["name"]["en"], icon)
                    for cid, icon in mapping.items() if cid in pool),
                   key=lambda pair: pair[0].lower())
    return render_template("about.html", icons=icons)


@bp.post("/lang")
def language():
    """Switch the language of pages, board, log and card faces (webapp/i18n.py): the header's switch
    and the board settings post ``lang`` (form or JSON) and, from a form, ``next``: the page to go back to."""
    data = request.get_json(silent=True) if request.is_json else request.form
    lang = (data or {}).get("lang")
    if lang not in i18n.LANGS:
        return jsonify(error="bad_request", message=f"lang must be one of {', '.join(i18n.LANGS)}"), 400
    if request.is_json:
        return remember_language(jsonify(lang=lang), lang)
    target = safe_next(request.form.get("next")) or "/"  # only a page of this site
    return remember_language(redirect(target, 303), lang)


def remember_language(response, lang):
    """Remember ``lang`` for this visitor: the account's mark (logged in), the cookie, and the card faces
    (board settings and the collection's session choice) with it (webapp/i18n.py reads them back)."""
    g.locale_choice = lang
    response.set_cookie(i18n.COOKIE, lang, max_age=400 * 24 * 3600, samesite="Lax", httponly=True)
    session["card_lang"] = lang
    user = g.get("user")
    if user:
        db = get_db()
        set_mark(db, user["id"], i18n.MARK, lang)
        boardsettings.save(db, user["id"], {"lang": lang})
    refresh()
    return response


@bp.get("/healthz")
def healthz():
    """Answer a load balancer's or a deploy script's liveness check."""
    return jsonify(ok=True)


def card_count():
    """How many cards the engine's pool holds."""
    return len(load_pool())


def steps_done(db, user_id):
    """The keys of STEPS the user's data shows done."""
    done = set()
    if store_packs.has_opened_pack(db, user_id):
        done.add("pack")
    first = first_chapter_id()
    if first and store_story.has_cleared(db, user_id, first):
        done.add("chapter")
    loaners = store_decks.loaner_ids(db)
    if any(deck_id is not None and deck_id not in loaners for deck_id in store_games.deck_ids_played(db, user_id)):
        done.add("deck")
    if store_games.has_online_game(db, user_id):
        done.add("friend")
    return done


def first_chapter_id():
    try:
        chapters = storychapters.chapters()
    except Exception:  # noqa: BLE001 - no story data: the step is not offered as done
        return None
    return chapters[0].id if chapters else None


def first_steps(user_id):
    """The STEPS for this user, each with ``done`` (from their data, or remembered once seen) and
    its page's ``url``; None when every step is done (the list then makes way for the home page)."""
    db = get_db()
    seen = set(get_mark(db, user_id, STEPS_MARK, []))
    if seen >= {key for key, *_ in STEPS}:
        return None
    done = seen | steps_done(db, user_id)
    if done != seen:
        set_mark(db, user_id, STEPS_MARK, sorted(done))
    if done >= {key for key, *_ in STEPS}:
        return None
    steps = [{"key": key, "title": title, "text": text, "url": nav_url(endpoint), "done": key in done}
             for key, title, text, endpoint in STEPS]
    following = next((s for s in steps if not s["done"]), None)
    if following:
        following["next"] = True
    return steps
