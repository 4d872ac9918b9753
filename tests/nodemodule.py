"""Run a few lines of an ES module under node against static/js, for the tests that hold a script's
pure module to the server's Python (deck checks and stats, the deck charts, the collection's filter).

The lines run after ``PRELUDE``, which gives them ``js(name)`` (the URL of static/js/<name>, for
``await import(js('deck-rules.js').href)``), ``i18n`` (what static/js/i18n.js exports: ``t``, ``tn``,
``fold``) and ``input`` (the ``data`` given, read as JSON from stdin); they print their answer as JSON.
"""

import json
import subprocess

from webapp import ROOT

PRELUDE = (
    "import {readFileSync} from 'node:fs'; import {createRequire} from 'node:module';"
    "import {pathToFileURL} from 'node:url';"
    "const js = (name) => pathToFileURL(process.argv[1] + '/' + name);"
    "const i18n = createRequire(js('i18n.js'))(js('i18n.js').pathname);"
    "const input = JSON.parse(readFileSync(0, 'utf8'));"
)


def run(node, lines, data):
    """What ``lines`` print (parsed JSON), run under ``node`` after PRELUDE with ``data`` as ``input``."""
    done = subprocess.run([node, "--input-type=module", "-e", PRELUDE + lines, str(ROOT / "static" / "js")],
                          input=json.dumps(data), capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)
