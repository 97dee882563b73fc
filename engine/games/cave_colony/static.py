"""What does not change during a game with one rules object: the zone, the tile types, the
card tables and the dice (built once per rules object and shared by its games)."""

from __future__ import annotations

from engine.core.cache import PerRulesCache

from . import cards as C
from .cards import CardTables
from .rules import COLOURS
from .zone import Zone, mask_of, rotations

MAP_ID = "cave"


class Static:
    __slots__ = ("rules", "zone", "tile_ids", "tile_kind", "tile_open", "tile_masks", "tile_gem",
                 "tile_gems", "tile_count", "n_regular", "OPEN", "colony_tile", "cards",
                 "energy_faces", "event_faces", "colony_of", "dead_end", "inner_ok", "base_cost")

    def __init__(self, rules, _key=None):
        self.rules = rules
        self.zone = Zone(rules.zone.size, {c: col.corner for c, col in rules.colonies.items()})
        tiles = list(rules.tiles)
        self.n_regular = len(tiles)
        ids = [t.id for t in tiles]
        kinds = [t.kind for t in tiles]
        masks = [rotations(mask_of(t.openings)) for t in tiles]
        gem = [COLOURS.index(t.gem) if t.gem else -1 for t in tiles]
        gems = [t.gems for t in tiles]
        # Virtual types after the bag's: an empty space once the bag is empty ("treat all
        # empty spaces afterwards as 4-Way Tiles"), then the four colony tiles.
        self.OPEN = len(ids)
        ids.append("open")
        kinds.append("open")
        masks.append((15,))
        gem.append(-1)
        gems.append(0)
        self.colony_tile = {}
        for colour, col in rules.colonies.items():
            self.colony_tile[colour] = len(ids)
            ids.append(f"colony_{colour}")
            kinds.append("colony")
            masks.append((mask_of(col.openings),))
            gem.append(-1)
            gems.append(0)
        self.tile_ids = tuple(ids)
        self.tile_kind = tuple(kinds)
        self.tile_masks = tuple(masks)
        self.tile_open = tuple(bin(m[0]).count("1") for m in masks)
        self.tile_gem = tuple(gem)
        self.tile_gems = tuple(gems)
        self.tile_count = tuple(t.count for t in tiles)
        # a dead end: one opening (the placement note on Dead End Tiles applies to it)
        self.dead_end = tuple(n == 1 for n in self.tile_open[: self.n_regular])
        inner_kinds = rules.zone.inner_kinds
        self.inner_ok = tuple(n >= rules.zone.inner_min_openings
                              and (not inner_kinds or kind in inner_kinds)
                              for n, kind in zip(self.tile_open[: self.n_regular], kinds))
        self.cards = CardTables(rules)
        self.energy_faces = tuple(rules.dice.energy)
        self.event_faces = tuple(rules.dice.event)
        self.colony_of = {v: k for k, v in self.zone.colony_cell.items()}
        w = rules.worker
        # modifier index -> (the action's base energy cost, its least cost)
        self.base_cost = {C.MOVE_COST: (w.move_cost, 1), C.COLLECT_COST: (w.collect_cost, 0),
                          C.SPEND_COST: (w.spend_cost, 0), C.USE_COST: (w.use_cost, 0)}


static_for = PerRulesCache(Static)   # (rules, None) -> Static
