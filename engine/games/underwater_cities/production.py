"""Production and feeding (rulebook "Production", "Your Network's Production", "Things That
Do Not Produce", "Production from cards and Metropolises", "Feeding Cities").

Only connected pieces produce: a tunnel next to a city, a building next to a connected city,
a connected symbiotic city; two upgraded buildings of one type at one connected city add
the pair bonus (data: production.<type>.pair, once per city and type unless
`production.pair_repeats`).  Then production cards and connected metropolises.  Feeding: 1
kelp per connected city, then 1 biomatter per unfed city, then 3 points per city still
unfed, never below 0.
"""

from __future__ import annotations

from engine.core.cache import remember

from .effects import gain_times
from .network import DESAL, FARM, LAB, bits, net
from .state import BIOMATTER, KELP

_TYPES = ((FARM, "farm"), (DESAL, "desal"), (LAB, "lab"))


def _add(acc: list[int], g, k: int) -> None:
    if k:
        acc[0] += g.credits * k
        acc[1] += g.kelp * k
        acc[2] += g.steelplast * k
        acc[3] += g.science * k
        acc[4] += g.biomatter * k
        acc[5] += g.points * k


def network_output(s, p) -> list[int]:
    """What the seat's network produces: [credits, kelp, steelplast, science, biomatter,
    points] (without cards and metropolises)."""
    g = s.geo
    n = net(g, p)
    if n.output is not None:
        return n.output
    prod = s.rules.production
    acc = [0, 0, 0, 0, 0, 0]
    near = 0
    for c in bits(p.cmask):
        near |= g.city_tun[c]
    near &= p.tun
    _add(acc, prod.tunnel.base, near.bit_count())
    _add(acc, prod.tunnel.upgraded, (near & p.tun_up).bit_count())
    repeats = prod.pair_repeats
    for code, name in _TYPES:
        out = getattr(prod, name)
        _add(acc, out.base, n.count[code])
        _add(acc, out.upgraded, n.up[code])
        pairs = 0
        for uc in n.up_city:
            if uc[code] >= 2:
                pairs += uc[code] // 2 if repeats else 1
        _add(acc, out.pair, pairs)
    _add(acc, prod.symbiotic_city, n.n_sym)
    _add(acc, prod.white_city, n.n_white)
    n.output = acc
    return acc


def production_parts(s, p) -> tuple:
    """The gain parts of the seat's production cards and connected metropolises
    (remembered per claimed cards and connected metropolises)."""
    key = (p.claimed, p.metro_on, p.metros)
    cache = s.st.prod_cache
    hit = cache.get(key)
    if hit is None:
        parts = []
        cards = s.st.cards
        for inst in p.claimed:
            card = cards[inst]
            if card.type == "production":
                parts += [part for part in card.effect if part.kind == "gain"]
        for h in bits(p.metro_on):
            tile = p.metros[h]
            if tile >= 0:
                parts += list(s.st.metros[tile].production)
        hit = remember(cache, key, tuple(parts), 4096)
    return hit


def card_output(s, p) -> list[tuple]:
    """(gain, times) of the seat's production cards and connected metropolises."""
    return [(part.gain, gain_times(s, p, part)) for part in production_parts(s, p)]


def produce(s, p) -> None:
    acc = network_output(s, p)   # (remembered: read only)
    r = p.res
    for i in range(5):
        r[i] += acc[i]
    s.score(p, "production", acc[5])
    for gain, k in card_output(s, p):
        s.gain(p, gain, "production", k)


def feed(s, p) -> None:
    f = s.rules.feeding
    cities = net(s.geo, p).n_cities
    if not cities or not f.kelp_per_city:
        return
    r = p.res
    fed_kelp = min(cities, r[KELP] // f.kelp_per_city)
    r[KELP] -= fed_kelp * f.kelp_per_city
    unfed = cities - fed_kelp
    bio = min(unfed, r[BIOMATTER])
    r[BIOMATTER] -= bio
    unfed -= bio
    if unfed:
        s.score(p, "feeding", -f.points_per_unfed * unfed)
