"""Card faces: one standalone SVG per card, drawn procedurally from its data (no image files).

Each card's picture is its own subject (a game-icons.net icon, CC BY 3.0, chosen per card in
cards/art/card-icons.toml and vendored in cards/art/icons.json) over its element's scenery.
`card_svg(card, lang)` returns the whole card (viewBox 0 0 250 350) as SVG text; the same card
always gives the same picture (the art is seeded from the card id). `card_svg_markup(card, lang)`
is the same card for inline use in Jinja pages (width 100% of its container, as `Markup`).

The face follows R3.2a: the name at the top, the level in a circle at the top right, element and
tribe under the name, the rarity mark at the bottom left, wild spell slots as a gem split into
six colours. Text is wrapped here (SVG has no line breaking) with width tables measured from
DejaVu Sans / DejaVu Serif, which are as wide as or wider than the fonts that replace them
elsewhere (Verdana, Georgia), so estimated lines never overflow.
"""

import functools
import hashlib
import json
import math
import random
import re
import tomllib
import unicodedata
from pathlib import Path
from xml.sax.saxutils import escape as _xml_escape

from webapp.engine import ELEMENTS

from . import text as cardtext
from . import words

W, H = 250, 350

# ---------------------------------------------------------------- colours

PALETTES = {
    #         deep       dark       mid        bright     light      pale       gem
    "fire": ("#3d0a06", "#7d1a0e", "#c23a1a", "#f07a22", "#ffc46b", "#fff0d6", "#e8401a"),
    "water": ("#061c38", "#0f3f78", "#1f6fb8", "#3fa6e0", "#9fdcf7", "#eaf8ff", "#1e88e5"),
    "earth": ("#2a170c", "#59331b", "#87532c", "#b27846", "#e0bd8f", "#f7ecdc", "#a35a2a"),
    "wind": ("#0b3322", "#17603f", "#2f9a62", "#6fcf8a", "#c2f0c9", "#f0fcf1", "#27b36a"),
    "light": ("#4e3a05", "#9c7a16", "#dcb948", "#fff1b8", "#fff4c4", "#fffbea", "#f4c430"),
    "dark": ("#0f0820", "#2a1448", "#4f2a85", "#8a5cc9", "#c7adf0", "#f1eafc", "#8e44d6"),
}
KEYS = ("deep", "dark", "mid", "bright", "light", "pale", "gem")
#: The six elements' names (cards/words.toml: webapp/cards/words.py).
ELEMENT_NAMES = {k: v for k, v in words.pairs("element").items() if k != "wild"}
RARITY_STYLE = {  # shape, fill, edge, trim of the card frame
    "C": ("circle", "#c9ccd2", "#4a4f57", "#d9d2c0"),
    "U": ("diamond", "#7fd6c2", "#1f5c52", "#dfe6ee"),
    "R": ("star4", "#f3c746", "#6b4a00", "#efc95a"),
    "SR": ("star8", "url(#{p}-foil)", "#5a1a4a", "url(#{p}-foil)"),
}
INK = "#2b2117"
SANS = "'DejaVu Sans', Verdana, 'Noto Sans CJK JP', 'Hiragino Kaku Gothic ProN', 'Yu Gothic', Meiryo, sans-serif"
SERIF = "'DejaVu Serif', Georgia, 'Noto Serif CJK JP', 'Hiragino Mincho ProN', 'Yu Mincho', serif"


def palette(element):
    """The element's colours as a dict (deep … pale, gem); unknown elements get a neutral grey."""
    vals = PALETTES.get(element, ("#1e1e24", "#3a3a44", "#6a6a78", "#9a9aa8", "#cfcfd8", "#f4f4f8", "#8a8a99"))
    return dict(zip(KEYS, vals, strict=True))


# ---------------------------------------------------------------- text measuring

# Advance widths (per 100 px of font size) of ASCII 32..126, measured in chromium.
_SANS = [32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64,
         64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79,
         60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 35, 63,
         63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84]
_SANSB = [35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70,
          70, 70, 40, 40, 84, 84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85,
          73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72,
          71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84]
_SERIFB = [35, 44, 52, 84, 70, 95, 90, 31, 47, 47, 52, 84, 35, 42, 35, 37, 70, 70, 70, 70, 70, 70, 70, 70,
           70, 70, 37, 37, 84, 84, 84, 59, 100, 78, 85, 80, 87, 76, 71, 85, 94, 47, 47, 87, 70, 111, 91, 87,
           75, 87, 83, 72, 74, 87, 78, 112, 78, 71, 73, 47, 37, 47, 84, 50, 50, 65, 70, 61, 70, 64, 43, 70,
           73, 38, 36, 69, 38, 106, 73, 67, 70, 70, 53, 56, 46, 73, 58, 86, 60, 58, 57, 64, 36, 64, 84]
_TABLES = {"sans": _SANS, "sansb": _SANSB, "serifb": _SERIFB, "seriff": _SERIFB}
_PUNCT = {"–": 50, "—": 100, "×": 84, "−": 84, "…": 100, "’": 35, "‘": 35, "“": 60, "”": 60, "·": 35, "±": 84}


def is_wide(ch):
    return unicodedata.east_asian_width(ch) in ("W", "F")


def text_width(s, size, style="sans"):
    """Estimated advance width of `s` at font `size` (style: sans, sansb, serifb, seriff)."""
    table = _TABLES[style]
    narrow = 0.92 if style == "seriff" else 1.0  # the italic flavour face runs narrower than bold
    total = 0.0
    for ch in s:
        o = ord(ch)
        if 32 <= o < 127:
            total += table[o - 32] * narrow
        elif ch in _PUNCT:
            total += _PUNCT[ch] * narrow
        elif is_wide(ch):
            total += 100
        elif unicodedata.combining(ch):
            continue
        else:
            total += 72 * narrow
    return total * size / 100.0


# ---------------------------------------------------------------- XML helpers

_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def esc(s):
    """Text made safe for XML character data and attribute values."""
    return _xml_escape(_BAD_XML.sub("", str(s)), {'"': "&quot;", "'": "&#39;"})


def f1(v):
    """A coordinate with at most one decimal (keeps the markup small and deterministic)."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


# ---------------------------------------------------------------- wrapping

# Japanese line breaking (kinsoku): never start a line with these, never end one with those.
_NO_START = set("、。，．・：；？！ー）」』】〕〉》ぁぃぅぇぉっゃゅょァィゥェォッャュョ％)]}.,:;!?")
_NO_END = set("（「『【〔〈《([{")
_MARK = re.compile(r"(\[[^\]\n]+\]|【[^】\n]+】)")


def _runs(s):
    """Split a paragraph into (text, bold) runs: timing marks like [Battle] / 【戦闘時】 are bold."""
    out = []
    for i, part in enumerate(_MARK.split(s)):
        if part:
            out.append((part, i % 2 == 1))
    return out


def _atoms(paragraph, cjk):
    """Unbreakable pieces: (text, bold, space_before)."""
    atoms, pending_space = [], False
    for text, bold in _runs(paragraph):
        if not cjk:
            for piece in re.split(r"( +)", text):
                if not piece:
                    continue
                if piece.startswith(" "):
                    pending_space = True
                    continue
                atoms.append([piece, bold, pending_space and bool(atoms)])
                pending_space = False
            continue
        buf = ""
        for ch in text:
            if ch == " " or is_wide(ch) or ch in _NO_START or ch in _NO_END:
                if buf:
                    atoms.append([buf, bold, False])
                    buf = ""
                atoms.append([ch, bold, False])
            else:  # keep Latin runs (numbers, +X, names) together
                buf += ch
        if buf:
            atoms.append([buf, bold, False])
    if cjk:  # kinsoku: glue closing marks to what precedes, opening marks to what follows
        glued = []
        for a in atoms:
            if glued and a[0] != " " and (a[0][0] in _NO_START or glued[-1][0][-1] in _NO_END) \
                    and a[1] == glued[-1][1]:
                glued[-1][0] += a[0]
            else:
                glued.append(a)
        atoms = glued
    return [tuple(a) for a in atoms]


def wrap(paragraph, size, width, cjk, regular="sans", bold="sansb"):
    """Lines of (text, bold) segments that fit `width` at `size`."""
    lines, line, used = [], [], 0.0
    space_w = text_width(" ", size, regular)
    for text, is_bold, space in _atoms(paragraph, cjk):
        if cjk and text == " " and not line:
            continue
        w = text_width(text, size, bold if is_bold else regular)
        gap = space_w if (space and line) else 0.0
        if line and used + gap + w > width:
            lines.append(line)
            line, used, gap = [], 0.0, 0.0
            if cjk and text == " ":
                continue
        if w > width and not cjk:  # a single word longer than the line: cut it by characters
            for ch in text:
                cw = text_width(ch, size, bold if is_bold else regular)
                if line and used + gap + cw > width:
                    lines.append(line)
                    line, used, gap = [], 0.0, 0.0
                line.append([ch, is_bold, bool(gap)])
                used += gap + cw
                gap = 0.0
            continue
        line.append([text, is_bold, bool(gap)])
        used += gap + w
    if line:
        lines.append(line)
    out = []
    for ln in lines:  # merge neighbouring pieces of the same weight into segments
        segs = []
        for text, is_bold, sp in ln:
            piece = (" " if sp else "") + text
            if segs and segs[-1][1] == is_bold:
                segs[-1][0] += piece
            else:
                segs.append([piece, is_bold])
        out.append([(t, b) for t, b in segs])
    return out


def _line_width(segs, size, regular="sans", bold="sansb"):
    return sum(text_width(t, size, bold if b else regular) for t, b in segs)


# ---------------------------------------------------------------- small shapes

def _star(cx, cy, r_out, r_in, n, rot=-90.0):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / n)
        pts.append(f"{f1(cx + r * math.cos(a))},{f1(cy + r * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def _poly(cx, cy, r, n, rot=-90.0):
    pts = [f"{f1(cx + r * math.cos(math.radians(rot + i * 360.0 / n)))},"
           f"{f1(cy + r * math.sin(math.radians(rot + i * 360.0 / n)))}" for i in range(n)]
    return "M" + " L".join(pts) + " Z"


# Element icons in a 20x20 box centred on (10, 10).
ELEMENT_ICON = {
    "fire": '<path d="M10 1.5C12 6 16 7.5 16 12.5A6 6 0 0 1 4 12.5C4 9.5 6 8.5 6.5 6C8 7.5 8 9 8.5 10C9.5 7.5 10.5 5 10 1.5Z"/>',
    "water": '<path d="M10 1.5C12.5 6 16 9.5 16 13A6 6 0 0 1 4 13C4 9.5 7.5 6 10 1.5Z"/>',
    "earth": '<path d="M1.5 17L7.5 6L10.5 11L13 7.5L18.5 17Z"/>',
    "wind": '<path d="M2 7.5H12.5A2.6 2.6 0 1 0 10 4.4" fill="none" stroke-width="2.3" stroke-linecap="round"/>'
            '<path d="M2 11.5H15.5A2.6 2.6 0 1 1 13 14.6" fill="none" stroke-width="2.3" stroke-linecap="round"/>'
            '<path d="M2 15.5H8" fill="none" stroke-width="2.3" stroke-linecap="round"/>',
    "light": '<path d="' + _star(10, 10, 9, 3.4, 8) + '"/>',
    "dark": '<path d="M12.5 2A8 8 0 1 0 18 14.5A6.3 6.3 0 1 1 12.5 2Z"/>',
}


def element_icon(element, x, y, size, color):
    """The element's icon, `size` wide, top-left at (x, y)."""
    s = size / 20.0
    body = ELEMENT_ICON.get(element, '<circle cx="10" cy="10" r="7"/>')
    return (f'<g transform="translate({f1(x)} {f1(y)}) scale({round(s, 3)})" fill="{color}" '
            f'stroke="{color}" stroke-width="0">{body}</g>')


def gem(p, cx, cy, r, kind, cls="gem"):
    """One spell-slot gem: an element's colour, or the wild gem split into six colours."""
    out = [f'<g class="{cls} {cls}-{esc(kind)}" data-slot="{esc(kind)}">']
    if kind == "wild":
        for i, el in enumerate(ELEMENTS):
            a0, a1 = math.radians(-90 + i * 60), math.radians(-90 + (i + 1) * 60)
            x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
            x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
            out.append(f'<path class="wild-sector" data-element="{el}" fill="{PALETTES[el][6]}" '
                       f'd="M{f1(cx)},{f1(cy)} L{f1(x0)},{f1(y0)} A{f1(r)},{f1(r)} 0 0 1 {f1(x1)},{f1(y1)} Z"/>')
        out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 0.34)}" fill="#fff" opacity=".9"/>')
    else:
        pal = palette(kind)
        out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r)}" fill="{pal["gem"]}"/>')
        out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r)}" fill="url(#{p}-gemshade)"/>')
        isz = r * 1.15
        out.append(element_icon(kind, cx - isz / 2, cy - isz / 2, isz, "#ffffff"))
    out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r)}" fill="none" stroke="#1a1410" '
               f'stroke-width="{f1(max(1.0, r * 0.16))}"/>')
    out.append(f'<ellipse cx="{f1(cx - r * 0.3)}" cy="{f1(cy - r * 0.38)}" rx="{f1(r * 0.36)}" '
               f'ry="{f1(r * 0.2)}" fill="#fff" opacity=".55"/>')
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------- tribe emblems

# Each emblem is drawn in a 100x100 box: F is the main colour, A the accent.
EMBLEMS = {
    "Orc": '<path fill="F" d="M22 28Q50 8 78 28L84 60Q50 100 16 60Z"/>'
           '<path fill="A" d="M30 40L46 46L30 50Z M70 40L54 46L70 50Z"/>'
           '<path fill="A" d="M34 74L38 50L45 72Z M55 72L62 50L66 74Z"/>',
    "Goblin": '<path fill="F" d="M33 44L0 22L30 64Z M67 44L100 22L70 64Z"/>'
              '<circle fill="F" cx="50" cy="54" r="26"/>'
              '<circle fill="A" cx="40" cy="48" r="5"/><circle fill="A" cx="60" cy="48" r="5"/>'
              '<path fill="A" d="M36 64Q50 76 64 64L60 70Q50 78 40 70Z"/>',
    "Elf": '<path fill="F" d="M50 4C84 28 84 72 50 96C16 72 16 28 50 4Z"/>'
           '<path fill="none" stroke="A" stroke-width="4" d="M50 14V88 M50 36L34 26 M50 36L66 26 '
           'M50 56L30 44 M50 56L70 44 M50 74L36 64 M50 74L64 64"/>',
    "Dwarf": '<path fill="F" d="M14 14H86V44H14Z M44 44H56V96H44Z"/>'
             '<path fill="A" d="M20 22H80V28H20Z M44 56H56V62H44Z M44 74H56V80H44Z"/>',
    "Knight": '<path fill="F" d="M50 6L88 18V48C88 74 70 88 50 96C30 88 12 74 12 48V18Z"/>'
              '<path fill="A" d="M44 20H56V44H76V56H56V84H44V56H24V44H44Z"/>',
    "Giant": '<circle fill="F" cx="50" cy="18" r="13"/>'
             '<path fill="F" d="M12 42Q50 28 88 42L96 70H82L76 52L70 96H30L24 52L18 70H4Z"/>'
             '<path fill="A" d="M38 62H62V68H38Z"/><circle fill="A" cx="45" cy="16" r="2.6"/>'
             '<circle fill="A" cx="55" cy="16" r="2.6"/>',
    "Spirit": '<path fill="F" d="M50 4C62 26 82 40 78 62C75 84 60 96 50 96C34 96 20 82 22 62C24 44 44 34 50 4Z"/>'
              '<path fill="none" stroke="A" stroke-width="4" stroke-linecap="round" '
              'd="M50 80C38 80 34 66 44 60C54 54 62 64 54 70"/>',
    "Dragon": '<path fill="F" d="M46 38L4 14L14 40L0 46L16 58L8 74L42 60Z M54 38L96 14L86 40L100 46L84 58L92 74L58 60Z"/>'
              '<path fill="F" d="M50 14L60 34L58 74L50 98L42 74L40 34Z"/>'
              '<path fill="F" d="M42 22L34 4L46 16Z M58 22L66 4L54 16Z"/>'
              '<path fill="A" d="M44 28L48 32L44 33Z M56 28L52 32L56 33Z"/>',
    "Undead": '<path fill="F" d="M50 8C74 8 86 24 86 44C86 58 78 64 72 68V84H28V68C22 64 14 58 14 44C14 24 26 8 50 8Z"/>'
              '<path fill="A" d="M26 44A10 10 0 0 1 46 44A10 11 0 0 1 26 44Z M54 44A10 10 0 0 1 74 44A10 11 0 0 1 54 44Z '
              'M50 56L55 66H45Z"/>'
              '<path fill="none" stroke="A" stroke-width="3" d="M38 72V84 M50 72V84 M62 72V84"/>',
    "Demon": '<path fill="F" d="M30 42C8 34 8 12 20 2C20 20 32 28 42 32Z M70 42C92 34 92 12 80 2C80 20 68 28 58 32Z"/>'
             '<path fill="F" d="M28 36Q50 24 72 36L68 70L50 92L32 70Z"/>'
             '<path fill="A" d="M34 48L46 54L36 58Z M66 48L54 54L64 58Z M42 72H58L50 78Z"/>',
    "Fairy": '<ellipse fill="F" cx="30" cy="34" rx="24" ry="15" transform="rotate(-30 30 34)"/>'
             '<ellipse fill="F" cx="70" cy="34" rx="24" ry="15" transform="rotate(30 70 34)"/>'
             '<ellipse fill="F" cx="34" cy="66" rx="16" ry="10" transform="rotate(30 34 66)"/>'
             '<ellipse fill="F" cx="66" cy="66" rx="16" ry="10" transform="rotate(-30 66 66)"/>'
             '<ellipse fill="A" cx="50" cy="52" rx="5" ry="22"/><circle fill="A" cx="50" cy="26" r="6"/>',
    "Merfolk": '<path fill="F" d="M46 30H54V96H46Z M20 8L30 20V40H70V20L80 8V48H20Z M46 4L50 0L54 4V40H46Z"/>'
               '<path fill="none" stroke="A" stroke-width="4" d="M10 80Q22 70 34 80T58 80T82 80T100 80"/>',
    "Lizardman": '<path fill="F" d="M4 50Q50 6 96 50Q50 94 4 50Z"/><circle fill="A" cx="50" cy="50" r="22"/>'
                 '<ellipse fill="F" cx="50" cy="50" rx="5" ry="20"/>',
    "Golem": '<path fill="F" d="M37 8H63V32H37Z M20 36H80V70H20Z M26 74H46V96H26Z M54 74H74V96H54Z '
             'M6 38H17V66H6Z M83 38H94V66H83Z"/>'
             '<path fill="A" d="M42 18H48V24H42Z M52 18H58V24H52Z M44 44L56 44L50 62Z"/>',
    "Rearworld": '<circle fill="none" stroke="F" stroke-width="8" cx="50" cy="50" r="42"/>'
                 '<path fill="F" d="' + _star(50, 50, 34, 13, 8, -90) + '"/>'
                 '<circle fill="A" cx="50" cy="50" r="9"/><circle fill="F" cx="50" cy="50" r="4"/>',
    "Angel": '<ellipse fill="none" stroke="A" stroke-width="5" cx="50" cy="12" rx="18" ry="6"/>'
             '<path fill="F" d="M46 30C30 20 8 22 2 34C14 34 8 42 4 48C16 46 14 54 10 60C22 58 26 64 24 70C34 64 44 56 46 44Z '
             'M54 30C70 20 92 22 98 34C86 34 92 42 96 48C84 46 86 54 90 60C78 58 74 64 76 70C66 64 56 56 54 44Z"/>'
             '<circle fill="F" cx="50" cy="30" r="8"/><path fill="F" d="M42 40H58L64 96H36Z"/>',
    "Vampire": '<path fill="F" d="M50 30C44 30 42 38 42 42C30 32 16 34 4 40C14 46 16 56 12 66C22 58 30 58 36 66'
               'C40 58 44 58 50 74C56 58 60 58 64 66C70 58 78 58 88 66C84 56 86 46 96 40C84 34 70 32 58 42'
               'C58 38 56 30 50 30Z M43 34L40 22L47 31Z M57 34L60 22L53 31Z"/>'
               '<path fill="A" d="M45 38L48 40L45 41Z M55 38L52 40L55 41Z"/>',
    "Beast": '<ellipse fill="F" cx="50" cy="66" rx="24" ry="20"/>'
             '<ellipse fill="F" cx="20" cy="40" rx="10" ry="13" transform="rotate(-20 20 40)"/>'
             '<ellipse fill="F" cx="38" cy="22" rx="10" ry="14" transform="rotate(-8 38 22)"/>'
             '<ellipse fill="F" cx="62" cy="22" rx="10" ry="14" transform="rotate(8 62 22)"/>'
             '<ellipse fill="F" cx="80" cy="40" rx="10" ry="13" transform="rotate(20 80 40)"/>',
    "Minotaur": '<path fill="F" d="M4 14C6 40 24 46 38 38L36 48C20 56 0 44 4 14Z M96 14C94 40 76 46 62 38L64 48C80 56 100 44 96 14Z"/>'
                '<path fill="F" d="M32 34H68L64 76Q50 92 36 76Z"/>'
                '<circle fill="none" stroke="A" stroke-width="4" cx="50" cy="80" r="8"/>'
                '<path fill="A" d="M38 48L46 52L38 54Z M62 48L54 52L62 54Z"/>',
    "Harpy": '<path fill="F" d="M52 4C78 24 80 62 56 92L48 96C40 70 30 40 52 4Z"/>'
             '<path fill="none" stroke="A" stroke-width="3.5" d="M50 96L54 12 M53 30L68 24 M52 46L70 42 '
             'M51 62L66 60 M53 30L40 36 M52 46L38 54 M51 62L42 70"/>',
    "Lamia": '<path fill="none" stroke="F" stroke-width="13" stroke-linecap="round" '
             'd="M20 88C80 88 86 60 52 56C18 52 18 24 58 22"/>'
             '<ellipse fill="F" cx="70" cy="20" rx="16" ry="11"/>'
             '<path fill="none" stroke="A" stroke-width="3" d="M84 20L96 16 M84 20L96 26"/>'
             '<circle fill="A" cx="72" cy="16" r="3"/>',
    "Centaur": '<path fill="none" stroke="F" stroke-width="15" stroke-linecap="butt" d="M26 92V50A24 24 0 0 1 74 50V92"/>'
               '<path fill="A" d="M22 60H30V66H22Z M70 60H78V66H70Z M22 78H30V84H22Z M70 78H78V84H70Z"/>'
               '<path fill="F" d="M47 8H53V46H47Z M50 0L60 14H40Z"/>',
    "Cyclops": '<circle fill="F" cx="50" cy="50" r="44"/><ellipse fill="A" cx="50" cy="46" rx="26" ry="18"/>'
               '<circle fill="F" cx="50" cy="46" r="10"/><circle fill="A" cx="46" cy="42" r="3"/>'
               '<path fill="A" d="M34 74Q50 84 66 74L62 80Q50 86 38 80Z"/>',
    "Kitsune": '<path fill="F" d="M50 94L20 54L12 6L38 32L50 28L62 32L88 6L80 54Z"/>'
               '<path fill="A" d="M30 52L44 58L32 60Z M70 52L56 58L68 60Z M46 80H54L50 86Z"/>'
               '<path fill="A" d="M20 20L34 34L24 40Z M80 20L66 34L76 40Z" opacity=".6"/>',
    "Tengu": '<path fill="F" d="M50 70L8 30Q50 -6 92 30Z"/>'
             '<path fill="none" stroke="A" stroke-width="3" d="M50 68L50 10 M50 68L28 16 M50 68L72 16 M50 68L14 30 M50 68L86 30"/>'
             '<path fill="F" d="M45 66H55V98H45Z"/>',
    "Kappa": '<ellipse fill="F" cx="50" cy="52" rx="44" ry="38"/>'
             '<path fill="none" stroke="A" stroke-width="3.5" d="' + _poly(50, 52, 15, 6, 0) +
             ' M65 52L84 52 M35 52L16 52 M57.5 39L68 22 M42.5 39L32 22 M57.5 65L68 82 M42.5 65L32 82"/>',
    "Dullahan": '<path fill="F" d="M24 34Q50 2 76 34V66H24Z"/>'
                '<path fill="A" d="M30 42H70V48H30Z M48 50H52V62H48Z"/>'
                '<path fill="F" d="M18 80Q50 70 82 80L86 96H14Z"/>'
                '<path fill="none" stroke="A" stroke-width="2.5" stroke-dasharray="4 4" d="M26 73H74"/>',
    "Banshee": '<path fill="F" d="M20 94V44C20 14 80 14 80 44V94L70 84L60 94L50 84L40 94L30 84Z"/>'
               '<ellipse fill="A" cx="38" cy="44" rx="6" ry="8"/><ellipse fill="A" cx="62" cy="44" rx="6" ry="8"/>'
               '<ellipse fill="A" cx="50" cy="66" rx="8" ry="11"/>',
    "Gnome": '<path fill="F" d="M6 56C6 14 94 14 94 56Z"/><path fill="F" d="M38 56H62L66 94H34Z"/>'
             '<circle fill="A" cx="30" cy="40" r="7"/><circle fill="A" cx="58" cy="30" r="8"/>'
             '<circle fill="A" cx="76" cy="46" r="5"/><circle fill="A" cx="46" cy="48" r="4"/>',
    "Tonttu": '<path fill="F" d="M54 6C70 10 78 30 80 52H20C26 30 40 14 54 6Z"/><circle fill="F" cx="56" cy="6" r="6"/>'
              '<path fill="A" d="M20 52H80V60H20Z"/>'
              '<path fill="A" d="M26 62H74Q70 90 50 96Q30 90 26 62Z"/><circle fill="F" cx="50" cy="64" r="6"/>',
}


def _generic_emblem(tribe):
    """A shared glyph for a tribe without a drawn emblem: a star whose shape comes from the name."""
    h = int(hashlib.sha256(tribe.encode()).hexdigest()[:8], 16)
    n = 5 + h % 5
    inner = 16 + (h >> 4) % 16
    return (f'<path fill="F" d="{_star(50, 50, 46, inner, n, -90 + (h >> 8) % 30)}"/>'
            f'<circle fill="A" cx="50" cy="50" r="{max(6, inner - 8)}"/>')


def tribe_info(tribe):
    """(base tribe whose emblem is drawn, is a lord tribe)."""
    rec = cardtext.tribes().get(tribe) or {}
    if rec.get("lord_of"):
        return rec["lord_of"], True
    if tribe.endswith(" Lord") and tribe not in EMBLEMS:
        return tribe[: -len(" Lord")], True
    return tribe, False


def emblem(tribe, cx, cy, size, fill, accent):
    """The tribe's glyph (`size` wide) centred on (cx, cy): shared by every card of the tribe."""
    base, _lord = tribe_info(tribe)
    body = EMBLEMS.get(base) or _generic_emblem(base)
    s = size / 100.0
    out = [f'<g class="emblem" data-tribe="{esc(tribe)}" transform="translate({f1(cx - 50 * s)} {f1(cy - 50 * s)}) '
           f'scale({round(s, 3)})">']
    out.append(body.replace('"F"', f'"{fill}"').replace('"A"', f'"{accent}"'))
    out.append("</g>")
    return "".join(out)


ICONS_DIR = Path(__file__).resolve().parent.parent.parent / "cards" / "art"


@functools.lru_cache(maxsize=1)
def card_icons():
    """(card id → icon name, icon name → SVG body in a 512 box): cards/art/card-icons.toml and the
    vendored game-icons (cards/art/icons.json, CC BY 3.0; scripts/vendor-icons.py makes it)."""
    mapping = tomllib.loads((ICONS_DIR / "card-icons.toml").read_text(encoding="utf-8"))
    vendored = json.loads((ICONS_DIR / "icons.json").read_text(encoding="utf-8"))
    return mapping, vendored["icons"]


def subject(card, cx, cy, size, fill, accent):
    """What the card's picture shows, `size` wide, centred on (cx, cy): the card's own game-icon over
    a halo of the accent colour, or (a card with no icon chosen) its tribe's emblem."""
    mapping, bodies = card_icons()
    name = mapping.get(card.id)
    if name not in bodies:
        return emblem(card.tribe or "", cx, cy, size, fill, accent)
    s = size / 512.0
    body = bodies[name]
    at = f'transform="translate({f1(cx - 256 * s)} {f1(cy - 256 * s)}) scale({round(s, 4)})"'
    return (f'<g class="subject" data-icon="{esc(name)}" {at}>'
            f'<g color="{accent}" stroke="{accent}" stroke-width="28" stroke-linejoin="round" opacity=".8">{body}</g>'
            f'<g color="{fill}">{body}</g></g>')


def crown(cx, base_y, width, edge):
    """A gold crown `width` wide standing on base_y (lords and kings); its height is width * 0.5."""
    s = width / 100.0
    return (f'<g class="crown" transform="translate({f1(cx - 50 * s)} {f1(base_y - 50 * s)}) scale({round(s, 3)})">'
            f'<path fill="#f5cd4a" stroke="{edge}" stroke-width="5" stroke-linejoin="round" '
            f'd="M6 48L2 10L28 28L50 2L72 28L98 10L94 48Z"/>'
            f'<path fill="#fff2b0" d="M10 40H90V46H10Z" opacity=".6"/>'
            f'<circle fill="#d8343a" cx="50" cy="32" r="7"/><circle fill="#2f7fd8" cx="24" cy="38" r="5"/>'
            f'<circle fill="#2f7fd8" cx="76" cy="38" r="5"/></g>')


WINGS = ('M46 38L4 14L14 40L0 46L16 58L8 74L42 60Z M54 38L96 14L86 40L100 46L84 58L92 74L58 60Z')


def wings(cx, cy, width, fill, edge):
    """Dragon wings spread behind an emblem (dragons whose tribe is not Dragon, e.g. Rearworld)."""
    s = width / 100.0
    return (f'<g class="wings" transform="translate({f1(cx - 50 * s)} {f1(cy - 50 * s)}) scale({round(s, 3)})">'
            f'<path d="{WINGS}" fill="{fill}" stroke="{edge}" stroke-width="2" stroke-linejoin="round"/></g>')


# Spell sigils: a glyph for the spell's first effect, in the same 100x100 box.
SPELL_GLYPHS = {
    "damage": '<path fill="A" d="' + _star(50, 50, 46, 18, 10, -90) + '"/>',
    "boost": '<path fill="A" d="M50 8L86 44H66L50 28L34 44H14Z M50 44L86 80H66L50 64L34 80H14Z"/>',
    "grant_slots": '<path fill="A" d="M50 6L86 40L50 94L14 40Z"/><path fill="F" opacity=".35" d="M50 6L62 40L50 94L38 40Z"/>',
    "negate": '<path fill="none" stroke="A" stroke-width="8" d="M8 50Q50 8 92 50Q50 92 8 50Z"/>'
              '<circle fill="A" cx="50" cy="50" r="12"/><path stroke="A" stroke-width="9" d="M14 86L86 14"/>',
    "cancel_spell": '<circle fill="none" stroke="A" stroke-width="10" cx="50" cy="50" r="38"/>'
                    '<path stroke="A" stroke-width="10" d="M24 24L76 76"/>',
    "set_tribe": '<path fill="A" d="M10 36H68V20L94 42L68 64V48H10Z" opacity=".95"/>'
                 '<path fill="A" d="M90 64H32V80L6 58L32 36V52H90Z" opacity=".7"/>',
    "change_level": '<path fill="A" d="M14 84V64H34V84Z M40 84V44H60V84Z M66 84V16H86V84Z"/>',
    "return_to_hand": '<path fill="none" stroke="A" stroke-width="11" stroke-linecap="round" d="M76 84V44A26 26 0 0 0 24 44V60"/>'
                      '<path fill="A" d="M6 52H42L24 80Z"/>',
    "destroy": '<path fill="A" d="M50 96L40 40H60Z M28 36H72V44H28Z M45 6H55V36H45Z"/>',
    "draw": '<rect fill="A" x="18" y="18" width="40" height="58" rx="5" transform="rotate(-12 38 47)"/>'
            '<rect fill="A" x="42" y="24" width="40" height="58" rx="5" opacity=".8" transform="rotate(10 62 53)"/>',
    "spell_lock": '<path fill="none" stroke="A" stroke-width="9" d="M32 46V32A18 18 0 0 1 68 32V46"/>'
                  '<rect fill="A" x="22" y="44" width="56" height="44" rx="6"/>',
    "summon": '<path fill="A" d="M50 6L80 40H62V70H38V40H20Z"/>'
              '<ellipse fill="none" stroke="A" stroke-width="6" cx="50" cy="82" rx="38" ry="10"/>',
    "allow_quick_summon": '<path fill="A" d="M58 2L18 56H46L38 98L82 40H54Z"/>',
}


def spell_op(card):
    sp = card.spell
    effs = list(sp.all_effects()) if sp is not None else []
    return effs[0].op if effs else "damage"


# ---------------------------------------------------------------- scenery

def _smooth(points):
    """A smooth path through points (Catmull-Rom turned into cubic Béziers)."""
    d = [f"M{f1(points[0][0])},{f1(points[0][1])}"]
    for i in range(len(points) - 1):
        p0 = points[i - 1] if i > 0 else points[i]
        p1, p2 = points[i], points[i + 1]
        p3 = points[i + 2] if i + 2 < len(points) else p2
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d.append(f"C{f1(c1[0])},{f1(c1[1])} {f1(c2[0])},{f1(c2[1])} {f1(p2[0])},{f1(p2[1])}")
    return " ".join(d)


def _ridge(rng, x, w, base, amp, n, bottom, jagged):
    pts = []
    for i in range(n + 1):
        px = x - 6 + (w + 12) * i / n + (rng.uniform(-0.25, 0.25) * (w / n) if 0 < i < n else 0)
        py = base - rng.uniform(0.15, 1.0) * amp
        pts.append((px, py))
    line = "M" + " L".join(f"{f1(a)},{f1(b)}" for a, b in pts) if jagged else _smooth(pts)
    return f"{line} L{f1(x + w + 6)},{f1(bottom)} L{f1(x - 6)},{f1(bottom)} Z"


def _waves(rng, x, w, base, amp, bottom):
    lam = rng.uniform(36, 70)
    ph = rng.uniform(0, 2 * math.pi)
    pts = [(x - 6 + i * 4, base + amp * math.sin(2 * math.pi * (i * 4) / lam + ph)) for i in range(int((w + 12) / 4) + 2)]
    line = "M" + " L".join(f"{f1(a)},{f1(b)}" for a, b in pts)
    return f"{line} L{f1(pts[-1][0])},{f1(bottom)} L{f1(x - 6)},{f1(bottom)} Z", pts


def _cloud(cx, cy, s, fill, opacity):
    c = [(0, 0, 1.0), (-1.0, 0.25, 0.7), (1.0, 0.3, 0.75), (-0.45, -0.35, 0.7), (0.5, -0.3, 0.62)]
    out = [f'<g fill="{fill}" opacity="{opacity}">']
    for dx, dy, r in c:
        out.append(f'<circle cx="{f1(cx + dx * s)}" cy="{f1(cy + dy * s)}" r="{f1(r * s)}"/>')
    out.append(f'<rect x="{f1(cx - 1.4 * s)}" y="{f1(cy + 0.1 * s)}" width="{f1(2.9 * s)}" height="{f1(0.8 * s)}" rx="{f1(0.4 * s)}"/>')
    out.append("</g>")
    return "".join(out)


def _mix(c1, c2, t):
    a = [int(c1[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(c2[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(a[i] + (b[i] - a[i]) * t):02x}" for i in range(3))


SKIES = {
    "fire": ("#2a0608", "#8f1f14", "#f39a3d"),
    "water": ("#0a2a55", "#2f78c4", "#a8e2f7"),
    "earth": ("#3f5d7a", "#c99a5a", "#f3d9a0"),
    "wind": ("#3a8fc4", "#8fd0e6", "#e3f6e6"),
    "light": ("#d19a1e", "#f3d46e", "#fff6d6"),
    "dark": ("#05030d", "#24103f", "#5a2d7a"),
}


def scene(card, rng, p, x, y, w, h):
    """The art window: element scenery with a landmark, then the tribe emblem (or the spell's sigil)."""
    el = card.element if card.element in PALETTES else "earth"
    pal = palette(el)
    sky = SKIES.get(el, SKIES["earth"])
    tint = rng.uniform(-0.12, 0.12)  # time of day: a little lighter or darker sky per card
    sky = tuple(_mix(c, "#ffffff" if tint > 0 else "#000000", abs(tint)) for c in sky)
    defs = (f'<linearGradient id="{p}-sky" x1="0" y1="0" x2="{round(rng.uniform(-0.3, 0.3), 2)}" y2="1">'
            f'<stop offset="0" stop-color="{sky[0]}"/><stop offset=".6" stop-color="{sky[1]}"/>'
            f'<stop offset="1" stop-color="{sky[2]}"/></linearGradient>')
    out = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="url(#{p}-sky)"/>']
    comp = rng.randrange(3)  # 0 medallion, 1 silhouette before a sun, 2 shield off-centre
    left = rng.random() < 0.5
    sun_x = x + w * (rng.uniform(0.14, 0.3) if left else rng.uniform(0.7, 0.86))
    sun_y = y + h * rng.uniform(0.18, 0.34)
    horizon = y + h * rng.uniform(0.56, 0.7)
    far = _mix(pal["mid"], sky[1], 0.45) if el != "light" else "#f3e2ae"
    grand = is_grand(card)
    crowned = has_crown(card)
    if card.kind == "spell":
        focus = x + w * rng.uniform(0.42, 0.58)
    elif comp == 2:
        focus = x + w * (0.68 if left else 0.32)
    else:
        focus = x + w * rng.uniform(0.4, 0.6)

    # sky details
    if el == "dark":
        for _ in range(int(w * h / 500)):
            sx, sy = rng.uniform(x, x + w), rng.uniform(y, horizon)
            out.append(f'<circle cx="{f1(sx)}" cy="{f1(sy)}" r="{f1(rng.uniform(0.4, 1.3))}" fill="#fff" '
                       f'opacity="{round(rng.uniform(0.3, 0.9), 2)}"/>')
        out.append(f'<circle cx="{f1(sun_x)}" cy="{f1(sun_y)}" r="15" fill="#e9dcff" opacity=".9"/>'
                   f'<circle cx="{f1(sun_x + 6)}" cy="{f1(sun_y - 4)}" r="13" fill="{sky[0]}"/>')
    elif el == "light":
        rays = []
        ox, oy = x + w * rng.uniform(0.3, 0.7), y - 10
        for i in range(9):
            a = math.radians(35 + i * 13 + rng.uniform(-3, 3))
            a2 = a + math.radians(5)
            L = h * 1.8
            rays.append(f"M{f1(ox)},{f1(oy)} L{f1(ox + L * math.cos(a))},{f1(oy + L * math.sin(a))} "
                        f"L{f1(ox + L * math.cos(a2))},{f1(oy + L * math.sin(a2))} Z")
        out.append(f'<path d="{" ".join(rays)}" fill="#fff8dc" opacity=".4"/>')
        out.append(f'<circle cx="{f1(ox)}" cy="{f1(oy + 8)}" r="26" fill="#fffbe8" opacity=".85"/>')
    else:
        sun = {"fire": "#ffd36b", "water": "#f4fbff", "earth": "#fff0c0", "wind": "#fffbe0"}.get(el, "#fff")
        out.append(f'<circle cx="{f1(sun_x)}" cy="{f1(sun_y)}" r="22" fill="{sun}" opacity=".25"/>'
                   f'<circle cx="{f1(sun_x)}" cy="{f1(sun_y)}" r="13" fill="{sun}" opacity=".95"/>')
    if el in ("wind", "light", "water", "earth"):
        for _ in range(rng.randint(1, 3)):
            cx, cy = rng.uniform(x + 10, x + w - 10), rng.uniform(y + 12, y + h * 0.38)
            out.append(_cloud(cx, cy, rng.uniform(7, 12), "#ffffff", round(rng.uniform(0.5, 0.85), 2)))

    # far and middle layers, with a landmark between them away from the emblem
    bottom = y + h + 2
    jag = el in ("fire", "dark")
    if el == "water":
        d, _ = _waves(rng, x, w, horizon - 6, 2.5, bottom)
        out.append(f'<path d="{d}" fill="{_mix(pal["light"], sky[1], 0.3)}" opacity=".8"/>')
    else:
        out.append(f'<path d="{_ridge(rng, x, w, horizon - 4, h * 0.28, rng.randint(4, 7), bottom, jag)}" '
                   f'fill="{far}" opacity=".85"/>')
        if el == "fire":  # lava glow on the peaks
            out.append(f'<rect x="{x}" y="{f1(horizon - 6)}" width="{w}" height="{f1(h)}" fill="{pal["bright"]}" opacity=".25"/>')
    mid_col = _mix(pal["dark"], far, 0.35) if el != "light" else "#e3c46a"
    lx = (x + w * rng.uniform(0.1, 0.24)) if focus > x + w / 2 else (x + w * rng.uniform(0.76, 0.9))
    out.append(landmark(el, rng, lx, horizon + h * 0.06, h, _mix(mid_col, pal["deep"], 0.35), pal))
    mid_layer = _ridge(rng, x, w, horizon + h * 0.08, h * 0.16, rng.randint(3, 6), bottom, jag and el == "dark")
    if el == "water":
        mid_layer, _ = _waves(rng, x, w, horizon + h * 0.06, 4, bottom)
    out.append(f'<path d="{mid_layer}" fill="{mid_col}"/>')

    # emblem / sigil
    if card.kind == "spell":
        out.append(sigil(card, rng, p, focus, y + h * 0.47, h * 0.78, pal))
    elif comp == 1:
        size = h * (0.82 if grand else 0.7)
        if crowned:
            size = h * 0.64
        ecy = min(horizon - size * 0.2, y + h - size * 0.55)
        if crowned:
            ecy = max(ecy, y + h * 0.2 + size * 0.5)
        if has_wings(card):
            out.append(wings(focus, ecy, size * 1.9, pal["dark"], pal["light"]))
        out.append(f'<circle cx="{f1(focus)}" cy="{f1(ecy)}" r="{f1(size * 0.56)}" fill="url(#{p}-glow)"/>')
        if grand:
            out.append(_burst(focus, ecy, size * 0.78, pal["light"], 0.5, rng))
        out.append(subject(card, focus, ecy, size, pal["deep"], pal["bright"]))
        if crowned:
            out.append(crown(focus, ecy - size * 0.42, size * 0.5, pal["deep"]))
    elif comp == 2:
        hgt = h * (0.78 if grand else 0.7)
        cy = y + h * 0.5
        if crowned:
            hgt, cy = h * 0.7, y + h * 0.57
        out.append(plaque(card, p, focus, cy, hgt, pal, grand, rng))
    else:
        r = h * (0.4 if grand else 0.35)
        cy = y + h * 0.48
        if crowned:
            r, cy = h * 0.36, y + h * 0.55
        out.append(medallion(card, p, focus, cy, r, pal, grand, rng))

    # near layer, in front of the emblem's foot
    front = []
    near_col = pal["deep"] if el != "light" else "#b8912c"
    if el == "water":
        d, pts = _waves(rng, x, w, y + h * 0.9, 3, bottom)
        front.append(f'<path d="{d}" fill="{pal["dark"]}"/>')
        crest = "M" + " L".join(f"{f1(a)},{f1(b)}" for a, b in pts)
        front.append(f'<path d="{crest}" fill="none" stroke="{pal["light"]}" stroke-width="1.5" opacity=".7"/>')
    else:
        front.append(f'<path d="{_ridge(rng, x, w, y + h * 0.95, h * 0.1, rng.randint(3, 6), bottom, jag)}" '
                     f'fill="{near_col}"/>')
    if el == "fire":
        for _ in range(rng.randint(6, 12)):
            front.append(f'<circle cx="{f1(rng.uniform(x, x + w))}" cy="{f1(rng.uniform(y + h * 0.3, y + h))}" '
                         f'r="{f1(rng.uniform(0.6, 1.8))}" fill="#ffd27a" opacity="{round(rng.uniform(0.5, 1), 2)}"/>')
    if el == "wind":
        for _ in range(rng.randint(2, 4)):
            sx, sy = rng.uniform(x, x + w * 0.6), rng.uniform(y + h * 0.2, y + h * 0.7)
            ln = rng.uniform(30, 70)
            front.append(f'<path d="M{f1(sx)},{f1(sy)} q{f1(ln / 2)},-6 {f1(ln)},0 t{f1(ln / 3)},-8" fill="none" '
                         f'stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" opacity=".7"/>')
    if el == "dark":
        front.append(f'<rect x="{x}" y="{f1(y + h * 0.75)}" width="{w}" height="{f1(h * 0.25)}" fill="{pal["bright"]}" opacity=".12"/>')
    out.extend(front)
    return defs, "".join(out)


def landmark(el, rng, cx, base, h, col, pal):
    """A small silhouette on the horizon that sets the place: volcano, sea stacks, mesa, trees, temple, ruins."""
    s = h / 120.0 * rng.uniform(0.8, 1.1)
    pick = rng.randrange(2)
    out = [f'<g class="landmark" fill="{col}">']
    if el == "fire":
        if pick == 0:  # volcano with a lava stream and smoke
            out.append(f'<path d="M{f1(cx - 38 * s)},{f1(base)} L{f1(cx - 8 * s)},{f1(base - 42 * s)} '
                       f'L{f1(cx + 8 * s)},{f1(base - 42 * s)} L{f1(cx + 38 * s)},{f1(base)} Z"/>')
            out.append(f'<path d="M{f1(cx)},{f1(base - 42 * s)} q{f1(-6 * s)},{f1(14 * s)} {f1(2 * s)},{f1(24 * s)} '
                       f't{f1(-4 * s)},{f1(18 * s)}" fill="none" stroke="{pal["bright"]}" stroke-width="{f1(2.5 * s)}"/>')
            for i in range(3):
                out.append(f'<circle cx="{f1(cx + (i * 7 - 4) * s)}" cy="{f1(base - (50 + i * 9) * s)}" '
                           f'r="{f1((5 + i * 2) * s)}" fill="#5a4a48" opacity="{0.5 - i * 0.12:.2f}"/>')
        else:  # obsidian spires
            for dx, hh in ((-14, 30), (0, 46), (12, 34)):
                out.append(f'<path d="M{f1(cx + (dx - 6) * s)},{f1(base)} L{f1(cx + dx * s)},{f1(base - hh * s)} '
                           f'L{f1(cx + (dx + 6) * s)},{f1(base)} Z"/>')
    elif el == "water":
        if pick == 0:  # sea stacks
            for dx, hh, ww in ((-12, 26, 12), (4, 38, 14), (18, 18, 9)):
                out.append(f'<path d="M{f1(cx + (dx - ww / 2) * s)},{f1(base)} V{f1(base - hh * s + 4 * s)} '
                           f'Q{f1(cx + dx * s)},{f1(base - hh * s - 3 * s)} {f1(cx + (dx + ww / 2) * s)},'
                           f'{f1(base - hh * s + 4 * s)} V{f1(base)} Z"/>')
        else:  # lighthouse with its beam
            out.append(f'<path d="M{f1(cx - 7 * s)},{f1(base)} L{f1(cx - 4 * s)},{f1(base - 40 * s)} '
                       f'H{f1(cx + 4 * s)} L{f1(cx + 7 * s)},{f1(base)} Z"/>')
            out.append(f'<path d="M{f1(cx - 6 * s)},{f1(base - 40 * s)} h{f1(12 * s)} l{f1(-6 * s)},{f1(-8 * s)} Z"/>')
            out.append(f'<path d="M{f1(cx)},{f1(base - 42 * s)} l{f1(-50 * s)},{f1(-10 * s)} v{f1(12 * s)} Z" '
                       f'fill="#fff8d0" opacity=".45"/>')
    elif el == "earth":
        if pick == 0:  # mesa
            out.append(f'<path d="M{f1(cx - 34 * s)},{f1(base)} L{f1(cx - 22 * s)},{f1(base - 30 * s)} '
                       f'H{f1(cx + 20 * s)} L{f1(cx + 30 * s)},{f1(base)} Z"/>')
        else:  # standing stones
            for dx, hh in ((-18, 22), (-4, 30), (10, 30), (24, 20)):
                out.append(f'<rect x="{f1(cx + (dx - 4) * s)}" y="{f1(base - hh * s)}" width="{f1(8 * s)}" '
                           f'height="{f1(hh * s)}" rx="{f1(2 * s)}"/>')
            out.append(f'<rect x="{f1(cx - 9 * s)}" y="{f1(base - 35 * s)}" width="{f1(24 * s)}" height="{f1(6 * s)}"/>')
    elif el == "wind":
        if pick == 0:  # round trees
            for dx, hh, r in ((-14, 22, 9), (0, 30, 11), (14, 20, 8)):
                out.append(f'<rect x="{f1(cx + (dx - 1.5) * s)}" y="{f1(base - hh * s)}" width="{f1(3 * s)}" height="{f1(hh * s)}"/>'
                           f'<circle cx="{f1(cx + dx * s)}" cy="{f1(base - hh * s)}" r="{f1(r * s)}"/>')
        else:  # windmill
            out.append(f'<path d="M{f1(cx - 8 * s)},{f1(base)} L{f1(cx - 5 * s)},{f1(base - 32 * s)} '
                       f'H{f1(cx + 5 * s)} L{f1(cx + 8 * s)},{f1(base)} Z"/>')
            a0 = rng.uniform(0, 90)
            for i in range(4):
                a = math.radians(a0 + i * 90)
                out.append(f'<path d="M{f1(cx)},{f1(base - 32 * s)} L{f1(cx + 24 * s * math.cos(a))},'
                           f'{f1(base - 32 * s + 24 * s * math.sin(a))}" stroke="{col}" stroke-width="{f1(4 * s)}"/>')
    elif el == "light":
        if pick == 0:  # temple
            out.append(f'<path d="M{f1(cx - 26 * s)},{f1(base - 30 * s)} L{f1(cx)},{f1(base - 42 * s)} '
                       f'L{f1(cx + 26 * s)},{f1(base - 30 * s)} Z"/>')
            for i in range(5):
                out.append(f'<rect x="{f1(cx + (-22 + i * 10) * s)}" y="{f1(base - 29 * s)}" width="{f1(4 * s)}" '
                           f'height="{f1(29 * s)}"/>')
        else:  # tall spire
            out.append(f'<path d="M{f1(cx - 8 * s)},{f1(base)} V{f1(base - 36 * s)} L{f1(cx)},{f1(base - 58 * s)} '
                       f'L{f1(cx + 8 * s)},{f1(base - 36 * s)} V{f1(base)} Z"/>'
                       f'<circle cx="{f1(cx)}" cy="{f1(base - 60 * s)}" r="{f1(3 * s)}" fill="#fff"/>')
    else:  # dark
        if pick == 0:  # ruined towers with lit windows
            for dx, hh, ww in ((-12, 40, 12), (6, 30, 14)):
                x0 = cx + (dx - ww / 2) * s
                top = base - hh * s
                cren = " ".join(f"h{f1(ww * s / 5)} v{f1((3 if k % 2 == 0 else -3) * s)}" for k in range(5))
                out.append(f'<path d="M{f1(x0)},{f1(base)} V{f1(top)} {cren} V{f1(base)} Z"/>')
                out.append(f'<rect x="{f1(cx + (dx - 1.5) * s)}" y="{f1(top + 9 * s)}" width="{f1(3 * s)}" '
                           f'height="{f1(5 * s)}" fill="#ffd36b"/>')
        else:  # dead tree
            out.append(f'<path d="M{f1(cx)},{f1(base)} V{f1(base - 26 * s)} M{f1(cx)},{f1(base - 14 * s)} '
                       f'L{f1(cx - 12 * s)},{f1(base - 30 * s)} M{f1(cx)},{f1(base - 20 * s)} L{f1(cx + 14 * s)},'
                       f'{f1(base - 34 * s)} M{f1(cx + 8 * s)},{f1(base - 26 * s)} L{f1(cx + 6 * s)},{f1(base - 38 * s)}" '
                       f'fill="none" stroke="{col}" stroke-width="{f1(3 * s)}" stroke-linecap="round"/>')
    out.append("</g>")
    return "".join(out)


def is_grand(card):
    """Lords, dragons, giants, kings and other heavyweights get a grander emblem."""
    if card.kind != "monster":
        return False
    base, lord = tribe_info(card.tribe)
    ident = card.id.lower()
    return (lord or base in ("Dragon", "Giant") or card.level >= 4
            or any(k in ident for k in ("king", "dragon", "lord", "monarch", "chieftain", "giant", "queen")))


def has_crown(card):
    """Lord tribes and royalty wear a crown over their emblem."""
    if card.kind != "monster":
        return False
    ident = card.id.lower()
    return tribe_info(card.tribe)[1] or any(k in ident for k in ("king", "monarch", "chieftain", "queen",
                                                                    "emperor", "lord"))


def has_wings(card):
    """Dragons of another tribe (the Rearworld Dragons) spread dragon wings behind their emblem."""
    return card.kind == "monster" and "dragon" in card.id.lower() and tribe_info(card.tribe)[0] != "Dragon"


def _burst(cx, cy, r, color, opacity, rng, n=16):
    rot = rng.uniform(0, 360 / n)
    d = []
    for i in range(n):
        a = math.radians(rot + i * 360 / n)
        b = a + math.radians(360 / n / 2.6)
        d.append(f"M{f1(cx)},{f1(cy)} L{f1(cx + r * math.cos(a))},{f1(cy + r * math.sin(a))} "
                 f"L{f1(cx + r * math.cos(b))},{f1(cy + r * math.sin(b))} Z")
    return f'<path d="{" ".join(d)}" fill="{color}" opacity="{opacity}"/>'


def medallion(card, p, cx, cy, r, pal, grand, rng):
    out = []
    if has_wings(card):
        out.append(wings(cx, cy, r * 3.6, pal["dark"], pal["light"]))
    if grand:
        out.append(_burst(cx, cy, r * 1.7, pal["pale"], 0.5, rng, 20))
        out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 1.14)}" fill="none" stroke="#f5cd4a" stroke-width="2.5"/>')
    out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r)}" fill="url(#{p}-medal)" stroke="{pal["deep"]}" stroke-width="3"/>')
    out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 0.86)}" fill="none" stroke="{pal["pale"]}" '
               f'stroke-width="1" opacity=".8"/>')
    out.append(subject(card, cx, cy, r * 1.3, pal["deep"], pal["pale"]))
    if has_crown(card):
        out.append(crown(cx, cy - r * 0.8, r * 1.05, pal["deep"]))
    return "".join(out)


def plaque(card, p, cx, cy, hgt, pal, grand, rng):
    """A heraldic shield carrying the emblem."""
    wdt = hgt * 0.8
    x0, y0 = cx - wdt / 2, cy - hgt / 2
    d = (f"M{f1(x0)},{f1(y0)} H{f1(x0 + wdt)} V{f1(y0 + hgt * 0.55)} "
         f"Q{f1(x0 + wdt)},{f1(y0 + hgt * 0.86)} {f1(cx)},{f1(y0 + hgt)} "
         f"Q{f1(x0)},{f1(y0 + hgt * 0.86)} {f1(x0)},{f1(y0 + hgt * 0.55)} Z")
    out = []
    if has_wings(card):
        out.append(wings(cx, cy, hgt * 1.9, pal["dark"], pal["light"]))
    if grand:
        out.append(_burst(cx, cy, hgt * 0.95, pal["pale"], 0.45, rng, 18))
    out.append(f'<path d="{d}" fill="url(#{p}-medal)" stroke="{"#f5cd4a" if grand else pal["deep"]}" '
               f'stroke-width="{3.5 if grand else 3}" stroke-linejoin="round"/>')
    out.append(f'<path d="M{f1(x0 + 5)},{f1(y0 + 5)} H{f1(x0 + wdt - 5)}" stroke="{pal["pale"]}" stroke-width="1" opacity=".7"/>')
    out.append(subject(card, cx, cy - hgt * 0.04, wdt * 0.82, pal["deep"], pal["pale"]))
    if has_crown(card):
        out.append(crown(cx, y0 + 5, wdt * 0.62, pal["deep"]))
    return "".join(out)


def sigil(card, rng, p, cx, cy, size, pal):
    """A spell's magic circle with the glyph of what it does."""
    r = size / 2
    n = rng.choice((5, 6, 7, 8))
    rot = rng.uniform(0, 360)
    out = [f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 1.25)}" fill="url(#{p}-glow)"/>',
           f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 1.02)}" fill="{pal["deep"]}" opacity=".5"/>',
           f'<g fill="none" stroke="{pal["pale"]}" opacity=".95">',
           f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r)}" stroke-width="2"/>',
           f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 0.84)}" stroke-width="1"/>',
           f'<path d="{_star(cx, cy, r * 0.84, r * 0.84 * math.cos(math.pi * 2 / n), n, rot)}" stroke-width="1.3"/>']
    ticks = []
    for i in range(36):
        a = math.radians(rot + i * 10)
        r1, r2 = r * 0.86, r * (0.97 if i % 3 == 0 else 0.92)
        ticks.append(f"M{f1(cx + r1 * math.cos(a))},{f1(cy + r1 * math.sin(a))} "
                     f"L{f1(cx + r2 * math.cos(a))},{f1(cy + r2 * math.sin(a))}")
    out.append(f'<path d="{" ".join(ticks)}" stroke-width="1"/></g>')
    out.append(f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 0.5)}" fill="{pal["deep"]}" opacity=".85" '
               f'stroke="{pal["light"]}" stroke-width="1.5"/>')
    if card.id in card_icons()[0]:  # the spell's own picture inside the circle
        out.append(subject(card, cx, cy, r * 0.9, pal["light"], pal["deep"]))
        return "".join(out)
    glyph = SPELL_GLYPHS.get(spell_op(card), SPELL_GLYPHS["damage"])
    s = r * 0.66 / 100
    out.append(f'<g class="sigil" transform="translate({f1(cx - 50 * s)} {f1(cy - 50 * s)}) scale({round(s, 3)})">'
               + glyph.replace('"A"', f'"{pal["light"]}"').replace('"F"', f'"{pal["deep"]}"') + "</g>")
    return "".join(out)


# ---------------------------------------------------------------- badges

KEYWORD_ICON = {
    "haste": '<path d="M1 5H7M3 9H9M1 13H7" stroke-width="1.8" stroke-linecap="round" fill="none"/><path d="M9 3L17 9L9 15Z"/>',
    "double_march": '<path d="M2 3L9 9L2 15Z M10 3L17 9L10 15Z"/>',
    "far_march": '<path d="' + _star(9, 9, 8.5, 2.6, 4) + '"/>',
    "spellproof": '<path d="M9 1L16 4V9C16 13 13 16 9 17C5 16 2 13 2 9V4Z"/>',
}
#: keyword -> (label en, label ja, icon): the badge's words from cards/words.toml.
KEYWORD_BADGE = {k: (words.keyword_short(k, "en"), words.keyword_short(k, "ja"), icon) for k, icon in KEYWORD_ICON.items()}
BOLT = '<path d="M11 0L3 10H8.5L6 18L15 7H9.5Z"/>'


def badge(x, y, label, icon, fill, fg, icon_col, size=9.0, h=17.0, title=None):
    """A pill with an icon and a bold label; returns (markup, width)."""
    tw = text_width(label, size, "sansb")
    wdt = tw + h + 8
    out = ['<g class="badge">']
    if title:
        out.append(f"<title>{esc(title)}</title>")
    out.append(f'<rect x="{f1(x)}" y="{f1(y)}" width="{f1(wdt)}" height="{f1(h)}" rx="{f1(h / 2)}" fill="{fill}" '
               f'stroke="{icon_col}" stroke-width="1"/>')
    s = (h - 6) / 18
    out.append(f'<g transform="translate({f1(x + 5)} {f1(y + 3)}) scale({round(s, 3)})" fill="{icon_col}" '
               f'stroke="{icon_col}">{icon}</g>')
    out.append(f'<text x="{f1(x + h + 1)}" y="{f1(y + h / 2 + size * 0.36)}" font-size="{size}" font-weight="bold" '
               f'fill="{fg}">{esc(label)}</text></g>')
    return "".join(out), wdt


# ---------------------------------------------------------------- rarity

def rarity_mark(p, rarity, cx, cy, r):
    shape, fill, edge, _trim = RARITY_STYLE.get(rarity, RARITY_STYLE["C"])
    fill = fill.replace("{p}", p)
    if shape == "circle":
        body = f'<circle cx="{f1(cx)}" cy="{f1(cy)}" r="{f1(r * 0.85)}"'
    elif shape == "diamond":
        body = f'<path d="{_poly(cx, cy, r * 1.02, 4)}"'
    elif shape == "star4":
        body = f'<path d="{_star(cx, cy, r * 1.12, r * 0.6, 4)}"'
    else:
        body = f'<path d="{_star(cx, cy, r * 1.15, r * 0.72, 8, -90)}"'
    size = 8.5 if rarity != "SR" else 7.5
    return (f'<g class="rarity rarity-{esc(rarity)}" data-rarity="{esc(rarity)}"><title>{esc(rarity)}</title>'
            f'{body} fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
            f'<text x="{f1(cx)}" y="{f1(cy + size * 0.36)}" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold" fill="{edge}">{esc(rarity)}</text></g>')


# ---------------------------------------------------------------- the card

RULES_MAX, RULES_MIN = 12.0, 9.5
FLAVOR_MAX, FLAVOR_MIN = 10.0, 9.0
ART_TOP, ART_H, ART_MIN_H = 67, 113, 71
EMERGENCY_MIN, ART_LAST_H = 6.0, 41
TEXT_BOTTOM = 302
BOX_X, BOX_W = 14, 222
PAD = 8


def _prefix(card, lang):
    return "bc-" + re.sub(r"[^A-Za-z0-9-]", "_", card.id) + "-" + re.sub(r"[^a-z]", "", lang)


def card_rules(card, lang):
    """(rules text without the keyword line, which becomes badges)."""
    custom = (card.data.get("text") or {}).get(lang) if isinstance(card.data.get("text"), dict) else None
    if custom:
        body = custom
    else:
        body = cardtext.rules_text(card, lang)
        if card.keywords:
            first, _, rest = body.partition("\n")
            kws = [cardtext.KEYWORD[k][0 if lang == "en" else 1] for k in card.keywords if k in cardtext.KEYWORD]
            if all(k in first for k in kws):
                body = rest
    return body.strip()


def type_line(card, lang):
    en = lang == "en"
    el = ELEMENT_NAMES.get(card.element, (card.element, card.element))[0 if en else 1]
    if card.kind == "spell":
        return f"{el} · Spell" if en else f"{el}・魔法"
    tribe = card.tribe if en else cardtext.tribe_ja(card.tribe)
    return f"{el} · {tribe}" if en else f"{el}・{tribe}"


def _fit_name(name, avail, cjk):
    """(lines, font size) for the card name: one line if it reads at 12 or more, else two."""
    style = "serifb"
    size = 16.5
    while size > 12 and text_width(name, size, style) > avail:
        size -= 0.5
    if text_width(name, size, style) <= avail:
        return [name], size
    # two lines, split near the middle at a space (or anywhere, for Japanese)
    best = None
    cuts = [i for i, ch in enumerate(name) if ch == " "] if not cjk else list(range(1, len(name)))
    if not cuts:
        cuts = list(range(1, len(name)))
    for i in cuts:
        a, b = name[:i].rstrip(), name[i:].lstrip()
        if cjk and b and b[0] in _NO_START:
            continue
        wmax = max(text_width(a, 1, style), text_width(b, 1, style))
        if best is None or wmax < best[0]:
            best = (wmax, a, b)
    if best is None:
        return [name], 9.0
    _, a, b = best
    size = 13.0
    while size > 9 and max(text_width(a, size, style), text_width(b, size, style)) > avail:
        size -= 0.5
    return [a, b], size


def _layout_text(paragraphs, width, height, cjk, sizes):
    """The largest size whose wrapped paragraphs fit `height`: (size, lines per paragraph, used height)."""
    best = None
    for size in sizes:
        lh = size * (1.3 if cjk else 1.24)
        wrapped = [wrap(par, size, width, cjk) for par in paragraphs]
        n = sum(len(w) for w in wrapped)
        used = n * lh + max(0, len(paragraphs) - 1) * size * 0.4
        best = (size, wrapped, used)
        if used <= height:
            return best, True
    return best, False


def _sizes(hi, lo):
    out, s = [], hi
    while s >= lo - 1e-9:
        out.append(round(s, 2))
        s -= 0.5
    return out


def _text_lines(lines, x, y, size, lh, fill, family, italic=False, bold_fill=None, cls="rules"):
    out = [f'<text class="{cls}" x="{f1(x)}" y="{f1(y)}" font-size="{size}" fill="{fill}" font-family="{family}"'
           + (' font-style="italic"' if italic else "") + ">"]
    for i, segs in enumerate(lines):
        first = True
        for t, b in segs:
            attrs = ""
            if first:
                attrs = f' x="{f1(x)}" y="{f1(y + i * lh)}"'
                first = False
            if b:
                attrs += f' font-weight="bold" fill="{bold_fill or fill}"'
            out.append(f"<tspan{attrs}>{esc(t)}</tspan>")
    out.append("</text>")
    return "".join(out)


def card_svg(card, lang="en", width=W, height=H):
    """The whole card face as a standalone SVG document (a string)."""
    lang = "ja" if lang == "ja" else "en"
    cjk = lang == "ja"
    en = not cjk
    p = _prefix(card, lang)
    seed = int(hashlib.sha256(card.id.encode("utf-8")).hexdigest()[:16], 16)
    rng = random.Random(seed)
    el = card.element if card.element in PALETTES else "earth"
    pal = palette(el)
    names = card.data.get("name") or {}
    name = names.get(lang) or names.get("en") or card.id
    trim = RARITY_STYLE.get(card.rarity, RARITY_STYLE["C"])[3].replace("{p}", p)
    is_monster = card.kind == "monster"
    family = SANS

    # ---- text box: how much room the rules (and flavour) need decides the art height
    inner_w = BOX_W - 2 * PAD
    rules = card_rules(card, lang)
    paragraphs = [ln for ln in rules.split("\n") if ln.strip()]
    kw_badges = [k for k in card.keywords if k in KEYWORD_BADGE] if is_monster else []

    # the keyword badges sit on the art's lower edge beside the slot gems when there is room
    slots = [(k, n) for k, n in sorted(card.slots.items(), key=lambda kv: (kv[0] == "wild", kv[0]))] \
        if is_monster else []
    n_gems = sum(n for _, n in slots)
    gem_step = 22.0
    gem_r = 10.0
    badge_ws = [text_width(KEYWORD_BADGE[k][0 if en else 1], 9, "sansb") + 25 for k in kw_badges]
    badges_w = sum(badge_ws) + 4 * max(0, len(badge_ws) - 1)
    gems_w = n_gems * gem_step
    badges_on_edge = gems_w + badges_w + 10 <= BOX_W - 12
    badge_rows = 0
    if kw_badges and not badges_on_edge:
        row_w, badge_rows = 0.0, 1
        for bw in badge_ws:
            if row_w and row_w + 4 + bw > inner_w:
                badge_rows += 1
                row_w = 0.0
            row_w += (4 if row_w else 0) + bw
        if gems_w > BOX_W - 20:  # very many gems: squeeze them
            gem_step = (BOX_W - 20) / max(1, n_gems)
            gem_r = min(10.0, gem_step * 0.5)

    # Shrink the type down to RULES_MIN, giving the text box room taken from the art as needed;
    # only a card with far more text than any printed one goes smaller still (never overflowing).
    stages = [(h, RULES_MIN) for h in range(ART_H, ART_MIN_H - 1, -6)] + \
             [(h, EMERGENCY_MIN) for h in range(ART_MIN_H - 6, ART_LAST_H - 1, -6)]
    for art_h, lo in stages:
        box_top = ART_TOP + art_h + 5
        content_top = box_top + 12 + badge_rows * 21
        avail = TEXT_BOTTOM - 6 - content_top
        fitted, ok = _layout_text(paragraphs, inner_w, avail, cjk, _sizes(RULES_MAX, lo))
        if ok:
            break
    size, wrapped, used = fitted

    # flavour, in italics, when there is room below the rules
    flavor_txt = ""
    fl = card.data.get("flavor")
    if isinstance(fl, dict):
        flavor_txt = (fl.get(lang) or "").strip()
    flavor_block = None
    if flavor_txt:
        room = avail - used - (8 if paragraphs else 0)
        for fsize in _sizes(min(FLAVOR_MAX, size), FLAVOR_MIN):
            flh = fsize * (1.3 if cjk else 1.22)
            flines = wrap(flavor_txt, fsize, inner_w, cjk, "seriff", "seriff")
            if len(flines) * flh <= room:
                flavor_block = (fsize, flh, flines)
                break

    art_y, art_x, art_w = ART_TOP, BOX_X, BOX_W
    box_top = art_y + art_h + 5

    # ---- defs
    defs = [f'<linearGradient id="{p}-frame" x1="0" y1="0" x2="1" y2="1">'
            f'<stop offset="0" stop-color="{pal["bright"]}"/><stop offset=".45" stop-color="{pal["mid"]}"/>'
            f'<stop offset="1" stop-color="{pal["dark"]}"/></linearGradient>',
            f'<linearGradient id="{p}-plate" x1="0" y1="0" x2="0" y2="1">'
            f'<stop offset="0" stop-color="{pal["dark"]}"/><stop offset="1" stop-color="{pal["deep"]}"/></linearGradient>',
            f'<linearGradient id="{p}-parch" x1="0" y1="0" x2="0" y2="1">'
            f'<stop offset="0" stop-color="{_mix(pal["pale"], "#fbf5e6", 0.6)}"/>'
            f'<stop offset="1" stop-color="{_mix(pal["light"], "#efe2c2", 0.7)}"/></linearGradient>',
            f'<radialGradient id="{p}-medal" cx=".4" cy=".35" r=".75">'
            f'<stop offset="0" stop-color="{pal["pale"]}"/><stop offset=".55" stop-color="{pal["light"]}"/>'
            f'<stop offset="1" stop-color="{pal["bright"]}"/></radialGradient>',
            f'<radialGradient id="{p}-glow"><stop offset="0" stop-color="{pal["pale"]}" stop-opacity=".95"/>'
            f'<stop offset=".55" stop-color="{pal["light"]}" stop-opacity=".6"/>'
            f'<stop offset="1" stop-color="{pal["light"]}" stop-opacity="0"/></radialGradient>',
            f'<radialGradient id="{p}-gemshade" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="#fff" stop-opacity=".45"/>'
            f'<stop offset=".5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".45"/>'
            f'</radialGradient>',
            f'<radialGradient id="{p}-lvl" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="{pal["mid"]}"/>'
            f'<stop offset="1" stop-color="{pal["deep"]}"/></radialGradient>',
            f'<linearGradient id="{p}-foil" x1="0" y1="0" x2="1" y2="1">'
            f'<stop offset="0" stop-color="#ff9ad5"/><stop offset=".25" stop-color="#ffe27a"/>'
            f'<stop offset=".5" stop-color="#8ef0c8"/><stop offset=".75" stop-color="#8fc3ff"/>'
            f'<stop offset="1" stop-color="#d9a2ff"/></linearGradient>',
            f'<clipPath id="{p}-art"><rect x="{art_x}" y="{art_y}" width="{art_w}" height="{art_h}" rx="5"/></clipPath>']
    scene_defs, scene_body = scene(card, rng, p, art_x, art_y, art_w, art_h)
    defs.append(scene_defs)

    title = name + " — " + type_line(card, lang)
    size_attrs = (f'width="{width}" height="{height}"' if height is not None else f'width="{width}"')
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" {size_attrs} '
           f'class="card-svg" role="img" aria-label="{esc(title)}" data-card="{esc(card.id)}" '
           f'data-lang="{lang}" font-family="{family}" lang="{lang}">',
           f"<title>{esc(title)}</title>", "<defs>", "".join(defs), "</defs>"]

    # ---- frame
    out.append(f'<rect x="0" y="0" width="{W}" height="{H}" rx="14" fill="{pal["deep"]}"/>')
    out.append(f'<rect x="2.5" y="2.5" width="{W - 5}" height="{H - 5}" rx="12" fill="url(#{p}-frame)"/>')
    pattern = []
    for i in range(-H, W, 14):  # faint diagonal grain on the frame
        pattern.append(f"M{i},{H} L{i + H},0")
    out.append(f'<path d="{" ".join(pattern)}" stroke="#fff" stroke-width="3" opacity=".06"/>')
    out.append(f'<rect x="6.5" y="6.5" width="{W - 13}" height="{H - 13}" rx="9" fill="none" stroke="{trim}" '
               f'stroke-width="{2 if card.rarity in ("R", "SR") else 1.2}" opacity=".9"/>')

    # ---- name plate
    out.append(f'<rect x="11" y="10" width="228" height="33" rx="7" fill="url(#{p}-plate)" stroke="{trim}" stroke-width="1.2"/>')
    name_left = 19
    name_avail = (199 if is_monster else 205) - name_left
    nlines, nsize = _fit_name(name, name_avail, cjk)
    nfamily = SERIF
    def squeeze(line, size, avail, style="serifb"):  # only a name too long even at the smallest size
        if text_width(line, size, style) <= avail:
            return ""
        return f' textLength="{f1(avail)}" lengthAdjust="spacingAndGlyphs"'

    if len(nlines) == 1:
        out.append(f'<text class="card-name" x="{name_left}" y="{f1(26.5 + nsize * 0.36)}" font-family="{nfamily}" '
                   f'font-size="{nsize}" font-weight="bold" fill="{pal["pale"]}"{squeeze(nlines[0], nsize, name_avail)}>'
                   f'{esc(nlines[0])}</text>')
    else:
        out.append(f'<text class="card-name" font-family="{nfamily}" font-size="{nsize}" font-weight="bold" '
                   f'fill="{pal["pale"]}"><tspan x="{name_left}" y="{f1(25.5 - nsize * 0.18)}"'
                   f'{squeeze(nlines[0], nsize, name_avail)}>{esc(nlines[0])}</tspan>'
                   f'<tspan x="{name_left}" y="{f1(25.5 + nsize * 0.98)}"{squeeze(nlines[1], nsize, name_avail)}>'
                   f'{esc(nlines[1])}</tspan></text>')

    # ---- level circle (monsters) or the spell's element seal
    if is_monster:
        out.append(f'<g class="level" data-level="{card.level}">'
                   f'<circle cx="221" cy="27" r="19" fill="{pal["deep"]}"/>'
                   f'<circle cx="221" cy="27" r="17" fill="url(#{p}-lvl)" stroke="{trim}" stroke-width="2.2"/>'
                   f'<text class="card-level" x="221" y="34.5" text-anchor="middle" font-family="{SERIF}" '
                   f'font-size="21" font-weight="bold" fill="#fff">{card.level}</text></g>')
    else:
        out.append(f'<g class="spell-seal"><path d="{_poly(223, 27, 16, 4)}" fill="url(#{p}-lvl)" stroke="{trim}" '
                   f'stroke-width="2"/>' + element_icon(el, 214, 18, 18, pal["pale"]) + "</g>")

    # ---- type line: element icon, element and tribe; level pips at the right
    out.append(f'<rect x="11" y="46" width="228" height="17" rx="5" fill="{pal["deep"]}" opacity=".55"/>')
    out.append(element_icon(el, 16, 47.5, 14, pal["light"]))
    n = max(0, min(card.level, 9)) if is_monster else 0
    tl = type_line(card, lang)
    t_avail = 232 - 9 * n - 4 - 34
    tsize = 10.5
    while tsize > 8 and text_width(tl, tsize, "sansb") > t_avail:
        tsize -= 0.5
    out.append(f'<text class="card-type" x="34" y="58.6" font-size="{tsize}" font-weight="bold" fill="{pal["pale"]}"'
               f'{squeeze(tl, tsize, t_avail, "sansb")}>{esc(tl)}</text>')
    if is_monster:
        for i in range(n):
            px = 232 - i * 9
            out.append(f'<path d="{_poly(px, 54.5, 3.6, 4)}" fill="{pal["light"]}" stroke="{pal["deep"]}" stroke-width=".8"/>')

    # ---- art
    out.append(f'<rect x="{art_x - 2}" y="{art_y - 2}" width="{art_w + 4}" height="{art_h + 4}" rx="6.5" fill="{pal["deep"]}"/>')
    out.append(f'<g clip-path="url(#{p}-art)">{scene_body}</g>')
    out.append(f'<rect x="{art_x}" y="{art_y}" width="{art_w}" height="{art_h}" rx="5" fill="none" stroke="{trim}" '
               f'stroke-width="1.2"/>')
    if is_monster and card.quick:
        qlabel = "Quick" if en else "即時召喚"
        b, _ = badge(art_x + 5, art_y + 5, qlabel, BOLT, "#1d1406", "#ffe9a6", "#ffcc33", size=9.5, h=18,
                     title="Quick mark: may be quick summoned" if en else "即時召喚マーク")
        out.append(f'<g class="quick-mark">{b}</g>')

    # ---- text box
    out.append(f'<rect x="{BOX_X}" y="{box_top}" width="{BOX_W}" height="{TEXT_BOTTOM - box_top}" rx="6" '
               f'fill="url(#{p}-parch)" stroke="{pal["deep"]}" stroke-width="1.5"/>')
    out.append('<g opacity=".07">' + (emblem(card.tribe, BOX_X + BOX_W - 34, (box_top + TEXT_BOTTOM) / 2, 56,
                                                 pal["deep"], pal["deep"]) if is_monster else
                                          element_icon(el, BOX_X + BOX_W - 62, (box_top + TEXT_BOTTOM) / 2 - 28,
                                                       56, pal["deep"])) + "</g>")

    # gems on the art's lower edge, keyword badges beside them or at the top of the text box
    edge_y = art_y + art_h
    gx = art_x + 12
    gem_out = []
    for kind, count in slots:
        for _ in range(count):
            gem_out.append(gem(p, gx, edge_y, gem_r, kind))
            gx += gem_step
    if gem_out:
        out.append('<g class="slots">' + "".join(gem_out) + "</g>")
    if kw_badges:
        kw_out = []
        if badges_on_edge:
            bx = art_x + art_w - 6 - badges_w
            for k, bw in zip(kw_badges, badge_ws, strict=True):
                lab = KEYWORD_BADGE[k][0 if en else 1]
                full = cardtext.KEYWORD.get(k, (lab, lab))[0 if en else 1]
                b, _ = badge(bx, edge_y - 8.5, lab, KEYWORD_BADGE[k][2], pal["deep"], pal["pale"], pal["light"],
                             title=full)
                kw_out.append(b)
                bx += bw + 4
        else:
            bx, by = BOX_X + PAD, box_top + 7
            for k, bw in zip(kw_badges, badge_ws, strict=True):
                if bx > BOX_X + PAD and bx + bw > BOX_X + PAD + inner_w:
                    bx, by = BOX_X + PAD, by + 21
                lab = KEYWORD_BADGE[k][0 if en else 1]
                full = cardtext.KEYWORD.get(k, (lab, lab))[0 if en else 1]
                b, _ = badge(bx, by, lab, KEYWORD_BADGE[k][2], pal["deep"], pal["pale"], pal["light"], title=full)
                kw_out.append(b)
                bx += bw + 4
        out.append('<g class="keywords">' + "".join(kw_out) + "</g>")

    # rules text, vertically centred in its room when short
    content_top = box_top + 12 + badge_rows * 21
    avail = TEXT_BOTTOM - 6 - content_top
    lh = size * (1.3 if cjk else 1.24)
    total = used + ((8 + len(flavor_block[2]) * flavor_block[1]) if flavor_block and paragraphs else
                    (len(flavor_block[2]) * flavor_block[1]) if flavor_block else 0)
    slack = max(0.0, avail - total)
    ty = content_top + (slack / 2 if not kw_badges or badges_on_edge else 0) + size * 0.8
    ty = max(ty, content_top + size * 0.8)
    ink_bold = _mix(pal["deep"], pal["mid"], 0.25)
    for lines in wrapped:
        out.append(_text_lines(lines, BOX_X + PAD, ty, size, lh, INK, family, bold_fill=ink_bold))
        ty += len(lines) * lh + size * 0.4
    if flavor_block:
        fsize, flh, flines = flavor_block
        if paragraphs:
            ty += 8 - size * 0.4
            out.append(f'<path d="M{BOX_X + 40},{f1(ty - fsize - 2)} H{BOX_X + BOX_W - 40}" stroke="{pal["mid"]}" '
                       f'stroke-width=".8" opacity=".7"/>')
        ty += (fsize - size) * 0.8
        # Japanese flavour stays upright (Mincho has no true italic); English is in italics
        out.append(_text_lines(flines, BOX_X + PAD, ty, fsize, flh, "#4a3c2c", SERIF, italic=en, cls="flavor"))

    # ---- bottom bar: rarity, set, stats or mana
    out.append(rarity_mark(p, card.rarity, 28, 321, 11))
    set_label = f"SET {card.set}" if en else f"第{card.set}弾"
    out.append(f'<text class="card-set" x="28" y="341" text-anchor="middle" font-size="6.5" font-weight="bold" '
               f'fill="{pal["pale"]}" opacity=".9">{esc(set_label)}</text>')
    if is_monster:
        out.append(stats(card, lang, pal))
    else:
        out.append(mana_bar(card, lang, p, pal))
    out.append("</svg>")
    return "".join(out)


STAT_ICONS = {
    "power": '<path d="M14 2L18 2L18 6L8 16L6 14Z"/><path d="M3 12L8 17L6.5 18.5L1.5 13.5Z M2.5 16.5L4 18 1.8 20.2 0.3 18.7Z"/>',
    "speed": '<path d="M2 10C6 4 12 2 19 3C15 5 13 7 12 9C15 9 17 8 19 7C16 11 11 14 5 14L2 18Z"/>',
    "life": '<path d="M10 18C4 13 1 10 1 6.3A4.3 4.3 0 0 1 10 4A4.3 4.3 0 0 1 19 6.3C19 10 16 13 10 18Z"/>',
}
STAT_COLOURS = {"power": ("#7a1410", "#ff8a6b"), "speed": ("#0f4a5a", "#7fe3f0"), "life": ("#155a26", "#8ff0a0")}


def stats(card, lang, pal):
    out = ['<g class="stats">']
    labels = {"power": ("Power", "力"), "speed": ("Speed", "速さ"), "life": ("Life", "生命力")}
    for i, stat in enumerate(("power", "speed", "life")):
        v = getattr(card, stat)
        shown = (f"+{v}" if v > 0 else ("−" + str(-v) if v < 0 else "0")) if stat == "speed" else str(v)
        x = 54 + i * 62
        bg, fg = STAT_COLOURS[stat]
        out.append(f'<g class="stat stat-{stat}" data-value="{v}"><title>{esc(labels[stat][0 if lang == "en" else 1])}</title>'
                   f'<rect x="{x}" y="308" width="56" height="30" rx="8" fill="{bg}" stroke="{pal["pale"]}" stroke-width="1.2"/>'
                   f'<g transform="translate({x + 5} 313.5) scale(.95)" fill="{fg}">{STAT_ICONS[stat]}</g>'
                   f'<text x="{x + 38}" y="330.5" text-anchor="middle" font-size="{19 if len(shown) < 3 else 16}" '
                   f'font-weight="bold" fill="#fff">{esc(shown)}</text></g>')
    out.append("</g>")
    return "".join(out)


def mana_bar(card, lang, p, pal):
    """Spells: the mana gems (slots of its element it needs) and its timing."""
    en = lang == "en"
    n = card.mana or 0
    timing = card.spell.timing if card.spell is not None else "normal"
    tlabel = cardtext.TIMING.get(timing, ("[" + timing + "]",) * 2)[0 if en else 1]
    tsize = 11.0
    tw = text_width(tlabel, tsize, "sansb") + 16
    tx = 236 - tw
    mana_right = tx - 6
    out = [f'<g class="mana" data-mana="{n}"><title>{esc(("Mana " if en else "マナ") + str(n))}</title>'
           f'<rect x="54" y="308" width="{f1(mana_right - 54)}" height="30" rx="8" fill="{pal["deep"]}" '
           f'stroke="{pal["pale"]}" stroke-width="1.2"/>'
           f'<text x="62" y="327" font-size="{9.5 if en else 10.5}" font-weight="bold" fill="{pal["light"]}">'
           f'{"MANA" if en else "マナ"}</text>']
    gx0 = 96 if en else 90
    if n == 0:
        out.append(f'<text x="{gx0}" y="329" font-size="16" font-weight="bold" fill="#fff">0</text>')
    step = min(21.0, (mana_right - 4 - gx0) / max(1, n))
    r = min(9.0, step * 0.48)
    for i in range(n):
        out.append(gem(p, gx0 + r + i * step, 323, r, card.element, cls="mana-gem"))
    out.append("</g>")
    out.append(f'<g class="timing timing-{esc(timing)}"><rect x="{f1(tx)}" y="308" width="{f1(tw)}" height="30" rx="8" '
               f'fill="{"#3b1d4f" if timing == "counter" else "#2a2a2a"}" stroke="{pal["pale"]}" stroke-width="1.2"/>'
               f'<text class="card-timing" x="{f1(tx + tw / 2)}" y="327" text-anchor="middle" font-size="{tsize}" '
               f'font-weight="bold" fill="{"#e7c8ff" if timing == "counter" else "#f2ead8"}">{esc(tlabel)}</text></g>')
    return "".join(out)


def card_svg_markup(card, lang="en"):
    """The card for inline use in a page (Jinja): fills its container's width, as safe Markup."""
    from markupsafe import Markup

    svg = card_svg(card, lang, width="100%", height=None)
    return Markup(svg.replace('class="card-svg"', 'class="card-svg" style="display:block;height:auto"', 1))
