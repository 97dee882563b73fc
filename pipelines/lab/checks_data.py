"""The design checks' thresholds and reference ranges, from `data/checks/checks.toml`.

`[default]` holds every threshold; a game's own table (`[glimmerdeep]`...) overrides any of them
for that game and lists its `reference` ranges (the out-of-range check).  A bad file stops with
a message naming the file, the table and the field.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.core.errors import DelveError

CHECKS_FILE = Path(__file__).resolve().parents[2] / "data" / "checks" / "checks.toml"


class Reference(BaseModel):
    """Where a score should fall, and by what source (a rulebook example, a published range)."""
    model_config = ConfigDict(extra="forbid")
    stat: Literal["score", "winner", "loser"]
    low: float | None = None
    high: float | None = None
    players: list[int] | None = None
    source: str

    @model_validator(mode="after")
    def _a_range(self):
        if self.low is None and self.high is None:
            raise ValueError("give low, high or both")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    def holds_for(self, n_players: int) -> bool:
        return self.players is None or n_players in self.players

    def words(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low:g}-{self.high:g}"
        return f"at least {self.low:g}" if self.low is not None else f"at most {self.high:g}"


class SourceCap(BaseModel):
    """The most of a score a category is meant to give (the source-cap check), and why."""
    model_config = ConfigDict(extra="forbid")
    category: str
    at_most: float = Field(gt=0, le=1)
    source: str


class Hazard(BaseModel):
    """Chance cards meant to cost the worker that draws them (the paying-hazard check): the
    action whose move rows name the card drawn, what a unit of each resource is worth to the
    worker (the game's `chance_values` give each card's expected change per resource), and
    why."""
    model_config = ConfigDict(extra="forbid")
    action: str
    weights: dict[str, float] = Field(min_length=1)
    at_most: float = 0.0
    source: str


class Thresholds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    saturation_share: float = Field(0.5, gt=0, le=1)
    skip_categories: list[str] = []
    dead_ratio: float = Field(0.25, gt=0, lt=1)
    min_expected: float = Field(8, ge=1)
    dead_games_share: float = Field(0.1, gt=0, le=1)
    procedural: list[str] = ["skip", "stop", "pass", "done", "decline", "end", "later", "none",
                             "*_none"]
    skip_sources: list[str] = []
    forced_share: float = Field(0.95, gt=0, le=1)
    min_offered: int = Field(30, ge=1)
    runaway_ratio: float = Field(2.0, gt=1)
    decided_share: float = Field(0.34, gt=0, le=1)
    min_lead_changes: float = Field(0.5, ge=0)
    turn_limit_share: float = Field(0.05, ge=0, le=1)
    dominant_share: float = Field(0.5, gt=0, le=1)
    unused_share: float = Field(0.1, ge=0, lt=1)
    penalties: list[str] = []
    reference: list[Reference] = []
    source_cap: list[SourceCap] = []
    hazard: list[Hazard] = []


def load_thresholds(game: str, path: Path = CHECKS_FILE, **overrides) -> Thresholds:
    """The game's thresholds: `[default]`, then the game's table, then `overrides`."""
    try:
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        doc = {}
    except tomllib.TOMLDecodeError as exc:
        raise DelveError(f"{path}: not valid TOML ({exc})") from None
    merged = dict(doc.get("default", {}))
    merged.update(doc.get(game, {}) or {})
    merged.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return Thresholds.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise DelveError(f"{path}: [{game}] (or [default]) field '{where}': {err['msg']}") from None
