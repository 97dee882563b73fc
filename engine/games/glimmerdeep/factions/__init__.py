"""Faction callings and traits (rulebook Appendix A) as hooks on the base game.

Each faction module subclasses `FactionPlay` and overrides only the hooks its calling and
traits need; the numbers come from `rules.factions[<id>]` (calling params, trait params and
trait actions).  The base game calls every hook at the point of the round the rulebook names.
"""

from __future__ import annotations

from ..economy import BASE, PayOptions


class FactionPlay:
    """Default hooks: no calling, no traits beyond their generic production actions."""

    id = ""

    def __init__(self, rules, faction_id: str):
        self.rules = rules
        self.id = faction_id
        self.data = rules.factions[faction_id]
        self.traits = {t.id: t for t in self.data.traits}

    # --- setup and round structure -------------------------------------------------------
    def setup(self, st, p) -> None:
        """Faction setup steps (after the common setup)."""

    def round_start(self, st, p) -> None:
        """Start of a round, before excavating (e.g. the Forgeburrowers' smithy)."""

    def after_flip(self, st, p, shape_id: str, card_no: int) -> None:
        """An excavation card was flipped (its own excavate frame is already pushed)."""

    def excavation_end(self, st, p) -> None:
        """End of this player's excavation phase."""

    def trait_chosen(self, st, p, trait_id: str) -> None:
        """A trait was marked: 'Immediately' effects happen here."""

    # --- excavation ----------------------------------------------------------------------
    def forbidden(self, st, p) -> int:
        """Spaces this player may never excavate (beyond the map's own)."""
        return 0

    def reach_anywhere(self, st, p) -> bool:
        """Excavations need not be adjacent to an excavated space."""
        return False

    def excavated(self, st, p, new: int, counts: tuple[int, int, int], source: str) -> None:
        """New spaces were excavated and their resources gained."""

    def dig_value(self, st, p, new: int) -> float:
        """Bot heuristic: what newly excavated spaces are worth to this faction beyond their
        resources (its calling's progress).  Used by greedy's fast path for excavations."""
        return 0.0

    def alt_shapes(self, st, p, shape_id: str, source: str) -> tuple[str, ...]:
        """Other shapes this player may excavate instead of `shape_id`."""
        return ()

    # --- construction --------------------------------------------------------------------
    def pay_options(self, st, p, context: str) -> PayOptions:
        return BASE

    def construction_discount(self, st, p, kind: str, card, site: int, cost: list[int]) -> list[int]:
        """The construction cost (iron, gold, gem) after faction discounts for this site."""
        return cost

    def sites(self, st, p, kind: str) -> list[tuple[int, str]]:
        """Extra footprints (mask, tag) besides the standard rectangles."""
        return []

    def site_ok(self, st, p, kind: str, fp: int, tag: str) -> bool | None:
        """Override the standard site test (None: use the standard test)."""
        return None

    def site_space(self, st, p, kind: str) -> int | None:
        """The spaces a standard rectangle (tag "") must lie inside to pass `site_ok` (or the
        standard test), so that all rectangles are tested at once; None: ask `site_ok` for each."""
        return st.standard_site_space(p) if type(self).site_ok is FactionPlay.site_ok else None

    def constructed(self, st, p, kind: str, card, site: int, slot: int, tag: str) -> None:
        """A building was constructed."""

    def construct_extras(self, st, p) -> list[tuple]:
        """Extra actions offered on a construction turn (swaps, deck tops)."""
        return []

    def anytime_extras(self, st, p) -> list[tuple]:
        """Abilities usable "at any time" / "during any phase", applied by `apply_extra`: offered
        before each excavation card of the excavation phase (construction turns offer them
        through `construct_extras`, the production phase as activations)."""
        return []

    def apply_extra(self, st, p, action) -> None:
        raise NotImplementedError

    # --- production ----------------------------------------------------------------------
    def production_extras(self, st, p) -> list[tuple[str, tuple[int, int, int], object]]:
        """Extra activations: (key, input cost, effect) besides buildings and trait actions."""
        return []

    def activation_input(self, st, p, kind: str, card, need: list[int]) -> list[int]:
        return need

    def activated(self, st, p, key: str, kind: str | None, card, effect) -> object:
        """A building or extra was activated; may return a modified effect."""
        return effect

    # --- frames of its own ---------------------------------------------------------------
    def frame_actions(self, st, p, frame) -> list[tuple]:
        raise NotImplementedError

    def frame_apply(self, st, p, frame, action) -> None:
        raise NotImplementedError

    # --- end of game ---------------------------------------------------------------------
    def final_scoring(self, st, p) -> list[tuple[str, int]]:
        """(category, VP) pairs: the calling bonus and end-of-game trait VP."""
        return []

    def resource_rates(self, st, p, rates: dict) -> dict:
        return rates


_REGISTRY: dict[str, type[FactionPlay]] = {}


def register(faction_id: str):
    def deco(cls):
        _REGISTRY[faction_id] = cls
        return cls
    return deco


def faction_play(rules, faction_id: str) -> FactionPlay:
    from . import _all  # noqa: F401  (imports every faction module)
    return _REGISTRY.get(faction_id, FactionPlay)(rules, faction_id)
