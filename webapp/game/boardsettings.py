"""A player's board settings (docs/accounts.md "Board settings"): animation speed, auto-pass, a confirm step before a summon,
sound, card language.

Stored per account as the mark ``board_settings`` (webapp/store/marks.py, the table of small per-user
facts), read and written by ``GET``/``POST /play/settings.json`` (docs/accounts.md, "Board settings");
the board page (static/js/play-settings.js) keeps a copy in localStorage so it applies them at once.
"""

import contextlib

from webapp.store.marks import get_mark, set_mark

MARK = "board_settings"

#: Every setting with its default; a stored dict is always merged over these.
DEFAULTS = {
    "anim": "normal",    # animation speed: "normal", "fast" or "instant"
    "autopass": False,   # let the opponent's battle declarations through without a click
    "confirmsummon": False,  # a summon from the hand asks once more before it is sent
    "sound": True,       # sound effects (spectators start with sound off on the page)
    "volume": 60,        # 0-100
    "lang": "en",        # card language: "en" or "ja" (unset: the page's language, webapp/i18n.py)
}
CHOICES = {"anim": ("normal", "fast", "instant"), "lang": ("en", "ja")}


class BadSettings(ValueError):
    """The settings sent are not settings: unknown key or a value of the wrong kind."""


def clean(changes):
    """``changes`` (a dict of some settings) checked; raises BadSettings, never partially applies."""
    if not isinstance(changes, dict) or not changes:
        raise BadSettings("send a JSON object with one or more settings")
    out = {}
    for key, value in changes.items():
        if key not in DEFAULTS:
            raise BadSettings(f"unknown setting {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        if key in CHOICES:
            if value not in CHOICES[key]:
                raise BadSettings(f"{key} must be one of {', '.join(CHOICES[key])}")
        elif key == "volume":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
                raise BadSettings("volume must be a whole number from 0 to 100")
        elif not isinstance(value, bool):
            raise BadSettings(f"{key} must be true or false")
        out[key] = value
    return out


def load(db, user_id, lang=None):
    """The user's settings: the stored ones over the defaults (unknown stored keys are dropped).
    ``lang`` (the page's language) is the card language of a player who never chose one apart."""
    stored = get_mark(db, user_id, MARK) or {}
    merged = dict(DEFAULTS)
    if lang in CHOICES["lang"]:
        merged["lang"] = lang
    for key, value in stored.items():
        with contextlib.suppress(BadSettings):  # a setting from an older or newer Brigade: keep the default
            merged.update(clean({key: value}))
    return merged


def save(db, user_id, changes, lang=None):
    """Merge the checked ``changes`` into the user's settings and return them all (``lang`` as in load)."""
    new = load(db, user_id, lang)
    new.update(clean(changes))
    set_mark(db, user_id, MARK, new)
    return new
