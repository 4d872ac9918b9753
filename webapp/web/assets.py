"""Page weight: compressed responses and static files under content-hashed URLs (docs/deploy.md).

- **Compression** is Flask-Compress: brotli (else gzip) for HTML, CSS, JavaScript, JSON and SVG of
  500 bytes or more. Socket.IO's long-polling never reaches Flask (python-engineio answers it in
  its WSGI middleware) and is compressed by engineio itself (``http_compression``, on by default,
  for payloads of 1 KB or more).
- **Hashed static URLs**: ``url_for('static', filename=...)`` adds ``?v=<hash of the file>``; a
  file asked for with its current hash is served ``public, max-age=31536000, immutable``, so a
  repeat visit asks for none of them. A file without ``v`` (or with a stale one) keeps Flask's
  revalidation (``no-cache`` with an ETag): never a stale script after a deploy.
- **ES modules** import one another by relative URL (``import {h} from "./play-util.js"``), which
  would carry no hash. A script under static/js is served with those specifiers rewritten to the
  hashed URLs, and its own hash is that of the rewritten text, so a change in any module it
  imports gives it a new URL too.
"""

import functools
import hashlib
import os
import re

from flask import current_app, request
from flask_compress import Compress

IMMUTABLE = "public, max-age=31536000, immutable"
#: `from "./x.js"`, `import "./x.js"` and `import("./x.js")` of a sibling module.
IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])\./([A-Za-z0-9_.-]+\.js)\2""")


def init_app(app):
    # COMPRESS_MIMETYPES, COMPRESS_ALGORITHM, COMPRESS_ALGORITHM_STREAMING: webapp/config.py
    Compress(app)
    app.url_defaults(hash_static_urls)
    original = app.view_functions["static"]

    def static(filename):
        return serve_static(original, filename)

    app.view_functions["static"] = static


def static_root():
    return current_app.static_folder


def _stamp(folder):
    """Changes whenever a file under static/js changes (the cache keys below)."""
    js = os.path.join(folder, "js")
    try:
        return tuple(sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size) for e in os.scandir(js)))
    except OSError:
        return ()


def file_hash(filename):
    folder = static_root()
    path = os.path.join(folder, filename)
    try:
        st = os.stat(path)
    except OSError:
        return None
    if is_module(filename):
        return _module(folder, filename, _stamp(folder))[1]
    return _hash_of(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=512)
def _hash_of(path, mtime, size):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def is_module(filename):
    return filename.startswith("js/") and filename.endswith(".js") and "/" not in filename[3:]


@functools.lru_cache(maxsize=128)
def _module(folder, filename, stamp, _seen=()):
    """(text with its sibling imports hashed, hash of that text) of static/<filename>."""
    with open(os.path.join(folder, filename), encoding="utf-8") as f:
        text = f.read()

    def hashed(m):
        name = m.group(3)
        dep = "js/" + name
        if dep in _seen or dep == filename or not os.path.exists(os.path.join(folder, dep)):
            return m.group(0)  # an import cycle or a missing file: left as it was
        digest = _module(folder, dep, stamp, _seen + (filename,))[1]
        return f"{m.group(1)}{m.group(2)}./{name}?v={digest}{m.group(2)}"

    text = IMPORT.sub(hashed, text)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def hash_static_urls(endpoint, values):
    """url_for('static', filename=...) → .../filename?v=<hash>."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        digest = file_hash(values["filename"])
        if digest:
            values["v"] = digest


def serve_static(original, filename):
    current = file_hash(filename)
    hashed = current is not None and request.args.get("v") == current
    if current is not None and is_module(filename):
        text, digest = _module(static_root(), filename, _stamp(static_root()))
        response = current_app.response_class(text, mimetype="text/javascript")
        response.set_etag(digest)
        if not hashed:
            response.headers["Cache-Control"] = "no-cache"
            return response.make_conditional(request)
    else:
        response = original(filename=filename)
    if hashed and response.status_code == 200:
        response.headers["Cache-Control"] = IMMUTABLE
        response.expires = None
    return response
