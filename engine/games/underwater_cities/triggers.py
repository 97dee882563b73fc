"""Permanent cards (rulebook "Permanent Effects"): triggered gains, resolved at once, even in
the middle of an action ("These bonuses are triggered effects, which are resolved
immediately"), and the target words shared by builds, upgrades and discounts."""

from __future__ import annotations

_STRUCTURES = frozenset(("tunnel", "farm", "desal", "lab"))
_BUILDINGS = frozenset(("farm", "desal", "lab"))
_CITIES = frozenset(("white_city", "symbiotic_city"))
TARGET_KINDS = {
    "tunnel": ("tunnel",), "farm": ("farm",), "desal": ("desal",), "lab": ("lab",),
    "building": ("farm", "desal", "lab"), "structure": ("tunnel", "farm", "desal", "lab"),
    "city": ("white_city", "symbiotic_city"), "white_city": ("white_city",),
    "symbiotic_city": ("symbiotic_city",),
}


def matches(what: str, kind: str) -> bool:
    """Whether a piece of `kind` is a `what` (rules.Target)."""
    if what == kind:
        return True
    if what == "structure":
        return kind in _STRUCTURES
    if what == "building":
        return kind in _BUILDINGS
    if what == "city":
        return kind in _CITIES
    return False


def fire(s, p, event: str, kind: str = "", colour: str = "", space: int = 0, nth: int = 0,
         connected: bool = False, gained=None) -> None:
    """Gain what every permanent card of the seat that reacts to `event` gives."""
    for _inst, ab in p.abilities:
        if ab.kind != event:
            continue
        if event in ("on_build", "on_upgrade"):
            if not matches(ab.what, kind):
                continue
            if event == "on_build" and ((ab.nth and ab.nth != nth)
                                        or (ab.connected and not connected)):
                continue
        elif event == "on_match":
            if ab.colour is not None and ab.colour != colour:
                continue
        elif event == "on_federation_space":
            if ab.space != space:
                continue
        elif event == "on_slot_gain":
            from .state import RES_NAMES
            if ab.resource is not None and not gained[RES_NAMES.index(ab.resource)]:
                continue
        s.gain(p, ab.gain, "other")


def discounts(p, kind: str) -> tuple[int, int, int, int, int] | None:
    """The sum of the seat's permanent discounts on building a `kind` (None: none)."""
    out = None
    for _inst, ab in p.abilities:
        if ab.kind == "discount" and matches(ab.what, kind):
            d = ab.discount.vec()
            out = d if out is None else tuple(a + b for a, b in zip(out, d))
    return out


def upgrade_prices(p, kind: str) -> list[tuple[int, int, int, int, int]]:
    """Alternative prices of upgrading a `kind` from the seat's permanent cards."""
    return [ab.cost.vec() for _i, ab in p.abilities
            if ab.kind == "upgrade_cost" and ab.cost is not None and matches(ab.what, kind)]
