#!/usr/bin/env python3
"""Regenerate cards/art/icons.json: the game-icons used by the cards, taken from the npm package.

The icon of each card is chosen in cards/art/card-icons.toml (card id = icon name). This script
fetches the game-icons collection as the npm registry serves it (`npm pack @iconify-json/game-icons`,
CC BY 3.0, https://game-icons.net) and keeps only the icons the cards name, so the repository holds
a few dozen kilobytes, not the whole 4,000-icon set. Usage, from the repository root:

    python scripts/vendor-icons.py                 # npm pack the pinned version below
    python scripts/vendor-icons.py path/to.tgz     # or use a package already packed

It fails, naming them, when an icon in the mapping is not in the package.
"""

import json
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

PACKAGE = "@iconify-json/game-icons"
VERSION = "1.2.4"
ROOT = Path(__file__).resolve().parent.parent
MAPPING = ROOT / "cards" / "art" / "card-icons.toml"
OUT = ROOT / "cards" / "art" / "icons.json"


def packed(tmp):
    subprocess.run(["npm", "pack", f"{PACKAGE}@{VERSION}", "--silent"], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL)
    return next(Path(tmp).glob("*.tgz"))


def main(argv):
    with tempfile.TemporaryDirectory() as tmp:
        tgz = Path(argv[1]) if len(argv) > 1 else packed(tmp)
        with tarfile.open(tgz) as tar:
            icons = json.load(tar.extractfile("package/icons.json"))
            info = json.load(tar.extractfile("package/info.json"))
            version = json.load(tar.extractfile("package/package.json"))["version"]
    wanted = sorted(set(tomllib.loads(MAPPING.read_text(encoding="utf-8")).values()))
    aliases = icons.get("aliases", {})
    missing = [n for n in wanted if n not in icons["icons"] and n not in aliases]
    if missing:
        raise SystemExit(f"not in {PACKAGE} {version}: {', '.join(missing)}")
    bodies = {n: icons["icons"][n if n in icons["icons"] else aliases[n]["parent"]]["body"] for n in wanted}
    out = {
        "source": f"{PACKAGE}@{version} (npm), from {info['author']['url']}",
        "license": f"{info['license']['title']}: {info['license']['url']}",
        "attribution": "Icons by the game-icons.net authors (Lorc, Delapouite and contributors), CC BY 3.0",
        "width": icons.get("width", 512),
        "height": icons.get("height", 512),
        "icons": bodies,
    }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(bodies)} icons from {PACKAGE} {version}")


if __name__ == "__main__":
    main(sys.argv)
