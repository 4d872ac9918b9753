"""A small deterministic RNG whose whole state is one integer (exact JSON round-trip)."""

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
