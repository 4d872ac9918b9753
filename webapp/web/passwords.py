"""Password hashing with scrypt (werkzeug.security): a well-kept, memory-hard KDF already in Flask's deps.

One hash takes ~0.15 s of CPU on purpose. hashlib's scrypt releases the GIL, so with threads other
requests go on meanwhile; when serving with gevent (``webapp.SERVER``) the hash runs in gevent's
pool of native threads, so the event loop (and every game on it) does not stall for it."""

from werkzeug.security import check_password_hash, generate_password_hash

from webapp import SERVER

MIN_LENGTH = 8
MAX_LENGTH = 200


def off_the_loop(fn, *args):
    """``fn(*args)``, in gevent's thread pool when serving with gevent, else in the caller's thread."""
    if SERVER == "gevent":
        import gevent

        return gevent.get_hub().threadpool.apply(fn, args)
    return fn(*args)


def hash_password(password):
    """The scrypt hash to store for a password."""
    return off_the_loop(generate_password_hash, password, "scrypt")


def check_password(stored_hash, password):
    """Whether the password matches the stored hash (constant-time comparison)."""
    return off_the_loop(check_password_hash, stored_hash, password)
