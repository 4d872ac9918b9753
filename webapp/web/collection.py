"""The collection page, card details, card art and packs (docs/collection.md).

Every card of the pool is listed, owned or not; filters and search work in the browser
(static/js/collection.js) and, without JavaScript, by submitting the same form (the server
marks the cards that do not match ``hidden``). Packs are listed, opened by POST and revealed
card by card.
"""


from flask import (Blueprint, abort, current_app, flash, g, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from webapp import i18n
from webapp.decks import crafting, packs, search
from webapp.decks.collection import Collection, gives_everything
from webapp.cards import text as cardtext
from webapp.cards.art import ELEMENT_NAMES, type_line
from webapp.engine import ELEMENTS, load_pool
from webapp.store import get_db
from webapp.web import cardfiles
from webapp.web.security import login_required

bp = Blueprint("collection", __name__)

LANGS = ("en", "ja")
KINDS = {"monster": ("Monster", "モンスター"), "spell": ("Spell", "魔法")}
RARITY_NAMES = {"C": _l("Common"), "U": _l("Uncommon"), "R": _l("Rare"), "SR": _l("Super rare")}
OWNED_FILTER = {"owned": _l("Owned"), "missing": _l("Not owned")}
QUICK = "quick"  # the Quick mark (R9.2) is offered beside the keywords (R13.1)
MAX_QUERY = 100
#: The filters' titles as the form shows them (templates/collection/index.html).
FILTER_TITLES = {"element": _l("Element"), "tribe": _l("Tribe"), "level": _l("Level"), "rarity": _l("Rarity"),
                 "kind": _l("Kind"), "keyword": _l("Keyword"), "set": _l("Set"), "owned": _l("Owned")}


@bp.record_once
def check_pack_settings(state):
    """A bad PACK_WEIGHTS or PACK_SIZE stops the app at start, with the setting named."""
    packs.pack_settings(state.app.config)


# ---------------------------------------------------------------- the catalogue (pure helpers)

def normalize(text):
    """Search form of a text (webapp/decks/search.py ``fold``; static/js/i18n.js folds queries the same way)."""
    return search.fold(text)


def card_texts(card, lang):
    """(name, type line, rules text, flavour) of a card in one language."""
    data = card.data
    flavor = (data.get("flavor") or {}).get(lang, "")
    return data["name"][lang], type_line(card, lang), card_full_rules(card, lang), flavor


def card_full_rules(card, lang):
    """The rules text as printed: the card's own text if it has one, else the generated one."""
    custom = card.data.get("text")
    if isinstance(custom, dict) and custom.get(lang):
        return custom[lang]
    return cardtext.rules_text(card, lang)


def keyword_ids(card):
    """The card's keywords, with "quick" for the Quick mark."""
    return list(card.keywords) + ([QUICK] if card.quick else [])


def keyword_label(kid, lang="en"):
    if kid == QUICK:
        return "Quick" if lang == "en" else "クイック"
    return cardtext.KEYWORD[kid][0 if lang == "en" else 1].strip("【】")


def search_text(card):
    """Everything a search matches, in both languages: names, type line, rules, keywords, and the
    synonyms of the tribes they name (webapp/decks/search.py)."""
    parts = []
    for lang in LANGS:
        name, line, rules, _ = card_texts(card, lang)
        parts += [name, line, rules]
        parts += [keyword_label(k, lang) for k in keyword_ids(card)]
    parts.append(card.id)
    return search.card_search_text(parts)


def sort_key(card):
    """Element, then monsters by level, then spells, then name."""
    element = ELEMENTS.index(card.element) if card.element in ELEMENTS else len(ELEMENTS)
    return (element, card.kind != "monster", card.level or 0, card.data["name"]["en"])


_CATALOGUES = {}


def catalogue(pool):
    """One entry per card of the pool, in display order (cached per pool: the pool never changes)."""
    cached = _CATALOGUES.get(id(pool))
    if cached and cached[0] is pool:
        return cached[1]
    entries = []
    for card in sorted(pool.values(), key=sort_key):
        entries.append({
            "id": card.id, "card": card, "kind": card.kind, "element": card.element,
            "tribe": card.tribe or "", "level": card.level, "rarity": card.rarity, "set": card.set,
            "keywords": keyword_ids(card), "search": search_text(card),
            "name": {lang: card.data["name"][lang] for lang in LANGS},
            "type_line": {lang: type_line(card, lang) for lang in LANGS},
        })
    _CATALOGUES[id(pool)] = (pool, entries)
    return entries


def ui_index():
    """0 for English pages, 1 for Japanese ones: the index into the (English, Japanese) name pairs."""
    return 1 if i18n.current() == "ja" else 0


def facets(entries):
    """The values each filter offers: [(value, label), ...] per filter, labels in the page's language."""
    ui = ui_index()
    tribes = sorted({e["tribe"] for e in entries if e["tribe"]})
    levels = sorted({e["level"] for e in entries if e["level"] is not None})
    keywords = [k for k in (*cardtext.KEYWORD, QUICK) if any(k in e["keywords"] for e in entries)]
    return {
        "element": [(el, ELEMENT_NAMES[el][ui]) for el in ELEMENTS if any(e["element"] == el for e in entries)],
        "tribe": [(t, cardtext.tribe_ja(t) if ui else t) for t in tribes],
        "level": [(str(n), _("Level %(n)s", n=n)) for n in levels],
        "rarity": [(r, str(RARITY_NAMES[r])) for r in packs.RARITIES if any(e["rarity"] == r for e in entries)],
        "kind": [(k, KINDS[k][ui]) for k in KINDS],
        "keyword": [(k, keyword_label(k, "ja" if ui else "en")) for k in keywords],
        "set": [(str(s), _("Set %(n)s", n=s)) for s in sorted({e["set"] for e in entries})],
        "owned": [(k, str(v)) for k, v in OWNED_FILTER.items()],
    }


def read_filters(args, options):
    """(filters, problems): the valid filter values in ``args``; a problem names each value refused."""
    filters, problems = {}, []
    for name, choices in options.items():
        value = args.get(name, "").strip()
        if not value:
            continue
        if value in {v for v, _ in choices}:
            filters[name] = value
        else:
            problems.append(_("No %(name)s is called %(value)s: that filter was left out.",
                              name=str(FILTER_TITLES.get(name, name)).lower(), value=repr(value[:40])))
    query = args.get("q", "").strip()
    if len(query) > MAX_QUERY:
        problems.append(_("The search was cut to its first %(n)s characters.", n=MAX_QUERY))
        query = query[:MAX_QUERY]
    if query:
        filters["q"] = query
    return filters, problems


def matches(entry, count, filters):
    """Whether a catalogue entry (owned ``count`` times) passes every filter; static/js/card-filter.js mirrors this."""
    for name, value in filters.items():
        if name == "q":
            if not search.matches(entry["search"], value):
                return False
        elif name == "owned":
            if (count > 0) != (value == "owned"):
                return False
        elif name == "keyword":
            if value not in entry["keywords"]:
                return False
        elif str(entry[name] if entry[name] is not None else "") != value:
            return False
    return True


# ---------------------------------------------------------------- request helpers

def card_lang(remember=True):
    """The card face language: ?lang=en|ja (remembered in the session if ``remember``); by default the
    page's language (webapp/i18n.py)."""
    lang = request.args.get("lang")
    if lang in LANGS:
        if remember and session.get("card_lang") != lang:
            session["card_lang"] = lang
        return lang
    return session.get("card_lang") if session.get("card_lang") in LANGS else i18n.card_default()


def pool():
    return load_pool()


def pool_card(card_id):
    """The pool's card with this id, or a 404 naming it."""
    card = pool().get(card_id)
    if card is None:
        abort(404, description=f"No card has the id {card_id[:60]!r}.")
    return card


def owned_counts():
    """{card id: count} the logged-in user owns (webapp/decks/collection.py)."""
    return Collection.of(get_db(), g.user["id"], current_app.config, pool()).cards


def detail_context(card, lang):
    """What the card detail (page or fragment) shows."""
    texts = {}
    for code in LANGS:
        name, line, rules, flavor = card_texts(card, code)
        texts[code] = {"name": name, "type_line": line, "rules": rules.split("\n") if rules else [],
                       "flavor": flavor}
    ui = ui_index()
    db, user_id = get_db(), g.user["id"]
    everything = gives_everything(current_app.config)
    craft = None if everything else {
        "shards": crafting.balance(db, user_id), "cost": crafting.CRAFT[card.rarity],
        "value": crafting.DISENCHANT[card.rarity], "spare": crafting.spare_of(db, user_id).get(card.id, 0)}
    return {"card": card, "lang": lang, "texts": texts, "count": owned_counts().get(card.id, 0), "craft": craft,
            "rarity_name": RARITY_NAMES.get(card.rarity, card.rarity),
            "keywords": [keyword_label(k, "ja" if ui else "en") for k in keyword_ids(card)],
            "slots": [(k, ELEMENT_NAMES.get(k, (_("Wild"), _("Wild")))[ui], n) for k, n in card.slots.items()],
            "element_name": ELEMENT_NAMES.get(card.element, (card.element, card.element))[ui],
            "tribe_name": cardtext.tribe_ja(card.tribe) if ui and card.tribe else card.tribe}


# ---------------------------------------------------------------- pages

@bp.get("/collection")
@login_required
def index():
    """Every card of the pool: owned ones in full, the rest dimmed with their count 0."""
    lang = card_lang()
    entries = catalogue(pool())
    options = facets(entries)
    filters, problems = read_filters(request.args, options)
    counts = owned_counts()
    cards = [dict(e, count=counts.get(e["id"], 0), shown=matches(e, counts.get(e["id"], 0), filters))
             for e in entries]
    unopened = packs.list_packs(get_db(), g.user["id"], unopened_only=True)
    everything = gives_everything(current_app.config)
    return render_template(
        "collection/index.html", cards=cards, options=options, filters=filters, problems=problems,
        lang=lang, shown=sum(c["shown"] for c in cards), kinds_owned=sum(c["count"] > 0 for c in cards),
        copies_owned=sum(c["count"] for c in cards), unopened=len(unopened), all_mode=everything,
        shards=None if everything else crafting.balance(get_db(), g.user["id"]))


@bp.get("/collection/card/<card_id>")
@login_required
def card(card_id):
    """One card in detail: a big face, rules and flavour in English and Japanese, copies owned.

    ``?fragment=1`` returns only the detail's HTML, for the page's dialog.
    """
    # A language picked inside the detail is for that card only: the pages keep theirs.
    context = detail_context(pool_card(card_id), card_lang(remember=False))
    if request.args.get("fragment"):
        return render_template("collection/_detail.html", **context)
    return render_template("collection/card.html", **context)


def form_copies():
    """The form's ``copies`` (1 when left out); CraftRefused unless a whole number."""
    text = (request.form.get("copies") or "1").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3:
        raise crafting.CraftRefused(_("Disenchant from 1 to %(n)s copies at a time.", n=crafting.MOST))
    return int(text)


@bp.post("/collection/card/<card_id>/disenchant")
@login_required
def disenchant(card_id):
    """Turn spare copies of a card into shards (webapp/decks/crafting.py), then back to the card."""
    card = pool_card(card_id)
    try:
        gained, balance = crafting.disenchant(get_db(), g.user["id"], card.id, form_copies(),
                                              request.form.get("expect"), pool(), current_app.config)
    except crafting.CraftRefused as exc:
        flash(str(exc), "error")
    else:
        flash(_("+%(gained)s shards: you have %(n)s.", gained=gained, n=balance), "success")
    return redirect(url_for(".card", card_id=card.id), code=303)


@bp.post("/collection/card/<card_id>/craft")
@login_required
def craft(card_id):
    """Craft one copy of a card with shards, then back to the card."""
    card = pool_card(card_id)
    try:
        spent, balance = crafting.craft(get_db(), g.user["id"], {card.id: 1}, request.form.get("expect"), pool(),
                                        current_app.config)
    except crafting.CraftRefused as exc:
        flash(str(exc), "error")
    else:
        flash(_("Crafted %(name)s for %(spent)s shards: you have %(n)s left.",
                name=card.data["name"][i18n.current()], spent=spent, n=balance), "success")
    return redirect(url_for(".card", card_id=card.id), code=303)


@bp.get("/collection/art/<lang>/<card_id>.svg")
def art(lang, card_id):
    """A card face as a standalone SVG image (public, cacheable: it holds nothing about anyone).

    Drawn once per card and language (``cardfiles.drawn``) and answered from memory after that, with
    an ETag, so a browser that has it gets a 304 and a visitor asking again and again costs no drawing."""
    if lang not in LANGS:
        abort(404, description=f"Card faces come in {' and '.join(LANGS)}, not {lang[:20]!r}.")
    card = pool_card(card_id)
    body, etag = cardfiles.drawn(card.id, lang)
    response = current_app.response_class(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.set_etag(etag)
    return response.make_conditional(request)


@bp.get("/art/<lang>/<card_id>-<hash>.svg")
def art_file_route(lang, card_id, hash):
    """A card face under its content-hashed URL (webapp/web/cardfiles.py): cached for a year.

    A stale hash (the art changed since the page was made) is sent to the current file."""
    if lang not in LANGS:
        abort(404, description=f"Card faces come in {' and '.join(LANGS)}, not {lang[:20]!r}.")
    pool_card(card_id)  # 404 for a card not in the pool
    svg, current = cardfiles.art_file(card_id, lang)
    if hash != current:
        return redirect(cardfiles.art_url(card_id, lang))
    return immutable(svg, "image/svg+xml")


@bp.get("/cards/pool-<hash>.json")
def pool_file_route(hash):
    """Every card's name, stats, rules text and art URLs, for the pages that draw cards."""
    body, current = cardfiles.pool_file()
    if hash != current:
        return redirect(cardfiles.pool_url())
    return immutable(body, "application/json")


def immutable(body, mimetype):
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Cache-Control"] = cardfiles.IMMUTABLE
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/packs")
@login_required
def packs_page():
    """The user's unopened packs (each with its Open button), the packs opened before, and the odds."""
    all_packs = packs.list_packs(get_db(), g.user["id"])
    unopened = [p for p in all_packs if p["opened_at"] is None]
    opened = [p for p in reversed(all_packs) if p["opened_at"] is not None][:20]
    weights, size = packs.pack_settings(current_app.config)
    return render_template("collection/packs.html", unopened=unopened, opened=opened, size=size,
                           odds=packs.odds(weights), rarity_names=RARITY_NAMES, label=packs.source_label,
                           lang=card_lang(), pool=pool())


@bp.post("/packs/<int:pack_id>/open")
@login_required
def open_pack(pack_id):
    """Open one of the user's packs (once), then show it card by card."""
    try:
        packs.open_pack(get_db(), g.user["id"], pack_id, pool(), current_app.config)
    except packs.PackOpened:
        flash(_("That pack was opened already; here is what it held."), "error")
    except packs.PackNotFound:
        abort(404, description=_("You have no pack with that number."))
    return redirect(url_for(".pack", pack_id=pack_id), code=303)


@bp.get("/packs/<int:pack_id>")
@login_required
def pack(pack_id):
    """A pack of the user's: sealed, with its Open button, or opened, its cards revealed one by one."""
    try:
        the_pack = packs.get_pack(get_db(), g.user["id"], pack_id)
    except packs.PackNotFound:
        abort(404, description=_("You have no pack with that number."))
    lang = card_lang()
    the_pool, counts = pool(), owned_counts()
    cards = [{"id": cid, "card": the_pool.get(cid), "count": counts.get(cid, 0),
              "name": the_pool[cid].data["name"][lang] if cid in the_pool else cid,
              "rarity": the_pool[cid].rarity if cid in the_pool else "C"}
             for cid in the_pack["cards"] or []]
    more = [p for p in packs.list_packs(get_db(), g.user["id"], unopened_only=True) if p["id"] != pack_id]
    return render_template("collection/pack.html", pack=the_pack, cards=cards, lang=lang,
                           label=packs.source_label(the_pack["source"]), more=more, rarity_names=RARITY_NAMES)
