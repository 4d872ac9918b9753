"""The gauntlet page: start a draft, pick one of three until 30, then the run's games and its end
(thin views over ``webapp.game.gauntlet``, docs/gauntlet.md). The games are played on the board page."""

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from webapp.engine import load_pool
from webapp.game import gauntlet, play
from webapp.store import get_db
from webapp.store import gauntlet as runs
from webapp.web.collection import RARITY_NAMES, card_lang
from webapp.web.deckchoice import form_id
from webapp.web.play import hard_seconds, solo_budget_spent
from webapp.web.security import login_required

bp = Blueprint("gauntlet", __name__)


def card_entry(cid, lang, pool):
    card = pool[cid]
    d = card.data
    return {"id": cid, "name": d["name"][lang], "kind": card.kind, "level": card.level, "element": card.element,
            "rarity": card.rarity, "rarity_name": RARITY_NAMES.get(card.rarity, card.rarity),
            "power": d.get("power"), "life": d.get("life"), "speed": d.get("speed"), "mana": d.get("mana")}


@bp.get("/gauntlet")
@login_required
def index():
    """The run as it stands: no run (Start), the draft (three cards to pick from), the games, or its end."""
    db, uid, lang, pool = get_db(), g.user["id"], card_lang(), load_pool()
    run = gauntlet.current(db, uid)
    last = None if run else next(iter(runs.last_runs(db, uid, 1)), None)
    offer, picks = [], []
    if run is not None:
        picks = sorted((card_entry(c, lang, pool) for c in run["picks"]),
                       key=lambda e: (e["kind"] != "monster", e["level"] or 0, e["name"]))
        if run["status"] == "drafting":
            offer = [card_entry(c, lang, pool) for c in gauntlet.offer(run["seed"], run["picks"], pool)]
    levels = {"easy": gettext("Easy"), "normal": gettext("Normal"), "hard": gettext("Hard")}
    return render_template("gauntlet/index.html", run=run, last=last, offer=offer, picks=picks, lang=lang,
                           deck_size=gauntlet.DECK_SIZE, max_wins=gauntlet.MAX_WINS, max_losses=gauntlet.MAX_LOSSES,
                           next_level=levels[gauntlet.difficulty_for(run["wins"])] if run else None,
                           rewards=[(w, gauntlet.reward_for(w), gauntlet.shards_for(w))
                                    for w in range(gauntlet.MAX_WINS + 1)])


@bp.post("/gauntlet/start")
@login_required
def start():
    gauntlet.start_run(get_db(), g.user)
    return redirect(url_for(".index"))


@bp.post("/gauntlet/pick")
@login_required
def pick():
    db, uid = get_db(), g.user["id"]
    run = gauntlet.current(db, uid)
    made = form_id(request.form.get("picks", ""))
    if run is None or made is None:
        flash(gettext("Start a gauntlet draft first."), "error")
        return redirect(url_for(".index"))
    try:
        gauntlet.pick(db, uid, run["id"], request.form.get("card", "")[:80], made)
    except play.PlayError as exc:
        flash(exc.message, "error")
    return redirect(url_for(".index"))


@bp.post("/gauntlet/play")
@login_required
def play_next():
    db, uid = get_db(), g.user["id"]
    run = gauntlet.current(db, uid)
    if run is None:
        flash(gettext("Start a gauntlet draft first."), "error")
        return redirect(url_for(".index"))
    if run["game_id"] is None and solo_budget_spent():
        return redirect(url_for(".index"))
    try:
        game_id = gauntlet.play_next(db, g.user, run["id"], cpu_name=current_app.config.get("CPU_PLAYER"),
                                     seconds=hard_seconds())
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for(".index"))
    return redirect(url_for("play.board", game_id=game_id))
