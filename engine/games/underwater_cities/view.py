"""What a seat sees (`observe`), a full state consistent with it (`determinize`) and the
boards for the Replay page (`board_view`).

Hidden from a seat: the cards in other hands (except Special cards taken face up: everyone
saw them), the order and contents of the era decks, what left the game unseen (a past era's
draw pile), the Special deck below its face-up top card, and the 3 Special cards another
player is looking at.  The backs show a card's era, so how many cards of each era a hand
holds is public.  The hidden cards form pools (one per era, one of Special cards); the
observation deals each pool sorted into its hidden places in a fixed order, a determinisation
deals it shuffled: both read only the pools, never which hidden card lay where.
"""

from __future__ import annotations

import random

from .network import BUILDINGS, bits


def _places(s, seat: int) -> tuple[list[tuple], dict[tuple, list[int]]]:
    """The hidden places in a fixed order (key, size) and the cards on each."""
    st = s.st
    era_of = st.era_of
    order: list[tuple] = []
    cards: dict[tuple, list[int]] = {}
    for p in s.players:
        if p.seat == seat:
            continue
        by_pool: dict[int, list[int]] = {}
        for inst in p.hand:
            if inst not in p.public:
                by_pool.setdefault(era_of[inst], []).append(inst)
        for pool in (1, 2, 3, 0):
            key = ("hand", p.seat, pool)
            order.append(key)
            cards[key] = by_pool.get(pool, [])
    for e in (1, 2, 3):
        key = ("deck", e)
        order.append(key)
        cards[key] = list(s.decks[e])
        key = ("box", e)
        order.append(key)
        cards[key] = [i for i in s.box_hidden if era_of[i] == e]
    key = ("sdeck", 0)
    order.append(key)
    cards[key] = list(s.sdeck[:-1])
    for k, frame in enumerate(s.stack):
        if frame[0] == "special_keep" and frame[1] != seat:
            key = ("skeep", k)
            order.append(key)
            cards[key] = list(frame[2])
    return order, cards


def _pool_of(key) -> int:
    kind = key[0]
    if kind == "hand":
        return key[2]
    if kind in ("deck", "box"):
        return key[1]
    return 0


def _deal(s, seat: int, arrange) -> None:
    """Re-deal every hidden pool of `s` in place: `arrange(cards)` gives the pool's order."""
    order, cards = _places(s, seat)
    pools: dict[int, list[int]] = {}
    for key in order:
        pools.setdefault(_pool_of(key), []).extend(cards[key])
    for pool, items in pools.items():
        pools[pool] = arrange(sorted(items))
    taken = {pool: 0 for pool in pools}
    new: dict[tuple, list[int]] = {}
    for key in order:
        pool = _pool_of(key)
        k = len(cards[key])
        new[key] = pools[pool][taken[pool]:taken[pool] + k]
        taken[pool] += k
    for p in s.players:
        if p.seat == seat:
            continue
        fresh = [i for pool in (1, 2, 3, 0) for i in new[("hand", p.seat, pool)]]
        p.hand = sorted([i for i in p.hand if i in p.public] + fresh)
    box = []
    for e in (1, 2, 3):
        s.decks[e] = new[("deck", e)]
        box += new[("box", e)]
    s.box_hidden = box
    s.sdeck = new[("sdeck", 0)] + s.sdeck[-1:]
    for key in order:
        if key[0] == "skeep":
            frame = s.stack[key[1]]
            s.stack[key[1]] = (frame[0], frame[1], tuple(new[key]))


def observe(state, seat: int):
    """The state as `seat` may see it: every hidden pool dealt sorted."""
    obs = state.clone(log=False)
    _deal(obs, seat, lambda items: items)
    return obs


def determinize(obs, seat: int, rng: random.Random):
    """A full state consistent with `obs`: every hidden pool dealt shuffled with `rng`."""
    det = obs.clone(log=False)

    def shuffled(items):
        rng.shuffle(items)
        return items

    _deal(det, seat, shuffled)
    det.rng = random.Random(rng.getrandbits(64))
    return det


def board_view(state) -> list[tuple[int, int | None, str]]:
    """Every player's board (one sheet each): cities, tunnels, buildings, metropolises."""
    g = state.geo
    metros = state.st.metros
    out = []
    for p in state.players:
        seat = p.seat
        for c in bits(p.cmask):
            label = "symbiotic city" if p.smask >> c & 1 else "city"
            if c == g.start:
                label = "starting city"
            out.append((g.cell_city + c, seat, label))
        for t in bits(p.tun):
            out.append((g.cell_tun + t, seat,
                        "upgraded tunnel" if p.tun_up >> t & 1 else "tunnel"))
        for b, code in enumerate(p.bld):
            if code:
                name = {"desal": "desalination plant", "lab": "laboratory"}.get(
                    BUILDINGS[code - 1], BUILDINGS[code - 1])
                out.append((g.cell_bld + b, seat,
                            f"upgraded {name}" if p.bup >> b & 1 else name))
        for h in range(g.nh):
            tile = p.metros[h] if h < len(p.metros) else -1
            if tile >= 0:
                on = " (connected)" if p.metro_on >> h & 1 else ""
                out.append((g.cell_hex + h, seat, f"{metros[tile].name}{on}"))
    return sorted(out, key=lambda e: (e[1], e[0]))
