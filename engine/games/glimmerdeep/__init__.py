"""Glimmerdeep (../shared/rulebooks/glimmerdeep.txt), registered as `glimmerdeep`."""

from __future__ import annotations

from engine.core.errors import SetupError
from engine.core.protocol import Game, MapCell, Seat
from engine.core.registry import register

from . import bots, labels, scoring
from .board import build_board
from .play import GlimmerdeepState
from .rules import GlimmerdeepRules
from .view import board_view

PLAYER_COUNTS = (1, 2, 3, 4)


def factions(rules) -> list[str]:
    return sorted(rules.factions)


def maps(rules) -> list[str]:
    return [m.id for m in rules.maps]


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    if n_players not in PLAYER_COUNTS:
        raise SetupError(f"--players {n_players}: Glimmerdeep seats 1 to 4 players")
    if map_id is not None and map_id not in maps(rules):
        raise SetupError(f"--map {map_id}: unknown map; expected one of {', '.join(maps(rules))}")
    for f in faction_ids or ():
        if f not in rules.factions:
            raise SetupError(f"--factions: unknown faction '{f}'; expected one of "
                             f"{', '.join(factions(rules))}")
    if faction_ids is not None and len(faction_ids) != len(set(faction_ids)):
        raise SetupError("--factions: each player needs a different faction (one sheet each)")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    map_id = map or rules.maps[0].id
    check_setup(rules, len(seats), map_id, [s.faction for s in seats])
    return GlimmerdeepState.new(rules, seats, seed, map_id, log=log)


def observe(state, seat: int):
    """What `seat` may see: everything on the table, but no deck order (the excavation decks
    are face down; the building decks show only their top card)."""
    obs = state.clone(log=False)
    for p in obs.players:
        rest = sorted(p.deck[p.deck_pos:])
        p.deck = p.deck[: p.deck_pos] + rest
    for kind, deck in obs.decks.items():
        if len(deck) > 1:
            obs.decks[kind] = sorted(deck[:-1]) + deck[-1:]
    obs.solo_deck = sorted(obs.solo_deck)
    return obs


def map_cells(rules) -> list[MapCell]:
    out = []
    for m in rules.maps:
        board = build_board(m)
        for cell, kind in enumerate(board.kinds):
            x, y = board.xy(cell)
            out.append(MapCell(m.id, cell, x, y, kind))
    return out


def invariants(state) -> list[str]:
    """What must hold after every step (the conformance test checks it)."""
    bad = []
    board = state.static.board
    for p in state.players:
        if min(p.res) < 0:
            bad.append(f"seat {p.seat}: negative resources {p.res}")
        if p.exc & ~board.full or p.exc & board.blocked:
            bad.append(f"seat {p.seat}: excavated outside the map or on a blocked space")
        if p.exc & board.settlement != board.settlement:
            bad.append(f"seat {p.seat}: the settlement is no longer excavated")
        area = sum(fp.bit_count() for _k, _c, fp in p.buildings) + board.settlement.bit_count()
        if area != p.built.bit_count():
            bad.append(f"seat {p.seat}: buildings overlap")
    if not 1 <= state.round <= state.rules.game.rounds:
        bad.append(f"round {state.round} out of range")
    return bad


def choice_catalogue(rules) -> list[tuple[str, str]]:
    """The rules entries players choose (for design checks): the workshop and forge cards.
    Excavation shapes are drawn and solo market cards revealed, not chosen."""
    return ([("workshops", c.id) for c in rules.workshops]
            + [("forges", c.id) for c in rules.forges])


GAME = register(Game(
    id="glimmerdeep",
    title="Glimmerdeep",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=GlimmerdeepRules,
    new_game=new_game,
    observe=observe,
    factions=factions,
    maps=maps,
    map_cells=map_cells,
    check_setup=check_setup,
    evaluate=bots.evaluate,
    action_values=bots.action_values,
    max_rounds=lambda rules: rules.game.rounds,
    invariants=invariants,
    board_view=board_view,
    labels=labels.LABELS,
    extra={"choice_catalogue": choice_catalogue},
))
