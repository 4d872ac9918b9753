"""Errors raised by the rules engine."""


class IllegalAction(ValueError):
    """The action is not legal in this state; the state is unchanged."""


class CardDataError(ValueError):
    """Card data is malformed; the message names the file, the card id and the field."""
