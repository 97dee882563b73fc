"""Glimmerdeep (../shared/rulebooks/glimmerdeep.txt), registered as `glimmerdeep`.

Registration only: the modules mirror the rulebook (see RULES.md, "Module map")."""

from __future__ import annotations

from engine.core.protocol import Game
from engine.core.registry import register

from .determinize import determinize
from . import bots, excavation, labels, leaf, scoring
from .rollout import rollout_action
from .rules import EARLIER_READINGS, GlimmerdeepRules, choice_catalogue
from .setup import PLAYER_COUNTS, check_setup, factions, maps, new_game
from .state import invariants
from .view import board_view, map_cells, observe

GAME = register(Game(
    id="glimmerdeep",
    title="Glimmerdeep",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=GlimmerdeepRules,
    new_game=new_game,
    observe=observe,
    determinize=determinize,
    labels=labels.LABELS,
    factions=factions,
    maps=maps,
    map_cells=map_cells,
    check_setup=check_setup,
    evaluate=bots.evaluate,
    action_values=bots.action_values,
    max_rounds=lambda rules: rules.game.rounds,
    invariants=invariants,
    board_view=board_view,
    extra={"choice_catalogue": choice_catalogue,
           # search rollouts: a random legal action without listing the options (rollout.py)
           "rollout_action": rollout_action,
           # a card's second decision, the dig through its anchor: searched narrowly
           # (MCTSParams.narrow, engine/bots/mcts.py)
           "follow_up": excavation.follow_up,
           # the terms of its heuristic, weighed per rounds left by MCTS leaf = "fitted"
           # (engine/bots/leaf.py; the weights: data/bots/glimmerdeep.toml [leaf])
           "leaf_features": leaf.leaf_features, "leaf_feature_names": leaf.LEAF_FEATURES,
           # the move log's "offered": one excavation card's or building's placements (and one
           # card's anchors) are one option (describe.py: the card or building names them),
           # described once
           "offer_one_per_kind": ("dig", "anchor", "site"),
           # rules variants `python -m engine.core.fingerprint` covers besides the base game
           "fingerprint_sets": [(), EARLIER_READINGS]},
))
