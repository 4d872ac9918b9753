"""The deckbuilder's pages: a user's decks, building and editing them, and the loaner decks (R2); copies,
imports and deck codes are webapp/decks/sharing.py's.

Handlers read the form, call one helper below, and render or redirect. A deck is stored only if
nothing refuses it (webapp.decks.check: unknown cards, more than 30 cards, cards not owned); a
deck of fewer than 30 cards is kept as a draft that cannot be played yet. Another user's deck
is a 404, as is any change to a loaner deck.
"""


from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext

from webapp.decks import build as deckbuild, crafting, search, sharing, textlist
from webapp.decks.collection import Collection
from webapp import i18n
from webapp.cards.text import rules_text, tribe_ja
from webapp.decks.check import (DECK_SIZE, NAME_MAX, SPELL_TIP_AT, BadDeckInput, cards_word, check_deck, check_name,
                              clip_to_owned, element_word, eringe_tip, facts, read_counts)
from webapp.decks.check import messages as deck_messages
from webapp.decks.stats import deck_stats, pool_levels
from webapp.engine import ELEMENTS, load_pool
from webapp.store import (DeckNameTaken, DeckNotFound, NotYourDeck, TooManyDecks, delete_deck, get_db, get_deck,
                          get_loaner, list_decks, rename_deck, save_deck, transaction)
from webapp.store import marks
from webapp.store.decks import find_by_name
from webapp.web.collection import card_lang, catalogue
from webapp.web.security import login_required

bp = Blueprint("decks", __name__, url_prefix="/decks")


def deck_cap():
    """The most decks one account may keep (the host's MAX_DECKS), checked by the store when a deck is
    made, inside the transaction that makes it."""
    return current_app.config["MAX_DECKS"]


@bp.errorhandler(TooManyDecks)
def too_many_decks(exc):
    """A new deck over the cap: nothing is stored; the deck list says why (the builder's posted cards
    are not kept: the player deletes a deck first)."""
    flash(gettext("You have %(n)s decks, the most this server keeps for one player: delete one to make room.",
                  n=exc.limit), "error")
    return redirect(url_for(".index"), 303)

CARD_FIELD = "card:"
#: Session flag: the first-deck notice was given (or the mark is settled), so pages stop asking.
FIRST_DECK_SEEN = "first_deck_seen"


#: The pages where a deck is chosen for a battle: an account that reached 30 cards before first
#: decks were built (or by a way that does not call deckbuild.after_grant) gets its deck there.
DECK_CHOICE_PAGES = {"play.index", "lobby.index", "lobby.join", "story.chapter"}


@bp.app_template_global()
def built_for_you(deck):
    """Whether ``deck`` is the first deck the game built for the logged-in player (the deck choice marks it)."""
    if g.get("user") is None or not isinstance(deck, dict) or deck.get("loaner"):
        return False
    if "first_deck_id" not in g:
        mark = marks.get_mark(get_db(), g.user["id"], deckbuild.FIRST_DECK_MARK) or {}
        g.first_deck_id = mark.get("deck")
    return g.first_deck_id is not None and deck.get("id") == g.first_deck_id


@bp.before_app_request
def first_deck_notice():
    """On the next page after a player's first deck was built (webapp.decks.build), say so, once."""
    if request.method != "GET" or g.get("user") is None or session.get(FIRST_DECK_SEEN):
        return
    if request.endpoint in (None, "static") or request.path.endswith((".json", ".svg")):
        return

    db, user_id = get_db(), g.user["id"]
    if request.endpoint in DECK_CHOICE_PAGES and marks.get_mark(db, user_id, deckbuild.FIRST_DECK_MARK) is None:
        deckbuild.after_grant(db, user_id, pool=card_pool())
    name = deckbuild.take_notice(db, user_id)
    if name:
        flash(gettext("You own %(size)s cards now, so the loaner deck goes back to the prince. We built “%(name)s” "
                      "from your cards: it is ready to play wherever you choose a deck, and you can change it under Decks.",
                      size=DECK_SIZE, name=name), "success")
    if marks.get_mark(db, user_id, deckbuild.FIRST_DECK_MARK) is not None:
        session[FIRST_DECK_SEEN] = True


@bp.get("")
@login_required
def index():
    """The user's decks, and the loaner decks while they own fewer than 30 cards (R2.3)."""
    return render_index()


@bp.route("/new", methods=("GET", "POST"))
@login_required
def new():
    """An empty builder; POST stores the new deck."""
    if request.method == "GET":
        return render_builder(None, "", {})
    return save_from_form(None)


@bp.post("/new/fill")
@login_required
def fill_new():
    """Fill for me on a new deck: the builder again with the posted cards completed (not saved yet)."""
    return fill_from_form(None)


@bp.post("/<int:deck_id>/fill")
@login_required
def fill(deck_id):
    """Fill for me on one of the user's decks: the posted cards completed (not saved yet)."""
    return fill_from_form(own_deck(deck_id))


@bp.post("/auto")
@login_required
def auto():
    """Build a whole deck from the user's cards (webapp.decks.build) and save it."""
    db, user_id = get_db(), g.user["id"]
    pool, owned = card_pool(), owned_cards(db, user_id)
    if sum(owned.values()) < DECK_SIZE:
        flash(gettext("A deck is %(size)s cards and you own %(n)s: open your packs, or battle with the loaner deck "
                      "until you have %(size)s.", size=DECK_SIZE, n=sum(owned.values())), "error")
        return redirect(url_for(".index"))
    deck = deckbuild.build(owned, pool)
    with transaction(db):
        name = sharing.free_name(db, user_id, gettext("My brigade"))
        deck_id = save_deck(db, user_id, name, deck, limit=deck_cap())
    flash(gettext("Built “%(name)s” from your cards: ready to play. Change anything you like and save.", name=name),
          "success")
    return redirect(url_for(".edit", deck_id=deck_id))


@bp.route("/<int:deck_id>", methods=("GET", "POST"))
@login_required
def edit(deck_id):
    """The builder on one of the user's decks; POST replaces its name and cards."""
    deck = own_deck(deck_id)
    if request.method == "GET":
        return render_builder(deck, deck["name"], deck["cards"])
    return save_from_form(deck)


@bp.post("/<int:deck_id>/rename")
@login_required
def rename(deck_id):
    """Rename one of the user's decks."""
    deck = own_deck(deck_id)
    try:
        name = check_name(request.form.get("name"))
        rename_deck(get_db(), g.user["id"], deck_id, name)
    except BadDeckInput as exc:
        return render_builder(deck, deck["name"], deck["cards"], errors=exc.messages, status=400)
    except DeckNameTaken:
        return render_builder(deck, deck["name"], deck["cards"], errors=[sharing.taken(name)], status=400)
    flash(gettext("Renamed to “%(name)s”.", name=name), "success")
    return redirect(url_for(".edit", deck_id=deck_id))


@bp.post("/<int:deck_id>/copy")
@login_required
def copy(deck_id):
    """Copy one of the user's decks into a new deck "Name (copy)"."""
    deck = own_deck(deck_id)
    new_id, name = sharing.copy_own(get_db(), g.user["id"], deck, deck_cap())
    flash(gettext("Copied “%(old)s” to “%(name)s”.", old=deck["name"], name=name), "success")
    return redirect(url_for(".edit", deck_id=new_id))


@bp.post("/<int:deck_id>/delete")
@login_required
def delete(deck_id):
    """Delete one of the user's decks."""
    deck = own_deck(deck_id)
    delete_deck(get_db(), g.user["id"], deck_id)
    flash(gettext("Deleted “%(name)s”.", name=deck["name"]), "success")
    return redirect(url_for(".index"))


@bp.get("/<int:deck_id>/code")
@login_required
def code(deck_id):
    """The deck code of one of the user's decks, as plain text."""
    deck = own_deck(deck_id)
    text = sharing.export_code(deck["cards"], card_pool())
    if text is None:
        abort(404, description=gettext("An empty deck has no deck code."))
    return text + "\n", 200, {"Content-Type": "text/plain; charset=utf-8"}


@bp.get("/<int:deck_id>/list")
@login_required
def card_list_text(deck_id):
    """The card list of one of the user's decks as plain text, ``?lang=en|ja`` (default: the card language)."""
    deck = own_deck(deck_id)
    lang = request.args.get("lang") if request.args.get("lang") in textlist.LANGS else card_lang(remember=False)
    return textlist.export(deck["cards"], card_pool(), lang), 200, {"Content-Type": "text/plain; charset=utf-8"}


@bp.post("/import")
@login_required
def import_code():
    """Store a deck from a deck code or a pasted card list, keeping only the cards the user owns; the
    cards lacking are offered for crafting in the builder."""
    db, user_id = get_db(), g.user["id"]
    try:
        deck_id, message = sharing.import_text(db, user_id, request.form.get("code") or "", request.form.get("name"),
                                               card_pool(), owned_cards(db, user_id), deck_cap())
    except BadDeckInput as exc:
        return render_index(import_errors=exc.messages, status=400)
    flash(message, "success")
    return redirect(url_for(".edit", deck_id=deck_id))


@bp.post("/<int:deck_id>/craft")
@login_required
def craft_lacking(deck_id):
    """Craft the cards this deck lacks (webapp.decks.crafting.deck_lacks) and put them in the deck, in
    one transaction."""
    own_deck(deck_id)
    try:
        lacks, spent, balance = crafting.craft_for_deck(get_db(), g.user["id"], deck_id, request.form.get("expect"),
                                                        card_pool(), current_app.config, limit=deck_cap())
    except crafting.CraftRefused as exc:
        flash(str(exc), "error")
        return redirect(url_for(".edit", deck_id=deck_id), 303)
    flash(gettext("Crafted %(cards)s for %(spent)s shards and put them in the deck (%(n)s shards left).",
                  cards=cards_word(sum(lacks.values())), spent=spent, n=balance), "success")
    return redirect(url_for(".edit", deck_id=deck_id), 303)


@bp.get("/loaner/<slug>")
@login_required
def loaner(slug):
    """A loaner deck: its cards, charts, and what a copy of it would hold."""
    return render_loaner(loaner_deck(slug))


@bp.post("/loaner/<slug>/copy")
@login_required
def copy_loaner(slug):
    """Copy a loaner deck into a deck of the user's, as far as they own its cards (R2.3); with ``fill``,
    the gaps are filled from the user's collection (webapp.decks.build.fill), else the cards lacking
    are offered for crafting in the builder."""
    deck = loaner_deck(slug)
    fill_gaps = bool(request.form.get("fill"))
    try:
        db, user_id = get_db(), g.user["id"]
        deck_id, message = sharing.store_owned_part(db, user_id, deck["cards"], deck["name"], f"“{deck['name']}”",
                                                    card_pool(), owned_cards(db, user_id), deck_cap(),
                                                    fill_gaps=fill_gaps)
    except BadDeckInput as exc:
        return render_loaner(deck, errors=exc.messages, status=400)
    flash(message, "success")
    return redirect(url_for(".edit", deck_id=deck_id))


@bp.errorhandler(DeckNotFound)
@bp.errorhandler(NotYourDeck)
def not_found(exc):
    """A deck deleted or taken out of reach between the check and the write: as if it never was."""
    return render_template("decks/missing.html"), 404


# ---------------------------------------------------------------- helpers


def card_pool():
    """The card pool ({id: CardDef}) decks are built from."""
    return load_pool()


def collection_of(db, user_id):
    """The user's cards under this host's COLLECTION setting (webapp/decks/collection.py)."""
    return Collection.of(db, user_id, current_app.config, card_pool())


def owned_cards(db, user_id):
    """{card id: count} the user owns (every pool card on a host with COLLECTION = "all")."""
    return collection_of(db, user_id).cards


def own_deck(deck_id):
    """The user's deck with its cards; another user's deck, or a change to a loaner deck, is a 404."""
    deck = get_deck(get_db(), g.user["id"], deck_id)  # NotYourDeck, DeckNotFound: not_found
    if deck["loaner"]:
        if request.method != "GET":
            raise NotYourDeck(f"deck {deck_id!r} is a loaner deck")
        abort(redirect(url_for(".loaner", slug=deck["slug"])))  # a loaner is read on its own page
    return deck


def loaner_deck(slug):
    """The loaner deck with this slug and its cards (DeckNotFound: not_found)."""
    return get_loaner(get_db(), slug)


def form_counts():
    """{card id: count} from the builder's ``card:<id>`` fields; raise BadDeckInput on bad counts."""
    pairs = [(key[len(CARD_FIELD):], value) for key in request.form
             for value in request.form.getlist(key) if key.startswith(CARD_FIELD)]
    return read_counts(pairs)


def save_from_form(deck):
    """Check the posted name and cards fully, then store them (as a new deck if ``deck`` is None)."""
    db, user_id = get_db(), g.user["id"]
    name = (request.form.get("name") or "").strip()
    try:
        counts = form_counts()
    except BadDeckInput as exc:
        return render_builder(deck, name, deck["cards"] if deck else {}, errors=exc.messages, status=400)
    errors = []
    try:
        name = check_name(name)
    except BadDeckInput as exc:
        errors.extend(exc.messages)
    report = check_deck(counts, card_pool(), owned_cards(db, user_id))
    errors.extend(report.messages("refused"))
    if errors:
        return render_builder(deck, name, counts, errors=errors, status=400)
    try:
        with transaction(db):
            if deck is None and find_by_name(db, user_id, name) is not None:
                raise DeckNameTaken(name)
            deck_id = save_deck(db, user_id, name, counts, deck_id=deck["id"] if deck else None, limit=deck_cap())
    except DeckNameTaken:
        return render_builder(deck, name, counts, errors=[sharing.taken(name)], status=400)
    if report.playable:
        flash(gettext("Saved “%(name)s”: ready to play.", name=name), "success")
    else:
        flash(gettext("Saved “%(name)s” as a draft (%(n)s/%(size)s cards): not ready to play yet.", name=name,
                      n=sum(counts.values()), size=DECK_SIZE), "success")
    return redirect(url_for(".edit", deck_id=deck_id))


def fill_from_form(deck):
    """Complete the posted cards with webapp.decks.build.fill and show the builder on the result, unsaved."""
    name = (request.form.get("name") or "").strip()
    try:
        counts = form_counts()
    except BadDeckInput as exc:
        return render_builder(deck, name, deck["cards"] if deck else {}, errors=exc.messages, status=400)
    pool, owned = card_pool(), owned_cards(get_db(), g.user["id"])
    kept, _ = clip_to_owned({cid: n for cid, n in counts.items() if cid in pool}, owned)
    if sum(kept.values()) >= DECK_SIZE:
        notice = gettext("The deck already holds %(size)s cards: nothing to fill.", size=DECK_SIZE)
    else:
        counts, added = deckbuild.fill(kept, owned, pool)
        n = sum(added.values())
        if not n:
            notice = gettext("Every card you own is in the deck already: nothing left to add.")
        else:
            notice = gettext("Added %(cards)s to the cards you chose. Nothing is saved yet: look it over, then save.",
                             cards=cards_word(n))
    return render_builder(deck, name or (deck["name"] if deck else ""), counts, notice=notice, dirty=True)


def card_entry(cid, card, owned):
    """What the builder's rows and its script know of one card."""
    if card is None:
        return {"id": cid, "name": cid, "ja": cid, "kind": "unknown", "element": "", "level": None, "tribe": None,
                "slots": {}, "mana": None, "rarity": "", "owned": owned, "unknown": True}
    d = facts(card)
    return {"id": cid, "name": d["name"]["en"], "ja": d["name"]["ja"], "kind": d["kind"], "element": d["element"],
            "level": d.get("level"), "tribe": d.get("tribe"), "slots": d.get("slots", {}), "mana": d.get("mana"),
            "rarity": d["rarity"], "owned": owned}


def sort_key(entry):
    element = ELEMENTS.index(entry["element"]) if entry["element"] in ELEMENTS else len(ELEMENTS)
    return ({"monster": 0, "spell": 1}.get(entry["kind"], 2), element, entry["level"] or 0, entry["name"].lower())


def card_rows(pool, owned, counts):
    """One row per card the user owns or the deck holds, monsters first, by element, level and name."""
    searched = {e["id"]: e["search"] for e in catalogue(pool)}  # the collection's search text (both scripts)
    rows = []
    for cid in set(owned) | set(counts):
        card = pool.get(cid)
        if card is None and cid not in counts:
            continue
        entry = card_entry(cid, card, owned.get(cid, 0))
        entry["search"] = searched.get(cid) or search.fold(cid)
        entry["count"] = counts.get(cid, 0)
        entry["rules"] = rules_text(card, i18n.current()) if card is not None else ""
        entry["tribe_ja"] = tribe_ja(entry["tribe"]) if entry.get("tribe") else entry.get("tribe")
        rows.append(entry)
    return sorted(rows, key=sort_key)


def builder_data(rows, levels):
    """The JSON the builder's script recomputes messages and charts from."""
    keep = ("name", "ja", "kind", "element", "level", "tribe", "slots", "mana", "owned", "unknown")
    return {
        "cards": {r["id"]: {k: r[k] for k in keep if k in r} for r in rows},
        "size": DECK_SIZE, "tipAt": SPELL_TIP_AT, "levels": levels, "elements": list(ELEMENTS),
        "messages": deck_messages(), "tip": eringe_tip(), "lang": i18n.current(),
        "elementNames": {e: element_word(e) for e in ELEMENTS},
    }


def render_builder(deck, name, counts, errors=(), status=200, notice=None, dirty=False):
    """The builder page on ``counts`` (saved or as posted), with ``errors`` from a refused request."""
    pool, user_id = card_pool(), g.user["id"]
    owned = owned_cards(get_db(), user_id)
    rows = card_rows(pool, owned, counts)
    counts = {r["id"]: r["count"] for r in rows if r["count"]}  # the rows' order, as the script lists them
    levels = pool_levels(pool)
    report = check_deck(counts, pool, owned)
    return render_template(
        "decks/builder.html", deck=deck, name=name, rows=rows, counts=counts, report=report,
        stats=deck_stats(counts, pool, levels), levels=levels, data=builder_data(rows, levels),
        errors=list(errors), tip=eringe_tip(), size=DECK_SIZE, name_max=NAME_MAX, notice=notice, dirty=dirty,
        code=sharing.export_code(deck["cards"], pool) if deck else None, card_lang=card_lang(),
        card_text=textlist.export(deck["cards"], pool, card_lang(remember=False)) if deck else "",
        lacking=lacking_panel(deck, pool),
    ), status


def lacking_panel(deck, pool):
    """What the builder's "craft the cards this deck lacks" shows, or None."""
    if deck is None or crafting.gives_everything(current_app.config):
        return None
    lacks = crafting.deck_lacks(get_db(), g.user["id"], deck["id"], pool, current_app.config)
    if not lacks:
        return None
    return {"cards": sharing.card_list(lacks, pool), "n": sum(lacks.values()), "cost": crafting.craft_cost(lacks, pool),
            "shards": crafting.balance(get_db(), g.user["id"])}


def render_index(import_errors=(), status=200):
    db, user_id = get_db(), g.user["id"]
    pool, held = card_pool(), collection_of(db, user_id)
    owned = held.cards
    decks = []
    for d in list_decks(db, user_id):
        if d["loaner"]:
            continue
        cards = get_deck(db, user_id, d["id"])["cards"]
        report = check_deck(cards, pool, owned)
        decks.append(dict(d, playable=report.playable, problems=report.messages("refused", "invalid")))
    loaners = []
    if held.lists_loaners:
        for d in list_decks(db, user_id):
            if d["loaner"]:
                loaners.append(dict(d, owned_part=sum(clip_to_owned(get_loaner(db, d["slug"])["cards"], owned)[0]
                                                      .values())))
    return render_template("decks/index.html", decks=decks, loaners=loaners, owned_total=held.total,
                           size=DECK_SIZE, import_errors=list(import_errors), name_max=NAME_MAX,
                           code=request.form.get("code", "") if import_errors else "",
                           import_name=request.form.get("name", "") if import_errors else ""), status


def render_loaner(deck, errors=(), status=200):
    db, user_id = get_db(), g.user["id"]
    pool, held = card_pool(), collection_of(db, user_id)
    owned = held.cards
    kept, missing = clip_to_owned(deck["cards"], owned)
    cards = sorted((dict(card_entry(cid, pool.get(cid), owned.get(cid, 0)), count=n, card=pool.get(cid))
                    for cid, n in deck["cards"].items()), key=sort_key)
    levels = pool_levels(pool)
    texts = deck.get("texts") or {}
    return render_template(
        "decks/loaner.html", deck=deck, cards=cards, stats=deck_stats(deck["cards"], pool, levels), levels=levels,
        report=check_deck(deck["cards"], pool), kept=sum(kept.values()), missing=sum(missing.values()),
        size=DECK_SIZE, listed=held.lists_loaners, errors=list(errors), card_lang=card_lang(),
        name_ja=texts.get("name", {}).get("ja"), description=texts.get("description", {}),
    ), status
