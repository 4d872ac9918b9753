"""The schema as numbered migrations, applied in order and recorded in ``schema_version``.

A migration is a function ``mNNN_what(db)``; append new ones to ``MIGRATIONS`` and never edit
one that has shipped. ``migrate`` applies each missing one in its own write transaction, so a
failure leaves the database at the previous version, and several processes starting at once
apply each migration exactly once. Tables are plain (not STRICT) so that older SQLite builds on
a host can still open a copy; JSON columns are TEXT checked with ``json_valid``.
"""

from .db import now, transaction
from .errors import SchemaTooNew

M001_TABLES = [
    """CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
        password_hash TEXT NOT NULL,
        created TEXT NOT NULL,
        is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1))
    )""",
    """CREATE TABLE cards (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('monster', 'spell')),
        element TEXT NOT NULL,
        level INTEGER,
        rarity TEXT NOT NULL,
        "set" INTEGER NOT NULL,
        in_pool INTEGER NOT NULL DEFAULT 1 CHECK (in_pool IN (0, 1)),
        data TEXT NOT NULL CHECK (json_valid(data))
    )""",
    "CREATE INDEX cards_browse ON cards (kind, element, level)",
    """CREATE TABLE collection (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        card_id TEXT NOT NULL REFERENCES cards (id),
        count INTEGER NOT NULL CHECK (count > 0),
        PRIMARY KEY (user_id, card_id)
    )""",
    "CREATE INDEX collection_card ON collection (card_id)",
    """CREATE TABLE decks (
        id INTEGER PRIMARY KEY,
        user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        loaner INTEGER NOT NULL DEFAULT 0 CHECK (loaner IN (0, 1)),
        slug TEXT UNIQUE,
        texts TEXT CHECK (texts IS NULL OR json_valid(texts)),
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        CHECK ((loaner = 1 AND user_id IS NULL AND slug IS NOT NULL)
            OR (loaner = 0 AND user_id IS NOT NULL AND slug IS NULL))
    )""",
    # Also the index for a user's deck list; NULL user ids (loaners) never collide.
    "CREATE UNIQUE INDEX decks_user_name ON decks (user_id, name COLLATE NOCASE)",
    """CREATE TABLE deck_cards (
        deck_id INTEGER NOT NULL REFERENCES decks (id) ON DELETE CASCADE,
        card_id TEXT NOT NULL REFERENCES cards (id),
        count INTEGER NOT NULL CHECK (count > 0),
        PRIMARY KEY (deck_id, card_id)
    )""",
    "CREATE INDEX deck_cards_card ON deck_cards (card_id)",
    """CREATE TABLE packs (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        created TEXT NOT NULL,
        opened_at TEXT,
        cards TEXT CHECK (cards IS NULL OR json_valid(cards)),
        CHECK ((opened_at IS NULL) = (cards IS NULL))
    )""",
    "CREATE INDEX packs_user ON packs (user_id, opened_at)",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,
        seed INTEGER NOT NULL,
        setup TEXT NOT NULL CHECK (json_valid(setup)),
        seat0_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        seat1_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('waiting', 'active', 'finished', 'aborted')),
        result TEXT CHECK (result IS NULL OR json_valid(result)),
        version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
        state TEXT CHECK (state IS NULL OR json_valid(state)),
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )""",
    "CREATE INDEX games_seat0 ON games (seat0_user_id, status)",
    "CREATE INDEX games_seat1 ON games (seat1_user_id, status)",
    "CREATE INDEX games_status ON games (status, updated)",
    """CREATE TABLE game_actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq > 0),
        player INTEGER CHECK (player IS NULL OR player IN (0, 1)),
        action TEXT NOT NULL CHECK (json_valid(action)),
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    """CREATE TABLE story_progress (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        chapter TEXT NOT NULL,
        cleared INTEGER NOT NULL DEFAULT 0 CHECK (cleared IN (0, 1)),
        best TEXT CHECK (best IS NULL OR json_valid(best)),
        reward_granted INTEGER NOT NULL DEFAULT 0 CHECK (reward_granted IN (0, 1)),
        updated TEXT NOT NULL,
        PRIMARY KEY (user_id, chapter)
    )""",
    """CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value))
    )""",
]


def m001_initial(db):
    """Users, cards, collections, decks, packs, games and their actions, story, settings."""
    for sql in M001_TABLES:
        db.execute(sql)


def m002_last_login(db):
    """Record each user's last login; index games by last change for the lobby's recent games."""
    db["users"].add_column("last_login", str)
    db["games"].create_index(["updated"], index_name="games_updated")


def m003_online_games(db):
    """Online games between friends (R18): each one's invitation code, clocks and rematch offer."""
    db.execute("""CREATE TABLE online_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        code TEXT NOT NULL UNIQUE,
        clock TEXT NOT NULL CHECK (json_valid(clock)),
        rematch TEXT CHECK (rematch IS NULL OR json_valid(rematch)),
        updated TEXT NOT NULL
    )""")


def m004_user_marks(db):
    """Small facts remembered per account (webapp/store/marks.py): the first deck built, first steps."""
    db.execute("""CREATE TABLE user_marks (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key TEXT NOT NULL CHECK (length(key) > 0),
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    )""")


def m005_session_version_and_known_logins(db):
    """Logging out revokes: each user's session version, which a session must match (docs/security.md);
    and the places (a keyed hash of the address) each user logged in from, which failed log-ins by
    strangers never lock out."""
    db.execute("ALTER TABLE users ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0")
    db.execute("""CREATE TABLE known_logins (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        place TEXT NOT NULL,
        seen TEXT NOT NULL,
        PRIMARY KEY (user_id, place)
    )""")


def m006_hosting(db):
    """The host's tools (docs/admin.md): users can be disabled and are seen (``last_seen``); the audit of every admin action;
    invitation codes with uses left and an expiry, and who used them; one-time password-reset links
    (only a hash of each token is kept)."""
    db.execute("ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))")
    db.execute("ALTER TABLE users ADD COLUMN last_seen TEXT")
    db.execute("""CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        action TEXT NOT NULL CHECK (length(action) > 0),
        target TEXT,
        detail TEXT CHECK (detail IS NULL OR json_valid(detail))
    )""")
    db.execute("CREATE INDEX audit_log_at ON audit_log (at)")
    db.execute("""CREATE TABLE invite_codes (
        code TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
        uses_left INTEGER NOT NULL CHECK (uses_left >= 0),
        expires TEXT,
        note TEXT NOT NULL DEFAULT ''
    )""")
    db.execute("""CREATE TABLE invite_uses (
        code TEXT NOT NULL REFERENCES invite_codes (code) ON DELETE CASCADE,
        user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        at TEXT NOT NULL
    )""")
    db.execute("CREATE INDEX invite_uses_code ON invite_uses (code)")
    db.execute("""CREATE TABLE password_resets (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        expires TEXT NOT NULL,
        used_at TEXT
    )""")


def m007_chat(db):
    """Chat in online games: the players' and the spectators' messages, the reports on them (a host reads
    them in /admin/chat) and who muted whom (webapp/social/chat.py)."""
    db.execute("""CREATE TABLE chat_messages (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        channel TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
        user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        seat INTEGER CHECK (seat IS NULL OR seat IN (0, 1)),
        text TEXT NOT NULL CHECK (length(text) > 0),
        created TEXT NOT NULL
    )""")
    db.execute("CREATE INDEX chat_messages_game ON chat_messages (game_id, channel, id)")
    db.execute("""CREATE TABLE chat_reports (
        message_id INTEGER NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
        reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        resolved TEXT,
        resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
        PRIMARY KEY (message_id, reporter_id)
    )""")
    db.execute("CREATE INDEX chat_reports_open ON chat_reports (resolved, created)")
    db.execute("""CREATE TABLE chat_mutes (
        muter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        muted_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        PRIMARY KEY (muter_id, muted_id)
    )""")


def m008_social(db):
    """Friends and the ladder (docs/storage.md "Tables", docs/social.md): friend requests and friendships,
    blocks, each account's friend link and watch setting, challenges between friends, ratings and their
    history, and the queue of players who want a game with anyone online."""
    db.execute("""CREATE TABLE friend_requests (
        from_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        to_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        PRIMARY KEY (from_id, to_id),
        CHECK (from_id != to_id)
    )""")
    db.execute("CREATE INDEX friend_requests_to ON friend_requests (to_id)")
    db.execute("""CREATE TABLE friendships (
        low_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        high_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        since TEXT NOT NULL,
        PRIMARY KEY (low_id, high_id),
        CHECK (low_id < high_id)
    )""")
    db.execute("CREATE INDEX friendships_high ON friendships (high_id)")
    db.execute("""CREATE TABLE blocks (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        PRIMARY KEY (user_id, blocked_id),
        CHECK (user_id != blocked_id)
    )""")
    db.execute("CREATE INDEX blocks_blocked ON blocks (blocked_id)")
    db.execute("""CREATE TABLE social_settings (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        friend_token TEXT UNIQUE,
        watch TEXT NOT NULL DEFAULT 'friends' CHECK (watch IN ('friends', 'link', 'nobody')),
        updated TEXT NOT NULL
    )""")
    db.execute("""CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        from_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        to_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        deck_id INTEGER NOT NULL,
        clock_ms INTEGER NOT NULL CHECK (clock_ms > 0),
        rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL,
        game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,
        CHECK (from_id != to_id)
    )""")
    db.execute("CREATE INDEX challenges_to ON challenges (to_id, status)")
    db.execute("CREATE INDEX challenges_from ON challenges (from_id, created_ms)")
    db.execute("""CREATE TABLE ratings (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        vol REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        updated TEXT NOT NULL
    )""")
    db.execute("CREATE INDEX ratings_rating ON ratings (rating DESC)")
    db.execute("""CREATE TABLE rating_history (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (user_id, game_id)
    )""")
    db.execute("""CREATE TABLE match_queue (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        deck_id INTEGER NOT NULL,
        clock_ms INTEGER NOT NULL,
        rating REAL NOT NULL,
        since_ms INTEGER NOT NULL
    )""")


def m009_shards(db):
    """Crafting (docs/cards.md "Crafting"): each user's shard balance, never below 0, and the ledger of
    every change (a disenchanted or crafted card, a reward), so the balance is the ledger's sum."""
    db.execute("""CREATE TABLE shards (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        balance INTEGER NOT NULL CHECK (balance >= 0)
    )""")
    db.execute("""CREATE TABLE shard_ledger (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        change INTEGER NOT NULL CHECK (change != 0),
        reason TEXT NOT NULL CHECK (reason IN ('disenchant', 'craft', 'reward')),
        detail TEXT NOT NULL CHECK (json_valid(detail))
    )""")
    db.execute("CREATE INDEX shard_ledger_user ON shard_ledger (user_id, id)")


def m010_daily_quests(db):
    """Daily quests (docs/cards.md "Daily quests"): each player's three quests of a day with their progress
    and claim, the day's one reroll, and the games already counted (a game advances quests once)."""
    db.execute("""CREATE TABLE daily_quests (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        slot INTEGER NOT NULL CHECK (slot BETWEEN 0 AND 2),
        quest TEXT NOT NULL,
        progress INTEGER NOT NULL DEFAULT 0 CHECK (progress >= 0),
        claimed_at TEXT,
        PRIMARY KEY (user_id, day, slot)
    )""")
    db.execute("""CREATE TABLE quest_days (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        rerolled INTEGER NOT NULL DEFAULT 0 CHECK (rerolled IN (0, 1)),
        PRIMARY KEY (user_id, day)
    )""")
    db.execute("""CREATE TABLE quest_games (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        advanced TEXT NOT NULL CHECK (json_valid(advanced)),
        PRIMARY KEY (user_id, game_id)
    )""")


def m011_puzzle_progress(db):
    """Puzzles (docs/puzzles.md): each user's tries, misses and first solve of each puzzle, and one row
    per finished puzzle game so a game's result is counted once however often its end is reported."""
    db.execute("""CREATE TABLE puzzle_progress (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        puzzle TEXT NOT NULL CHECK (length(puzzle) > 0),
        tries INTEGER NOT NULL DEFAULT 0 CHECK (tries >= 0),
        misses INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0),
        solved_at TEXT,
        game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,
        updated TEXT NOT NULL,
        PRIMARY KEY (user_id, puzzle)
    )""")
    db.execute("""CREATE TABLE puzzle_results (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        puzzle TEXT NOT NULL,
        solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
        at TEXT NOT NULL
    )""")


def m012_gauntlet_runs(db):
    """The gauntlet draft (docs/gauntlet.md): one row per run, its draft picks and its games' results;
    at most one unfinished run per user."""
    db.execute("""CREATE TABLE gauntlet_runs (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('drafting', 'playing', 'finished')),
        seed INTEGER NOT NULL,
        picks TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(picks)),
        results TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(results)),
        wins INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
        losses INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
        game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,
        reward TEXT CHECK (reward IS NULL OR json_valid(reward)),
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )""")
    db.execute("CREATE UNIQUE INDEX gauntlet_runs_open ON gauntlet_runs (user_id) WHERE status != 'finished'")


def m013_shared_puzzles(db):
    """Puzzles made from a moment of a finished game and shared by link (docs/puzzles.md): the position
    as its maker saw it, the goal, and a line the solver found."""
    db.execute("""CREATE TABLE shared_puzzles (
        code TEXT PRIMARY KEY CHECK (length(code) BETWEEN 8 AND 40),
        maker_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
        game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,
        version INTEGER NOT NULL CHECK (version >= 0),
        goal TEXT NOT NULL CHECK (json_valid(goal)),
        scenario TEXT NOT NULL CHECK (json_valid(scenario)),
        line TEXT NOT NULL CHECK (json_valid(line)),
        created TEXT NOT NULL
    )""")


def m014_game_analyses(db):
    """The after-game analysis of a seat (webapp/game/aftergame.py): its progress while it runs in the
    CPU worker pool, then its result (JSON); it goes with its game."""
    db.execute("""CREATE TABLE game_analyses (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        done INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        data TEXT CHECK (data IS NULL OR json_valid(data)),
        updated TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""")


def m015_deck_wants(db):
    """The copies a deck's source list (an imported code or card list, a copied loaner) had that the
    player did not own when it was saved: what the deckbuilder offers to craft (webapp/decks/crafting.py
    ``deck_lacks``); they go with the deck."""
    db.execute("""CREATE TABLE deck_wants (
        deck_id INTEGER NOT NULL REFERENCES decks (id) ON DELETE CASCADE,
        card_id TEXT NOT NULL REFERENCES cards (id),
        count INTEGER NOT NULL CHECK (count > 0),
        PRIMARY KEY (deck_id, card_id)
    )""")


#: Every migration, in order; a database at version N has had the first N applied.
MIGRATIONS = [m001_initial, m002_last_login, m003_online_games, m004_user_marks,
              m005_session_version_and_known_logins, m006_hosting, m007_chat, m008_social, m009_shards,
              m010_daily_quests, m011_puzzle_progress, m012_gauntlet_runs, m013_shared_puzzles,
              m014_game_analyses, m015_deck_wants]

LATEST = len(MIGRATIONS)


def version(db):
    """The number of migrations applied to ``db`` (0 for an empty file)."""
    if not db["schema_version"].exists():
        return 0
    return db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]


def migrate(db, target=LATEST):
    """Apply the migrations ``db`` lacks up to ``target``; return the names of those applied."""
    found = version(db)
    if found > LATEST:
        raise SchemaTooNew(f"the database is at schema version {found}, "
                           f"but this Brigade knows only {LATEST}: upgrade Brigade")
    if found >= target:  # current: nothing to apply, no write lock taken (every start of a current file)
        return []
    applied = []
    for number, migration in enumerate(MIGRATIONS[:target], start=1):
        with transaction(db):
            # Read again under the write lock: another process may have just applied it.
            db.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                       "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)")
            if version(db) >= number:
                continue
            migration(db)
            db["schema_version"].insert({"version": number, "name": migration.__name__, "applied": now()})
            applied.append(migration.__name__)
    return applied
