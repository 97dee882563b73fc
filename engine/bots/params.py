"""Search-bot parameters: defaults, and the per-game tuning in `data/bots/<game>.toml`.

The tuned values are data (the number and where it came from), not code.  They live in
`data/bots/` rather than in `data/rules/<game>/`: they describe how a bot plays, not the
game, so they are not part of the rules model or its hash.  A file reads:

    [mcts]
    c = 0.5            # UCT exploration constant (rewards are in [0, 1])
    depth = 2          # rollout steps after the tree before the heuristic leaf
    rollout = "random" # or "greedy"
    source = "tuned: delve tune glimmerdeep ... (README, 'Skill ladder')"

A game may also keep its heuristic's weights there, `[heuristic]` (name = number), which its
own bots module reads and checks (the cave colony: engine/games/cave_colony/bots.py).

Unknown keys or wrong types are errors naming the file and the field.
"""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import Field

from ..core.errors import RulesError
from ..core.rules import DATA_DIR, RulesModel, read_toml, validate
from .leaf import LeafFit

DEFAULT_BUDGET = 400


class MCTSParams(RulesModel):
    """How the information-set MCTS bot searches (engine/bots/mcts.py)."""

    budget: int = Field(DEFAULT_BUDGET, ge=1)   # forward-model calls per decision
    c: float = Field(0.5, ge=0.0)               # UCT exploration constant
    depth: int = Field(2, ge=0)                 # rollout steps before the leaf heuristic
    rollout: Literal["random", "greedy"] = "random"
    # Options valued by the game's heuristic first (progressive widening): a node considers
    # its `widen` best options by the heuristic, one more each time its visits pass k*k.
    # 0: every option, in random order.
    widen: int = Field(4, ge=0)
    # A follow-up decision (the game's `extra["follow_up"](state)` is true: the second part of
    # one move of the same seat, such as the dig through a chosen anchor in Glimmerdeep) is
    # widened to its `narrow` best options by the heuristic, one more each time its visits
    # pass k*k, whatever its size, so the parts of one move are searched as the whole move
    # was: its best options first.  0: a follow-up decision is searched as any other.
    narrow: int = Field(0, ge=0)
    # Move ordering below the widening threshold: a node with at least `order` options (two or
    # more) is ranked by the heuristic as a widened node is (its cost counted the same way),
    # tries its options best first and gets the `prior` bias, but keeps every option.  0: off.
    order: int = Field(0, ge=0)
    # Reward: "margin" = logistic of (own value - best other value) / scale; "rank" = share
    # of the other seats beaten.  Both in [0, 1], each seat maximising its own.
    reward: Literal["margin", "rank"] = "margin"
    scale: float = Field(5.0, gt=0.0)
    # Progressive bias from the heuristic: a child of a ranked node starts with `prior`
    # virtual visits worth logistic((its value - the best option's value) / scale), so a small
    # budget falls back on the heuristic's order and a large one outgrows it.  0: off.
    prior: float = Field(0.0, ge=0.0)
    # The leaf value: "evaluate" = the game's heuristic; "game" = the game's
    # `extra["leaf_value"]` (state, seat) -> float where it declares one (Underhaven: the
    # heuristic plus what the turn in progress still holds, by the greedy bot's estimates),
    # else the heuristic.
    # "fitted" = the game's leaf features weighted as `data/bots/<game>.toml` [leaf] says
    # (engine/bots/leaf.py: an estimate of the final score, fitted on self-play).
    leaf: Literal["evaluate", "game", "fitted"] = "evaluate"
    # Tree reuse: when the seat's next decision directly follows its own last one (no other
    # decision in between: the state's `step` counter moved by one), the search starts from
    # the subtree of the action it chose, keeping that subtree's visits (TAG's reuseTree).
    reuse: bool = False
    # Determinisations per decision: 0 = a fresh world for every iteration; K = K worlds
    # dealt once per decision (as the iterations first need them) and each iteration plays
    # on a copy of world `iteration mod K`, chance stream included, so the options of a node
    # are compared on the same hidden cards and the same dice (common random numbers).
    worlds: int = Field(0, ge=0)
    # The other seats' decisions in the tree: "search" = UCT for each seat's own reward
    # (max-n); "greedy" = each other seat plays the heuristic's best option (the node's
    # ranking, the greedy bot's choice up to ties), so the tree spends its visits on the
    # searching seat's own options (an opponent model, TAG's MCTS opponent-model family).
    opponents: Literal["search", "greedy"] = "search"
    source: str = "assumed"


class LadderNote(RulesModel):
    """The strongest rung validated so far (`delve bench` times a game at it) and the evidence:
    the run that showed it above the rung below, with its interval."""
    strongest: str = "greedy"
    evidence: str = ""


class BotsFile(RulesModel):
    mcts: MCTSParams = MCTSParams()
    ladder: LadderNote = LadderNote()
    leaf: LeafFit | None = None
    # A game's heuristic weights by name, read by the game's own bots module (the cave
    # colony's engine/games/cave_colony/bots.py); the game checks the names.
    heuristic: dict[str, float | int | bool | str] | None = None


def bots_path(game_id: str):
    return DATA_DIR / "bots" / f"{game_id}.toml"


@functools.lru_cache(maxsize=None)
def bots_file(game_id: str) -> BotsFile:
    """The game's data/bots file (the defaults when it has none)."""
    path = bots_path(game_id)
    if not path.is_file():
        return BotsFile()
    try:
        return validate(BotsFile, read_toml(path))
    except RulesError as exc:
        raise RulesError(str(path), exc.field, exc.expected) from None


def strongest_rung(game_id: str) -> str:
    """The game's strongest validated rung (`[ladder] strongest`; greedy when none is)."""
    return bots_file(game_id).ladder.strongest


def tuned(game_id: str) -> MCTSParams:
    """The game's tuned MCTS parameters (the defaults when it has no data/bots file)."""
    return bots_file(game_id).mcts


def tuned_leaf(game_id: str) -> LeafFit | None:
    """The game's fitted leaf weights (`[leaf]`), if it has them."""
    return bots_file(game_id).leaf
