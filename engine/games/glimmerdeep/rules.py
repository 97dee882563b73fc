"""The typed rules model of Glimmerdeep (data in data/rules/glimmerdeep/*.toml).

Every entry that the rulebook does not give is marked `source = "assumed"`;
see engine/games/glimmerdeep/RULES.md for each interpretation.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from engine.core.rules import FaultInjection, RulesModel

Source = Literal["rulebook", "assumed"]
Resource = Literal["iron", "gold", "gem"]
SpaceKind = Literal["iron", "gold", "gem", "dirt", "any"]
NonNeg = Field(default=0, ge=0)

# Map legend: one character per space.
MAP_LEGEND = {
    ".": "dirt", "i": "iron", "g": "gold", "e": "gem", "S": "settlement",
    "B": "bioluminescent", "F": "forest", "P": "peak", "O": "outpost", "#": "rock",
}


class Cost(RulesModel):
    iron: int = Field(default=0, ge=0)
    gold: int = Field(default=0, ge=0)
    gem: int = Field(default=0, ge=0)


class Effect(RulesModel):
    """What an activation (or a trait) gives."""

    iron: int = Field(default=0, ge=0)
    gold: int = Field(default=0, ge=0)
    gem: int = Field(default=0, ge=0)
    vp: int = Field(default=0, ge=0)
    excavate: tuple[str, ...] = ()            # shape ids, placed by the usual adjacency rule
    excavate_space: tuple[SpaceKind, ...] = ()  # one space of that kind each


class Building(RulesModel):
    id: str
    name: str
    cost: Cost
    vp: int = Field(ge=0)
    input: Cost = Cost()
    output: Effect
    source: Source


class Shape(RulesModel):
    id: str
    cells: tuple[tuple[int, int], ...] = Field(min_length=1)
    copies: int = Field(default=0, ge=0)        # copies in each personal excavation deck
    source: Source


class Outpost(RulesModel):
    input: Cost = Cost()
    output: Effect
    source: Source = "assumed"


class GameMap(RulesModel):
    id: str
    name: str
    objective: Literal["bioluminescent", "trade_routes", "snowy_summit", "underground_forest"]
    rows: tuple[str, ...] = Field(min_length=3)
    outposts: tuple[Outpost, ...] = ()          # one per 'O' space, in reading order
    source: Source

    @model_validator(mode="after")
    def _check(self):
        widths = {len(r) for r in self.rows}
        if len(widths) != 1:
            raise ValueError(f"map '{self.id}': every row must have the same width")
        bad = {c for r in self.rows for c in r} - set(MAP_LEGEND)
        if bad:
            raise ValueError(f"map '{self.id}': unknown map characters {sorted(bad)}; "
                             f"expected one of {''.join(MAP_LEGEND)}")
        if sum(r.count("S") for r in self.rows) != 4:
            raise ValueError(f"map '{self.id}': the starting settlement must be 4 'S' spaces")
        n_out = sum(r.count("O") for r in self.rows)
        if n_out != len(self.outposts):
            raise ValueError(f"map '{self.id}': {n_out} 'O' spaces but {len(self.outposts)} outposts")
        return self


class Market(RulesModel):
    slots: int = Field(ge=1)
    extra_costs: tuple[Literal["iron", "gold", "gem", "none"], ...]  # left to right
    adjust_discard: int = Field(ge=0)
    source: Source

    @model_validator(mode="after")
    def _check(self):
        if len(self.extra_costs) != self.slots:
            raise ValueError("market.extra_costs needs one entry per slot")
        return self


class Objectives(RulesModel):
    bioluminescent_vp_per_building: int = Field(ge=0)
    trade_routes_vp: tuple[int, ...]            # VP for 0, 1, 2, ... connected outposts
    snowy_summit_tiers: tuple[int, ...]         # 1st, 2nd, 3rd, 4th
    snowy_summit_two_player_second: int = Field(ge=0)
    forest_vp_per_space: int = Field(ge=0)


class Scoring(RulesModel):
    resources_per_vp: dict[Resource, int]
    tiebreaks: tuple[Literal["map_objective", "buildings"], ...]


class Solo(RulesModel):
    start: Cost
    tiers: tuple[tuple[int, str], ...]          # (score must exceed, title)


class SoloCard(RulesModel):
    id: str
    remove_workshops: tuple[int, ...]           # market slot indices, 0 = leftmost
    remove_forges: tuple[int, ...]
    source: Source


class Game(RulesModel):
    rounds: int = Field(ge=1)
    trait_rounds: int = Field(ge=0)
    excavations_per_round: int = Field(ge=1)
    workshop_footprint: tuple[int, int]
    forge_footprint: tuple[int, int]
    substitutions: dict[Resource, tuple[Resource, ...]]  # resource -> what it may pay for
    # "Can skip": a shape may pass over spaces the player cannot excavate (bioluminescent,
    # outposts, a Gemwarden's gems) and excavate the rest; False: such placements are refused.
    shapes_skip_unexcavatable: bool = True
    payment_order: tuple[Resource, ...]         # cheapest first, used to settle payments


class TraitAction(RulesModel):
    """A production-phase (or `when`) action of a trait: pay input, gain output."""

    input: Cost = Cost()
    output: Effect = Effect()
    once_per_game: bool = False
    when: Literal["production", "any", "excavation_end", "immediate"] = "production"


class Trait(RulesModel):
    id: str
    level: int = Field(ge=1, le=3)
    side: Literal["left", "right"]
    text: str
    actions: tuple[TraitAction, ...] = ()
    params: dict[str, int | float | str | bool | tuple[int, ...]] = {}
    source: Source


class Faction(RulesModel):
    name: str
    setup: Cost = Cost()
    cannot_excavate: tuple[Resource, ...] = ()
    calling: dict[str, int | str | tuple[int, ...] | tuple[tuple[int, ...], ...] | tuple[str, ...]] = {}
    calling_source: Source
    traits: tuple[Trait, ...]
    source: Source


class GlimmerdeepRules(RulesModel):
    game: Game
    market: Market
    scoring: Scoring
    objectives: Objectives
    solo: Solo
    shapes: tuple[Shape, ...]
    workshops: tuple[Building, ...] = Field(min_length=1)
    forges: tuple[Building, ...] = Field(min_length=1)
    maps: tuple[GameMap, ...] = Field(min_length=1)
    solo_cards: tuple[SoloCard, ...] = ()
    factions: dict[str, Faction] = Field(min_length=1)   # by faction id
    testing: FaultInjection = FaultInjection()            # TEST-ONLY, off by default

    @model_validator(mode="after")
    def _refs(self):
        shape_ids = {s.id for s in self.shapes}
        for group in ("workshops", "forges"):
            seen = set()
            for b in getattr(self, group):
                if b.id in seen:
                    raise ValueError(f"{group}: duplicate id '{b.id}'")
                seen.add(b.id)
                for sid in b.output.excavate:
                    if sid not in shape_ids:
                        raise ValueError(f"{group} '{b.id}': unknown shape '{sid}' in output.excavate")
        for f in self.factions.values():
            for t in f.traits:
                for a in t.actions:
                    for sid in a.output.excavate:
                        if sid not in shape_ids:
                            raise ValueError(f"trait '{t.id}': unknown shape '{sid}'")
        if not any(s.copies for s in self.shapes):
            raise ValueError("shapes: the excavation deck is empty (every copies = 0)")
        return self


# The readings issue 11 replaced, each a switch in the rules data (RULES.md, "Readings of
# issue 11"): `--set` these to play the earlier readings.  The fingerprint covers them.
EARLIER_READINGS = (
    "game.shapes_skip_unexcavatable=false",
    "factions.dustwhiskers.calling.unique_spaces_break_clusters=0",
    'factions.dustwhiskers.traits.dustwhiskers_3r.params.kinds="dirt,any"',
    'factions.nightbarons.traits.nightbarons_1l.params.deck_top_counts_as="none"',
    "factions.deepdelvers.calling.sheet_adjacent=0",
)


def choice_catalogue(rules) -> list[tuple[str, str]]:
    """The rules entries players choose (for design checks): the workshop and forge cards.
    Excavation shapes are drawn and solo market cards revealed, not chosen."""
    return ([("workshops", c.id) for c in rules.workshops]
            + [("forges", c.id) for c in rules.forges])
