"""`python -m webapp.cards list [--json]`: print the loaded card pool.

`python -m webapp.cards gallery OUT_DIR [--lang en|ja]`: draw every card (webapp/cards/art.py) into
OUT_DIR/cards/<id>.svg and a page of them all, OUT_DIR/index.html, grouped by element then level.
"""

import argparse
import json
import os
import sys
from collections import Counter

from jinja2 import ChoiceLoader, DictLoader, Environment, FileSystemLoader, select_autoescape

from webapp.engine import ELEMENTS, RARITIES, CardDataError, load_pool
from webapp.serving import ROOT

from .art import ELEMENT_NAMES, card_svg, card_svg_markup, palette


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m webapp.cards", description="The Brigade card pool.")
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list", help="list every card of the pool")
    ls.add_argument("--json", action="store_true", help="every card's full data as JSON")
    gal = sub.add_parser("gallery", help="draw every card as SVG, with an HTML page of them all")
    gal.add_argument("out_dir", metavar="OUT_DIR", help="folder for index.html and cards/<id>.svg")
    gal.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the card faces")
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
    elif args.command == "gallery":
        index = write_gallery(pool, args.out_dir, args.lang)
        print(f"{len(pool)} cards drawn: {index}")
    return 0


# ---------------------------------------------------------------- gallery

GALLERY = """<!doctype html>
{%- from "cards/_card.html" import card -%}
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ t.title }}</title>
<style>
  :root { color-scheme: dark; }
  body { margin: 0; background: #15131a; color: #ece6da;
         font-family: 'DejaVu Sans', Verdana, 'Noto Sans CJK JP', 'Hiragino Kaku Gothic ProN', Meiryo, sans-serif; }
  header { padding: 22px 32px 16px; background: linear-gradient(#2a2233, #15131a); border-bottom: 1px solid #3a3244; }
  h1 { margin: 0 0 10px; font-family: 'DejaVu Serif', Georgia, 'Noto Serif CJK JP', serif; font-size: 28px;
       letter-spacing: .02em; }
  .counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; padding: 0; list-style: none; font-size: 14px; }
  .counts li { padding: 4px 10px; border-radius: 999px; background: #2b2533; border: 1px solid #463d52; }
  .counts li b { font-size: 15px; }
  .counts .el { border-color: var(--el); box-shadow: inset 4px 0 0 var(--el); }
  .counts a { color: inherit; text-decoration: none; }
  main { padding: 8px 32px 40px; }
  section.element { margin-top: 26px; }
  section.element > h2 { margin: 0 0 6px; padding: 6px 14px; border-radius: 8px; font-size: 20px;
       background: linear-gradient(90deg, var(--el), transparent 70%); color: #fff; text-shadow: 0 1px 2px #000; }
  h3 { margin: 14px 0 8px; font-size: 14px; font-weight: bold; color: #cfc6b8; text-transform: uppercase;
       letter-spacing: .08em; }
  h2 small, h3 small { font-weight: normal; opacity: .75; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, 200px); gap: 16px 14px; }
  .card-figure svg { filter: drop-shadow(0 3px 5px rgba(0,0,0,.55)); }
  .card-caption { margin-top: 3px; font-size: 11px; color: #8d8597; text-align: center; }
  a.card-link:focus-visible { outline: 2px solid #ffd36b; outline-offset: 2px; border-radius: 12px; }
</style>
</head>
<body>
<header>
  <h1>{{ t.title }}</h1>
  <ul class="counts" id="counts">
    <li><b>{{ total }}</b> {{ t.cards }}</li>
    <li><b>{{ monsters }}</b> {{ t.monsters }}</li>
    <li><b>{{ spells }}</b> {{ t.spells }}</li>
    {%- for g in groups %}
    <li class="el" style="--el: {{ g.colour }}"><a href="#{{ g.element }}">{{ g.label }} <b>{{ g.count }}</b></a></li>
    {%- endfor %}
    {%- for r, n in rarities %}
    <li>{{ r }} <b>{{ n }}</b></li>
    {%- endfor %}
  </ul>
</header>
<main>
{%- for g in groups %}
<section class="element" id="{{ g.element }}" style="--el: {{ g.colour }}">
  <h2>{{ g.label }} <small>{{ g.count }}</small></h2>
  {%- for sub in g.subgroups %}
  <h3>{{ sub.label }} <small>({{ sub.cards|length }})</small></h3>
  <div class="grid">
    {%- for c in sub.cards %}
    {{ card(c.svg, 200, caption=c.id, href="cards/" ~ c.id ~ ".svg", label=c.name) }}
    {%- endfor %}
  </div>
  {%- endfor %}
</section>
{%- endfor %}
</main>
</body>
</html>
"""

LABELS = {
    "en": {"title": "Brigade — Card Gallery", "cards": "cards", "monsters": "monsters", "spells": "spells",
           "level": "Level {}", "spell_group": "Spells"},
    "ja": {"title": "ブリゲード カードギャラリー", "cards": "枚", "monsters": "モンスター", "spells": "魔法",
           "level": "レベル{}", "spell_group": "魔法"},
}


def gallery_groups(pool):
    """[(element, [(level or None for spells, [cards])])] in element order, then level, spells last."""
    out = []
    order = list(ELEMENTS) + sorted({c.element for c in pool.values()} - set(ELEMENTS))
    for el in order:
        cards = [c for c in pool.values() if c.element == el]
        if not cards:
            continue
        subs = []
        for level in sorted({c.level for c in cards if c.kind == "monster"}):
            subs.append((level, sorted((c for c in cards if c.kind == "monster" and c.level == level),
                                       key=lambda c: (c.rarity_rank, c.data["name"]["en"], c.id))))
        spells = sorted((c for c in cards if c.kind == "spell"),
                        key=lambda c: (c.mana, c.rarity_rank, c.data["name"]["en"], c.id))
        if spells:
            subs.append((None, spells))
        out.append((el, subs))
    return out


def write_gallery(pool, out_dir, lang="en"):
    """Write OUT_DIR/cards/<id>.svg for every card and OUT_DIR/index.html; return the index path."""
    t = LABELS[lang]
    cards_dir = os.path.join(out_dir, "cards")
    os.makedirs(cards_dir, exist_ok=True)
    for c in pool.values():
        with open(os.path.join(cards_dir, f"{c.id}.svg"), "w", encoding="utf-8") as fh:
            fh.write('<?xml version="1.0" encoding="UTF-8"?>\n')
            fh.write(card_svg(c, lang))
            fh.write("\n")
    groups = []
    for el, subs in gallery_groups(pool):
        label = ELEMENT_NAMES.get(el, (el, el))[0 if lang == "en" else 1]
        groups.append({
            "element": el, "label": label, "colour": palette(el)["mid"],
            "count": sum(len(cs) for _, cs in subs),
            "subgroups": [{"label": t["level"].format(level) if level is not None else t["spell_group"],
                           "cards": [{"id": c.id, "name": c.data["name"].get(lang, c.id),
                                      "svg": card_svg_markup(c, lang)} for c in cs]}
                          for level, cs in subs],
        })
    rarity = Counter(c.rarity for c in pool.values())
    env = Environment(loader=ChoiceLoader([DictLoader({"gallery.html": GALLERY}),
                                           FileSystemLoader(str(ROOT / "templates"))]),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.globals["card_svg_markup"] = card_svg_markup
    html = env.get_template("gallery.html").render(
        lang=lang, t=t, groups=groups, total=len(pool),
        monsters=sum(1 for c in pool.values() if c.kind == "monster"),
        spells=sum(1 for c in pool.values() if c.kind == "spell"),
        rarities=[(r, rarity[r]) for r in RARITIES if rarity[r]])
    index = os.path.join(out_dir, "index.html")
    with open(index, "w", encoding="utf-8") as fh:
        fh.write(html)
    return index


if __name__ == "__main__":
    sys.exit(main())
