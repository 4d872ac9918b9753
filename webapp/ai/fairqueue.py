"""Who thinks next in the CPU worker pool: live moves first, then the owner with the fewest moves in hand.

The worker pool (webapp/ai/workers.py) runs each search in short slices; between slices the job goes
back here, and a free worker takes the best waiting ticket:

1. priority: live moves (a CPU's move, a hint: someone waits on it) before background work (the
   after-game analysis), so background work delays a live move by at most one slice;
2. the owner's moves in hand (tickets made and not yet done): a user with five Hard games thinking
   has five, a user with one game has one, so the second user's move goes first and keeps its budget;
   the first user's games beyond the first wait their turn instead of all crawling at once;
3. then first come first served (the ticket's number): one search finishes before the next one of
   the same rank starts, so two users with one game each wait at most one move for each other.

A job started on one worker keeps that worker (its search lives there): a ticket is eligible for its
pinned worker only. Pure bookkeeping, no processes, threads or time: tests drive it directly.
"""

import itertools

LIVE, BACKGROUND = 0, 1


class Ticket:
    """One job's place in the queue."""

    __slots__ = ("owner", "pinned", "priority", "seq", "worker")

    def __init__(self, owner, priority, seq):
        self.owner, self.priority, self.seq = owner, priority, seq
        self.pinned = None  # the worker its search lives on, once started
        self.worker = None  # the worker it was given (set by `give`)

    def __repr__(self):
        return f"Ticket({self.owner!r}, priority={self.priority}, seq={self.seq}, pinned={self.pinned!r})"


class FairQueue:
    def __init__(self):
        self.waiting = []
        self.in_hand = {}  # owner -> tickets made and not yet done
        self._seq = itertools.count()

    def ticket(self, owner, priority=LIVE):
        """A new job's ticket (not yet waiting: `wait` puts it in line; `done` once it is answered)."""
        self.in_hand[owner] = self.in_hand.get(owner, 0) + 1
        return Ticket(owner, priority, next(self._seq))

    def done(self, ticket):
        """The job is over (answered or failed): it leaves the line and its owner's count."""
        self.leave(ticket)
        n = self.in_hand.get(ticket.owner, 0) - 1
        if n > 0:
            self.in_hand[ticket.owner] = n
        else:
            self.in_hand.pop(ticket.owner, None)

    def wait(self, ticket):
        ticket.worker = None
        self.waiting.append(ticket)

    def leave(self, ticket):
        if ticket in self.waiting:
            self.waiting.remove(ticket)

    def order(self):
        """The waiting tickets, best first."""
        return sorted(self.waiting, key=lambda t: (t.priority, self.in_hand.get(t.owner, 0), t.seq))

    def best(self, worker, fresh_allowed=True):
        """The best waiting ticket `worker` may take (pinned to it, or not pinned and `fresh_allowed`)."""
        for t in self.order():
            if t.pinned == worker or (t.pinned is None and fresh_allowed):
                return t
        return None

    def give(self, ticket, worker):
        self.waiting.remove(ticket)
        ticket.worker = worker
        return ticket
