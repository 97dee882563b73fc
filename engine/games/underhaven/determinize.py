"""A world consistent with what one seat has seen (`Game.determinize`, for search bots).

`observe(state, seat)` puts what the seat cannot see into a canonical (sorted) arrangement:
which octagon lies face down where (pooled with the box), the starting octagons of the other
seats not placed yet, the starting cards dealt to others and not yet returned (pooled with the
starting-card deck), the order of the mission, activation-card and starting-building decks,
and the cards others drew unseen (back in the activation deck).  A determinisation deals
exactly those pools again at random with the bot's own stream, keeping every pool's size, so
a world holds only tiles and cards the seat knows are unaccounted for; it reads nothing but the
observation.  The world gets a chance stream of its own from the bot's stream (mission
reshuffles: `seed_chance`, built only if the world draws), so the future is sampled too.
"""

from __future__ import annotations

import random


def shuffle(rng, x: list) -> None:
    """`rng.shuffle(x)`, the same draws and the same order (CPython's `Random.shuffle` with
    its `_randbelow_with_getrandbits` written out, without two calls per card); any other
    kind of stream shuffles itself.  tests/bots/test_underhaven_search_speed.py checks it
    against `Random.shuffle`."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _deal(rng, pool: list, sizes: list[int]) -> tuple[list[list], list]:
    shuffle(rng, pool)
    out, k = [], 0
    for m in sizes:
        out.append(pool[k:k + m])
        k += m
    return out, pool[k:]


def determinize(obs, seat: int, rng):
    w = obs.clone(log=False)
    # Face-down octagons and the box: one pool, the same positions face down.
    hidden = [o for o, t in enumerate(w.tile) if t >= 0 and not w.explored[o]]
    if hidden:
        pool = [w.tile[o] for o in hidden] + list(w.box)
        shuffle(rng, pool)
        for o, t in zip(hidden, pool):
            w.tile[o] = t
        w.box = pool[len(hidden):]
    # Starting octagons of the other seats that are not on the board yet.
    placed = {w.tile[o] for o in range(len(w.tile)) if w.explored[o]}
    unplaced = [i for i in range(w.n) if i != seat and w.start_tile[i] not in placed]
    if len(unplaced) > 1:
        tiles = [w.start_tile[i] for i in unplaced]
        shuffle(rng, tiles)
        for i, t in zip(unplaced, tiles):
            w.start_tile[i] = t
    # Starting cards dealt to others (not returned yet) and the starting-card deck.
    pending = [i for i in range(w.n) if i != seat and w.dealt[i]]
    if pending:
        pool = [c for i in pending for c in w.dealt[i]] + list(w.start_card_deck)
        hands, w.start_card_deck = _deal(rng, pool, [len(w.dealt[i]) for i in pending])
        for i, h in zip(pending, hands):
            w.dealt[i] = tuple(h)
    elif len(w.start_card_deck) > 1:
        shuffle(rng, w.start_card_deck)
    # Face-down decks (the activation deck holds the cards others drew unseen).
    shuffle(rng, w.mission_deck)
    shuffle(rng, w.card_deck)
    shuffle(rng, w.start_bld_pool)
    w.seed_chance(rng.getrandbits(64))   # random.Random(seed), built at its first draw
    return w
