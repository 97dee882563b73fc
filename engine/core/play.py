"""Play one game with bots and return its rows (the unit of work of the pipeline)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .protocol import Game, Seat
from .rng import bot_rng


@dataclass
class GameRecord:
    game: dict            # one row of `games` (without run_id / game_id)
    players: list[dict]   # rows of `players`
    moves: dict           # columns of `moves`
    scores: dict          # columns of `score_events`


def play_game(game: Game, rules, seats: list[Seat], seed: int, *, map: str | None = None,
              log: bool = True, max_steps: int = 100_000) -> GameRecord:
    from ..bots import make_bot

    t0 = time.perf_counter()
    state = game.new_game(rules, seats, seed, map=map, log=log)
    bots = [make_bot(s.bot, game, bot_rng(seed, i)) for i, s in enumerate(seats)]
    observe = game.observe
    while not state.is_over():
        seat = state.to_move()
        state.apply(bots[seat].choose(observe(state, seat), seat))
        if state.step > max_steps:
            raise RuntimeError(f"{game.id}: game with seed {seed} exceeded {max_steps} steps")
    results = state.result()
    wall_ms = (time.perf_counter() - t0) * 1000.0
    winners = [r.seat for r in results if r.won]
    row = {
        "seed": seed, "n_players": len(seats), "map": state.map_id, "rounds": state.round,
        "steps": state.step, "first_seat": state.first_seat,
        "winner_seat": winners[0] if len(winners) == 1 else (winners[0] if winners else None),
        "ended_by": state.ended_by, "wall_ms": wall_ms,
    }
    players = [{"seat": r.seat, "faction": seats[r.seat].faction, "bot": seats[r.seat].bot,
                "score": r.score, "rank": r.rank, "won": r.won} for r in results]
    return GameRecord(row, players, state.log.moves(), state.log.scores())
