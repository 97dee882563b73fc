"""What a seat sees (`observe`), a full state consistent with it (`determinize`), and the board
for the Replay page (`board_view`).

Hidden from a seat (rulebook: decks "shuffle them", colony cards kept "face down", equipment
"place it face down", traits drawn "face down without looking at them"):
- the order of every deck, except the cards the seat itself put at the bottom (it looked at
  them) and the cards put there face up (discarded by a dead worker, resolved anomalies);
- the other seats' colony cards with no gem on them yet (a card with gems lies face up);
- the other seats' equipment cards not yet used (a used card has been shown);
- the cards other seats are choosing between (colony card, trait, equipment draws), and the
  unseen one of every trait draw, even the seat's own ("keep it or the unseen one").
The tile bag is not ordered (tiles are drawn at random from what is left, and what is left is
public: every placed tile is on the table), and the dice are future chance.

Each kind of card has a pool of hidden slots; `observe` fills them with the pooled cards in
sorted order (a canonical arrangement: two states that differ only in hidden cards give the
same observation), `determinize` with the same cards shuffled by `rng`.  Neither reads the
true state's hidden cards: the pool is the hidden slots' contents, which only the true state
and its observation hold, as a multiset.
"""

from __future__ import annotations

import random

from . import cards as C
from .rules import COLOURS
from .state import NC

# slot refs: ("deck", kind, position) | ("card", seat) | ("equip", seat, slot)
#            | ("frame", stack index, element index)


def hidden_slots(s, seat: int) -> dict[int, list[tuple]]:
    """Every hidden slot of each kind of card, as refs (see above)."""
    out = {k: [("deck", k, p) for p in _unknown(s, k, seat)] for k in range(5)}
    for k, refs in _hidden_off_deck(s, seat).items():
        out[k].extend(refs)
    return out


def _unknown(s, k: int, seat: int) -> list[int]:
    bit = 1 << seat
    return [p for p, m in enumerate(s.known[k]) if not m & bit]


def _hidden_off_deck(s, seat: int) -> dict[int, list[tuple]]:
    """The hidden slots outside the decks: others' colony cards and equipment, the cards in
    pending draws."""
    out: dict[int, list[tuple]] = {}
    for t in range(s.n):
        if t == seat:
            continue
        if s.card[t] >= 0 and not s.card_up[t]:
            out.setdefault(C.COLONY, []).append(("card", t))
        up = s.eq_up[t]
        for slot in range(len(s.equip[t])):
            if not up >> slot & 1:
                out.setdefault(C.EQUIPMENT, []).append(("equip", t, slot))
    for fi, fr in enumerate(s.stack):
        kind, who = fr[0], fr[1]
        if kind == "trait_pick":
            refs = out.setdefault(fr[2], [])
            if who != seat:
                refs.append(("frame", fi, 3))
            refs.append(("frame", fi, 4))
        elif kind in ("colony_pick", "equip_pick") and who != seat:
            deck = C.COLONY if kind == "colony_pick" else C.EQUIPMENT
            out.setdefault(deck, []).extend(("frame", fi, 2, j) for j in range(len(fr[2])))
    return out


def _get(s, ref):
    if ref[0] == "deck":
        return s.deck[ref[1]][ref[2]]
    if ref[0] == "card":
        return s.card[ref[1]]
    if ref[0] == "equip":
        return s.equip[ref[1]][ref[2]]
    fr = s.stack[ref[1]]
    return fr[ref[2]][ref[3]] if len(ref) > 3 else fr[ref[2]]


def _set(s, ref, value) -> None:
    if ref[0] == "deck":
        s.deck[ref[1]][ref[2]] = value
    elif ref[0] == "card":
        s.card[ref[1]] = value
    elif ref[0] == "equip":
        eq = list(s.equip[ref[1]])
        eq[ref[2]] = value
        s.equip[ref[1]] = tuple(eq)
    else:
        fr = list(s.stack[ref[1]])
        if len(ref) > 3:
            inner = list(fr[ref[2]])
            inner[ref[3]] = value
            fr[ref[2]] = tuple(inner)
        else:
            fr[ref[2]] = value
        s.stack[ref[1]] = tuple(fr)


def _refill(s, seat: int, arrange) -> None:
    """Fill every hidden slot with `arrange(sorted pool of its kind)`, slot by slot in the
    order of `hidden_slots`."""
    extra = _hidden_off_deck(s, seat)
    for k in range(5):
        pos = _unknown(s, k, seat)
        refs = extra.get(k, ())
        if not pos and not refs:
            continue
        deck = s.deck[k]
        pool = [deck[p] for p in pos]
        pool.extend(_get(s, r) for r in refs)
        pool.sort()
        pool = arrange(pool)
        for p, v in zip(pos, pool):
            deck[p] = v
        for r, v in zip(refs, pool[len(pos):]):
            _set(s, r, v)
    if C.EQUIPMENT in extra:
        for t in range(s.n):
            s.refresh_mods(t)


def observe(state, seat: int):
    """The state as `seat` sees it: hidden cards in a canonical (sorted) arrangement, no log,
    no chance stream (an observation draws from a fixed one)."""
    obs = state.clone(log=False)
    _refill(obs, seat, lambda pool: pool)
    return obs


def determinize(obs, seat: int, rng: random.Random):
    """A full state consistent with what `seat` sees: the hidden cards shuffled with `rng`
    (from the observation only), and a fresh chance stream from `rng` for the dice and the
    tile bag."""
    det = obs.clone(log=False)

    def shuffled(pool):
        rng.shuffle(pool)
        return pool

    _refill(det, seat, shuffled)
    det.rng = random.Random(rng.getrandbits(64))
    return det


# ---------------------------------------------------------------- Replay

def board_view(state) -> list[tuple[int, int | None, str]]:
    """Every placed tile (its type and open sides, the gems on it), the colony tiles with
    their owner, and the workers on each cell."""
    st = state.st
    owner = {state.colony_cell[i]: i for i in range(state.n)}
    out = []
    workers: dict[int, list[int]] = {}
    for i in range(state.n):
        if state.alive[i]:
            workers.setdefault(state.pos[i], []).append(i)
    from .zone import sides_text
    for cell, t in enumerate(state.tile):
        here = workers.get(cell, [])
        if t < 0 and not here:
            continue
        if t < 0:
            label = "empty"
        elif st.tile_kind[t] == "colony":
            label = f"{st.tile_ids[t].replace('_', ' ')}"
        else:
            label = f"{st.tile_ids[t]} {sides_text(state.mask[cell])}"
        gems = [f"{state.cgem[cell * NC + c]} {COLOURS[c]}" for c in range(NC)
                if state.cgem[cell * NC + c]]
        if gems:
            label += " · gems " + ", ".join(gems)
        for i in here:
            label += f" · worker of {state.colour[i]} (seat {i})"
        who = owner.get(cell)
        if who is None and len({i for i in here}) == 1:
            who = here[0]
        out.append((cell, who, label))
    return out
