"""Brigade among friends: the friends list and blocks (``friends``), who is online (``presence``),
challenges between friends (``challenges``), the ladder's ratings and its queue (``ratings``,
``matchqueue``), who may watch a live game (``watching``), the players' profiles (``profiles``) and
chat in online games (``chat``).
Game services (docs/architecture.md): plain values in and out, their SQL in webapp/store/social.py,
live notices through the notifier (webapp/game/notify.py)."""
