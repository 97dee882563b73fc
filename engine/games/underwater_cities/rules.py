"""The typed rules model of Underwater Cities (data in data/rules/underwater_cities/*.toml).

Cards, action slots, metropolises and contracts are data built from one small vocabulary of
effects (`Part`): gain, build, upgrade, use an action card, take a Special card, trade (pay X
for Y), pick, either, refresh, perform a slot's action, turn a city symbiotic, produce.  A
permanent card carries an `Ability` (a trigger, a discount, an upgrade price, a hand limit).
Production and end-scoring effects use the same `gain` and `trade` parts with counts over the
network (`Count`).  Every entry the rulebook does not give is `source = "assumed"`; every
reading is recorded in engine/games/underwater_cities/RULES.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.core.rules import FaultInjection, RulesModel

Source = Literal["rulebook", "assumed"]
Colour = Literal["green", "red", "yellow"]
Resource = Literal["credits", "kelp", "steelplast", "science", "biomatter"]
RESOURCES = ("credits", "kelp", "steelplast", "science", "biomatter")
CardType = Literal["instant", "permanent", "action", "production", "end"]
# What a build, upgrade or produce part may target.
Target = Literal["tunnel", "farm", "desal", "lab", "building", "structure", "city",
                 "white_city", "symbiotic_city"]
PartKind = Literal["gain", "build", "upgrade", "action_card", "special", "trade", "pick",
                   "either", "refresh", "slot_action", "symbiosis", "produce"]
# What a Count counts on the seat's own board (connected pieces only, rulebook "Your Network").
CountKind = Literal[
    "cities", "white_cities", "symbiotic_cities", "farms", "desals", "labs", "buildings",
    "upgraded_farms", "upgraded_desals", "upgraded_labs", "upgraded_buildings", "tunnels",
    "upgraded_tunnels", "city_tunnels", "city_upgraded_tunnels", "metropolises",
    "action_cards", "claimed_cards", "specials_paid", "federation", "full_cities"]


class Res(RulesModel):
    """An amount of each resource (a cost)."""

    credits: int = Field(default=0, ge=0)
    kelp: int = Field(default=0, ge=0)
    steelplast: int = Field(default=0, ge=0)
    science: int = Field(default=0, ge=0)
    biomatter: int = Field(default=0, ge=0)

    def vec(self) -> tuple[int, int, int, int, int]:
        return (self.credits, self.kelp, self.steelplast, self.science, self.biomatter)


class Gain(Res):
    """What a gain gives: resources, cards from the current era deck, points, Federation
    steps (rulebook "Resources", "The Federation Track")."""

    cards: int = Field(default=0, ge=0)
    points: int = Field(default=0, ge=0)
    federation: int = Field(default=0, ge=0)

    def empty(self) -> bool:
        return not (any(self.vec()) or self.cards or self.points or self.federation)


class Count(RulesModel):
    """A count over the seat's network: `of` one kind (or the smallest of several kinds:
    full sets), per `n` of them."""

    of: tuple[CountKind, ...] = Field(min_length=1)
    n: int = Field(default=1, ge=1)

    @field_validator("of", mode="before")
    @classmethod
    def _one_or_many(cls, v):
        return (v,) if isinstance(v, str) else tuple(v) if isinstance(v, list) else v


class Condition(RulesModel):
    """A condition on the network: at least `at_least` of `of` (rulebook "conditional
    effect that only applies if you have certain buildings")."""

    of: CountKind
    at_least: int = Field(ge=0)


class Part(RulesModel):
    """One part of an effect.  The parts of an effect may be resolved in any order (rulebook
    "Timing"), each may be used only in part or not at all ("It is legal to use only part of
    an action or card effect")."""

    kind: PartKind
    gain: Gain = Gain()                  # gain; trade: what you get
    per: Count | None = None             # gain: gain x (count // n); with `table`: counts
    max: int = Field(default=0, ge=0)    # gain per: at most this many times (0: no limit)
    table: tuple[tuple[int, int], ...] = ()   # end scoring: (at least, points), best row
    when: Condition | None = None        # any part: only if the network meets it
    what: Target = "structure"           # build / upgrade / produce
    count: int = Field(default=1, ge=1)  # build / upgrade / action_card / pick / trade times
    cost: Res | None = None              # build, upgrade: replaces the usual cost;
    #                                      trade, slot_action, symbiosis: the price
    discount: Res = Res()                # build / upgrade: off the usual cost
    expansion: bool = False              # build: buildings may go on expansion sites
    upgrade: bool = False                # build: then pay the upgrade cost to upgrade it
    upgraded: bool = False               # produce: only an upgraded structure
    options: tuple[tuple["Part", ...], ...] = ()   # either: one of these effects
    gains: tuple[Gain, ...] = ()         # pick: `count` different ones of these
    slots: Literal["free", "free_or_others"] = "free"   # slot_action: which slots

    @model_validator(mode="after")
    def _shape(self):
        k = self.kind
        if k == "either" and len(self.options) < 2:
            raise ValueError("an 'either' part needs at least two options")
        if k == "pick" and len(self.gains) < self.count:
            raise ValueError("a 'pick' part needs at least `count` gains")
        if k == "trade" and self.cost is None:
            raise ValueError("a 'trade' part needs a cost (what is paid)")
        if k == "gain" and self.gain.empty() and not self.table:
            raise ValueError("a 'gain' part gains nothing")
        if self.table and self.per is None:
            raise ValueError("a points table needs `per` (what it counts)")
        return self


class Ability(RulesModel):
    """A permanent card's effect (rulebook "Permanent Effects": triggers, discounts, an
    ability usable every turn)."""

    kind: Literal["on_build", "on_upgrade", "on_mismatch", "on_match", "on_federation_space",
                  "on_connect_metropolis", "on_slot_gain", "on_second_tunnel", "on_special",
                  "discount", "upgrade_cost", "hand_limit"]
    what: Target = "structure"           # on_build / on_upgrade / discount / upgrade_cost
    colour: Colour | None = None         # on_match: only cards of this colour
    resource: Resource | None = None     # on_slot_gain: a slot gives at least 1 of this
    space: int = Field(default=0, ge=0)  # on_federation_space: reaching this space
    nth: int = Field(default=0, ge=0)    # on_build: the city's nth building of `what`
    connected: bool = False              # on_build: only when the piece is connected
    gain: Gain = Gain()
    discount: Res = Res()
    cost: Res | None = None              # upgrade_cost: an alternative price
    amount: int = Field(default=1, ge=1)  # hand_limit: cards more


class Card(RulesModel):
    """An era card or a Special card (rulebook "Cards": five types)."""

    id: str
    name: str
    colour: Colour
    type: CardType
    effect: tuple[Part, ...] = ()        # instant / action / production / end
    ability: Ability | None = None       # permanent
    cost: int = Field(default=0, ge=0)   # Special cards: credits to pay when played
    copies: int = Field(default=1, ge=1)
    source: Source

    @model_validator(mode="after")
    def _typed(self):
        if self.type == "permanent":
            if self.ability is None or self.effect:
                raise ValueError("a permanent card has an `ability` and no `effect`")
        elif not self.effect or self.ability is not None:
            raise ValueError(f"a {self.type} card has an `effect` and no `ability`")
        # Production applies gains (production.py), final scoring counts points and makes
        # conversions (scoring.py): anything else in these effects would be silently ignored.
        if self.type == "production":
            for p in self.effect:
                if p.kind != "gain":
                    raise ValueError("production effects use only 'gain' parts")
        if self.type == "end":
            for p in self.effect:
                if p.kind not in ("gain", "trade"):
                    raise ValueError("end-scoring effects use only 'gain' and 'trade' parts")
                g = p.gain
                if any(g.vec()) or g.cards or g.federation or (p.kind == "trade" and not g.points):
                    raise ValueError("end-scoring effects gain points only")
        return self


class Slot(RulesModel):
    """An action slot of the main board (rulebook "Action Slots and Card Effects")."""

    id: str
    name: str = ""                 # what a page calls it ("Yellow slot: Tunnel or federation")
    colour: Colour
    effect: tuple[Part, ...] = Field(min_length=1)
    source: Source


class BoardSide(RulesModel):
    """One side of the main board: for 2 players, or for 3 and 4."""

    players: tuple[int, ...] = Field(min_length=1)
    slots: tuple[Slot, ...] = Field(min_length=1)
    source: Source


class Metropolis(RulesModel):
    """A metropolis tile (rulebook "Metropolises"): brown ones score at the end, blue ones
    have an instant effect on connection, or instant and production."""

    id: str
    name: str
    colour: Literal["brown", "blue"]
    instant: tuple[Part, ...] = ()       # blue: on connection (gain parts)
    production: tuple[Part, ...] = ()    # blue: every Production while connected
    end: tuple[Part, ...] = ()           # brown: final scoring
    source: Source

    @model_validator(mode="after")
    def _by_colour(self):
        if self.colour == "brown" and (self.instant or self.production or not self.end):
            raise ValueError("a brown metropolis scores at the end only (`end`)")
        if self.colour == "blue" and (self.end or not self.instant):
            raise ValueError("a blue metropolis has an `instant` effect (and maybe `production`)")
        for p in self.instant + self.production + self.end:
            if p.kind != "gain":
                raise ValueError("metropolis effects use only 'gain' parts")
        return self


class CitySite(RulesModel):
    id: str
    x: int
    y: int


class Hexagon(RulesModel):
    """A metropolis hexagon on the player board: the brown one (upper left) or a blue one."""

    id: str
    colour: Literal["brown", "blue"]
    x: int
    y: int


class Geometry(RulesModel):
    """The player boards' sites (the same on every board; the bonuses differ): city sites,
    tunnel sites joining two of them or a city site and a metropolis hexagon, three
    building sites and one expansion site around every city site."""

    start: str                                   # the starting city's site
    cities: tuple[CitySite, ...] = Field(min_length=2)
    hexagons: tuple[Hexagon, ...] = ()
    links: tuple[tuple[str, str], ...] = Field(min_length=1)   # tunnel sites t1, t2, ...
    building_offsets: tuple[tuple[int, int], ...] = Field(min_length=1)
    expansion_offset: tuple[int, int]
    source: Source

    @model_validator(mode="after")
    def _consistent(self):
        cities = {c.id for c in self.cities}
        hexes = {h.id for h in self.hexagons}
        if len(cities) != len(self.cities) or cities & hexes:
            raise ValueError("city site and hexagon ids must be unique")
        if self.start not in cities:
            raise ValueError(f"start '{self.start}' is not a city site")
        for a, b in self.links:
            if a not in cities and b not in cities:
                raise ValueError(f"link {a}-{b}: a tunnel site needs at least one city site")
            for e in (a, b):
                if e not in cities and e not in hexes:
                    raise ValueError(f"link {a}-{b}: unknown site '{e}'")
        if sum(1 for h in self.hexagons if h.colour == "brown") > 1:
            raise ValueError("a board has at most one brown hexagon")
        return self


class PlayerBoard(RulesModel):
    """A player board (a faction): its bonuses by site id (rulebook "Bonuses From Building":
    a resource, or the Federation symbol = 1 step and 1 card)."""

    name: str
    bonuses: dict[str, Gain] = {}
    source: Source


class Contract(RulesModel):
    """A government contract (rulebook "Components": named, never explained; switchable)."""

    id: str
    name: str
    needs: tuple[Condition, ...] = Field(min_length=1)
    reward: Gain
    source: Source


class FederationSpace(RulesModel):
    space: int = Field(ge=1)
    gain: Gain = Gain()


class Federation(RulesModel):
    """The Federation track: spaces from the back (4) to the front (1), the bonus of each,
    points per step past the front ("score 1 point for each space you were supposed to
    advance")."""

    spaces: tuple[FederationSpace, ...] = Field(min_length=1)
    past_front_points: int = Field(ge=0)
    source: Source


class Start(RulesModel):
    """Setup: resources, the opening hand, the round-1 Federation positions (0 = below the
    track, k = the k-th space from the back) and extra resources by play order."""

    resources: Res
    opening_draw: int = Field(ge=0)
    federation: tuple[int, ...] = Field(min_length=4)
    extra: tuple[Res, ...] = Field(min_length=4)
    random_order: bool = False           # shuffle the round-1 order (else seat = play order)
    source: Source


class Supply(RulesModel):
    tunnels: int = Field(ge=0)
    white_cities: int = Field(ge=0)
    symbiotic_cities: dict[str, int]     # by player count
    specials_face_up: int = Field(ge=0)
    source: Source


class Costs(RulesModel):
    """The usual costs (player info card)."""

    tunnel: Res
    white_city: Res
    symbiotic_city: Res
    farm: Res
    desal: Res
    lab: Res
    upgrade: Res
    biomatter_for: tuple[Resource, ...] = ("kelp", "steelplast")
    source: Source


class Output(RulesModel):
    base: Gain = Gain()
    upgraded: Gain = Gain()              # in addition to base
    pair: Gain = Gain()                  # two upgraded of this type at one connected city


class ProductionTable(RulesModel):
    """Production of the network (player info card, rulebook "Your Network's Production")."""

    tunnel: Output
    farm: Output
    desal: Output
    lab: Output
    symbiotic_city: Gain
    white_city: Gain = Gain()
    pair_repeats: bool = False           # a pair bonus per two upgraded (else once per city)
    source: Source


class Feeding(RulesModel):
    kelp_per_city: int = Field(ge=0)
    points_per_unfed: int = Field(ge=0)
    source: Source


class FinalScoring(RulesModel):
    city_points: tuple[int, int, int, int]   # by building types next to the city (0..3)
    biomatter_credits: int = Field(ge=0)
    resources_per_point: int = Field(ge=1)
    source: Source


class GameRules(RulesModel):
    """Rounds and turns, hands, the always-available slot, the Personal Assistant, the cloning
    tile (rulebook "Game Play", "Cards", "The Always-available Slot")."""

    rounds_per_era: tuple[int, ...] = Field(min_length=1)
    turns_per_round: int = Field(ge=1)
    hand_limit: int = Field(ge=1)
    era_draw: int = Field(ge=0)
    action_card_limit: int = Field(ge=1)
    turn_draw: int = Field(ge=0)
    always_slot: tuple[Part, ...] = Field(min_length=1)   # gain 2 cards and 2 credits
    assistant: Card                       # the Personal Assistant (an action card)
    cloning_players: tuple[int, ...] = (4,)
    cloning_cost: Res
    source: Source


class Switches(RulesModel):
    """Readings the rulebook leaves open (RULES.md), each switchable."""

    contracts: bool = False              # government contracts in play
    contracts_drawn: int = Field(default=3, ge=0)
    # A slot of the played card's colour may be chosen when the card, resolved first, makes
    # it usable (false: only slots usable before the card, the old reading).
    slot_after_card: bool = True


class UnderwaterCitiesRules(RulesModel):
    game: GameRules
    start: Start
    supply: Supply
    costs: Costs
    production: ProductionTable
    feeding: Feeding
    final: FinalScoring
    federation: Federation
    geometry: Geometry
    boards: dict[str, PlayerBoard] = Field(min_length=1)
    sides: dict[str, BoardSide] = Field(min_length=1)
    metropolises: tuple[Metropolis, ...] = Field(min_length=1)
    era1: tuple[Card, ...] = Field(min_length=1)
    era2: tuple[Card, ...] = Field(min_length=1)
    era3: tuple[Card, ...] = Field(min_length=1)
    specials: tuple[Card, ...] = ()
    contracts: tuple[Contract, ...] = ()
    switches: Switches = Switches()
    testing: FaultInjection = FaultInjection()

    @field_validator("boards")
    @classmethod
    def _bonus_sites(cls, boards, info):
        geo = info.data.get("geometry")
        if geo is None:
            return boards
        sites = set(site_ids(geo))
        for bid, board in boards.items():
            for sid in board.bonuses:
                if sid not in sites:
                    raise ValueError(f"boards.{bid}.bonuses: unknown site '{sid}' (sites are "
                                     f"city ids, <city>b1.., <city>x and t1..t{len(geo.links)})")
        return boards

    @model_validator(mode="after")
    def _references(self):
        geo = self.geometry
        ids: set[str] = set()
        for coll in ("era1", "era2", "era3", "specials"):
            for c in getattr(self, coll):
                if c.id in ids:
                    raise ValueError(f"{coll}: card id '{c.id}' is used twice")
                ids.add(c.id)
        slot_ids: set[str] = set()
        for side in self.sides.values():
            for s in side.slots:
                if s.id in slot_ids:
                    raise ValueError(f"sides: slot id '{s.id}' is used twice")
                slot_ids.add(s.id)
        kinds = {m.colour for m in self.metropolises}
        needs = {h.colour for h in geo.hexagons}
        if not needs <= kinds:
            raise ValueError("metropolises: every hexagon colour needs tiles")
        return self


def site_ids(geo: Geometry) -> list[str]:
    """Every site id of the player boards: city sites, their building sites (<city>b1...),
    expansion sites (<city>x) and tunnel sites (t1...)."""
    out = [c.id for c in geo.cities]
    for c in geo.cities:
        out += [f"{c.id}b{k + 1}" for k in range(len(geo.building_offsets))]
        out.append(f"{c.id}x")
    out += [f"t{i + 1}" for i in range(len(geo.links))]
    return out
