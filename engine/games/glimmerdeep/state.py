"""Glimmerdeep state: the players' sheets and the shared market, cheap to clone."""

from __future__ import annotations

IRON, GOLD, GEM = 0, 1, 2
RES = ("iron", "gold", "gem")
RES_INDEX = {"iron": IRON, "gold": GOLD, "gem": GEM}


def cost_tuple(c) -> tuple[int, int, int]:
    """(iron, gold, gem) of a cost or input."""
    return (c.iron, c.gold, c.gem)


def _copy_fx(fx: dict) -> dict:
    """A copy of the faction bookkeeping: containers copied (lists of lists one level deeper),
    numbers shared; most factions keep a few numbers or nothing."""
    if not fx:
        return {}
    out = fx.copy()
    for k, v in fx.items():
        if type(v) is int:   # most entries: shared as they are (the test below, only faster)
            continue
        if isinstance(v, (list, set, dict)):
            v = v.copy()
            if isinstance(v, list) and v and isinstance(v[0], list):
                v = [x.copy() for x in v]
            out[k] = v
    return out


class Player:
    """One player's map sheet, faction sheet and supply."""

    __slots__ = ("seat", "faction", "res", "exc", "built", "buildings", "vp", "traits", "used",
                 "activated", "flips", "peak", "deck", "deck_pos", "fx")

    def __init__(self, seat: int, faction: str):
        self.seat = seat
        self.faction = faction
        self.res = [0, 0, 0]          # iron, gold, gem
        self.exc = 0                  # excavated spaces (bitmask)
        self.built = 0                # spaces under buildings, the settlement included
        self.buildings: list[tuple[str, str, int]] = []   # (kind, card id, footprint mask)
        self.vp = 0                   # the VP track
        self.traits: list[str] = []   # chosen trait ids
        self.used: set[str] = set()   # once-per-game abilities spent
        self.activated: set[str] = set()  # activated this phase ("One time per phase")
        self.flips = 0                # excavation cards flipped (Snowy Summit)
        self.peak: int | None = None  # Snowy Summit number, doubled (+1 for the "1/2")
        self.deck: list[str] = []     # personal excavation deck (hidden order)
        self.deck_pos = 0
        self.fx: dict = {}            # faction calling / trait bookkeeping

    def clone(self) -> "Player":
        p = Player.__new__(Player)
        p.seat = self.seat
        p.faction = self.faction
        p.res = self.res.copy()
        p.exc = self.exc
        p.built = self.built
        p.buildings = self.buildings.copy()
        p.vp = self.vp
        p.traits = self.traits.copy()
        p.used = self.used.copy()
        p.activated = self.activated.copy()
        p.flips = self.flips
        p.peak = self.peak
        p.deck = self.deck
        p.deck_pos = self.deck_pos
        p.fx = _copy_fx(self.fx)
        return p

    def has(self, trait_id: str) -> bool:
        return trait_id in self.traits


def invariants(state) -> list[str]:
    """What must hold after every step (the conformance test checks it)."""
    bad = []
    board = state.static.board
    for p in state.players:
        if min(p.res) < 0:
            bad.append(f"seat {p.seat}: negative resources {p.res}")
        if p.exc & ~board.full or p.exc & board.blocked:
            bad.append(f"seat {p.seat}: excavated outside the map or on a blocked space")
        if p.exc & board.settlement != board.settlement:
            bad.append(f"seat {p.seat}: the settlement is no longer excavated")
        area = sum(fp.bit_count() for _k, _c, fp in p.buildings) + board.settlement.bit_count()
        if area != p.built.bit_count():
            bad.append(f"seat {p.seat}: buildings overlap")
    if not 1 <= state.round <= state.rules.game.rounds:
        bad.append(f"round {state.round} out of range")
    return bad
