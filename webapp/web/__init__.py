"""The site's pages: one blueprint per area, registered by `register`."""

from webapp.cards.art import card_svg_markup
from webapp.hosting import hostlog, metrics
from webapp.web import (admin, analysis, auth, cardfiles, collection, decks, friends, gauntlet, history, lobby, pages, play,
                        puzzles, rules, security, story, testing_clock)
from webapp.web.deckchoice import deck_name


def register(app):
    """Security hooks, template helpers and every blueprint."""
    hostlog.init_app(app)  # first: its timer starts before the other hooks, its line is written last
    metrics.init_app(app)  # /metrics (docs/deploy.md#metrics)
    security.init_app(app)
    app.add_template_global(card_svg_markup)
    app.add_template_global(cardfiles.art_url)
    app.add_template_global(deck_name)
    for module in (pages, auth, collection, decks, play, lobby, story, rules):
        app.register_blueprint(module.bp)
    app.register_blueprint(puzzles.bp)  # the puzzles (docs/puzzles.md)
    app.register_blueprint(gauntlet.bp)  # the gauntlet draft (docs/gauntlet.md)
    app.register_blueprint(history.bp)  # the match history
    app.register_blueprint(friends.bp)  # the friends list, challenges, the ladder, profiles
    app.register_blueprint(analysis.bp)  # the after-game analysis (webapp/game/aftergame.py)
    admin.init_app(app)  # the host's admin area and password-reset links (docs/admin.md)
    testing_clock.init_app(app)  # tests only: the clock moved forward (TESTING on, else absent)
