"""The players among themselves: chat in online games (``chat.py``)."""
