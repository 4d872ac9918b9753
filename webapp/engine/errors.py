"""Errors raised by the rules engine."""


class IllegalAction(ValueError):
    """The action is not legal in this state; the state is unchanged.

    The message is for players: plain words, no rule numbers, no instance ids (cards are named by
    their names). `rule` is the id of the rule that refused it (`"R6.7"`), or None, for tests and
    logs."""

    def __init__(self, message, rule=None):
        super().__init__(message)
        self.rule = rule


class CardDataError(ValueError):
    """Card data is malformed; the message names the file, the card id and the field."""
