"""The typed rules model of Underhaven (data in data/rules/underhaven/*.toml).

Every entry the rulebook does not give is marked `source = "assumed"`; every interpretation
is recorded in engine/games/underhaven/RULES.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from engine.core.rules import FaultInjection, RulesModel

Source = Literal["rulebook", "assumed"]
Terrain = Literal["greenery", "mine", "residential", "water", "magma", "tech", "social"]
Colour = Literal["yellow", "red", "green", "blue"]
OrderKind = Literal["move", "harvest", "mine", "entertain", "trade", "build", "corp", "gain",
                    "free_specialist"]
Activation = Literal["harvest", "mine", "entertain", "trade", "move", "build", "one_time",
                     "consultant", "none"]
Side = Literal["N", "E", "S", "W"]

PLAYER_COUNTS = (2, 3, 4)        # "Game Concept": for 2-4 players
TERRAINS = ("greenery", "mine", "residential", "water", "magma", "tech", "social")
COLOURS = ("yellow", "red", "green", "blue")


class Goods(RulesModel):
    """An amount of each resource (a gain or a cost)."""

    money: int = Field(default=0, ge=0)
    food: int = Field(default=0, ge=0)
    material: int = Field(default=0, ge=0)
    pt: int = Field(default=0, ge=0)          # power tokens
    tg: int = Field(default=0, ge=0)          # trade goods
    energy: int = Field(default=0, ge=0)
    morale: int = Field(default=0, ge=0)
    rep: int = Field(default=0, ge=0)


class Order(RulesModel):
    """One order on an activation card (left side) or a right-side support."""

    kind: OrderKind
    gain: Goods = Goods()                     # for kind = "gain"
    # kind = "free_specialist": the icon "Use a Player's Specialist for free" (one hire of a
    # rival's specialist this turn costs no Money)


class Card(RulesModel):
    id: str
    rows: tuple[tuple[Order, Order], tuple[Order, Order], tuple[Order, Order]]
    support: Order
    # end scoring steps 3 and 4: a terrain icon, or "starting" (the starting-building icon:
    # matches the starting buildings, Icon Key "Terrain & buildings: ... Starting")
    bonus_terrain: Terrain | Literal["starting"] | None = None
    bonus: int = Field(default=0, ge=0)
    play_rep: int = Field(default=0, ge=0)    # reputation when played ("From Activation cards")
    source: Source


class Building(RulesModel):
    id: str
    name: str
    terrains: tuple[Terrain, ...] = Field(min_length=1)
    count: int = Field(ge=0)
    cost: Goods = Goods()                     # material / money / food / pt
    workers: int = Field(ge=1)
    specialists: tuple[Colour, ...] = ()
    morale: int = Field(default=0, ge=0, le=3)  # required morale level
    activation: Activation
    needs_worker: bool = False                # a worker must stand on it to operate
    gain: Goods = Goods()                     # on activation (or once, for one_time)
    requires_terrain: Terrain | None = None   # improvement: only with a building of this terrain
    morale_loss: int = Field(default=0, ge=0)  # pollution when activated
    energy_cost: int = Field(default=0, ge=0)  # Energy: "pay 1 energy to be operated"
    energy_gain: int = Field(default=0, ge=0)  # Energy: "gives you 2 energy when activated"
    move_bonus: int = Field(default=0, ge=0)   # automatic (Move): extra movement
    units: int = Field(default=0, ge=0)        # one-time: workers/consultants (any mix)
    specialist_gain: int = Field(default=0, ge=0)  # one-time: permanent specialists
    free_arrangement: bool = False            # University: arrange activation markers freely
    trade_twice: bool = False                 # Merchant Guild
    jetpack: bool = False                     # Jet Pack Magnifier
    build_twice_money: int = Field(default=-1, ge=-1)   # Construction Molds: build x2 for this Money
    magma_travel: bool = False                # Lava Crawler: move between explored magma spaces
    deal_pt: int = Field(default=0, ge=0)     # Low Light Pub: a deal cube on a rival's building
    owner_rep: int = Field(default=0, ge=0)   # social: owner's reputation when a rival lands
    one_per_player: bool = False
    rep: int = Field(ge=0)                    # reputation when completed (end rep)
    starting: bool = False                    # a starting building (drawn by a starting card)
    advanced: bool = False
    source: Source


class Octagon(RulesModel):
    id: str
    spaces: tuple[Terrain, Terrain, Terrain, Terrain]   # N, E, S, W before rotation
    start_building: str | None = None         # starting tiles: the pre-built building
    start_space: int = Field(default=0, ge=0, le=3)
    source: Source


class StartSlot(RulesModel):
    col: int = Field(ge=0)
    line: int = Field(ge=0)
    edge: Side                                 # where the entrance is attached


class Layout(RulesModel):
    lines: int = Field(ge=1)
    slot_sets: tuple[tuple[StartSlot, ...], ...]   # "#1", "#2", ... octagon sets
    rows: tuple[str, ...] = ()                 # a drawn shape ('#' octagon, '.' none), else
    source: Source                             # `lines` full lines


class Board(RulesModel):
    columns: int = Field(ge=2)
    max_lines: int = Field(ge=1)
    layouts: dict[str, Layout]                 # by player count ("2", "3", "4")
    source: Source


class TunnelTile(RulesModel):
    """A tunnel tile type (Trade: "a new Tunnel"; setup 3 D: "the 4 tunnel types")."""

    id: str
    arms: tuple[Literal["NW", "NE", "SE", "SW"], ...] = ()   # gap sides opened, before rotation
    span: int = Field(default=1, ge=1, le=4)   # > 1: a long tunnel along that many outer-edge gaps
    count: int = Field(ge=0)
    source: Source
    section: str = ""

    @model_validator(mode="after")
    def _shape(self):
        if self.span == 1 and len(set(self.arms)) < 2:
            raise ValueError(f"tunnels '{self.id}': a gap tile needs at least two distinct arms")
        if self.span > 1 and self.arms:
            raise ValueError(f"tunnels '{self.id}': a long tunnel (span > 1) has no arms")
        return self


class StartTunnel(RulesModel):
    """The "starting tunnel tile" of each player set (setup 6)."""

    reading: Literal["setup", "entrance"] = "entrance"   # it is the entrance tile / laid at setup
    tile: str = "straight"                     # its tunnel type (not taken from the supply)
    source: Source = "assumed"


class Trapezoid(RulesModel):
    id: str
    cluster_bonus: int = Field(default=0, ge=0)
    end_kind: Literal["none", "per_specialist", "per_majority", "per_building", "flat"] = "none"
    end_value: int = Field(default=0, ge=0)
    source: Source


class Corporation(RulesModel):
    name: str
    colour: Colour
    specialist: str
    cards: tuple[Card, ...] = Field(min_length=1)
    trapezoids: tuple[Trapezoid, ...] = ()
    focus_terrain: Terrain
    focus_build_rep: int = Field(ge=0)
    focus_rival_adjacent_rep: int = Field(ge=0)   # someone else builds next to my focus building
    focus_adjacent_rival_rep: int = Field(ge=0)   # my new focus building next to a rival's
    bonus: Literal["energy", "production", "mine_rep", "trade_goods"]
    source: Source


class Ability(RulesModel):
    id: str
    text: str
    value: int = 0
    source: Source


class StartCard(RulesModel):
    id: str
    gain: Goods = Goods()
    workers: int = Field(default=0, ge=0)
    start_building: bool = False
    advanced: bool = False
    source: Source


LayoutCell = Literal["greenery", "mine", "residential", "water", "magma", "tech", "social",
                     "any", "-", "gap"]


class Mission(RulesModel):
    id: str
    kind: Literal["own", "pair", "cluster", "octagons", "layout"]
    terrains: tuple[Terrain, ...] = ()
    count: int = Field(default=1, ge=1)
    # kind = "layout": octagons on the grid, row by row: a terrain (one of the player's
    # buildings of that terrain on that octagon), "any" (any of the player's buildings), "-"
    # (an octagon with no requirement), "gap" (a column or row of "gap" cells: one or more
    # octagons between).  Any rotation or mirror matches ("The Missions").
    pattern: tuple[tuple[LayoutCell, ...], ...] = ()
    rep: int = Field(ge=0)
    source: Source

    @model_validator(mode="after")
    def _layout(self):
        if self.kind != "layout":
            if self.pattern:
                raise ValueError(f"missions '{self.id}': a pattern needs kind = \"layout\"")
            return self
        rows = self.pattern
        if not rows or len({len(r) for r in rows}) != 1:
            raise ValueError(f"missions '{self.id}': a layout pattern needs rows of equal length")
        gap_cols = {c for c in range(len(rows[0])) if all(r[c] == "gap" for r in rows)}
        gap_rows = {i for i, r in enumerate(rows) if all(x == "gap" for x in r)}
        for i, r in enumerate(rows):
            for c, x in enumerate(r):
                if x == "gap" and i not in gap_rows and c not in gap_cols:
                    raise ValueError(f"missions '{self.id}': \"gap\" must fill a whole row or "
                                     f"column of the pattern (row {i}, column {c})")
        if not any(x not in ("-", "gap") for r in rows for x in r):
            raise ValueError(f"missions '{self.id}': a layout pattern needs a building")
        return self


class TradeSpace(RulesModel):
    id: str
    kind: Literal["goods_for_pt", "pt_for_goods", "tile", "missions", "card", "first_player",
                  "corp_goods", "corp_pt", "corp_energy", "energy_for_goods", "goods_for_energy",
                  "energy_for_pt", "loan", "upgrade"]
    corp: bool = False                          # a Corp space (only with The Corp action)
    star: bool = False                          # rolls the turn die
    pay: Goods = Goods()
    get: Goods = Goods()
    module: Literal["basic", "corp_locations", "energy"] = "basic"
    source: Source


class TurnDie(RulesModel):
    faces: tuple[Goods, Goods, Goods, Goods, Goods, Goods]   # opposite faces: 0-5, 1-4, 2-3
    track_rounds: dict[str, int]                # rounds without stars, by player count
    source: Source


class Morale(RulesModel):
    track: int = Field(ge=1)                    # positions 0..track
    levels: tuple[int, int, int, int]           # position needed for requirement 0..3
    step_cost: int = Field(ge=0)                # resources per step bought
    source: Source


class Readings(RulesModel):
    """Where the rulebook contradicts itself or can be read two ways: the reading played
    (readings.toml; each explained, with the lines quoted, in RULES.md "Readings")."""

    flip: Literal["activate", "reputation"] = "activate"      # turn step 3
    postpone: Literal["any", "build", "none"] = "any"         # orders carried out at the end
    first_player: Literal["any_activation", "trade"] = "any_activation"
    missions_space: Literal["replace", "claim"] = "replace"   # the missions trade space
    upgrade_pt: int = Field(default=0, ge=0)                  # residential upgrade price (PT)
    completion_rep_max: int = Field(default=6, ge=0)          # "0 - 6" or "0 - 8" reputation
    trapezoids: int = Field(default=3, ge=0)                  # per player: 3 (setup) or 4
    raw_start_needs_corp_locations: bool = True               # "Needed for Raw Start"
    energy_needs_advanced_buildings: bool = True              # "(Mandatory if Energy is used)"
    source: Source = "assumed"


class Modules(RulesModel):
    """Advanced game options, each switchable on its own."""

    corp_locations: bool = False
    focus: bool = False
    energy: bool = False
    reputational_income: bool = False
    advanced_buildings: bool = False
    raw_start: bool = False
    crooked_caverns: bool = False


class GameRules(RulesModel):
    start_reputation: int = Field(ge=0)
    start_pt: int = Field(ge=0)
    start_workers: int = Field(ge=0)
    max_workers: int = Field(ge=1)
    start_consultants: int = Field(ge=0)
    max_consultants: int = Field(ge=1)
    professionals: int = Field(ge=1)
    specialists_per_player: int = Field(ge=0)   # 0 = one per participating player
    blockers: int = Field(ge=0)                 # unlockable extra specialists
    track_max: int = Field(ge=1)                # basic tracks 0..5
    pt_value: int = Field(ge=1)                 # a track reaching 6 becomes a power token
    move_points: int = Field(ge=1)
    start_cards_dealt: int = Field(ge=1)
    start_cards_kept: int = Field(ge=1)
    hire_cost: int = Field(ge=0)                # Money to the owner
    hire_slots: int = Field(ge=0)               # hired specialists per owner board
    bump_rep: int = Field(ge=0)
    super_specialists: int = Field(ge=0)
    super_rep_loss: tuple[int, int, int, int, int, int]   # by die value 1..6
    overbid_pt: int = Field(ge=0)
    income_per_building: int = Field(ge=0)
    missions_face_up: int = Field(ge=0)
    market_cards: int = Field(ge=0)
    majority_rep: int = Field(ge=0)
    specialist_rep: int = Field(ge=0)
    specialist_rep_max: int = Field(ge=0)
    cluster_max: int = Field(ge=1)
    resources_per_rep: int = Field(ge=1)
    focus_income_rep: int = Field(ge=0)
    loan_tiers: tuple[tuple[int, int], ...] = ()   # (power tokens gained, end penalty)
    loan_repay_actions: tuple[int, ...] = ()        # actions spent to repay each tier
    loan_cubes: int = Field(default=4, ge=0)        # cubes per tier at any time
    upgrades: tuple[tuple[str, str], ...] = ()      # residential upgrades (from, to)
    source: Source


class UnderhavenRules(RulesModel):
    game: GameRules
    modules: Modules
    morale: Morale
    turn_die: TurnDie
    board: Board
    trade_spaces: tuple[TradeSpace, ...] = Field(min_length=1)
    buildings: tuple[Building, ...] = Field(min_length=1)
    octagons: tuple[Octagon, ...] = Field(min_length=1)
    start_tiles: tuple[Octagon, ...] = Field(min_length=1)
    market_cards: tuple[Card, ...] = Field(min_length=1)
    start_cards: tuple[StartCard, ...] = Field(min_length=1)
    missions: tuple[Mission, ...] = Field(min_length=1)
    abilities: tuple[Ability, ...] = Field(min_length=1)
    corporations: dict[str, Corporation] = Field(min_length=2)
    tunnels: tuple[TunnelTile, ...] = ()
    start_tunnel: StartTunnel = StartTunnel()
    readings: Readings = Readings()
    crooked_maps: dict[str, Board] = {}                    # Crooked Caverns layouts by map name
    testing: FaultInjection = FaultInjection()            # TEST-ONLY, off by default

    @model_validator(mode="after")
    def _refs(self):
        ids = {b.id for b in self.buildings}
        if len(ids) != len(self.buildings):
            raise ValueError("buildings: duplicate id")
        for t in self.start_tiles:
            if t.start_building is not None and t.start_building not in ids:
                raise ValueError(f"start_tiles '{t.id}': unknown building '{t.start_building}'")
        colours = [c.colour for c in self.corporations.values()]
        if len(set(colours)) != len(colours):
            raise ValueError("corporations: each needs its own colour")
        for k, lay in self.board.layouts.items():
            if lay.lines > self.board.max_lines:
                raise ValueError(f"board.layouts.{k}: more lines than board.max_lines")
            for group in lay.slot_sets:
                for sl in group:
                    if sl.col >= self.board.columns or sl.line >= lay.lines:
                        raise ValueError(f"board.layouts.{k}: start slot outside the layout")
        tids = [t.id for t in self.tunnels]
        if len(set(tids)) != len(tids):
            raise ValueError("tunnels: duplicate id")
        if self.start_tunnel.reading == "setup" and self.start_tunnel.tile not in tids:
            raise ValueError(f"start_tunnel.tile: unknown tunnel type '{self.start_tunnel.tile}'")
        for name, cm in self.crooked_maps.items():
            _check_crooked(name, cm, len(self.start_tiles), len(self.octagons))
        if len(self.octagons) < self.board.columns * self.board.max_lines:
            raise ValueError("octagons: fewer tiles than spaces in the largest layout")
        if self.game.start_cards_kept > self.game.start_cards_dealt:
            raise ValueError("game.start_cards_kept exceeds game.start_cards_dealt")
        top = self.readings.completion_rep_max
        for b in self.buildings:
            if b.rep > top:
                raise ValueError(f"buildings '{b.id}': rep {b.rep} exceeds "
                                 f"readings.completion_rep_max = {top} (\"0 - {top} reputation\")")
        return self


def _check_crooked(name: str, cm: Board, n_start: int, n_regular: int) -> None:
    """A Crooked Caverns map: every layout drawn within the grid, start slots on octagons of
    the layout with the entrance on a free side, room for the remaining starting tiles."""
    where = f"crooked_maps.{name}"
    for k, lay in cm.layouts.items():
        if not lay.rows:
            raise ValueError(f"{where}.layouts.{k}.rows: a crooked layout is drawn with rows")
        if len(lay.rows) > cm.max_lines or any(len(r) > cm.columns for r in lay.rows):
            raise ValueError(f"{where}.layouts.{k}.rows: larger than columns x max_lines")
        cells = {(c, l) for l, r in enumerate(lay.rows) for c, ch in enumerate(r) if ch == "#"}
        slots = [sl for g in lay.slot_sets for sl in g]
        if lay.lines != len(lay.rows):
            raise ValueError(f"{where}.layouts.{k}.lines: expected {len(lay.rows)} (the rows)")
        free = cells - {(sl.col, sl.line) for sl in slots}
        extra = n_start - int(k) if k.isdigit() else 0
        if len(free) < extra or len(cells) - extra > n_regular:
            raise ValueError(f"{where}.layouts.{k}: room for the {extra} remaining starting "
                             f"tiles off the start slots and at most {n_regular} regular octagons")
        for sl in slots:
            step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[sl.edge]
            if (sl.col, sl.line) not in cells or (sl.col + step[0], sl.line + step[1]) in cells:
                raise ValueError(f"{where}.layouts.{k}: start slot ({sl.col}, {sl.line}, "
                                 f"{sl.edge}) is not on the layout's border")
