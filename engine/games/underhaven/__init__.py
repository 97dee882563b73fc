"""Underhaven (../shared/rulebooks/underhaven.txt), registered as `underhaven`.

Registration only: the package mirrors the rulebook, one module per section (see the module
map at the top of RULES.md)."""

from __future__ import annotations

from engine.core.protocol import Game
from engine.core.registry import register

from .determinize import determinize
from . import bots, labels, leaf, decisions, scoring  # noqa: F401  (decisions installs the decision tables)
from .board import map_cells, maps
from .invariants import invariants
from .rules import PLAYER_COUNTS, UnderhavenRules
from .setup import check_setup, choice_catalogue, factions, new_game
from .turn import max_rounds
from .view import board_view, observe

def categories_in_play(doc: dict) -> list[str]:
    """The score categories a run's rules document can score (design checks): "focus" with the
    Focus module, "loans" with the Corp locations module (The Coward's Loan)."""
    mods = doc.get("modules", {})
    off = set()
    if not mods.get("focus"):
        off.add("focus")
    if not mods.get("corp_locations"):
        off.add("loans")
    return [c for c in scoring.CATEGORIES if c not in off]


GAME = register(Game(
    id="underhaven",
    title="Underhaven",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=UnderhavenRules,
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
    max_rounds=max_rounds,
    invariants=invariants,
    board_view=board_view,
    extra={"variable_length": True, "choice_catalogue": choice_catalogue,
           "categories_in_play": categories_in_play,
           "leaf_value": leaf.leaf_value,   # the search bot's leaf (MCTS leaf = "game")
           "follow_up": decisions.follow_up,   # where to lay a tile, where to jump (narrow)
           # its terms, weighed per rounds left by MCTS leaf = "fitted" (engine/bots/leaf.py)
           "leaf_features": leaf.leaf_features, "leaf_feature_names": leaf.LEAF_FEATURES,
           # rules variants `python -m engine.core.fingerprint` covers besides the base game
           "fingerprint_sets": [(), ("modules.crooked_caverns=true",),
                                ("modules.advanced_buildings=true", "modules.energy=true"),
                                tuple(f"modules.{m}=true" for m in (
                                    "corp_locations", "focus", "energy", "reputational_income",
                                    "advanced_buildings", "raw_start")),
                                # the other reading of every switch in readings.toml
                                ("readings.flip=reputation", "readings.postpone=build",
                                 "readings.first_player=trade", "readings.missions_space=claim",
                                 "readings.upgrade_pt=1", "readings.trapezoids=4",
                                 "buildings.irrigation_system.workers=2",
                                 'start_tunnel.reading="setup"', "modules.corp_locations=true")]},
))
