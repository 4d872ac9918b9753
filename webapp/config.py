"""Every configuration key Brigade reads, with its default and what it means: the one list
(docs/architecture.md "Where a new feature goes").

A host sets keys in ``instance/config.py`` (tests pass them to ``create_app(test_config)``); the
factory then calls ``load(app)``, which gives every key left out its default here. Code reads
``app.config[KEY]`` (or ``.get``) and sets no defaults of its own; ``tests/test_config.py`` fails on a
key read anywhere in webapp/ that is not in ``KEYS``, and on one in ``KEYS`` that nothing reads.

Kinds of default:
- a value: set by ``load`` when the host left the key out (``None`` included: "unset", the meaning
  says what unset does);
- ``AT_START``: worked out by the factory (the database's path, the secret key);
- ``FLASK``: Flask's own key, with Flask's default; Brigade reads it (and may tighten it, as
  ``webapp/web/security.py`` does with the session cookie's).

``ENVIRONMENT`` lists the environment variables read (docs/deploy.md); they are not app config.

This module imports nothing of the app, so any layer may import it.
"""

import copy
from pathlib import Path
from typing import Any, NamedTuple

AT_START = "at start"
FLASK = "Flask's"

#: The Content-Security-Policy every page is served with: scripts only from this site's own files
#: (inline JSON data in ``<script type="application/json">`` is not run, so it needs nothing), no
#: plugins, no framing, forms post only here. Images may also be blob: URLs (the board draws card art
#: from SVG text it holds, static/js/play-cards.js). Inline ``style`` attributes stay allowed: the
#: card art and a few templates size things with them, and a style cannot run code.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors 'none'")


class Key(NamedTuple):
    name: str
    default: Any
    meaning: str


KEYS = (
    # ------------------------------------------------------------ the instance (docs/deploy.md)
    Key("INSTANCE_PATH", AT_START, "create_app(test_config) only: the instance folder (else $BRIGADE_INSTANCE_PATH, else instance/)"),
    Key("DATABASE", AT_START, "the SQLite file (default $BRIGADE_DB, else brigade.db in the instance folder)"),
    Key("SECRET_KEY", AT_START, "signs sessions; unset: a random key kept in instance/secret_key"),
    Key("PROXY_FIX", None, "behind nginx: the client's address and https from X-Forwarded-*"),
    Key("PREFERRED_URL_SCHEME", FLASK, "'https' makes absolute links https and the session cookie Secure"),
    Key("SESSION_COOKIE_SECURE", FLASK, "the session and device cookies only over https"),
    Key("SESSION_COOKIE_HTTPONLY", FLASK, "always True (webapp/web/security.py sets it): no script reads the session cookie"),
    Key("SESSION_COOKIE_SAMESITE", FLASK, "the session cookie's SameSite (unset: Lax)"),
    Key("TESTING", FLASK, "tests only: Flask's testing mode, and the testing-only routes: POST /testing/start, a game "
                          "at a position (webapp/web/testing.py, docs/testing.md), and POST /testing/clock "
                          "(webapp/web/testing_clock.py); never on a real host"),
    Key("PUBLIC_URL", None, "the site's address for links printed outside a request (unset: http://127.0.0.1:5000)"),
    # ------------------------------------------------------------ accounts (docs/accounts.md, docs/security.md)
    Key("REGISTRATION", "open", "'open' or 'invite' (asks for an invitation code) at start; the admin page overrides it"),
    Key("INVITE_CODE", None, "one fixed invitation code (besides the ones made on the admin page)"),
    Key("COLLECTION", "earn", "'earn' (cards from packs) or 'all': every card owned"),
    Key("MAX_DECKS", 100, "decks one account may keep; making one more is refused until one is deleted"),
    Key("HOST_ACCOUNTS", None, "names made hosts at start (a new account's reset link is logged)"),
    Key("RESET_LINK_HOURS", 24, "hours a password-reset link works"),
    Key("LOGIN_DELAYS", ((3, 10), (6, 60), (10, 600), (20, 3600)),
        "failed log-ins per account and address: (failures, within seconds) steps of a growing wait"),
    Key("LOGIN_LIMIT_ADDRESS", 20, "failed log-ins from one address, any accounts, within LOGIN_WINDOW"),
    Key("LOGIN_LIMIT_ACCOUNT", 10, "failed log-ins for one account from places it never logged in from"),
    Key("LOGIN_WINDOW", 300, "seconds the two limits above count over"),
    Key("LOGIN_DEVICE_DAYS", 365, "days a browser that logged in is remembered as known"),
    Key("REGISTER_LIMIT_ADDRESS", 5, "accounts made from one address within REGISTER_WINDOW"),
    Key("REGISTER_WINDOW", 3600, "seconds"),
    Key("PASSWORD_HASH_CONCURRENCY", 2, "scrypt hashes at once (32 MB each), log-ins and registrations"),
    # ------------------------------------------------------------ pages (docs/security.md)
    Key("JOIN_CODE_LIMIT", 10, "invitation codes that named no game, per user and per address, within JOIN_CODE_WINDOW"),
    Key("JOIN_CODE_WINDOW", 600, "seconds"),
    Key("REPLAY_LIMIT", 30, "replay downloads per user within REPLAY_WINDOW"),
    Key("REPLAY_WINDOW", 60, "seconds"),
    Key("HINT_LIMIT", 6, "hints ('What would the CPU do?', a search in a worker) per user within HINT_WINDOW"),
    Key("HINT_WINDOW", 60, "seconds"),
    Key("CONTENT_SECURITY_POLICY", CSP, "the Content-Security-Policy header (None: none sent)"),
    # ------------------------------------------------------------ games against the CPU and story (docs/deploy.md)
    Key("MAX_ACTIVE_GAMES", 5, "CPU and story games in progress per user"),
    Key("SOLO_GAME_LIMIT", 60, "new CPU games and story battles per user within SOLO_GAME_WINDOW (every game is a stored row)"),
    Key("SOLO_GAME_WINDOW", 3600, "seconds"),
    Key("ABANDON_AFTER_DAYS", 14, "CPU and story games without an action this many days are resigned (0: never)"),
    Key("CPU_HARD_SECONDS", 0.5, "the Hard CPU's thinking time per decision (kept in each game's setup)"),
    Key("CPU_WORKERS", None, "worker processes the Hard CPU thinks in (unset: $BRIGADE_CPU_WORKERS, else cores - 1, at least 1)"),
    Key("CPU_PLAYER", None, "tests only: the CPU every game gets ('random' for a weak one; unset: the game's own)"),
    Key("CPU_DELAY", 0.35, "seconds between the CPU's actions, so a browser can animate them"),
    Key("ANALYSIS_SECONDS", None, "the after-game analysis's thinking per estimate and per search (unset: 0.3)"),
    Key("PACK_SIZE", 6, "cards in a pack"),
    Key("QUEST_DAY_ZONE", "UTC", "the time zone whose midnight starts the daily quests' day, an IANA name such as 'Asia/Tokyo'"),
    Key("PACK_WEIGHTS", None, "rarity weights of a pack's cards, e.g. {'C': 70, 'U': 22, 'R': 7, 'SR': 1} (unset: those)"),
    # ------------------------------------------------------------ online games (docs/protocol.md, R18)
    Key("ONLINE_CLOCK_MINUTES", 15, "R18.3's default clock"),
    Key("ONLINE_CLOCK_MIN_MINUTES", 1, "the shortest clock the invitation form accepts"),
    Key("ONLINE_CLOCK_MAX_MINUTES", 60, "the longest"),
    Key("ONLINE_CLAIM_AFTER", 60, "seconds away while the game waits for you: then the opponent may claim the win (R18.4)"),
    Key("ONLINE_AUTO_AFTER", 120, "... and after this many the win is claimed automatically"),
    Key("ONLINE_TICK", 0.5, "seconds between the ticker's looks at clocks and absences"),
    Key("ONLINE_EMOTE_LIMIT", 3, "emotes per socket within ONLINE_EMOTE_WINDOW"),
    Key("ONLINE_EMOTE_WINDOW", 5.0, "seconds"),
    Key("ONLINE_MAX_INVITATIONS", 10, "open invitations per user"),
    # ------------------------------------------------------------ chat in online games (docs/protocol.md "Chat")
    Key("CHAT_MAX_LENGTH", 200, "characters in one chat message"),
    Key("CHAT_LIMIT", 5, "chat messages per user within CHAT_WINDOW (0: no chat at all)"),
    Key("CHAT_WINDOW", 10.0, "seconds"),
    Key("CHAT_HISTORY", 50, "messages a reader is sent when the chat opens"),
    # ------------------------------------------------------------ friends and the ladder (webapp/social/)
    Key("CHALLENGE_SECONDS", 120, "seconds a challenge to a friend stays open"),
    Key("CHALLENGE_MAX_OPEN", 3, "open challenges one user may have sent at once (one per friend)"),
    Key("CHALLENGE_LIMIT", 10, "challenges one user may send within CHALLENGE_WINDOW"),
    Key("CHALLENGE_WINDOW", 600, "seconds"),
    Key("QUEUE_SECONDS", 300, "seconds a place in the play-anyone queue lasts"),
    Key("QUEUE_TICK", 2.0, "seconds between the queue's looks for waiting players the wait has brought close enough"),
    # ------------------------------------------------------------ sockets' flood limits (docs/protocol.md "Flood control")
    Key("RATE_LIMIT", 20, "events a second on one socket (the three None limits below derive from it)"),
    Key("RATE_LIMIT_USER", None, "events a second over all of one user's sockets (None: 2 x RATE_LIMIT)"),
    Key("RATE_LIMIT_ADDRESS", None, "... of one address's sockets (None: 5 x RATE_LIMIT)"),
    Key("STATES_PER_SECOND", None, "states a user's joins may build a second; cached ones are free (None: RATE_LIMIT / 2)"),
    Key("SOCKETS_PER_USER", 8, "sockets open at once per user (tabs, a phone, a reconnect racing its old socket)"),
    Key("SOCKETS_PER_ADDRESS", 32, "... per address (friends behind one home router)"),
    Key("STATE_CACHE_BYTES", 32 * 2**20, "what the built states kept for repeated joins may hold, as JSON"),
    Key("OUTBOX_LIMIT", 64, "packets waiting to be written to one socket before it is closed as too slow"),
    # ------------------------------------------------------------ hosting (docs/deploy.md, docs/admin.md)
    Key("MESSAGE_QUEUE", None, "several processes: 'redis://…' (unset: $MESSAGE_QUEUE, else one process)"),
    Key("MESSAGE_QUEUE_PREFIX", "brigade", "the prefix of every Redis key and channel"),
    Key("BACKUP_DIR", None, "where 'Back up now' writes (unset: instance/backups)"),
    Key("LOG_LEVEL", None, "DEBUG, INFO, WARNING, ERROR (unset: $LOG_LEVEL, else INFO)"),
    Key("LOG_FORMAT", None, "'text' or 'json' lines (unset: $LOG_FORMAT, else text)"),
    Key("METRICS_TOKEN", None, "bearer token that lets a scraper on another machine read /metrics"),
    # ------------------------------------------------------------ extensions' keys Brigade sets
    Key("BABEL_DEFAULT_LOCALE", "en", "Flask-Babel: the language of a page when nothing chooses one (docs/i18n.md)"),
    Key("BABEL_TRANSLATION_DIRECTORIES", str(Path(__file__).resolve().parent.parent / "translations"),
        "Flask-Babel: where the catalogs are"),
    Key("COMPRESS_MIMETYPES", ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                               "image/svg+xml", "text/plain"], "Flask-Compress: what is compressed"),
    Key("COMPRESS_ALGORITHM", ["br", "gzip"], "Flask-Compress: encodings, preferred first"),
    Key("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"], "Flask-Compress: encodings of streamed answers"),
)

#: {key: default} of the keys ``load`` sets.
DEFAULTS = {k.name: k.default for k in KEYS if k.default not in (AT_START, FLASK)}

#: The environment variables Brigade reads (name, default, meaning); docs/deploy.md.
ENVIRONMENT = (
    ("BRIGADE_SERVER", "threading", "'gevent' or 'threading': how Socket.IO is served (python -m webapp sets gevent)"),
    ("BRIGADE_INSTANCE_PATH", "instance/", "the instance folder: config.py, the database, the secret key"),
    ("BRIGADE_DB", "instance/brigade.db", "the database file (the DATABASE key wins)"),
    ("BRIGADE_DB_WAIT", "cooperative", "'cooperative' or 'threadpool': how a writer waits for SQLite's lock"),
    ("BRIGADE_PORT", "5000", "python -m webapp's port (its --port wins)"),
    ("BRIGADE_CARDS", "cards/pool", "the card pool's folder"),
    ("BRIGADE_STORY", "cards/story", "the story chapters' folder"),
    ("BRIGADE_PUZZLES", "cards/puzzles", "the puzzles' folder (docs/puzzles.md)"),
    ("BRIGADE_CPU_WORKERS", "cores - 1", "the Hard CPU's worker processes (the CPU_WORKERS key wins)"),
    ("MESSAGE_QUEUE", None, "as the MESSAGE_QUEUE key, when config.py leaves it out"),
    ("LOG_LEVEL", None, "as the LOG_LEVEL key, when config.py leaves it out"),
    ("LOG_FORMAT", None, "as the LOG_FORMAT key, when config.py leaves it out"),
    ("MALLOC_ARENA_MAX", None, "set: python -m webapp leaves glibc's malloc arenas alone (else the threading server keeps 2)"),
)


def load(app):
    """Give every key the host left out its default (a copy: a list default is never shared)."""
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, copy.deepcopy(default))
