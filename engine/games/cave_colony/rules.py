"""The typed rules model of the cave-colony game (data in data/rules/cave_colony/*.toml).

The rulebook (../shared/rulebooks/cave_colony.txt) gives the components, the turn, the actions,
recruiting, discovery, fights, trading, oxygen and dying, and the end of the game.  It does not
give the cards' effects, the anomaly cards, the colony cards' gem costs, the tiles' walls, the
size of the play zone or the die faces: those entries are designed as data, marked
`source = "assumed"`, and built from one small vocabulary of effects:

- `Mods` (passive modifiers: traits, passive equipment, completed colony cards' rewards):
  oxygen, energy, movement, action costs, fight modifiers, discovery choices, traits required;
- `Use` (what an equipment card does when used): oxygen, energy, a move within a range
  (line of sight, through a wall), collecting a gem within a range, the way home;
- `Effect` (what an anomaly card does at once): oxygen, energy, gems placed, gems dropped,
  a teleport, the end of the turn, and an event-die test with two outcomes.

Every interpretation is recorded in engine/games/cave_colony/RULES.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.core.rules import FaultInjection, RulesModel

Source = Literal["rulebook", "assumed"]
Colour = Literal["white", "yellow", "green", "blue", "purple"]
CostGem = Literal["white", "yellow", "green", "blue", "purple", "wild"]
ColonyColour = Literal["red", "green", "blue", "yellow"]
Corner = Literal["NW", "NE", "SE", "SW"]
RangeMode = Literal["walls", "line_of_sight", "through_walls"]
TileKind = Literal["four_way", "three_way", "curved", "straight", "dead_end", "anomaly", "gem"]

COLOURS: tuple[str, ...] = ("white", "yellow", "green", "blue", "purple")
WILD = 5                                   # index of a wildcard slot in a cost vector


def _check_openings(v: str) -> str:
    """Sides open at rotation 0, e.g. "NES": one to four of N, E, S, W, each once."""
    if not v or len(v) > 4 or any(ch not in "NESW" for ch in v) or len(set(v)) != len(v):
        raise ValueError(f"openings are one to four of the letters N, E, S, W, each once (got {v!r})")
    return v


def _small(lo: int = -3, hi: int = 3):
    return Field(default=0, ge=lo, le=hi)


class Mods(RulesModel):
    """Passive modifiers of a worker, added up over its traits, its passive equipment and its
    colony's completed colony cards.  Every field is a change to the base value in
    `[worker]` (0: no change)."""

    max_oxygen: int = _small()          # "5 is the default unless changed by Traits or Colony Cards"
    upkeep: int = _small(-1, 2)         # oxygen spent at the start of each turn (base 1)
    energy: int = _small()              # energy boosts: silver crystals at recruiting
    movement: int = _small(0, 3)        # movement boosts: gold crystals at recruiting (free moves)
    move_cost: int = _small(-1, 2)      # energy per move (never below 1)
    collect_cost: int = _small(-1, 2)   # energy per gem collected ("can be changed by Traits")
    spend_cost: int = _small(-1, 2)     # energy per gem spent
    use_cost: int = _small(-1, 2)       # energy per equipment use
    attack: int = _small()              # added to the worker's event-die roll when it attacks
    defend: int = _small()              # added to its roll when it defends
    discovery_draws: int = _small(0, 2)  # extra tiles drawn on discovery, one of them chosen
    positive_traits: int = _small(0, 2)  # extra positive traits a recruit requires
    negative_traits: int = _small(0, 2)  # extra negative traits a recruit requires


class Trait(RulesModel):
    id: str
    name: str
    mods: Mods
    source: Source


class Use(RulesModel):
    """What an equipment card does when used ("Use Equipment": 1 energy)."""

    kind: Literal["oxygen", "energy", "dash", "magnet", "recall", "drill"]
    amount: int = Field(default=0, ge=0, le=6)     # oxygen / energy gained
    range: int = Field(default=0, ge=0, le=6)      # dash, magnet: how far
    range_mode: RangeMode = "walls"                # "# Tiles Away" / "within line of sight" / "through Walls"

    @model_validator(mode="after")
    def _needs(self):
        if self.kind in ("oxygen", "energy") and self.amount < 1:
            raise ValueError(f"a '{self.kind}' use needs amount >= 1")
        if self.kind in ("dash", "magnet") and self.range < 1:
            raise ValueError(f"a '{self.kind}' use needs range >= 1")
        return self


class Equipment(RulesModel):
    id: str
    name: str
    mods: Mods = Mods()            # passive while held
    use: Use | None = None         # active: "Use Equipment"
    charges: int = Field(default=0, ge=0, le=9)    # uses per worker (0: once every turn)
    source: Source

    @model_validator(mode="after")
    def _does_something(self):
        if self.use is None and self.mods == Mods():
            raise ValueError("an equipment card needs passive mods or a use")
        if self.mods.max_oxygen:
            # "5 is the default unless changed by Traits or Colony Cards" (RB:109, RB:121)
            raise ValueError("equipment cannot change the maximum oxygen (mods.max_oxygen must "
                             "be 0): only traits and colony cards do (RB:109, RB:121)")
        return self


class Roll(RulesModel):
    """An event-die test: `success` on a roll of at least `at_least`, else `failure`."""

    at_least: int = Field(ge=1, le=12)
    success: "Effect"
    failure: "Effect"


class Effect(RulesModel):
    """What an anomaly card does at once to the worker that drew it."""

    oxygen: int = Field(default=0, ge=-5, le=5)
    energy: int = Field(default=0, ge=-6, le=6)        # this turn's energy
    gems: int = Field(default=0, ge=0, le=4)           # gems from the supply placed on the tile
    gem: Colour | Literal["random"] = "random"
    lose_gems: int = Field(default=0, ge=0, le=4)      # carried gems dropped on the tile
    teleport: Literal["none", "colony", "random_tile"] = "none"
    end_turn: bool = False
    roll: Roll | None = None


Roll.model_rebuild()


class Anomaly(RulesModel):
    id: str
    name: str
    effect: Effect
    source: Source


class ColonyCard(RulesModel):
    id: str
    name: str
    cost: tuple[CostGem, ...] = Field(min_length=1, max_length=6)   # "1 or more Gem"
    reward: Mods = Mods()          # for the colony's workers once completed
    source: Source


class Tile(RulesModel):
    id: str
    kind: TileKind
    openings: str
    count: int = Field(ge=0, le=60)
    gem: Colour | None = None      # gem tiles (and gem dead ends): the gem placed on discovery
    gems: int = Field(default=0, ge=0, le=5)
    source: Source

    _openings = field_validator("openings")(_check_openings)

    @model_validator(mode="after")
    def _gems(self):
        if (self.gem is None) != (self.gems == 0):
            raise ValueError("a tile with gems names its gem colour, and only then")
        return self


class Colony(RulesModel):
    corner: Corner                 # where its tile lies in the 2x2 square at the centre
    openings: str
    source: Source

    _openings = field_validator("openings")(_check_openings)


class GameRules(RulesModel):
    turn_limit: int = Field(ge=1, le=1000)   # rounds; a game that cannot end stops here
    play_out: bool = False                   # "Optionally, the rest ... play out the game"
    max_actions_per_turn: int = Field(ge=1, le=200)   # guard against endless 0-energy turns
    cards_to_win: int = Field(ge=1, le=20)   # "After Completing 5 Colony Cards"
    source: Source


class Dice(RulesModel):
    energy: tuple[int, ...] = Field(min_length=1)   # faces of the Energy Die (white)
    event: tuple[int, ...] = Field(min_length=1)    # faces of the Event Die (black)
    source: Source

    @model_validator(mode="after")
    def _faces(self):
        if min(self.energy) < 0 or min(self.event) < 0:
            raise ValueError("die faces are >= 0")
        return self


class Worker(RulesModel):
    max_oxygen: int = Field(ge=1, le=20)     # "A Worker has 5 Maximum Oxygen"
    upkeep: int = Field(ge=0, le=5)          # "Spend 1 Oxygen" at the start of the turn
    move_cost: int = Field(ge=1, le=5)       # "Every bullet below ... requires 1 Energy"
    collect_cost: int = Field(ge=0, le=5)
    spend_cost: int = Field(ge=0, le=5)
    use_cost: int = Field(ge=0, le=5)
    source: Source


class Crystals(RulesModel):
    boosts: Literal["per_turn", "once"]      # energy/movement crystals: every turn, or spent once
    source: Source


class Recruit(RulesModel):
    positive_traits: int = Field(ge=0, le=4)    # "At least 1 Positive and 1 Negative"
    negative_traits: int = Field(ge=0, le=4)
    trait_draw: int = Field(ge=1, le=2)         # "Draw 2 Traits", look at one
    equipment_draw: int = Field(ge=0, le=4)     # "Draw two Equipment Cards", keep 1
    colony_draw: int = Field(ge=1, le=4)        # "draw 2 and look at both", keep 1
    source: Source


class Supply(RulesModel):
    gems_per_colour: int = Field(ge=0, le=50)   # "50 Transparent Gem Crystals (10 ...)"
    oxygen: int = Field(ge=0, le=200)           # "30 Opaque White Oxygen Crystals"
    energy: int = Field(ge=0, le=50)            # "10 Silver Energy Crystals"
    movement: int = Field(ge=0, le=50)          # "10 Gold Movement Crystals"
    source: Source


class Zone(RulesModel):
    size: int = Field(ge=4, le=20)              # the Play Zone: size x size tile spaces
    inner_min_openings: int = Field(ge=1, le=4)  # "must be 3-Way or 4-Way Tiles"
    # the tile kinds that may lie on the Inner Ring: the rulebook's "3-Way or 4-Way Tiles"
    # (RB:127) are the components "Four-Way Tiles" and "Three-Way Tiles" (RB:25-27); an empty
    # list admits any kind with inner_min_openings open sides (the reading of 097fdb9)
    inner_kinds: tuple[TileKind, ...] = ("four_way", "three_way")
    inner_ring_path: bool                        # "... so that there is an accessible circular path"
    dead_end_rule: bool                          # the placement note on Dead End Tiles
    source: Source

    @model_validator(mode="after")
    def _even(self):
        if self.size % 2:
            raise ValueError("the play zone needs an even size (the 2x2 colony square at its centre)")
        return self


class ColonyRules(RulesModel):
    refill: bool                                # "a place where the Worker can gain all Oxygen back"
    spend_at_colony: bool                       # gems spent only on the worker's own colony tile
    spent_gems: Literal["supply", "removed"]    # where spent gems go once the card is complete
    reveal_on_spend: bool                       # a card with gems on it lies face up
    source: Source


class FightLoss(RulesModel):
    """The reading of "A Fight ... results in the loss of a single Oxygen" beside "the Winner
    gets to steal 1 Resource or 1 Oxygen from the Loser" (RB:137; RULES.md "Fights").
    `oxygen`: "one" the loser always loses exactly one oxygen: the stolen one, or, when the
    winner takes a Resource (or nothing), one to the supply; "steal" the steal is the only loss;
    "extra" the loser loses one oxygen to the supply and the winner steals besides.
    `loser_loses_oxygen` is the older switch (true = "extra", false = "steal")."""
    oxygen: Literal["one", "steal", "extra"] = "one"
    loser_loses_oxygen: bool | None = None
    source: Source

    @model_validator(mode="after")
    def _older_switch(self):
        if self.loser_loses_oxygen is not None:
            object.__setattr__(self, "oxygen", "extra" if self.loser_loses_oxygen else "steal")
        return self


class Fights(RulesModel):
    enabled: bool
    steal_oxygen: bool                          # "steal 1 Resource or 1 Oxygen"
    loss: FightLoss
    source: Source


class AnomalyRules(RulesModel):
    draw_on: Literal["discover", "enter"]       # when an anomaly tile draws an anomaly card
    source: Source


class Trading(RulesModel):
    """Bots cannot negotiate: a fixed-rate offer the other worker's bot accepts or declines."""

    enabled: bool = True
    gem_for_gem: bool = True                    # 1 gem of a colour for 1 of another
    equipment: bool = True                      # an equipment card for 1 gem, either way
    gem_for_oxygen: bool = False                # 1 gem for 1 oxygen, either way
    off_turn: bool = True                       # offers when another worker's turn ends
    offers_per_turn: int = Field(default=1, ge=1, le=5)   # per other worker
    source: Source


class CaveColonyRules(RulesModel):
    game: GameRules
    dice: Dice
    worker: Worker
    crystals: Crystals
    recruit: Recruit
    supply: Supply
    zone: Zone
    colony: ColonyRules
    fights: Fights
    anomaly: AnomalyRules
    trading: Trading
    colonies: dict[ColonyColour, Colony]
    tiles: tuple[Tile, ...] = Field(min_length=1)
    colony_cards: tuple[ColonyCard, ...] = Field(min_length=1)
    positive_traits: tuple[Trait, ...] = Field(min_length=1)
    negative_traits: tuple[Trait, ...] = Field(min_length=1)
    equipment: tuple[Equipment, ...] = Field(min_length=1)
    anomaly_cards: tuple[Anomaly, ...] = Field(min_length=1)
    testing: FaultInjection = FaultInjection()

    @model_validator(mode="after")
    def _cross(self):
        ids: dict[str, str] = {}
        for coll in ("tiles", "colony_cards", "positive_traits", "negative_traits", "equipment",
                     "anomaly_cards"):
            for e in getattr(self, coll):
                if e.id in ids:
                    raise ValueError(f"{coll}: id '{e.id}' is also used in {ids[e.id]} (ids are "
                                     f"unique over all collections, so `delve checks --ablate` "
                                     f"removes exactly one entry)")
                ids[e.id] = coll
        corners = [c.corner for c in self.colonies.values()]
        if sorted(corners) != sorted({"NW", "NE", "SE", "SW"}) or len(self.colonies) != 4:
            raise ValueError("colonies: the four colony tiles take the four corners of the "
                             "2x2 square once each")
        if self.game.cards_to_win > len(self.colony_cards):
            raise ValueError("game.cards_to_win is more than the colony cards there are")
        return self
