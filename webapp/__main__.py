"""Command line: ``python -m webapp`` (or ``brigade``) serves the game; ``… db init|seed|backup PATH``
manages its database (see ``webapp.store.__main__``)."""

import argparse
import os
import sys

from webapp import create_app


def main(argv=None):
    """Parse the command line, create the app and serve it until stopped (or run a ``db`` command)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["db"]:
        from webapp.store.__main__ import main as db_main

        return db_main(argv[1:], prog="python -m webapp db")
    parser = argparse.ArgumentParser(prog="brigade", description="Serve the Brigade card game.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    parser.add_argument(
        "--port",
        type=int,
        default=os.environ.get("BRIGADE_PORT", "5000"),
        help="port to listen on (default: $BRIGADE_PORT or 5000)",
    )
    args = parser.parse_args(argv)
    app = create_app()
    print(f"Brigade is running at http://{args.host}:{args.port}/", flush=True)
    # Werkzeug's threaded server with Flask-SocketIO's threading mode (docs/decisions.md): fine
    # for a few friends; put nginx in front for TLS.
    app.extensions["socketio"].run(app, args.host, args.port, debug=False, allow_unsafe_werkzeug=True)


if __name__ == "__main__":
    sys.exit(main())
