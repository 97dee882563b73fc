"""Construction Phase (rulebook "Construction Phase", "When Constructing", Solo Variant
"During the Construction Phase").

Starting with the first player, players take turns constructing one building from the market
or passing; a player who passed is out of the phase.  The cost is the card's printed cost plus
its market slot's extra; the footprint (2x2 workshop, 2x3 forge) lies on excavated spaces and
touches no other building with a side.  The market then shifts right and refills from the
left.  `Construction` holds the state's methods; `construct` and `site` are the decisions."""

from __future__ import annotations

from engine.core.errors import IllegalAction

from .factions import FactionPlay
from .state import Player, cost_tuple

KINDS = ("workshop", "forge")


class Construction:
    """State methods: market costs, building sites, constructing, the market's shift."""

    def market_cost(self, kind: str, slot: int) -> list[int]:
        card = self.static.cards[kind][self.market[kind][slot]]
        ex = self.static.extra[slot]
        return [card.cost.iron + ex[0], card.cost.gold + ex[1], card.cost.gem + ex[2]]

    def take_from_market(self, kind: str, slot: int) -> None:
        """Remove a card, shift the rest right to cover the gap, refill the leftmost slot."""
        row = self.market[kind]
        del row[slot]
        row.insert(0, self.decks[kind].pop() if self.decks[kind] else None)
        # Cards shift right past any empty slot (an empty deck leaves gaps on the left).
        cards = [c for c in row if c is not None]
        self.market[kind] = [None] * (len(row) - len(cards)) + cards

    def standard_site_ok(self, p: Player, fp: int, need_excavated: bool = True,
                         allow_adjacent: bool = False) -> bool:
        board = self.static.board
        if fp & p.built or fp & board.blocked:
            return False
        if need_excavated and fp & ~p.exc:
            return False
        others = p.built | self.static.outposts
        if not allow_adjacent and board.neighbours(fp) & others:
            return False
        if allow_adjacent and board.neighbours(fp) & self.static.outposts:
            return False
        return True

    def sites(self, p: Player, kind: str) -> list[tuple[int, str]]:
        return list(self.each_site(p, kind))

    def has_site(self, p: Player, kind: str) -> bool:
        """`bool(self.sites(p, kind))`, stopping at the first site found."""
        return next(self.each_site(p, kind), None) is not None

    def each_site(self, p: Player, kind: str):
        """`sites` one by one (the hooks it asks have no side effects, so a caller looking
        for one may stop early)."""
        hook = self.hooks[p.seat]
        space = hook.site_space(self, p, kind)
        if space is not None:  # every rectangle tested at once
            for fp in self.static.fits[kind].inside(space):
                yield fp, ""
        else:
            for fp in self.static.footprint[kind]:
                ok = hook.site_ok(self, p, kind, fp, "")
                if ok is None:
                    ok = self.standard_site_ok(p, fp)
                if ok:
                    yield fp, ""
        for fp, tag in hook.sites(self, p, kind):
            ok = hook.site_ok(self, p, kind, fp, tag)
            if ok is None:
                ok = self.standard_site_ok(p, fp)
            if ok:
                yield fp, tag

    def standard_site_space(self, p: Player) -> int:
        """standard_site_ok for every rectangle at once: all its spaces excavated, none blocked
        or built on, no side touching a building or an outpost, i.e. it lies inside the
        excavated spaces that are neither built on nor next to a building or an outpost."""
        board = self.static.board
        return p.exc & ~board.blocked & ~board.grow((p.built | self.static.outposts) & board.full)

    def build_cost(self, p: Player, kind: str, slot: int, card, site: int) -> list[int]:
        if slot >= 0:
            cost = self.market_cost(kind, slot)
        else:
            cost = list(cost_tuple(card.cost))
        return self.hooks[p.seat].construction_discount(self, p, kind, card, site, cost)

    def affordable_sites(self, p: Player, kind: str, slot: int, card) -> list[tuple[int, str]]:
        return [(fp, tag) for fp, tag in self.sites(p, kind)
                if self.can_pay(p, self.build_cost(p, kind, slot, card, fp), "construct")]

    def construct(self, p: Player, kind: str, slot: int, card, fp: int, tag: str) -> None:
        """Pay, draw the footprint, take the card, shift and refill the market."""
        cost = self.build_cost(p, kind, slot, card, fp)
        if not self.pay(p, cost, "construct"):
            raise IllegalAction("cannot pay for the building")  # checked before; defensive
        p.built |= fp
        p.buildings.append((kind, card.id, fp))
        if slot < 0 and self.decks[kind] and self.decks[kind][-1] == card.id:
            self.decks[kind].pop()  # built from the top of the deck (Nightbarons level 1)
        if self.n == 1 and self.solo_deck:
            # Solo: after *each* construction (a deck-top card too) a solo market card.
            self._solo_market_card(kind, slot)
        elif slot >= 0:
            self.take_from_market(kind, slot)
        self.hooks[p.seat].constructed(self, p, kind, card, fp, slot, tag)

    def _solo_market_card(self, kind: str, slot: int) -> None:
        """Solo Variant: after each construction, before shifting, remove the cards the solo
        market card shows, then shift right and refill."""
        card_id = self.solo_deck.pop()
        card = next(c for c in self.rules.solo_cards if c.id == card_id)
        if slot >= 0:
            self.market[kind][slot] = None
        for k, remove in (("workshop", card.remove_workshops), ("forge", card.remove_forges)):
            for i in remove:
                if 0 <= i < len(self.market[k]):
                    self.market[k][i] = None
            row = [c for c in self.market[k] if c is not None]
            while len(row) < len(self.market[k]) and self.decks[k]:
                row.insert(0, self.decks[k].pop())
            self.market[k] = [None] * (len(self.market[k]) - len(row)) + row
        if not self.solo_deck:
            self.solo_deck = [c.id for c in self.rules.solo_cards]  # reshuffled in order (assumed)


# ====================================================================== task
def t_construction(s, task) -> None:
    s.phase = "construction"
    s.passed = set()
    for p in s.players:
        p.activated = set()   # a new phase: "activated only once per phase"
    s.stack.append(("construct", s.first_seat))


# ====================================================================== frames
def l_construct(s, frame):
    p = s.players[frame[1]]
    out = []
    hook = s.hooks[p.seat]
    flat = type(hook).construction_discount is FactionPlay.construction_discount
    for kind in KINDS:
        # A card is offered when some site can be paid for: with a flat cost, as soon as one
        # site exists; else each site's cost is tried.
        if flat:
            if not s.has_site(p, kind):
                continue
            sites = None
        else:
            sites = s.sites(p, kind)
            if not sites:
                continue
        for slot, cid in enumerate(s.market[kind]):
            if cid is None:
                continue
            if flat:  # the cost does not depend on the site
                if s.can_pay(p, s.market_cost(kind, slot), "construct"):
                    out.append(("build", kind, slot))
                continue
            card = s.static.cards[kind][cid]
            if any(s.can_pay(p, s.build_cost(p, kind, slot, card, fp), "construct")
                   for fp, _tag in sites):
                out.append(("build", kind, slot))
    out.extend(s.hooks[p.seat].construct_extras(s, p))
    out.append(("pass",))
    return out


def next_constructor(s, seat: int) -> None:
    """Play continues clockwise with the next player who has not passed."""
    for i in range(1, s.n + 1):
        nxt = (seat + i) % s.n
        if nxt not in s.passed:
            s.stack.append(("construct", nxt))
            return


def a_construct(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    if action[0] == "pass":
        s.passed.add(seat)
        next_constructor(s, seat)
    elif action[0] == "build":
        s.stack.append(("site", seat, action[1], action[2]))
    else:  # a faction extra (swaps) keeps the turn
        s.stack.append(("construct", seat))
        s.hooks[seat].apply_extra(s, p, action)


def site_card(s, kind, slot, p):
    if slot >= 0:
        return s.static.cards[kind][s.market[kind][slot]]
    return s.static.cards[kind][p.fx["deck_top_card"]]


def l_site(s, frame):
    p = s.players[frame[1]]
    kind, slot = frame[2], frame[3]
    card = site_card(s, kind, slot, p)
    return [("site", fp, tag) for fp, tag in s.affordable_sites(p, kind, slot, card)]


def a_site(s, frame, action):
    seat, kind, slot = frame[1], frame[2], frame[3]
    p = s.players[seat]
    card = site_card(s, kind, slot, p)
    next_constructor(s, seat)  # pushed first: building effects resolve before the next turn
    s.construct(p, kind, slot, card, action[1], action[2])


LEGAL = {"construct": l_construct, "site": l_site}
APPLY = {"construct": a_construct, "site": a_site}
TASKS = {"construction": t_construction}
