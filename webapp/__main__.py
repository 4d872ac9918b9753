"""Command line: ``python -m webapp`` (or ``brigade``) serves the game."""

import argparse
import os

from webapp import create_app


def main(argv=None):
    """Parse the command line, create the app and serve it until stopped."""
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
    app.run(args.host, args.port, debug=False)


if __name__ == "__main__":
    main()
