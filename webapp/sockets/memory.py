"""Giving freed memory back to the system after a socket goes (glibc's ``malloc_trim``)."""

import ctypes
import ctypes.util


def _malloc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


TRIM = _malloc_trim()
#: At most one trim every TRIM_EVERY seconds (``Hub.disconnected``).
TRIM_EVERY = 5.0


def trim_memory():
    """Give the memory that freed objects left in glibc's heaps back to the system (``malloc_trim``).

    In the threading server every socket runs on threads of its own, and glibc gives threads heaps
    (arenas) of their own: what a game's states and threads freed there stays mapped, and the
    server's resident memory grew ~0.8 MB per finished CPU game (bench/memory_per_game.py) although
    no Python structure grew (tracemalloc). Called after a socket goes (at most every TRIM_EVERY
    seconds); does nothing where there is no glibc."""
    if TRIM is not None:
        TRIM(0)
