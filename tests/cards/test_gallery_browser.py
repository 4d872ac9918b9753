"""The card gallery in a real browser: every card's SVG is on the page and drawn at a real size. Its
first screenful is saved as gallery-<lang>.png in shots_dir() (docs/screenshots with BRIGADE_SCREENSHOTS)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import shots_dir
from webapp.engine import load_pool

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gallery_shows_every_card(browser, tmp_path, lang):
    pool = load_pool()
    out = tmp_path / "gallery"
    res = subprocess.run([sys.executable, "-m", "webapp.cards", "gallery", str(out), "--lang", lang],
                         cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.goto((out / "index.html").as_uri())
        page.wait_for_load_state("load")
        shot = shots_dir() / f"gallery-{lang}.png"
        page.screenshot(path=str(shot))  # the first screenful, as committed
        boxes = page.evaluate("""() => [...document.querySelectorAll('svg.card-svg')].map(s => {
            const r = s.getBoundingClientRect();
            return {id: s.dataset.card, w: r.width, h: r.height};
        })""")
    finally:
        page.close()
    assert shot.stat().st_size > 0
    assert sorted(b["id"] for b in boxes) == sorted(pool)
    for b in boxes:
        assert b["w"] > 0 and b["h"] > 0, b
        assert abs(b["h"] / b["w"] - 350 / 250) < 0.02, b  # drawn at the card's shape, 200 px wide
        assert abs(b["w"] - 200) < 1, b
