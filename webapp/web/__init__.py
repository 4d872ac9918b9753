"""The site's pages: one blueprint per area, registered by `register`."""


def register(app):
    """Security hooks, template helpers and every blueprint."""
    from webapp.cards.art import card_svg_markup
    from webapp.web import auth, cardfiles, collection, decks, lobby, pages, play, rules, security, story
    from webapp.web.deckchoice import deck_name

    from webapp.hosting import hostlog, metrics
    hostlog.init_app(app)  # first: its timer starts before the other hooks, its line is written last
    metrics.init_app(app)  # /metrics (docs/deploy.md#metrics)
    security.init_app(app)
    app.add_template_global(card_svg_markup)
    app.add_template_global(cardfiles.art_url)
    app.add_template_global(deck_name)
    for module in (pages, auth, collection, decks, play, lobby, story, rules):
        app.register_blueprint(module.bp)
    from webapp.web import puzzles  # the puzzles (docs/puzzles.md)
    app.register_blueprint(puzzles.bp)
    from webapp.web import gauntlet  # the gauntlet draft (docs/gauntlet.md)
    app.register_blueprint(gauntlet.bp)
    from webapp.web import history  # the match history
    app.register_blueprint(history.bp)
    from webapp.web import friends  # the friends list, challenges, the ladder, profiles
    app.register_blueprint(friends.bp)
    from webapp.web import analysis  # the after-game analysis (webapp/game/aftergame.py)
    app.register_blueprint(analysis.bp)
    from webapp.web import admin  # the host's admin area and password-reset links (docs/admin.md)
    admin.init_app(app)
    from webapp.web import testing_clock  # tests only: the clock moved forward (TESTING on, else absent)
    testing_clock.init_app(app)
