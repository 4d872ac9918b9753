"""The app factory, the landing page, the health check and ``python -m webapp``."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from webapp import ROOT, create_app
from webapp.web import pages


def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Brigade" in response.get_data(as_text=True)


def test_home_page_links_the_stylesheet(client):
    page = client.get("/").get_data(as_text=True)
    assert "/static/css/brigade.css" in page
    assert client.get("/static/css/brigade.css").status_code == 200


def test_home_page_shows_the_size_of_the_engines_card_pool(client, monkeypatch):
    monkeypatch.setattr(pages, "load_pool", lambda: {f"card-{n}": {} for n in range(42)})  # the page's engine pool
    page = client.get("/").get_data(as_text=True)
    assert ">42<" in page
    assert "cards in the pool" in page


def test_healthz_says_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"ok": True}


def test_secret_key_is_made_in_the_instance_folder_and_kept(tmp_path):
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True, "INSTANCE_PATH": instance})
    key_file = instance / "secret_key"
    assert app.instance_path == str(instance)
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) == 64
    again = create_app({"TESTING": True, "INSTANCE_PATH": instance})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_secret_key_from_config_writes_no_file(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path, "SECRET_KEY": "given"})
    assert app.config["SECRET_KEY"] == "given"
    assert not (tmp_path / "secret_key").exists()


def test_instance_path_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIGADE_INSTANCE_PATH", str(tmp_path / "elsewhere"))
    app = create_app({"TESTING": True})
    assert app.instance_path == str(tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "secret_key").exists()


def free_port():
    """Return a TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_line(stream, timeout):
    """Return the first line of ``stream``, or None if none arrives within ``timeout`` s."""
    lines = []
    reader = threading.Thread(target=lambda: lines.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else None


def get_with_retries(url, deadline):
    """GET ``url`` until the server answers or ``deadline`` (monotonic) passes."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status, response.read()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_python_m_webapp_serves_healthz(tmp_path):
    port = free_port()
    env = dict(os.environ, BRIGADE_INSTANCE_PATH=str(tmp_path / "instance"))
    with open(tmp_path / "stderr.txt", "w+") as stderr:  # the server keeps its own copy of the file
        proc = subprocess.Popen(
            [sys.executable, "-m", "webapp", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    try:
        line = read_line(proc.stdout, timeout=60)  # a bound, not a timing: a loaded machine starts slowly
        errors = Path(stderr.name).read_text()
        assert line == f"Brigade is running at http://127.0.0.1:{port}/\n", errors
        status, body = get_with_retries(
            f"http://127.0.0.1:{port}/healthz", deadline=time.monotonic() + 60
        )
        assert status == 200
        assert json.loads(body) == {"ok": True}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
