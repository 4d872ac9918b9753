"""Brigade: a browser card battle game served from Python."""

# First: the gevent switch patches the standard library before anything imports socket or threading
# (webapp/serving.py). ROOT and SERVER stay importable from here for the entry points and tests.
from webapp.serving import ROOT, SERVER  # noqa: F401  (SERVER: re-exported, tests read webapp.SERVER)

import os
import secrets
from pathlib import Path

from flask import Flask

from webapp import config as keys
from webapp import store


def create_app(test_config=None):
    """Create the Brigade app: configuration and registration, nothing else.

    ``test_config`` replaces ``instance/config.py``; its optional ``INSTANCE_PATH``
    key (else the ``BRIGADE_INSTANCE_PATH`` environment variable, else
    ``instance/`` in the repository) names the instance folder.
    """
    config = dict(test_config or {})
    instance_path = (
        config.pop("INSTANCE_PATH", None)
        or os.environ.get("BRIGADE_INSTANCE_PATH")
        or ROOT / "instance"
    )
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path).resolve()),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(DATABASE=store.default_path(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(config)

    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)

    keys.load(app)  # every key's default: the one list is webapp/config.py
    store.init_app(app)  # per-request connections; creates, migrates and seeds DATABASE if set

    # Imported here, not at the top: this file runs for every ``import webapp.…`` (the engine's, the CPU
    # workers', the command lines'), and the transports and languages load only when an app is made.
    from webapp import i18n, sockets, web
    from webapp.web import assets

    i18n.init_app(app)  # English and Japanese: Flask-Babel, catalogs built from translations/ (docs/i18n.md)
    assets.init_app(app)  # compression, hashed static URLs with a long cache (docs/deploy.md)
    web.register(app)
    if app.config.get("TESTING"):
        from webapp.web import testing  # here: the test-only pages are not even loaded on a normal server

        testing.init_app(app)  # tests only: start a game at a position (docs/testing.md); absent on a normal server
    sockets.init_app(app)  # live play over Socket.IO: app.extensions["socketio"]
    return app


def instance_secret_key(instance_path):
    """Return the key kept in ``instance_path/secret_key``, making it on first start."""
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        # Write a whole file, then link it into place: of several processes starting
        # at once, exactly one key wins and nobody reads a half-written file.
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    with open(path, encoding="utf-8") as f:
        key = f.read().strip()
    if not key:
        raise RuntimeError(f"secret key file {path!r} is empty; delete it to have a new one made")
    return key
