"""Brigade among friends: the friends list and blocks (``friends``), who is online (``presence``),
challenges between friends (``challenges``), the ladder's ratings and its queue (``ratings``,
``matchqueue``), who may watch a live game (``watching``) and the players' profiles (``profiles``).
Game services (docs/architecture.md): plain values in and out, their SQL in webapp/store/social.py,
live notices through the notifier (webapp/game/notify.py)."""
