"""What must hold after every step (checked by the conformance tests and the soak).

Conservation of every component (gems per colour, oxygen, energy and movement crystals, tiles,
each deck's cards), the placement notes on the placed tiles, the workers' values in range and
the score equal to the completed colony cards.
"""

from __future__ import annotations

from . import cards as C
from .state import NC


def check(s) -> list[str]:
    bad: list[str] = []
    st = s.st
    zone = st.zone
    r = s.rules
    n = s.n
    bad.extend(_memo(("gems", st, tuple(s.gem_supply), tuple(s.removed), tuple(s.cgem),
                      tuple(s.carry), tuple(s.oncard)), _gems, s))
    oxygen = s.oxy_supply + sum(s.colony_oxy) + sum(s.oxy)
    if oxygen != r.supply.oxygen or s.oxy_supply < 0 or min(s.colony_oxy) < 0:
        bad.append(f"oxygen: {oxygen} crystals, expected {r.supply.oxygen}")
    if s.ecrys_supply + sum(s.ecrys) != r.supply.energy or min(s.ecrys + [s.ecrys_supply]) < 0:
        bad.append("energy crystals not conserved")
    if s.mcrys_supply + sum(s.mcrys) != r.supply.movement or min(s.mcrys + [s.mcrys_supply]) < 0:
        bad.append("movement crystals not conserved")
    if s.energy < 0 or s.free < 0:
        bad.append(f"energy {s.energy}, free moves {s.free}")
    for i in range(n):
        if not 0 <= s.oxy[i] <= max(s.max_oxygen(i), 0) and s.alive[i]:
            bad.append(f"seat {i}: oxygen {s.oxy[i]} outside 0..{s.max_oxygen(i)}")
        recruiting = ("recruited", i) in s.agenda
        if not s.alive[i] and (any(s.carry[i * NC:(i + 1) * NC])
                               or not recruiting and (s.traits[i] or s.equip[i])):
            bad.append(f"seat {i}: a worker that is not in play holds cards or gems")
        if not 0 <= s.pos[i] < zone.n_cells or s.tile[s.pos[i]] < 0 and not _pending(s, s.pos[i]):
            bad.append(f"seat {i}: worker on cell {s.pos[i]}, which has no tile")
        if len(s.equip[i]) != len(s.eq_uses[i]):
            bad.append(f"seat {i}: equipment and uses differ in length")
        charges = s.st.cards.equip_charges
        for card, used in zip(s.equip[i], s.eq_uses[i]):
            if used < 0 or (charges[card] and used > charges[card]):
                bad.append(f"seat {i}: equipment {card} used {used} times of {charges[card]}")
        if len(s.done[i]) > r.game.cards_to_win:
            bad.append(f"seat {i}: {len(s.done[i])} completed colony cards")
        if sum(s.log.breakdown(i).values()) != len(s.done[i]):   # every log keeps the scores
            bad.append(f"seat {i}: score events differ from completed cards")
    bad.extend(_memo(("board", st, tuple(s.tile), tuple(s.mask), s.exempt, tuple(s.bag),
                      tuple(fr for fr in s.stack if fr[0] in _TILE_FRAMES)), _board, s))
    bad.extend(_memo(("cards", st, tuple(map(tuple, s.deck)), tuple(map(len, s.known)),
                      tuple(s.done), tuple(s.card), tuple(s.equip), tuple(s.traits),
                      tuple(fr for fr in s.stack if fr[0] in _CARD_FRAMES)), _cards, s))
    if not 1 <= s.round <= r.game.turn_limit:
        bad.append(f"round {s.round} outside 1..{r.game.turn_limit}")
    return bad


# The three costliest parts are pure functions of a few state fields: memoised on exactly those
# fields (and the rules' static tables `s.st`, which hold the rules), since most steps change
# none of them and the check runs after every step of the soak.
_MEMO: dict = {}
_MEMO_SIZE = 2048
_CARD_FRAMES = ("trait_pick", "colony_pick", "equip_pick", "anomaly")
_TILE_FRAMES = ("tile_pick", "orient")


def _memo(key, part, s) -> tuple[str, ...]:
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        hit = _MEMO[key] = tuple(part(s))
    return hit


def _board(s) -> list[str]:
    """Tiles: bag + placed + drawn (in a pending decision) = the rules' counts; then the
    placement notes (`_tiles`)."""
    st = s.st
    bad = []
    out = list(s.bag) + [0] * (len(st.tile_ids) - st.n_regular)   # bag + placed + drawn
    for t in s.tile:
        if t >= 0:
            out[t] += 1
    for fr in s.stack:
        if fr[0] == "tile_pick":
            for t in fr[4]:
                out[t] += 1
        elif fr[0] == "orient":
            out[fr[3]] += 1
    if min(s.bag) < 0 or out[:st.n_regular] != list(st.tile_count):
        bad.append(f"tiles: bag + placed + drawn {out[:st.n_regular]} != {list(st.tile_count)}")
    return bad + _tiles(s)


def _gems(s) -> list[str]:
    """Gems: supply + tiles + carried + on colony cards (+ removed) = 10 per colour."""
    bad = []
    per = s.rules.supply.gems_per_colour
    for c in range(NC):
        total = (s.gem_supply[c] + s.removed[c] + sum(s.cgem[c::NC]) + sum(s.carry[c::NC])
                 + sum(s.oncard[c::NC]))
        if total != per:
            bad.append(f"gem colour {c}: {total} in play, expected {per}")
    if min(s.gem_supply) < 0 or min(s.cgem) < 0 or min(s.carry) < 0 or min(s.oncard) < 0:
        bad.append("a negative gem count")
    return bad


def _cards(s) -> list[str]:
    """Every card of every deck exactly once (deck, hands, tables, pending decisions)."""
    bad = []
    r = s.rules
    where: list[list[int]] = [list(d) for d in s.deck]
    for i in range(s.n):
        where[C.COLONY].extend(s.done[i])
        if s.card[i] >= 0:
            where[C.COLONY].append(s.card[i])
        where[C.EQUIPMENT].extend(s.equip[i])
        for kind, c in s.traits[i]:
            where[kind].append(c)
    for fr in s.stack:
        if fr[0] == "trait_pick":
            where[fr[2]].extend(fr[3:5])
        elif fr[0] == "colony_pick":
            where[C.COLONY].extend(fr[2])
        elif fr[0] == "equip_pick":
            where[C.EQUIPMENT].extend(fr[2])
        elif fr[0] == "anomaly":
            where[C.ANOMALY].append(fr[2])
    for k, name in enumerate(C.DECKS):
        if sorted(where[k]) != list(range(len(getattr(r, name)))):
            bad.append(f"{name}: cards lost or duplicated")
        if len(s.known[k]) != len(s.deck[k]):
            bad.append(f"{name}: knowledge masks out of step with the deck")
    return bad


def _pending(s, cell: int) -> bool:
    return any(fr[0] in ("tile_pick", "orient") and fr[2] == cell for fr in s.stack)


def _tiles(s) -> list[str]:
    """Every placed tile shows one of its rotations; Inner Ring tiles have enough open sides
    and keep the circular path; dead ends lie in the outer ring or open onto it -- except on
    cells placed with the notes set aside (no fitting tile left) or by "there are only Dead
    End's left" (`s.exempt`)."""
    st = s.st
    zone = st.zone
    z = s.rules.zone
    masks = st.tile_masks
    n_regular = st.n_regular
    exempt = s.exempt
    bad = []
    for c, t in enumerate(s.tile):
        if t < 0:
            continue
        m = s.mask[c]
        if m not in masks[t]:
            bad.append(f"cell {c}: open sides {m} are no rotation of {st.tile_ids[t]}")
        if t >= n_regular or exempt >> c & 1:
            continue
        if zone.ring[c] == 1:
            if not st.inner_ok[t]:
                bad.append(f"inner ring cell {c}: {st.tile_ids[t]} has too few open sides")
            if z.inner_ring_path and m & zone.ring_sides[c] != zone.ring_sides[c]:
                bad.append(f"inner ring cell {c}: {st.tile_ids[t]} breaks the circular path")
        if z.dead_end_rule and st.dead_end[t] and zone.ring[c] != zone.outer:
            d = (1, 2, 4, 8).index(m)
            nb = zone.nbr[c][d]
            if nb < 0 or zone.ring[nb] != zone.outer:
                bad.append(f"cell {c}: a dead end off the outer ring, not opening onto it")
    return bad
