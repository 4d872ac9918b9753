"""`python -m webapp.cards list [--json]`: print the loaded card pool."""

import argparse
import json
import sys

from webapp.engine import CardDataError, load_pool


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m webapp.cards", description="The Brigade card pool.")
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list", help="list every card of the pool")
    ls.add_argument("--json", action="store_true", help="every card's full data as JSON")
    args = ap.parse_args(argv)
    try:
        pool = load_pool()
    except CardDataError as exc:
        print(f"card data error: {exc}", file=sys.stderr)
        return 1
    if args.command == "list":
        if args.json:
            json.dump([card.data for card in pool.values()], sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            for c in pool.values():
                stats = (f"L{c.level} {c.power}/{c.speed:+d}/{c.life} {c.tribe}" if c.kind == "monster"
                         else f"{c.spell.timing} mana {c.mana}")
                print(f"{c.id:24} {c.kind:7} {c.element:5} {c.rarity:2} {stats:28} {c.data['name']['en']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
