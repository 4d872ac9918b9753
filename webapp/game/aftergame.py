"""The after-game analysis of a finished game, for one of its players (webapp/ai/analysis.py).

It is made once the game is over and only then: ``read`` refuses a game still being played (the
same answer as for a game the user holds no seat in, so it tells nothing), and the first read after
the end starts it. It runs in a background thread whose estimates and searches think in the CPU
worker pool at low priority (``fairqueue.BACKGROUND``: every live move and hint goes first), and
stores its progress and then its result (table ``game_analyses``), so the end screen shows a
progress bar and a replay shows it at once. Its words are made at each read, in the reader's
language (webapp/game/hintwords.py), from facts of the reader's own seat only.
"""

import datetime
import logging
import threading

from flask_babel import gettext

from webapp import clock, store
from webapp.ai import analysis, workers
from webapp.game import hintwords, play, replay
from webapp.store import analyses

log = logging.getLogger(__name__)

SECONDS = 0.3   # thinking per estimate and per search (one worker; a 12-round game: about 30 estimates);
                # the host's ANALYSIS_SECONDS wins
STALE = 600     # seconds without progress after which a run counts as lost and may start again


def _start(target, *args):
    threading.Thread(target=target, args=args, daemon=True, name="brigade-analysis").start()


def read(db, game_id, user_id, lang=None, start=_start, seconds=None):
    """The user's analysis of the finished game ``game_id``: {"status": "running"|"done"|"failed",
    "done", "total", and once done "turns", "swings" in words}. NotFound for a game the user holds
    no seat in or one not over yet (one answer: it says nothing of a game in progress)."""
    row = play.load_row(db, game_id)
    seat = play.seat_of(row, user_id)
    if seat is None or row["status"] != "finished":
        raise play.NotFound(gettext("There is no analysis of this game (yet)."), game_id)
    got = analyses.get_analysis(db, game_id, seat)
    stale = clock.utcnow().timestamp() - STALE
    if got is None or got["status"] == "failed" or (got["status"] == "running" and _older(got["updated"], stale)):
        if analyses.claim_analysis(db, game_id, seat, _iso(stale)):
            start(run, db_path(db), game_id, seat, SECONDS if seconds is None else seconds)
        got = analyses.get_analysis(db, game_id, seat)
    out = {"status": got["status"], "done": got["done"], "total": got["total"]}
    if got["status"] == "done" and got["data"]:
        out.update(present(db, row, seat, got["data"], lang))
    return out


def run(path, game_id, seat, seconds, estimate=None, suggest=None):
    """Analyse the game for ``seat`` and store it (a background thread's body; tests call it directly
    with ``estimate``/``suggest`` that think in their own process)."""
    db = store.connect(path)
    try:
        row = play.load_row(db, game_id)
        owner = ("analysis", game_id)
        estimate = estimate or (lambda g, s: workers.estimate(g, s, seconds, owner=owner))
        suggest = suggest or (lambda g, s: workers.advise(g, s, seconds, owner=owner))
        steps = replay.steps(row["setup"], store.list_actions(db, game_id))

        def progress(done, total):
            analyses.analysis_progress(db, game_id, seat, done, total)

        data = analysis.analyse(steps, seat, estimate, suggest, progress)
        result = row.get("result") or {}
        final = 0.5 if result.get("winner") is None else (1.0 if result.get("winner") == seat else 0.0)
        if data["turns"] and data["turns"][-1]["win"] != final:  # ended from outside the rules: the result
            data["turns"].append({"round": data["turns"][-1]["round"], "active": None, "win": final})
        analyses.finish_analysis(db, game_id, seat, data)
    except Exception:  # noqa: BLE001 - a failed analysis is marked and may be asked for again
        log.exception("the analysis of game %s for seat %s failed", game_id, seat)
        analyses.finish_analysis(db, game_id, seat, None, status="failed")
    finally:
        db.close()


def present(db, row, seat, data, lang=None):
    """The stored analysis in words for the reader of ``seat``: the turns' chances and each swing with
    what was played, the CPU's move and its reasons (hintwords), and whether the CPU agreed with the
    move played. A swing too small to mark (`analysis.marked`; stored before that rule) is left out."""
    steps = list(replay.steps(row["setup"], store.list_actions(db, row["id"])))
    points = analysis.positions(steps, seat)
    swings = []
    for s in data["swings"]:
        if not analysis.marked(s["change"]):
            continue
        item = {"turn": s["turn"], "change": round(s["change"], 3), "round": s["round"],
                "yours": s["active"] == seat}
        j = s.get("decision")
        if j is not None and j < len(points):
            game = points[j][3]
            w = hintwords.Words(game, seat, lang)
            item["played"] = w.move(s["played"]) if s.get("played") else None
            if s.get("cpu"):
                words = hintwords.words(game, seat, s["cpu"], lang)
                item.update(cpu=words["sentence"], why=words["why"], runner_up=words["runner_up"],
                            agrees=item["played"] is not None and item["played"] == w.move(s["cpu"]["action"]))
        swings.append(item)
    return {"seat": seat, "turns": [{"round": t["round"], "yours": t["active"] == seat, "win": t["win"]}
                                    for t in data["turns"]], "swings": swings}


def db_path(db):
    return db.execute("PRAGMA database_list").fetchone()[2]


def _iso(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _older(text, ts):
    return text < _iso(ts)
