"""Password hashing with scrypt (werkzeug.security): a well-kept, memory-hard KDF already in Flask's deps.

One hash takes ~0.15 s of CPU and 32 MB of memory on purpose. At most PASSWORD_HASH_CONCURRENCY
hashes run at once (``set_concurrency``, from the app's settings): the others wait their turn, so
48 registrations or log-ins at once cost 2 × 32 MB, not 48 × 32 MB (docs/security.md). hashlib's
scrypt releases the GIL, so with threads other requests go on meanwhile; when serving with gevent
(``webapp.serving.SERVER``) the hash runs in gevent's pool of native threads and the wait is a gevent
semaphore (``threading`` is patched), so the event loop (and every game on it) does not stall."""

import threading

from werkzeug.security import check_password_hash, generate_password_hash

from webapp.serving import SERVER

MIN_LENGTH = 8
MAX_LENGTH = 200

#: The gate every hash passes; replaced by ``set_concurrency``.
_gate = threading.BoundedSemaphore(2)
_gate_size = 2


def set_concurrency(n):
    """Allow ``n`` (at least 1) hashes at once from now on."""
    global _gate, _gate_size
    n = max(1, int(n))
    if n != _gate_size:
        _gate, _gate_size = threading.BoundedSemaphore(n), n


def off_the_loop(fn, *args):
    """``fn(*args)`` through the gate, in gevent's thread pool when serving with gevent, else in the
    caller's thread."""
    gate = _gate
    with gate:
        if SERVER == "gevent":
            import gevent  # here: gevent is loaded only by the server it runs (BRIGADE_SERVER=gevent)

            return gevent.get_hub().threadpool.apply(fn, args)
        return fn(*args)


def hash_password(password):
    """The scrypt hash to store for a password."""
    return off_the_loop(generate_password_hash, password, "scrypt")


def check_password(stored_hash, password):
    """Whether the password matches the stored hash (constant-time comparison)."""
    return off_the_loop(check_password_hash, stored_hash, password)
