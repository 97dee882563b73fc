"""Building blocks for rule tests: lay tiles, place workers, read options."""

from engine.games.cave_colony.zone import mask_of

N, E, S, W = 0, 1, 2, 3


def lay(s, cell, tile_id, openings):
    """Put tile `tile_id` on `cell` with the open sides `openings` (taken out of the bag)."""
    t = s.st.tile_ids.index(tile_id)
    if t < s.st.n_regular:
        s.bag[t] -= 1
    s.tile[cell] = t
    s.mask[cell] = mask_of(openings)
    return cell


def cell(s, x, y):
    return y * s.st.zone.size + x


def kinds(actions, kind):
    return [a for a in actions if a[0] == kind]


def only_bag(s, counts: dict[str, int]):
    """Empty the bag but for `counts` (tile id -> count), keeping the totals consistent by
    moving the rest 'out of the box' (tests that only look at discovery)."""
    for t in range(s.st.n_regular):
        s.bag[t] = 0
    for tid, k in counts.items():
        s.bag[s.st.tile_ids.index(tid)] = k


def plain_worker(s, seat):
    """Give the seat's worker no traits, equipment or crystals (its cards back to the bottom
    of their decks), so a test sees the base rules."""
    from engine.games.cave_colony import cards as C
    for kind, card in s.traits[seat]:
        s.bottom(kind, card, 0)
    for card in s.equip[seat]:
        s.bottom(C.EQUIPMENT, card, 0)
    s.traits[seat] = ()
    s.equip[seat] = ()
    s.eq_uses[seat] = ()
    s.eq_up[seat] = 0
    s.ecrys_supply += s.ecrys[seat]
    s.mcrys_supply += s.mcrys[seat]
    s.ecrys[seat] = s.mcrys[seat] = 0
    s.refresh_mods(seat)
