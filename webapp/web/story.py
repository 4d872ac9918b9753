"""Story pages: the chapter map, a chapter's briefing with its Start button, and the chapter's end.

Thin views over ``webapp.game.story`` (docs/story.md). The game itself is played on the board page
(``/play/<id>``) like any CPU game; ``/story/game/<id>.json`` gives the board a story game's
goal, Eringe's tips and where to go when it is over.
"""

import contextlib
import math

from flask import (Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request,
                   url_for)
from flask_babel import gettext

from webapp.decks.packs import source_label
from webapp.game import play, story, storychapters, storygoals, storyprogress
from webapp import store
from webapp.engine import Game, load_pool
from webapp.store import get_db
from webapp.web import cardfiles
from webapp.web.collection import LANGS, RARITY_NAMES, card_lang
from webapp.web.deckchoice import deck_name, form_id, playable_decks
from webapp.web.play import hard_seconds, solo_budget_spent
from webapp.web.security import login_required, nav_url

bp = Blueprint("story", __name__)

#: The map's geometry (SVG user units): nodes per row, spacing, margins.
MAP_COLUMNS, MAP_DX, MAP_DY, MAP_MARGIN_X, MAP_MARGIN_Y, MAP_BULGE = 4, 200, 150, 100, 80, 120


def paragraphs(text):
    """Narration text as paragraphs (blank lines between them in the data)."""
    return [" ".join(p.split()) if not any("\u3000" <= ch <= "\u9fff" for ch in p) else "".join(p.split())
            for p in text.strip().split("\n\n") if p.strip()]


def map_nodes(states):
    """[(x, y)] of each chapter node on the map: rows of MAP_COLUMNS, each row walked the other way."""
    points = []
    for i in range(len(states)):
        row, col = divmod(i, MAP_COLUMNS)
        if row % 2:
            col = MAP_COLUMNS - 1 - col
        # a little wave so the road does not look ruled
        wave = 14 * math.sin(i * 1.7)
        points.append((MAP_MARGIN_X + col * MAP_DX, MAP_MARGIN_Y + row * MAP_DY + wave))
    return points


def map_path(points):
    """A smooth SVG path through the points, level at every node: along a row an S-curve, from the
    end of a row down to the next a loop that bulges out beside the column (clear of the labels)."""
    if not points:
        return ""
    d = [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
    for i in range(len(points) - 1):
        (x1, y1), (x2, y2) = points[i], points[i + 1]
        if abs(x2 - x1) < 1:  # the turn at the end of a row
            bulge = MAP_BULGE if x1 > MAP_MARGIN_X else -MAP_BULGE
            c1, c2 = (x1 + bulge, y1), (x2 + bulge, y2)
        else:
            third = (x2 - x1) / 3
            c1, c2 = (x1 + third, y1), (x2 - third, y2)
        d.append(f"C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} {x2:.1f},{y2:.1f}")
    return " ".join(d)


def best_text(best):
    """A recorded best result in words (the page's language), or None."""
    if not isinstance(best, dict) or not isinstance(best.get("round"), int):
        return None
    return gettext("Cleared in round %(n)s", n=best["round"])


def chapter_or_404(chapter_id):
    try:
        return storychapters.chapter(chapter_id)
    except play.NotFound:
        abort(404, description=gettext("No story chapter is called %(id)s.", id=repr(chapter_id[:60])))


def card_entries(counts, lang):
    """[{id, name, count, level, kind, rarity}] of a {card id: count} table, monsters by level first."""
    pool = load_pool()
    out = []
    for cid, n in counts.items():
        card = pool[cid]
        out.append({"id": cid, "name": card.data["name"][lang], "count": n, "level": card.level,
                    "kind": card.kind, "element": card.element, "rarity": card.rarity,
                    "rarity_name": RARITY_NAMES.get(card.rarity, card.rarity)})
    return sorted(out, key=lambda e: (e["kind"] != "monster", e["level"] or 0, e["name"]))


def rules_link(ch, lang):
    """The rules page at the first rule the chapter teaches (the id is an anchor, never shown), or None."""
    base = nav_url("rules.index", lang="ja" if lang == "ja" else None)
    if not base:
        return None
    first = ch.teaches["rules"][0]
    return base + "#" + (f"ja-{first[1:].split('.')[0]}" if lang == "ja" else first.lower().replace(".", "-"))


def portrait(ch):
    """The opponent's face on the board: the art of the monster its deck holds most of."""
    pool = load_pool()
    monsters = [(n, cid) for cid, n in ch.deck.counts.items() if pool[cid].kind == "monster"]
    return max(monsters)[1] if monsters else None


def chapter_progress(user_id):
    progress = store.get_progress(get_db(), user_id)
    return progress, set(storyprogress.unlocked(progress))


# ---------------------------------------------------------------- pages


#: The CPU's level of a chapter (its ``difficulty``) as the briefing names it.
def level_words(difficulty):
    """The CPU's level of a chapter in words (the page's language, as on the play page)."""
    return {"easy": gettext("Easy"), "normal": gettext("Normal"), "hard": gettext("Hard")}[difficulty]


@bp.get("/story")
@login_required
def index():
    """The chapter map: a road of chapter nodes, locked, open or cleared, with the best results."""
    lang = card_lang()
    progress, _ = chapter_progress(g.user["id"])
    states = storyprogress.chapter_states(progress)
    points = map_nodes(states)
    current = next((c.id for c, state, _ in states if state == "open"), None)
    nodes = [{"chapter": c, "state": state, "best": best_text(best), "x": x, "y": y,
              "current": c.id == current, "title": c.title[lang], "teaches": c.teaches[lang]}
             for (c, state, best), (x, y) in zip(states, points, strict=True)]
    rows = (len(nodes) + MAP_COLUMNS - 1) // MAP_COLUMNS
    width = MAP_MARGIN_X * 2 + (MAP_COLUMNS - 1) * MAP_DX
    height = MAP_MARGIN_Y * 2 + (rows - 1) * MAP_DY + 30
    cleared = sum(1 for n in nodes if n["state"] == "cleared")
    reached = max((i for i, n in enumerate(nodes) if n["state"] != "locked"), default=0)
    return render_template("story/index.html", nodes=nodes, path=map_path(points),
                           travelled=map_path(points[:reached + 1]) if reached else "", width=width,
                           height=height, lang=lang, cleared=cleared, total=len(nodes), current=current)


@bp.get("/story/<chapter_id>")
@login_required
def chapter(chapter_id):
    """A chapter's briefing: Eringe's narration, the goal, the opponent, the reward, and Start."""
    ch = chapter_or_404(chapter_id)
    lang = card_lang()
    db, uid = get_db(), g.user["id"]
    progress, open_ids = chapter_progress(uid)
    if ch.id not in open_ids:
        flash(gettext("Chapter %(n)s is still locked: clear the chapter before it first.", n=ch.order), "error")
        return redirect(url_for(".index"))
    decks = playable_decks(db, uid)
    try:
        default = story.story_deck(db, uid, None, current_app.config)["id"]
    except play.PlayError:
        default = None
    play.abandon_stale(db, uid, current_app.config["ABANDON_AFTER_DAYS"])
    active = story.story_games(db, uid, ch.id, "active")
    return render_template(
        "story/chapter.html", chapter=ch, lang=lang, before=paragraphs(ch.narration_before[lang]),
        goal=ch.goal_text(lang), opponent=card_entries(ch.deck.counts, lang),
        reward_cards=card_entries(ch.reward["cards"], lang), reward_packs=ch.reward["packs"],
        decks=[dict(d, label=deck_name(d, lang)) for d in decks], default_deck=default, active=active,
        progress=progress.get(ch.id) or {}, best=best_text((progress.get(ch.id) or {}).get("best")),
        start_text=ch.start_text(lang), rules_url=rules_link(ch, lang), level=level_words(ch.difficulty))


@bp.post("/story/<chapter_id>")
@bp.post("/story/<chapter_id>/start")
@login_required
def start(chapter_id):
    """Start the chapter's battle (or resume the one in progress) and go to its board."""
    ch = chapter_or_404(chapter_id)
    db, uid = get_db(), g.user["id"]
    active = story.story_games(db, uid, ch.id, "active")
    if active and not request.form.get("restart"):
        return redirect(url_for("play.board", game_id=active[0]["id"]))
    raw = request.form.get("deck", "").strip()
    chosen = form_id(raw) if raw else None
    if raw and chosen is None:
        flash(gettext("Choose a deck to play with."), "error")
        return redirect(url_for(".chapter", chapter_id=ch.id))
    if solo_budget_spent():
        return redirect(url_for(".chapter", chapter_id=ch.id))
    try:
        game_id = story.start_chapter(db, g.user, ch.id, deck_id=chosen, config=current_app.config,
                                      cpu_name=current_app.config.get("CPU_PLAYER"), seconds=hard_seconds(),
                                      limit=current_app.config.get("MAX_ACTIVE_GAMES"), replacing=len(active))
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for(".chapter", chapter_id=ch.id) if ch.id in storyprogress.unlocked(
            store.get_progress(db, uid)) else url_for(".index"))
    for old in active:  # "start over": the battle left behind is resigned (R18.5), not left hanging
        with contextlib.suppress(play.PlayError):
            play.act(db, old["id"], uid, {"type": "resign"}, old["version"])
    return redirect(url_for("play.board", game_id=game_id))


@bp.get("/story/<chapter_id>/done")
@login_required
def done(chapter_id):
    """The chapter's end: the result of its latest battle (or ``?game=<id>``), recorded here too
    (``storyprogress.finish`` is idempotent), Eringe's closing words and the reward."""
    ch = chapter_or_404(chapter_id)
    lang = card_lang()
    db, uid = get_db(), g.user["id"]
    raw = request.args.get("game", "")
    if raw:
        game_id = form_id(raw)
        if game_id is None:
            abort(404)
        try:
            row = play.load_row(db, game_id)
        except play.NotFound:
            abort(404)
        if row["mode"] != "story" or row["setup"].get("story") != ch.id:
            abort(404)
        if play.seat_of(row, uid) != 0:
            abort(404)  # as for a game that does not exist: a stranger learns nothing of it
    else:
        games = story.story_games(db, uid, ch.id)  # the most recently changed first
        if not games:
            return redirect(url_for(".chapter", chapter_id=ch.id))
        row = games[0]
    outcome = storyprogress.finish(db, uid, row)
    # what this battle earned (its Victory pack, the clear's packs if it was the first clear), and the
    # chapter's packs from an earlier first clear
    packs = play.earned_packs(db, row, uid) if row["status"] != "active" else []
    # this battle cleared the chapter first: it got the reward now, or earlier (the board's end already
    # recorded it), or it earned the chapter's reward packs
    first_clear = (bool(outcome.granted) or storyprogress.first_cleared_by(db, uid, ch) == row["id"]
                   or any(p["source"] == ch.pack_source for p in packs))
    seen = {p["id"] for p in packs}
    packs += [p for p in (storyprogress.reward_packs(db, uid, ch) if outcome.cleared else []) if p["id"] not in seen]
    packs = [dict(p, label=source_label(p["source"])) for p in packs]
    nxt = storychapters.next_chapter(ch.id)
    return render_template(
        "story/done.html", chapter=ch, lang=lang, outcome=outcome, row=row, first_clear=first_clear,
        after=paragraphs(ch.narration_after[lang]) if outcome.cleared else [],
        goal=ch.goal_text(lang), packs=packs, reward_cards=card_entries(ch.reward["cards"], lang),
        reward_packs=ch.reward["packs"], rarity_names=RARITY_NAMES, next_chapter=nxt,
        next_open=nxt is not None and nxt.id in storyprogress.unlocked(store.get_progress(db, uid)))


@bp.get("/story/game/<int:game_id>.json")
@login_required
def game_info(game_id):
    """What the board shows for a story game: the chapter, its goal, Eringe's tips (in ``?lang=``),
    whether the goal is met yet, and the chapter's done page. For the game's player only."""
    db = get_db()
    try:
        row = play.load_row(db, game_id)
        ch = storychapters.chapter_of(row)
    except play.NotFound:
        abort(404)
    if play.seat_of(row, g.user["id"]) != 0:
        abort(404)  # as for a game that does not exist: a stranger learns nothing of it
    lang = request.args.get("lang") if request.args.get("lang") in LANGS else card_lang(remember=False)
    game = Game.from_json(row["state"])
    actions = store.list_actions(db, game_id) if ch.goal["type"] == "take_land" else None
    verdict = storygoals.judge(row, game, actions)
    return jsonify(game=game_id, chapter=ch.id, order=ch.order, title=ch.title[lang], goal=ch.goal_text(lang),
                   goal_spec=ch.goal, goal_short=ch.goal_short(lang), last_round=ch.goal.get("by_round") or storychapters.LAST_ROUND,
                   opponent={"name": ch.opponent["name"][lang],
                             "portrait": cardfiles.art_url(portrait(ch), lang) if portrait(ch) else None},
                   tips=ch.tips_for(lang), lang=lang,
                   status={"met": verdict.met, "final": verdict.final, "round": verdict.round},
                   done_url=url_for(".done", chapter_id=ch.id, game=game_id),
                   chapter_url=url_for(".chapter", chapter_id=ch.id), rules_url=rules_link(ch, lang),
                   eringe=url_for("static", filename="img/eringe.svg"))
