"""How this process serves, decided before anything else is imported: ``SERVER`` and ``ROOT``.

``SERVER`` is how Socket.IO is served (docs/deploy.md): "gevent" (one greenlet per connection; what
``python -m webapp`` uses unless BRIGADE_SERVER says otherwise) or "threading" (Werkzeug's threaded
server, four threads per WebSocket; the default of an app imported without the variable, e.g. the
tests' in-process apps). gevent has to patch the standard library before anything imports socket or
threading, so the app package (``webapp/__init__.py``) imports this module first, and the modules
that run differently under gevent (``webapp.sockets``, ``webapp.accounts.passwords``) read the switch
here, not from the factory (docs/architecture.md: nothing but an entry point imports the factory).
"""

import os

SERVER = os.environ.get("BRIGADE_SERVER") or "threading"
if SERVER == "gevent":
    from gevent import monkey

    monkey.patch_all()
elif SERVER != "threading":
    raise SystemExit(f"BRIGADE_SERVER is 'threading' or 'gevent', not {SERVER!r}")

from pathlib import Path

#: The repository root, which holds templates/, static/, cards/ and instance/.
ROOT = Path(__file__).resolve().parent.parent
