"""Puzzle pages: the list with the player's progress, a puzzle's page (goal, hint, retry, and its
solution once solved or after three misses), and what the board shows for a puzzle game.

Thin views over ``webapp.game.puzzles`` (docs/puzzles.md). The puzzle is played on the board page
(``/play/<id>``) like any CPU game; ``/puzzles/game/<id>.json`` gives the board its goal bar.
"""

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from webapp import store
from webapp.engine import Game
from webapp.game import play, puzzlegoal, puzzles, replaypuzzles
from webapp.store import get_db
from webapp.web.collection import LANGS, card_lang
from webapp.web.deckchoice import form_id
from webapp.web.play import solo_budget_spent
from webapp.web.security import login_required

bp = Blueprint("puzzles", __name__)


def difficulty_words(difficulty):
    return {"easy": gettext("Easy"), "normal": gettext("Normal"), "hard": gettext("Hard")}[difficulty]


def puzzle_or_404(puzzle_id):
    try:
        return puzzles.puzzle(puzzle_id)
    except play.NotFound:
        abort(404, description=gettext("No puzzle is called %(id)s.", id=repr(puzzle_id[:60])))


def solution_words(pz, lang):
    """The solution's moves in plain words (the board's names of the cards, no ids)."""
    names = {}
    st = pz.start.state.static
    for name, card in zip(st.names, st.cards, strict=True):
        names[name] = card.data["name"][lang]
    out = []
    for a in pz.solution:
        kind = a["type"]
        if kind == "march":
            who = ", ".join(names.get(u, "?") for u in a["units"])
            out.append(gettext("March %(who)s to %(land)s", who=who, land=land_label(a["to"])))
        elif kind == "formation":
            out.append(gettext("Formation, front to rear: %(who)s", who=", ".join(names.get(u, "?") for u in a["order"])))
        elif kind == "quick_summon":
            out.append(gettext("Quick summon %(who)s", who=", ".join(names.get(u, "?") for u in a["cards"])) if a["cards"]
                       else gettext("Quick summon nobody"))
        elif kind == "spell":
            target = ", ".join(names.get(u, "?") for u in a.get("targets", []))
            out.append(gettext("Cast %(card)s at %(target)s", card=names.get(a["card"], "?"), target=target) if target
                       else gettext("Cast %(card)s", card=names.get(a["card"], "?")))
        elif kind == "ability":
            target = ", ".join(names.get(u, "?") for u in a.get("targets", []))
            out.append(gettext("Use the ability of %(who)s on %(target)s", who=names.get(a["unit"], "?"), target=target)
                       if target else gettext("Use the ability of %(who)s", who=names.get(a["unit"], "?")))
        elif kind == "destroy_over_capacity":
            out.append(gettext("Over capacity: destroy %(who)s", who=", ".join(names.get(u, "?") for u in a["units"])))
        elif kind == "summon":
            out.append(gettext("Summon %(card)s", card=names.get(a["card"], "?")))
        elif kind == "attack":
            out.append(gettext("Attack"))
        elif kind == "pass":
            out.append(gettext("Let it through"))
        elif kind == "end_turn":
            out.append(gettext("End the turn"))
    return out


def land_label(land):
    if land == "H1":
        return gettext("the enemy base")
    if land == "H0":
        return gettext("your base")
    return land


@bp.get("/puzzles")
@login_required
def index():
    """Every puzzle with the player's progress (solved, tries)."""
    lang = card_lang()
    progress = puzzles.progress(get_db(), g.user["id"])
    rows = [{"puzzle": p, "title": p.title[lang], "teaches": p.teaches[lang], "goal": p.goal_text(lang),
             "difficulty": difficulty_words(p.difficulty), "level": p.difficulty,
             "entry": progress.get(p.id) or {}} for p in puzzles.puzzles()]
    solved = sum(1 for r in rows if r["entry"].get("solved"))
    return render_template("puzzles/index.html", rows=rows, solved=solved, total=len(rows), lang=lang)


@bp.get("/puzzles/<puzzle_id>")
@login_required
def page(puzzle_id):
    """A puzzle's page: the goal, what it teaches, the hint, Start or Retry, and the solution once open."""
    pz = puzzle_or_404(puzzle_id)
    lang = card_lang()
    db, uid = get_db(), g.user["id"]
    entry = puzzles.progress(db, uid).get(pz.id) or {}
    active = puzzles.puzzle_games(db, uid, pz.id, "active")
    shown = puzzles.solution_open(entry)
    ids = [p.id for p in puzzles.puzzles()]
    nxt = ids[ids.index(pz.id) + 1] if ids.index(pz.id) + 1 < len(ids) else None
    return render_template("puzzles/puzzle.html", puzzle=pz, lang=lang, entry=entry, active=active,
                           goal=pz.goal_text(lang), difficulty=difficulty_words(pz.difficulty),
                           solution_shown=shown, solution=solution_words(pz, lang) if shown else [],
                           misses_left=max(0, puzzles.TRIES_BEFORE_SOLUTION - entry.get("misses", 0)),
                           next_puzzle=puzzles.puzzle(nxt) if nxt else None)


@bp.post("/puzzles/<puzzle_id>/start")
@login_required
def start(puzzle_id):
    """Start the puzzle (or try it again: a try in progress ends as a miss) and go to its board."""
    pz = puzzle_or_404(puzzle_id)
    db = get_db()
    active = puzzles.puzzle_games(db, g.user["id"], pz.id, "active")
    if active and not request.form.get("restart"):
        return redirect(url_for("play.board", game_id=active[0]["id"]))
    if solo_budget_spent():
        return redirect(url_for(".page", puzzle_id=pz.id))
    try:
        game_id = puzzles.start_puzzle(db, g.user, pz.id)
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for(".page", puzzle_id=pz.id))
    return redirect(url_for("play.board", game_id=game_id))


@bp.get("/puzzles/game/<int:game_id>.json")
@login_required
def game_info(game_id):
    """What the board shows for a puzzle game (the story goal bar's shape): the puzzle, its goal,
    whether it is met, and the puzzle's page. For the game's player only."""
    db = get_db()
    try:
        row = play.load_row(db, game_id)
        code = (row.get("setup") or {}).get("shared") if row.get("mode") == "puzzle" else None
        pz = None if code else puzzles.puzzle_of(row)
    except play.NotFound:
        abort(404)
    if play.seat_of(row, g.user["id"]) != 0:
        abort(404)  # as for a game that does not exist: a stranger learns nothing of it
    lang = request.args.get("lang") if request.args.get("lang") in LANGS else card_lang(remember=False)
    game = Game.from_json(row["state"])
    met = (game.result or {}).get("winner") == 0
    goal = puzzles.goal_of(row)
    if code:
        page_url = url_for(".shared_page", code=code)
        return jsonify(game=game_id, kind="puzzle", puzzle=None, order="★", title=gettext("A puzzle from a replay"),
                       goal=puzzles.goal_text(goal, lang), goal_short=puzzles.goal_text(goal, lang),
                       goal_spec={"type": "puzzle"}, last_round=puzzlegoal.LAST_ROUND,
                       opponent={"name": puzzles.opponent_name(row, lang), "portrait": None}, tips=[], lang=lang,
                       status={"met": met, "final": game.result is not None, "round": None},
                       done_url=page_url, chapter_url=page_url, rules_url=None)
    return jsonify(game=game_id, kind="puzzle", puzzle=pz.id, order=pz.order, title=pz.title[lang],
                   goal=pz.goal_text(lang), goal_short=pz.goal_text(lang), goal_spec={"type": "puzzle"},
                   last_round=puzzlegoal.LAST_ROUND,
                   opponent={"name": puzzles.opponent_name(row, lang), "portrait": None}, tips=[], lang=lang,
                   hint=pz.hint[lang],
                   status={"met": met, "final": game.result is not None, "round": game.state.round if met else None},
                   done_url=url_for(".page", puzzle_id=pz.id), chapter_url=url_for(".page", puzzle_id=pz.id),
                   rules_url=None)


# ---------------------------------------------------------------- puzzles from a replay


@bp.get("/puzzles/from-replay/<int:game_id>")
@login_required
def from_replay_page(game_id):
    """The form of "make a puzzle from this moment" at ``?version=`` of a finished game of the user's."""
    try:
        row = play.load_row(get_db(), game_id)
    except play.NotFound:
        abort(404)
    if play.seat_of(row, g.user["id"]) is None:
        abort(404)  # as for a game that does not exist: only its players may make a puzzle from it
    version = form_id(request.args.get("version", "0")) or 0
    return render_template("puzzles/from_replay.html", game_id=game_id, version=min(version, row["version"]))


@bp.post("/puzzles/from-replay")
@login_required
def from_replay():
    """Make a puzzle from a step of one of the user's finished games (the replay page's form)."""
    game_id = form_id(request.form.get("game", ""))
    version = form_id(request.form.get("version", ""))
    back = url_for("lobby.replay", game_id=game_id) if game_id is not None else url_for("puzzles.index")
    goal = {"type": request.form.get("goal", ""), "count": form_id(request.form.get("count", "1") or "1"),
            "round": form_id(request.form.get("round", "0") or "0")}
    if game_id is None or version is None:
        flash(gettext("Choose a step of the replay."), "error")
        return redirect(back)
    try:
        code = replaypuzzles.make(get_db(), g.user["id"], game_id, version, goal)
    except play.NotFound:
        abort(404)
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(back)
    return redirect(url_for(".shared_page", code=code))


@bp.get("/puzzles/shared/<code>")
@login_required
def shared_page(code):
    """A shared puzzle: its goal, who made it, Start; for its maker, the link to share and what it shows."""
    db = get_db()
    try:
        got = replaypuzzles.shared(db, code)
    except play.NotFound:
        abort(404)
    try:
        maker = store.get_user(db, got["maker_id"])["name"] if got["maker_id"] else None
    except store.UserNotFound:
        maker = None
    return render_template("puzzles/shared.html", code=code, goal=puzzles.goal_text(got["goal"], card_lang()),
                           maker=maker, mine=got["maker_id"] == g.user["id"],
                           link=url_for(".shared_page", code=code, _external=True))


@bp.post("/puzzles/shared/<code>/start")
@login_required
def shared_start(code):
    db = get_db()
    if solo_budget_spent():
        return redirect(url_for(".shared_page", code=code))
    try:
        game_id = replaypuzzles.start_shared(db, g.user, code)
    except play.NotFound:
        abort(404)
    return redirect(url_for("play.board", game_id=game_id))
