"""The cave-colony game (../shared/rulebooks/cave_colony.txt), registered as `cave_colony`.

Module map (one module per rulebook section; RULES.md has the interpretations):
rules.py (typed rules), cards.py (card tables, the modifier vocabulary), zone.py (Play Zone,
rings, ranges), static.py (per-rules tables), state.py (the flat state), setup.py ("Setup"),
turn.py ("Turn Order"), actions.py ("Actions"), movement.py, discovery.py ("Discovery"),
gems.py ("Collecting Gems", spending), colony_cards.py (colony cards, completion, the win),
equipment.py ("Use Equipment"), anomaly.py (anomaly tiles and cards), fights.py ("Fighting"),
trading.py ("Trading", switchable), oxygen.py ("Oxygen", "Dying"), recruiting.py
("Recruiting a Worker"), scoring.py (score, ranks), view.py (observe, determinize, board view),
describe.py (the move log), bots.py (the heuristic, the search leaf).
"""

from __future__ import annotations

from engine.core.setup_checks import check_factions, check_map, check_player_count
from engine.core.protocol import Game, MapCell, Seat
from engine.core.registry import register

# the section modules register their decisions and tasks (state.LEGAL / APPLY / TASKS)
from . import actions, anomaly, bots, colony_cards, discovery, fights, oxygen  # noqa: F401
from . import recruiting, scoring, trading, turn  # noqa: F401
from .cards import DECKS
from .rules import CaveColonyRules
from .setup import new_state
from .static import MAP_ID, static_for
from .view import board_view, determinize, observe

PLAYER_COUNTS = (2, 3, 4)

LABELS = {
    # score categories
    "colony": "Colony cards",
    # actions (moves.action)
    "move": "Move", "explore": "Move and discover", "place": "Place tile", "tile": "Choose tile",
    "collect": "Collect gem", "spend": "Spend gem", "use": "Use equipment", "fight": "Fight",
    "attack": "Attack energy", "steal": "Steal", "end": "End turn", "colony_card": "Keep colony card",
    "trait": "Keep trait", "equipment": "Keep equipment", "anomaly": "Anomaly card",
    "die": "Worker dies", "offer": "Trade offer", "accept": "Accept trade",
    "decline": "Decline trade", "pass": "Pass (trade window)",
    # phases (moves.phase)
    # ("colony", the colony-card phase, is also the score category above: one label serves both)
    "setup": "Setup", "recruit": "Recruiting",
    "oxygen": "Oxygen", "actions": "Actions", "fight": "Fight", "trade": "Trade", "end": "Game end",
}


def factions(rules) -> list[str]:
    """The four colonies, by colour."""
    return sorted(rules.colonies)


def maps(rules) -> list[str]:
    return [MAP_ID]


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    check_player_count(n_players, PLAYER_COUNTS, "the cave-colony game")
    check_map(map_id, maps(rules))
    check_factions(faction_ids, factions(rules), "colony")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    check_setup(rules, len(seats), map, [s.faction for s in seats])
    return new_state(rules, seats, seed, log=log)


def map_cells(rules) -> list[MapCell]:
    """The play-zone grid: colony tiles, the Inner Ring, the Outer Ring and the rest."""
    zone = static_for(rules, None).zone
    colony = {cell: colour for colour, cell in zone.colony_cell.items()}
    out = []
    for c in range(zone.n_cells):
        x, y = zone.xy[c]
        if c in colony:
            kind = f"colony_{colony[c]}"
        elif zone.ring[c] == 1:
            kind = "inner_ring"
        elif zone.ring[c] == zone.outer:
            kind = "outer_ring"
        else:
            kind = f"ring_{zone.ring[c]}"
        out.append(MapCell(MAP_ID, c, x, y, kind))
    return out


def invariants(state) -> list[str]:
    from .invariants import check
    return check(state)


def max_rounds(rules) -> int:
    return rules.game.turn_limit


def choice_catalogue(rules) -> list[tuple[str, str]]:
    """The rules entries players choose (for design checks): colony cards (draw 2 keep 1),
    positive and negative traits (keep the seen card or the unseen one), equipment (draw 2
    keep 1).  Tiles and anomaly cards are drawn, not chosen."""
    return [(deck, c.id) for deck in DECKS[:4] for c in getattr(rules, deck)]


GAME = register(Game(
    id="cave_colony",
    title="Cave Colony",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=CaveColonyRules,
    new_game=new_game,
    observe=observe,
    factions=factions,
    maps=maps,
    map_cells=map_cells,
    check_setup=check_setup,
    evaluate=bots.evaluate,
    action_values=bots.action_values,
    max_rounds=max_rounds,
    invariants=invariants,
    board_view=board_view,
    determinize=determinize,
    labels=LABELS,
    extra={"variable_length": True, "choice_catalogue": choice_catalogue,
           "leaf_value": bots.leaf_value,   # the search bot's leaf (MCTS leaf = "game")
           "chance_values": anomaly.chance_values,
           "fingerprint_sets": [(), ("trading.enabled=false", "fights.loss.oxygen=\"steal\"",
                                     "zone.inner_kinds=[]"),
                                ("game.play_out=true", "colony.spend_at_colony=true",
                                 "crystals.boosts=\"once\"", "anomaly.draw_on=\"discover\"")]},
))
