"""webapp/config.py is the one list of configuration keys (issue 17): every key read anywhere in
webapp/ is in it, every key in it is read, every environment variable read is listed, and the
factory loads the defaults."""

import ast
import functools
import re
from pathlib import Path

from tests import sources as code
from webapp import config, create_app

ROOT = Path(__file__).resolve().parent.parent
KEY = re.compile(r"^[A-Z][A-Z0-9_]+$")
#: Functions that read the config key they are given, and its place among their arguments:
#: Online.seconds(key), Hub.limit(key), hostlog.setting(config, key, default).
READERS = {"seconds": 0, "limit": 0, "setting": 1}
#: Tuples of (key, what) that the admin page reads out of the config (hosttools.SHOWN_SETTINGS).
KEY_TABLES = {"SHOWN_SETTINGS", "SECRET_SETTINGS"}
#: Keys only Flask's extensions read (Brigade sets their defaults).
EXTENSION_KEYS = {"BABEL_DEFAULT_LOCALE", "BABEL_TRANSLATION_DIRECTORIES", "COMPRESS_MIMETYPES", "COMPRESS_ALGORITHM",
                  "COMPRESS_ALGORITHM_STREAMING"}
#: Passed on to the CPU's worker processes, not read as a setting.
PASSED_ON = {"PYTHONPATH"}


def sources():
    for path in code.webapp_files():
        if path.name != "config.py" or path.parent.name != "webapp":
            yield path, code.tree(path)


def is_config(node):
    return ast.unparse(node).split(".")[-1] == "config"


def is_environ(node):
    return ast.unparse(node) in ("os.environ", "environ")


def literal_key(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value) else None


@functools.cache
def reads():
    """({config key: [where]}, {environment variable: [where]}) read in webapp/."""
    keys, env = {}, {}
    for path, tree in sources():
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            found, into = [], keys
            if isinstance(node, ast.Subscript) and (is_config(node.value) or is_environ(node.value)):
                found, into = [node.slice], (keys if is_config(node.value) else env)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                owner = node.func.value
                if node.func.attr in ("get", "setdefault", "pop") and (is_config(owner) or is_environ(owner)):
                    found, into = node.args[:1], (keys if is_config(owner) else env)
                elif node.func.attr == "getenv":
                    found, into = node.args[:1], env
                elif node.func.attr in READERS:
                    found = node.args[READERS[node.func.attr]:][:1]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in READERS:
                found = node.args[READERS[node.func.id]:][:1]
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in KEY_TABLES for t in node.targets):
                found = [e.elts[0] if isinstance(e, ast.Tuple) else e for e in getattr(node.value, "elts", [])]
            for arg in found:
                name = literal_key(arg)
                if name:
                    into.setdefault(name, []).append(f"{where}:{node.lineno}")
    return keys, env


def test_every_key_read_is_in_the_one_list_and_every_listed_key_is_read():
    keys, _ = reads()
    listed = {k.name for k in config.KEYS}
    missing = sorted(set(keys) - listed)
    assert not missing, "keys read but not in webapp/config.py KEYS:\n" + "\n".join(f"{k}: {keys[k]}" for k in missing)
    unread = sorted(listed - set(keys) - EXTENSION_KEYS)
    assert not unread, f"keys in webapp/config.py that nothing reads: {unread}"
    # the reader sees the indirect reads too
    assert {"ONLINE_CLAIM_AFTER", "SOCKETS_PER_USER", "LOG_FORMAT", "METRICS_TOKEN", "INSTANCE_PATH"} <= set(keys)


def test_every_environment_variable_read_is_listed():
    _, env = reads()
    listed = {name for name, _, _ in config.ENVIRONMENT}
    missing = sorted(set(env) - listed - PASSED_ON)
    assert not missing, "environment variables read but not in webapp/config.py ENVIRONMENT:\n" + "\n".join(
        f"{k}: {env[k]}" for k in missing)
    assert {n for n in listed if n.startswith("BRIGADE_")} <= set(env)


def test_every_key_has_a_meaning_and_appears_once():
    names = [k.name for k in config.KEYS]
    assert len(names) == len(set(names))
    assert all(k.meaning.strip() for k in config.KEYS)


def test_the_factory_loads_every_default_and_keeps_the_hosts(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "DATABASE": "", "RATE_LIMIT": 7, "COMPRESS_ALGORITHM": ["gzip"]})
    for name, default in config.DEFAULTS.items():
        if name not in ("RATE_LIMIT", "COMPRESS_ALGORITHM"):
            assert app.config[name] == default, name
    assert app.config["RATE_LIMIT"] == 7 and app.config["COMPRESS_ALGORITHM"] == ["gzip"]
    assert app.config["COMPRESS_MIMETYPES"] is not config.DEFAULTS["COMPRESS_MIMETYPES"]  # a copy, never shared


def test_defaults_kept_beside_the_code_agree_with_the_list():
    from webapp.ai.search import DEFAULT_BUDGET  # the CPU players import nothing of the app
    from webapp.i18n import DEFAULT, TRANSLATIONS

    assert config.DEFAULTS["CPU_HARD_SECONDS"] == DEFAULT_BUDGET
    assert config.DEFAULTS["BABEL_DEFAULT_LOCALE"] == DEFAULT
    assert config.DEFAULTS["BABEL_TRANSLATION_DIRECTORIES"] == str(TRANSLATIONS)


def test_the_deploy_guide_links_to_the_list():
    assert "webapp/config.py" in (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")


def test_the_list_imports_nothing_of_the_app():
    """Any module may read config.DEFAULTS (packs, play, online, the host tools do) without a cycle."""
    tree = ast.parse((ROOT / "webapp" / "config.py").read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.split(".")[0] == "webapp"], names
