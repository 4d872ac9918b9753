"""The game in English and Japanese (docs/i18n.md): Flask-Babel for pages and Python messages, one JSON
catalog per language for the JavaScript, both from the gettext catalogs under translations/.

- **Source**: ``translations/messages.pot`` is extracted by ``pybabel extract -F babel.cfg`` from
  templates, Python and static/js (``python -m webapp i18n extract`` runs extract and update);
  translators edit ``translations/<lang>/LC_MESSAGES/messages.po``. English msgids are the English
  text, so English needs no translation (its catalog exists for the JavaScript key check).
- **Build** (``build()``): each ``.po`` is compiled to its ``.mo`` and the entries used by static/js
  are written to ``static/i18n/<lang>.json``. Both are made from the committed ``.po`` files when the
  app is created (only when missing or older than their ``.po``), so ``scripts/run`` and
  ``scripts/test`` need no extra step; they are not committed (docs/decisions/0064-catalogs-built-not-committed.md).
- **Choice of language** (``select_locale``): the account's mark ``locale`` (webapp/store/marks.py), else
  the ``brigade_lang`` cookie, else the best match of ``Accept-Language``, else English. ``POST /lang``
  (the header's switch and the board settings) sets all of them, and the card-face language with it.
"""

import io
import json
import os
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
import subprocess
import sys

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import g, has_request_context, request, url_for
from flask_babel import Babel, format_date, format_datetime, format_time, get_locale, refresh

from webapp.store import get_db
from webapp.store.marks import get_mark

LANGS = ("en", "ja")
DEFAULT = "en"
#: Names shown in the language switch, each in its own language.
LANG_NAMES = {"en": "English", "ja": "日本語"}
COOKIE = "brigade_lang"
MARK = "locale"

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
JS_CATALOGS = ROOT / "static" / "i18n"
#: Where msgids used by the JavaScript come from (a catalog entry with a location under here goes
#: into the JSON catalogs).
JS_SOURCE = "static/js/"


# ---------------------------------------------------------------- build


def po_path(lang):
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(lang):
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def js_entries(catalog, lang):
    """{msgid: translation or [plural forms]} of the entries the JavaScript uses. English (and any
    untranslated entry) maps to the msgid itself, so each JSON catalog holds the same keys."""
    out = {}
    for message in catalog:
        if not message.id or not any(loc.startswith(JS_SOURCE) for loc, _ in message.locations):
            continue
        if isinstance(message.id, (list, tuple)):
            forms = [s for s in message.string] if message.string and all(message.string) else []
            if not forms or message.fuzzy:
                forms = list(message.id) if lang == DEFAULT else []
            out[message.id[0]] = forms or list(message.id)
        else:
            text = message.string if message.string and not message.fuzzy else message.id
            out[message.id] = text
    return dict(sorted(out.items()))


def plural_rule(catalog):
    """The catalog's plural expression (from its Plural-Forms header), e.g. ``(n != 1)`` or ``0``."""
    forms = catalog.plural_forms  # "nplurals=2; plural=(n != 1);"
    return forms.split("plural=", 1)[1].rstrip(";").strip()


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)  # never a half-written file for another process


def _stale(target, source):
    try:
        return target.stat().st_mtime_ns < source.stat().st_mtime_ns
    except FileNotFoundError:
        return True


def build(force=False):
    """Compile each language's .po into its .mo and write static/i18n/<lang>.json (when stale)."""
    built = []
    for lang in LANGS:
        source = po_path(lang)
        if not source.exists():
            continue
        mo = source.with_suffix(".mo")
        js = JS_CATALOGS / f"{lang}.json"
        if not (force or _stale(mo, source) or _stale(js, source)):
            continue
        catalog = read_catalog(lang)
        buf = io.BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        _write(mo, buf.getvalue())
        payload = {"lang": lang, "plural": plural_rule(catalog), "messages": js_entries(catalog, lang)}
        _write(js, json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=0).encode("utf-8"))
        built.append(lang)
    return built


def ensure_built(app=None):
    """build() when the app starts; a read-only checkout keeps what is there (and says so)."""
    try:
        build()
    except OSError as e:
        if app is not None:
            app.logger.warning("i18n: could not build the catalogs (%s); using the ones present", e)


# ---------------------------------------------------------------- choosing the language


#: {user id: the language of their latest page}, for what is made outside their requests (the game log
#: of a CPU's move, webapp/game/play.py ``seat_lang``). Bounded: the oldest entries go first.
USER_LANG = {}
USER_LANG_MAX = 10_000


@lru_cache(maxsize=len(LANGS))
def catalog(lang):
    """The compiled catalog of ``lang`` (built at app start, ``build``), for words chosen outside a
    request's locale: a seat's refusal (webapp/refusals.py), a background task's message to a game's
    sockets (webapp/sockets/hub.py ``cpu_unavailable``). ``catalog(lang).gettext(msgid)``."""
    found = Translations.load(str(TRANSLATIONS), [lang])
    return found if isinstance(found, Translations) else NullTranslations()


def remember(user_id, lang):
    if USER_LANG.get(user_id) != lang:
        USER_LANG.pop(user_id, None)
        if len(USER_LANG) >= USER_LANG_MAX:
            USER_LANG.pop(next(iter(USER_LANG)))
        USER_LANG[user_id] = lang
    return lang


def user_lang(user_id):
    """The language the user last read a page in (None if not since the server started)."""
    return USER_LANG.get(user_id)


def select_locale():
    if not has_request_context():
        return DEFAULT
    user = g.get("user")
    chosen = getattr(g, "locale_choice", None)
    if chosen not in LANGS and user:
        chosen = get_mark(get_db(), user["id"], MARK)
    if chosen not in LANGS:
        cookie = request.cookies.get(COOKIE)
        chosen = cookie if cookie in LANGS else request.accept_languages.best_match(LANGS) or DEFAULT
    return remember(user["id"], chosen) if user else chosen


def current():
    """The language of this request ("en" or "ja")."""
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGS else DEFAULT


def card_default():
    """The card-face language when the player never chose one apart: the page's language."""
    return current()


def js_catalog_url():
    """The hashed URL of the JavaScript catalog of this request's language (None for English,
    whose strings are the msgids themselves)."""
    lang = current()
    if lang == DEFAULT:
        return None
    return url_for("static", filename=f"i18n/{lang}.json")


def init_app(app):
    # BABEL_DEFAULT_LOCALE and BABEL_TRANSLATION_DIRECTORIES: webapp/config.py
    ensure_built(app)
    USER_LANG.clear()  # one app per process (each test makes its own: user ids start again)
    Babel(app, locale_selector=select_locale)
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # {% trans %} blocks with their whitespace collapsed
    app.jinja_env.globals.update(ui_lang=current, ui_langs=LANG_NAMES, i18n_catalog_url=js_catalog_url)
    app.jinja_env.filters.update(day=format_day, when=format_when, clock=format_clock)


def _parse(value):
    if not value:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if isinstance(value, datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def format_day(value, format="medium"):
    """A stored timestamp (ISO text or datetime) as a date in the page's language: "1 Dec 2026" / "2026/12/01"."""
    parsed = _parse(value)
    return format_date(parsed, format) if parsed else (value or "")


def format_when(value, format="medium"):
    """A stored timestamp as date and time in the page's language (and BABEL_DEFAULT_TIMEZONE, UTC)."""
    parsed = _parse(value)
    return format_datetime(parsed, format) if parsed else (value or "")


def format_clock(value, format="short"):
    """A stored timestamp as a time of day in the page's language, with its zone: "10:42 UTC"."""
    parsed = _parse(value)
    return f"{format_time(parsed, format)} UTC" if parsed else (value or "")


def logged_in(user):
    """The user has just logged in: this request speaks their language from now on."""
    mark = get_mark(get_db(), user["id"], MARK)
    if mark in LANGS:
        g.locale_choice = mark
        refresh()


def main(argv=None):
    """``python -m webapp i18n extract|build``: extract and update the catalogs, or build them."""
    args = list(sys.argv[1:] if argv is None else argv)
    what = args[0] if args else "build"
    if what == "extract":
        pybabel = [os.path.join(os.path.dirname(sys.executable), "pybabel")]
        pot = str(TRANSLATIONS / "messages.pot")
        subprocess.run([*pybabel, "-q", "extract", "-F", "babel.cfg", "--no-wrap", "--sort-by-file",
                        "--project", "Brigade", "-o", pot, "."], check=True, cwd=ROOT)
        for lang in LANGS:
            cmd = "update" if po_path(lang).exists() else "init"
            subprocess.run([*pybabel, "-q", cmd, "-i", pot, "-d", str(TRANSLATIONS), "-l", lang, "--no-wrap",
                            *(["--ignore-obsolete", "--no-fuzzy-matching"] if cmd == "update" else [])], check=True, cwd=ROOT)
        return 0
    if what == "build":
        print("built:", ", ".join(build(force=True)) or "nothing")
        return 0
    print("usage: python -m webapp i18n extract|build", file=sys.stderr)
    return 2
