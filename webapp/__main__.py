"""Command line: ``python -m webapp`` (or ``brigade``) serves the game; ``… db init|seed|backup PATH``
manages its database (see ``webapp.store.__main__``); ``… admin create-host NAME`` makes a host
(``webapp.hosttools``); ``… i18n extract|build`` updates or builds the translation catalogs (``webapp.i18n``)."""

import argparse
import contextlib
import ctypes.util
import gc
import ipaddress
import os
import sys

from webapp import create_app
from webapp.hosttools import cli
from webapp.i18n import main as i18n_main
from webapp.store.__main__ import main as db_main
from webapp.store.errors import StoreError
from webapp.serving import SERVER
from webapp.web import cardfiles


def main(argv=None):
    """Parse the command line, create the app and serve it until stopped (or run a ``db`` command)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["db"]:
        return db_main(argv[1:], prog="python -m webapp db")
    if argv[:1] == ["i18n"]:
        return i18n_main(argv[1:])
    if argv[:1] == ["admin"]:
        return cli(argv[1:])
    parser = argparse.ArgumentParser(prog="brigade", description="Serve the Brigade card game.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    parser.add_argument(
        "--port",
        type=int,
        default=os.environ.get("BRIGADE_PORT", "5000"),
        help="port to listen on (default: $BRIGADE_PORT or 5000)",
    )
    args = parser.parse_args(argv)
    if not os.environ.get("BRIGADE_SERVER"):
        # Serving defaults to gevent, which must patch the standard library before anything is
        # imported (webapp/serving.py does it when BRIGADE_SERVER says so): start again with it set.
        os.environ["BRIGADE_SERVER"] = "gevent"
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, "-m", "webapp", *argv])
    if SERVER == "threading":
        limit_malloc_arenas()
    try:
        app = create_app()
    except StoreError as exc:  # a read-only or newer database: one line that says what to fix
        print(f"brigade: {exc}", file=sys.stderr, flush=True)
        return 2
    tune_gc()
    print(f"Brigade is running at http://{args.host}:{args.port}/", flush=True)
    print(f"({SERVER} server; BRIGADE_SERVER=threading|gevent chooses, docs/deploy.md)", flush=True)
    warning = proxy_warning(args.host, app.config.get("PROXY_FIX"))
    if warning:
        print(warning, file=sys.stderr, flush=True)
    # Werkzeug's threaded server with Flask-SocketIO's threading mode, or gevent's WSGI server with
    # BRIGADE_SERVER=gevent (docs/deploy.md); put nginx in front for TLS.
    app.extensions["socketio"].start_background_task(cardfiles.warm, app)  # the first board opens at once
    app.extensions["socketio"].run(app, args.host, args.port, debug=False, allow_unsafe_werkzeug=True)


def proxy_warning(host, proxy_fix):
    """The warning for a server that trusts X-Forwarded-For (``PROXY_FIX``) while listening beyond the
    loopback (docs/security.md "Settings", ``PROXY_FIX``): anyone who reaches it directly can claim any address and so walk past
    every per-address limit. None when it listens on loopback only, or trusts no proxy."""
    if not proxy_fix:
        return None
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return None
    return (f"warning: PROXY_FIX is on and Brigade listens on {host}, beyond this machine: a client that reaches "
            "it directly can send a false X-Forwarded-For and pass every per-address limit. Listen on 127.0.0.1 "
            "behind nginx, or firewall the port (docs/deploy.md, docs/security.md).")


#: The cyclic garbage collector's thresholds in the server (Python's default is (700, 10, 10)).
GC_THRESHOLD = (20_000, 20, 20)


def tune_gc():
    """Make the cyclic garbage collector cheap in the serving process: what exists once the app is made
    (modules, the card pool, templates) is frozen out of every collection (``gc.freeze``), and the
    youngest generation is collected every 20,000 allocations instead of 700. The game's objects are
    freed by reference counting as they go; with the defaults the collector ran about once every
    three actions and took 8.7 % of the server's CPU in a 20-game load run (1,080 collections, 8 of
    them full), with these settings fewer than 20 collections in the same run
    (docs/decisions/0078-garbage-collector-tuned-when-serving.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


#: glibc's mallopt parameter for the most heaps (arenas) its malloc keeps (M_ARENA_MAX in malloc.h).
M_ARENA_MAX = -8


def limit_malloc_arenas(arenas=2):
    """Keep glibc to ``arenas`` malloc heaps in the threading server (what MALLOC_ARENA_MAX=2 does).

    Every socket runs on threads of its own there, and glibc gives new threads heaps of their own, up
    to eight per core: memory freed in one stays mapped in it, so the server's resident memory rose
    in steps of ~10 MB as games came and went, ~0.8 MB per finished CPU game on average, while no
    Python structure grew (tracemalloc; bench/memory_per_game.py, docs/decisions/0049-two-malloc-arenas-in-threading-mode.md). Nothing
    happens where there is no glibc or the variable is set already."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt(M_ARENA_MAX, arenas)


if __name__ == "__main__":
    sys.exit(main())
