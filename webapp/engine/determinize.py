"""A game as one seat could imagine it: the seat's hidden unknowns filled in at random (for search).

`determinize(state, p, rng, guess)` keeps everything `view(p)` shows and what p knows of its own
deck (its own 30 cards: the ones it has not seen yet are its draw pile), and draws the rest: the
order of both draw piles, which of the opponent's unseen cards are in hand and which in the deck,
what those cards are (from `guess`), the opponent's hidden leader choice, and the game's RNG.

It reads the real state only where p may look: the board, both discard piles, p's own hand and
leader choice, the opponent's publicly shown hand cards (`State.shown`), counts, and the set of
instance ids (opaque: an id says nothing about its card). The opponent's unseen instances are
handled in id order and their real cards are never read, so two games that differ only in what p
cannot see give the same determinization for the same `rng` (tests/engine/test_determinize.py).
"""


def default_guess(seen, pool, count, rng):
    """`count` card ids for the opponent's unseen cards: cards it has shown (decks hold copies)
    are three times as likely as any other card of the pool, monsters twice as likely as spells
    (decks are mostly monsters)."""
    kept = _BASE_WEIGHTS.get(id(pool))
    if kept is None or kept[0] is not pool or len(kept[1]) != len(pool):
        ids = sorted(pool)
        kept = _BASE_WEIGHTS[id(pool)] = (pool, ids, [2.0 if pool[c].kind == "monster" else 1.0 for c in ids],
                                          {c: i for i, c in enumerate(ids)})
        if len(_BASE_WEIGHTS) > 8:
            _BASE_WEIGHTS.pop(next(iter(_BASE_WEIGHTS)), None)
    _pool, ids, weights, position = kept
    if seen:
        weights = weights[:]
        for c, n in seen.items():
            if n and c in position:
                weights[position[c]] += 3.0 * n
    return rng.choices(ids, weights=weights, k=count)


#: {id(pool): (pool, its card ids sorted, their weights before what was seen, {card id: position})}
_BASE_WEIGHTS = {}


def seen_cards(s, p):
    """{instance: True} of every instance p has seen, with the opponent's seen card ids counted."""
    opp = 1 - p
    owner = s.static.owner
    seen = set(s.land) | set(s.discard[0]) | set(s.discard[1]) | set(s.hand[p])
    seen |= {c for c in s.hand[opp] if c in s.shown}
    if s.leader_choice[p] is not None:
        seen |= set(s.leader_choice[p])
    return seen, {u for u in seen if owner[u] == opp}


def determinize(s, p, rng, guess=None):
    """A new State: `s` with what seat `p` cannot see drawn from `rng` (a random.Random)."""
    st = s.static
    opp = 1 - p
    seen, opp_seen = seen_cards(s, p)
    counts = {}
    for u in opp_seen:
        counts[st.cards[u].id] = counts.get(st.cards[u].id, 0) + 1
    # the opponent's unseen instances, in id order (never in hand/deck order, never by card)
    unseen = sorted(u for u in range(len(st.cards)) if st.owner[u] == opp and u not in seen)
    shown_in_hand = [c for c in s.hand[opp] if c in s.shown]
    hand_count = len(s.hand[opp]) - len(shown_in_hand)
    pool = st.pool
    cards = list(st.cards)
    hidden_choice = s.phase == "leaders" and s.leader_choice[opp] is not None
    need_monster = s.phase == "leaders"  # R5.3: an opening hand holds a monster
    for _ in range(100):
        picks = (guess or default_guess)(counts, pool, len(unseen), rng)
        order = unseen[:]
        rng.shuffle(order)
        hand = order[:hand_count]
        if not need_monster or not hand or any(pool[picks[unseen.index(c)]].kind == "monster" for c in hand):
            break
    for u, cid in zip(unseen, picks, strict=True):
        cards[u] = pool[cid]
    new = s.copy()
    new.static = st.imagined_with(cards)
    new.hand[opp] = shown_in_hand + hand
    new.deck[opp] = order[hand_count:]
    own = sorted(s.deck[p])  # p knows which of its own cards are still in its pile, not their order
    rng.shuffle(own)
    new.deck[p] = own
    new.rng = rng.getrandbits(64)
    new.dice = ()
    if hidden_choice:
        choice = list(new.leader_choice)
        choice[opp] = None
        new.leader_choice = tuple(choice)
    return new, hidden_choice
