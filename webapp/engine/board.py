"""The 8-land board: layout, adjacency, capacities and distances (R4)."""

LANDS = ("H0", "L1", "L2", "L3", "L4", "L5", "L6", "H1")
BASES = (0, 7)  # land index of each player's base
MIDDLE = (1, 2, 3, 4, 5, 6)

# R4.2 rows from player 0's side: H0; L1 L2; L3 L4; L5 L6; H1.
_ROWS = ((0,), (1, 2), (3, 4), (5, 6), (7,))


def _adjacency():
    adj = [set() for _ in LANDS]
    for r, row in enumerate(_ROWS):
        for a in row:
            for b in row:
                if a != b:
                    adj[a].add(b)
            if r + 1 < len(_ROWS):
                for b in _ROWS[r + 1]:
                    adj[a].add(b)
                    adj[b].add(a)
    return tuple(frozenset(s) for s in adj)


ADJACENT = _adjacency()

# R4.4 capacities by land kind.
CAPACITY = {"base": 5, "road": 6, "rearworld": 8, "swamp": 4}
LAND_KINDS = ("road", "rearworld", "swamp")
SHARED_LANDS = ("road", "road", "road", "rearworld", "rearworld", "swamp")  # R4.3


def _distances(target):
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for a in frontier:
            for b in ADJACENT[a]:
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return tuple(dist[i] for i in range(len(LANDS)))


# R4.7 DISTANCE[p][land]: steps from land to the enemy base of player p.
DISTANCE = (_distances(BASES[1]), _distances(BASES[0]))


def standing(owners):
    """R16.1's judgment on the lands as they are owned now (``owners``: the owner, 0, 1 or None, of
    each land by index): (lands held by each player, each player's distances to the enemy base
    nearest first, the player the judgment would favour or None for a draw). The round-12 judgment
    is this standing at its moment; during the game it is the score the board shows."""
    lands = [[land for land in range(len(LANDS)) if owners[land] == p] for p in (0, 1)]
    counts = [len(lands[0]), len(lands[1])]
    fronts = [sorted(DISTANCE[p][land] for land in lands[p]) for p in (0, 1)]
    if counts[0] != counts[1]:
        return counts, fronts, 0 if counts[0] > counts[1] else 1
    for a, b in zip(fronts[0], fronts[1], strict=True):
        if a != b:
            return counts, fronts, 0 if a < b else 1
    return counts, fronts, None
