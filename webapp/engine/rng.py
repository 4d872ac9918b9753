"""A small deterministic RNG whose whole state is one integer (exact JSON round-trip)."""

import hashlib

_MASK = (1 << 64) - 1


class Rng:
    """splitmix64; `state` is the only state."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state & _MASK

    def next64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n):
        """A uniform integer in [0, n)."""
        return self.next64() % n  # n is tiny, the bias is negligible (< 2**-58)

    def shuffle(self, items):
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def instance_numbers(seed, player, count, taken=()):
    """The K of each of `count` new instance ids `pNcK` of `player`, in a per-game random order.

    Drawn from a stream of its own (a hash of the seed: it never touches the game's RNG, so the ids
    say nothing about the shuffle), so an id says nothing about which card it is. The numbers are
    the `count` smallest not in `taken` (ids given explicitly), shuffled."""
    digest = hashlib.sha256(f"ids:{seed}:{player}".encode()).digest()
    rng = Rng(int.from_bytes(digest[:8], "big"))
    numbers, k = [], 0
    while len(numbers) < count:
        if f"p{player}c{k}" not in taken:
            numbers.append(k)
        k += 1
    rng.shuffle(numbers)
    return numbers
