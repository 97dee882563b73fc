"""A fitted leaf value for the search bot (MCTS `leaf = "fitted"`).

A game may declare `extra["leaf_features"]`: `(state, seat) -> (features, bucket)`, the terms
its heuristic adds up (so that their plain sum is its leaf value) and a small whole number
saying where the game stands (Underhaven: the rounds left).  `extra["leaf_feature_names"]`
names the terms.  The fitted leaf is then, per bucket, a weighted sum of the terms plus a
constant: an estimate of the seat's *final* score on the same scale as the score a finished
game gives the search, where the plain sum only counts what the seat holds now.

The weights are data, fitted by `delve fit-leaf GAME` (`pipelines.ladder.leaf_fit`:
least squares on states sampled from self-play, each state's target the seat's final
score) and stored in `data/bots/<game>.toml` under `[leaf]` with their source:

    [leaf]
    features = ["rep", "end", ...]      # the game's leaf_feature_names, in order
    source = "fitted: delve fit-leaf underhaven --games 500 --bots greedy --seed 1 (...)"
    [leaf.weights]                      # bucket -> one weight per feature, then the constant
    1 = [0.9, 1.0, ..., 3.2]

A bucket outside the fitted ones takes the nearest fitted bucket's weights.
"""

from __future__ import annotations

from typing import Callable

from pydantic import Field, field_validator, model_validator

from ..core.errors import DelveError
from ..core.rules import RulesModel


class LeafFit(RulesModel):
    """The `[leaf]` table of a data/bots file."""

    features: list[str] = Field(min_length=1)
    weights: dict[str, list[float]] = Field(min_length=1)
    source: str = "assumed"

    @field_validator("weights")
    @classmethod
    def _buckets(cls, weights: dict[str, list[float]]) -> dict[str, list[float]]:
        for key in weights:
            if not key.lstrip("-").isdigit():
                raise ValueError(f"bucket '{key}' is not a whole number")
        return weights

    @model_validator(mode="after")
    def _lengths(self):
        n = len(self.features) + 1
        for key, row in self.weights.items():
            if len(row) != n:
                raise ValueError(f"weights.{key}: {len(row)} weights, expected {n} (one per "
                                 f"feature, then the constant)")
        return self


def fitted_leaf(game, fit: LeafFit) -> Callable[[object, int], float]:
    """The leaf value `(state, seat) -> float` of `fit` over the game's leaf features."""
    features = game.extra.get("leaf_features")
    names = game.extra.get("leaf_feature_names")
    if features is None or names is None:
        raise DelveError(f"{game.id}: leaf = \"fitted\" needs the game to declare "
                         f"extra['leaf_features'] and extra['leaf_feature_names']")
    if list(names) != list(fit.features):
        raise DelveError(f"data/bots/{game.id}.toml [leaf] features {fit.features} are not "
                         f"the game's leaf features {list(names)}: refit with "
                         f"`delve fit-leaf {game.id} --write`")
    table = {int(k): tuple(v) for k, v in fit.weights.items()}
    lo, hi = min(table), max(table)
    rows = [table.get(b) or table[min(table, key=lambda k: (abs(k - b), k))]
            for b in range(lo, hi + 1)]

    def value(state, seat: int) -> float:
        terms, bucket = features(state, seat)
        w = rows[min(hi, max(lo, bucket)) - lo]
        v = w[-1]
        for x, k in zip(terms, w):
            v += x * k
        return v

    return value

