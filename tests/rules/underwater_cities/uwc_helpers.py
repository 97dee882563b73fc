"""Helpers shared by the Underwater Cities rule tests: put pieces on a board by site id,
give cards, make a frame the only pending decision."""

from engine.games.underwater_cities.network import KIND_CODE


def card_inst(s, cid: str, free: bool = True) -> int:
    """An instance of card `cid`: one in no hand and not claimed if there is one, else one
    from another player's hand (who gets the era deck's top card instead)."""
    st = s.st
    taken = set()
    for p in s.players:
        taken |= set(p.hand) | set(p.claimed) | set(p.actions) | set(p.under)
    insts = [i for i, c in enumerate(st.card_id) if c == cid]
    for i in insts:
        if i not in taken:
            return i
    for p in s.players:
        for i in insts:
            if i in p.hand:
                p.hand.remove(i)
                p.public = p.public - {i}
                p.hand.append(s.decks[s.era].pop())
                p.hand.sort()
                return i
    raise KeyError(cid)


def pull(s, inst: int) -> None:
    """Take a card out of wherever it lies (deck, discard, Special piles, a hand)."""
    for pile in list(s.decks.values()) + [s.discard, s.sdeck, s.sface, s.sbox, s.box_known,
                                           s.box_hidden]:
        if inst in pile:
            pile.remove(inst)
            return
    for p in s.players:
        if inst in p.hand:
            p.hand.remove(inst)
            p.public = p.public - {inst}
            return
        for name in ("claimed", "actions", "under"):
            if inst in getattr(p, name):
                setattr(p, name, tuple(i for i in getattr(p, name) if i != inst))
                return


def give(s, seat: int, cid: str) -> int:
    inst = card_inst(s, cid)
    pull(s, inst)
    p = s.players[seat]
    p.hand.append(inst)
    p.hand.sort()
    return inst


def claim(s, seat: int, cid: str) -> int:
    """Put card `cid` in front of the seat as if claimed."""
    from engine.games.underwater_cities.cards import apply_card
    inst = card_inst(s, cid)
    pull(s, inst)
    apply_card(s, seat, inst)
    return inst


def hand(s, seat: int, cids) -> None:
    """Replace the seat's hand by these cards (the old ones go to the discard pile)."""
    p = s.players[seat]
    s.discard.extend(i for i in p.hand if s.st.era_of[i] == s.era)
    s.box_known.extend(i for i in p.hand if s.st.era_of[i] != s.era)
    p.hand = []
    p.public = frozenset()
    for cid in cids:
        give(s, seat, cid)


def site(s, sid: str) -> int:
    """The index of a site (city, building, tunnel) within its kind."""
    g = s.geo
    cell = g.cell_of_id[sid]
    if cell < g.cell_tun:
        return cell
    if cell < g.cell_bld:
        return cell - g.cell_tun
    return cell - g.cell_bld


def city(s, seat, sid, symbiotic=False):
    p = s.players[seat]
    c = site(s, sid)
    p.cmask |= 1 << c
    if symbiotic:
        p.smask |= 1 << c
    p.net = None


def tunnel(s, seat, sid, up=False):
    p = s.players[seat]
    t = site(s, sid)
    p.tun |= 1 << t
    if up:
        p.tun_up |= 1 << t
    p.net = None


def building(s, seat, sid, kind, up=False):
    p = s.players[seat]
    b = site(s, sid)
    bld = list(p.bld)
    bld[b] = KIND_CODE[kind]
    p.bld = tuple(bld)
    if up:
        p.bup |= 1 << b
    p.net = None


def only(s, frame):
    """Make `frame` the only pending decision (nothing scheduled after it)."""
    s.stack = [frame]
    s.agenda = []
    return s


def res(s, seat, credits=0, kelp=0, steelplast=0, science=0, biomatter=0):
    s.players[seat].res = [credits, kelp, steelplast, science, biomatter]


def settle(s):
    """Run the automatic frames and agenda until a decision is pending."""
    s._advance()
    return s
