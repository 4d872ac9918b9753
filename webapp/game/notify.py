"""What the game services tell the players' live connections: the notifier interface.

A game service never imports a transport (docs/architecture.md). When something happens that the
connected players must hear of without asking (the clock ended a game, an opponent came back, an
emote, a rematch, an invitation was taken, a chat message), the service calls the notifier it was given; the sockets
layer implements it (``webapp.sockets.hub.Hub``) and sets it on the service when it registers
(``Online(app, notifier=hub)``). A service used without live connections (a command line, a test of
the service alone) passes any object with these methods.
"""

from typing import Protocol


class Notifier(Protocol):
    """The live connections of one app, as the game services see them."""

    def to_game(self, game_id, event, payload):
        """Send ``event`` with ``payload`` (plain JSON values) to everyone who joined game ``game_id``:
        its players and its spectators, the same payload to all (nothing private in it)."""

    def to_seat(self, game_id, seat, event, payload):
        """Send ``event`` to the sockets of one player of game ``game_id`` (seat 0 or 1) alone."""

    def to_spectators(self, game_id, event, payload):
        """Send ``event`` to the spectators of game ``game_id`` alone (in either language), not its players."""

    def push(self, db, played):
        """Send every seat of the game (and the spectators) its own view after ``played`` (a
        ``webapp.game.play.Played``): what a player's action does, for a change made by the server."""

    def watch_clocks(self):
        """The online games have clocks or absences to watch: make sure the clock ticker runs. The
        ticker is a background task of the notifier's owner, which calls ``Online.look`` every
        ``Online.tick_seconds()`` while ``Online.watching()``, and ``Online.let_go()`` when it stops."""

    def watch_queue(self):
        """Someone waits in the play-anyone queue (webapp/social/matchqueue.py): make sure the queue's
        ticker runs, a background task of the notifier's owner that calls ``matchqueue.sweep`` every
        QUEUE_TICK seconds while ``matchqueue.waiting``, so two players the wait brings close enough
        are paired with nobody joining."""

    def to_user(self, user_id, event, payload):
        """Send ``event`` with ``payload`` to every connected socket of the user ``user_id`` (on any
        process): a challenge, a match from the queue. Nothing another user should not read."""
