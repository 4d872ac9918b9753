"""Page weight (issue 14): compressed responses, static files under hashed URLs with a long cache,
ES modules importing their siblings by hashed URL (webapp/web/assets.py)."""

import re

import pytest

from webapp.web import assets, cardfiles

BR = {"Accept-Encoding": "gzip, deflate, br"}


def static_url(client, app, filename):
    with app.test_request_context():
        from flask import url_for
        return url_for("static", filename=filename)


@pytest.mark.parametrize("path", ["/", "/rules", "/about"])
def test_pages_are_compressed_for_a_browser_that_asks(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=BR)
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.get_data()) < len(plain.get_data())
    assert client.get(path, headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in plain.headers  # a client that asks for nothing gets it plain


def test_card_art_and_the_card_list_are_compressed(client, app):
    with app.test_request_context():
        art, pool = cardfiles.art_url("orc", "en"), cardfiles.pool_url()
    for url in (art, pool):
        answer = client.get(url, headers=BR)
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br", url
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_static_urls_carry_the_files_hash_and_only_those_are_cached_for_long(client, app):
    url = static_url(client, app, "css/brigade.css")
    assert re.fullmatch(r"/static/css/brigade\.css\?v=[0-9a-f]{12}", url)
    assert url in client.get("/").get_data(as_text=True)
    hashed = client.get(url, headers=BR)
    assert hashed.status_code == 200 and hashed.headers["Cache-Control"] == assets.IMMUTABLE
    assert hashed.headers["Content-Encoding"] == "br"
    for stale in ("/static/css/brigade.css", "/static/css/brigade.css?v=000000000000"):
        answer = client.get(stale)
        assert answer.status_code == 200 and "immutable" not in answer.headers.get("Cache-Control", ""), stale


def test_modules_import_their_siblings_by_hashed_url(client, app):
    url = static_url(client, app, "js/play.js")
    text = client.get(url).get_data(as_text=True)
    imports = re.findall(r'from "\./([a-z-]+\.js)(\?v=[0-9a-f]{12})?"', text)
    assert imports and all(v for _, v in imports), imports
    for name, v in imports:  # each is the URL url_for gives that module: cached once for every page
        assert static_url(client, app, f"js/{name}").endswith(f"{name}{v}")
    plain = client.get("/static/js/play.js")
    assert plain.headers["Cache-Control"] == "no-cache" and plain.get_data(as_text=True) == text
    assert client.get("/static/js/play.js", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304


def test_a_change_in_an_imported_module_changes_the_importers_url(app, tmp_path, monkeypatch):
    js = tmp_path / "js"
    js.mkdir()
    (js / "a.js").write_text('import {b} from "./b.js";\nexport const a = b;\n', encoding="utf-8")
    (js / "b.js").write_text("export const b = 1;\n", encoding="utf-8")
    monkeypatch.setattr(app, "static_folder", str(tmp_path))
    with app.test_request_context():
        before = assets.file_hash("js/a.js")
        (js / "b.js").write_text("export const b = 22;\n", encoding="utf-8")
        after = assets.file_hash("js/a.js")
        text, _ = assets._module(str(tmp_path), "js/a.js", assets._stamp(str(tmp_path)))
        b_hash = assets.file_hash("js/b.js")
    assert before != after
    assert f'from "./b.js?v={b_hash}"' in text


def test_an_immutable_file_carries_no_session_cookie_and_no_vary_cookie(client, app, alice):
    """A logged-in player's repeat visit finds the hashed files in the browser's cache: the session
    cookie changes as it is refreshed, so a ``Vary: Cookie`` on them would miss the cache every time
    (webapp/web/sessions.py). The board page itself stays per user."""
    from tests.web.conftest import log_in
    log_in(client, alice)
    with app.test_request_context():
        urls = [cardfiles.art_url("orc", "en"), cardfiles.pool_url(), static_url(client, app, "css/brigade.css"),
                static_url(client, app, "js/play.js")]
    for url in urls:
        answer = client.get(url, headers=BR)
        assert answer.status_code == 200, url
        assert "immutable" in answer.headers["Cache-Control"], url
        assert "Cookie" not in answer.headers.get("Vary", ""), (url, answer.headers.get("Vary"))
        assert "Set-Cookie" not in answer.headers, url
    page = client.get("/play")
    assert page.status_code == 200 and "Cookie" in page.headers.get("Vary", "")
