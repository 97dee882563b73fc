"""Replay a stored game: rebuild it from its seed, seats and the run's rules, move by move,
and check every move, score event and final score against the database."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Callable

from engine.bots import seat_bots
from engine.core.errors import DelveError
from engine.core.protocol import Seat
from engine.core.rules import validate

from pipelines.run.plan import import_game
from pipelines.store import connect_read, resolve_run

MOVE_KEYS = ("step", "round", "phase", "seat", "action", "detail", "cell")
SCORE_KEYS = ("step", "round", "seat", "category", "points")


@dataclass
class ReplayResult:
    run_id: str
    game_id: int
    n_moves: int = 0
    mismatches: list[str] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    #: the board at the end of the replayed game (as `board_at_step` gives it), so a page that
    #: shows the last step after verifying the game need not replay it a second time
    final_board: dict | None = None

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _fetch(con, sql: str, params) -> list[dict]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def load_game_rows(db, run: str, game_id: int, with_log: bool = True, con=None):
    """The run's row and one game's rows (games, players, moves, score events); `con`: an
    open connection to `db` to read through (the dashboard's page connection), else a short
    read-only one."""
    run_row = resolve_run(db, run, con)
    rid = run_row["run_id"]
    with (contextlib.nullcontext(con) if con is not None else connect_read(db)) as con:
        games = _fetch(con, "SELECT * FROM games WHERE run_id = ? AND game_id = ?", [rid, game_id])
        players = _fetch(con, "SELECT * FROM players WHERE run_id = ? AND game_id = ? ORDER BY seat",
                         [rid, game_id])
        moves = _fetch(con, "SELECT * FROM moves WHERE run_id = ? AND game_id = ? ORDER BY step",
                       [rid, game_id]) if with_log else []
        scores = _fetch(con, "SELECT * FROM score_events WHERE run_id = ? AND game_id = ? "
                             "ORDER BY step, seat, category", [rid, game_id]) if with_log else []
    if not games and 0 <= game_id < int(run_row["n_games"] or 0):
        raise GameNotStored(f"Run '{rid}' has no game {game_id} stored in '{db}'")
    if not games:
        raise DelveError(f"Run '{rid}' has no game {game_id} in database '{db}': expected a "
                         f"game_id from 0 to {run_row['n_games'] - 1}")
    return run_row, games[0], players, moves, scores


class GameNotStored(DelveError):
    """A planned game that is not in the database (it raised, or the run was interrupted)."""


def _rebuild(run_row: dict, grow: dict, players: list[dict]):
    """A new game from the stored seed, seats, map and the run's rules, with the bots' own
    seeded streams: (game, seats, seed, state, bots), before any move."""
    config = json.loads(run_row["config"] or "{}")
    game = import_game(run_row["game"], config.get("game_modules", ()))
    model = validate(game.rules_model, json.loads(run_row["rules"]))
    seats = [Seat(p["faction"], p["bot"]) for p in players]
    seed = int(grow["seed"])
    map_id = grow.get("map") or run_row.get("map") or config.get("map")  # the game's own map
    state = game.new_game(model, seats, seed, map=map_id, log=True)
    bots = seat_bots(game, seats, seed)
    return game, seats, seed, state, bots


def _advance(game, state, bots) -> None:
    """One decision: the seat to move asks its bot, on its own view of the state."""
    seat = state.to_move()
    state.apply(bots[seat].choose(game.observe(state, seat), seat))


def state_at_step(db, run: str, game_id: int, step: int):
    """(game, state) of a stored game rebuilt from its seed up to logged move `step`: every
    decision up to the one that logged it (step 0: the state after setup, before any move;
    a step past the end: the final state)."""
    run_row, grow, players, _m, _s = load_game_rows(db, run, game_id, with_log=False)
    game, _seats, _seed, state, bots = _rebuild(run_row, grow, players)
    steps = state.log.m_step
    while not state.is_over() and (not steps or steps[-1] < step) and step > 0:
        _advance(game, state, bots)
    return game, state


def board_at_step(db, run: str, game_id: int, step: int) -> dict:
    """The board of a stored game after logged move `step` (``Game.board_view``): a small,
    cacheable dict with `map`, `cells` (list of (cell, seat or None, label)), or `cells`
    None when the game has no board view."""
    game, state = state_at_step(db, run, game_id, step)
    return _board(game, state)


def _board(game, state) -> dict:
    view = getattr(game, "board_view", None)
    return {"map": getattr(state, "map_id", None), "round": state.round,
            "cells": None if view is None else [tuple(c) for c in view(state)]}


def replay(db, run: str, game_id: int, echo: Callable[[str], None] = print,
           con=None) -> ReplayResult:
    """`con`: an open connection to `db` to read the stored rows through (else its own)."""
    try:
        run_row, grow, players, db_moves, db_scores = load_game_rows(db, run, game_id, con=con)
    except GameNotStored as exc:  # reproduce it: play it again from its seed, here
        from pipelines.run.execute import reproduce_game
        echo(f"{exc}: it raised or was not played yet. Playing it again from its seed ...")
        spec, rec = reproduce_game(db, run, game_id)  # a game that raises raises again here
        echo(f"Game {game_id} (seed {spec.seed}) now plays to the end without error "
             f"({rec.game['steps']} steps, scores {[p['score'] for p in rec.players]}).")
        res = ReplayResult(resolve_run(db, run)["run_id"], game_id, n_moves=rec.game["steps"])
        res.mismatches.append(f"game {game_id} is not in the database: resume the run to store it")
        return res
    game, seats, seed, state, bots = _rebuild(run_row, grow, players)
    res = ReplayResult(run_row["run_id"], game_id)
    echo(f"Run {res.run_id}, game {game_id}: {game.title}, seed {seed}, map {state.map_id}, "
         f"rules {run_row['rules_hash']}")
    for p in players:
        echo(f"  seat {p['seat']}: {p['faction']} ({p['bot']})")
    log = state.log
    compare_moves = bool(db_moves)
    while not state.is_over():
        before = len(log.m_step)
        _advance(game, state, bots)
        for i in range(before, len(log.m_step)):
            mv = {k: getattr(log, "m_" + k)[i] for k in MOVE_KEYS}
            line = (f"{mv['step']:>5}  r{mv['round']}  {mv['phase']:<12} seat {mv['seat']}  "
                    f"{mv['action']}" + (f" {mv['detail']}" if mv["detail"] else "")
                    + (f" @{mv['cell']}" if mv["cell"] is not None else ""))
            if compare_moves:
                stored = db_moves[i] if i < len(db_moves) else None
                if stored is None or any(stored[k] != mv[k] for k in MOVE_KEYS):
                    want = "nothing" if stored is None else \
                        ", ".join(f"{k}={stored[k]!r}" for k in MOVE_KEYS)
                    line += f"   <-- MISMATCH: the database has {want}"
                    res.mismatches.append(f"move {i + 1}: replayed {mv}, stored {want}")
            echo(line)
        res.n_moves = len(log.m_step)
    if compare_moves and len(db_moves) != res.n_moves:
        res.mismatches.append(f"the database has {len(db_moves)} moves, the replay {res.n_moves}")
    replayed_scores = sorted(zip(*(log.scores()[k] for k in SCORE_KEYS)),
                             key=lambda r: (r[0], r[2], r[3]))
    stored_scores = sorted((tuple(r[k] for k in SCORE_KEYS) for r in db_scores),
                           key=lambda r: (r[0], r[2], r[3]))
    if sorted(replayed_scores) != sorted(stored_scores):
        res.mismatches.append(f"score events differ ({len(replayed_scores)} replayed, "
                              f"{len(stored_scores)} stored)")
    results = state.result()
    res.scores = [r.score for r in results]
    for r in results:
        stored = next((p for p in players if p["seat"] == r.seat), None)
        ok = stored is not None and stored["score"] == r.score and stored["rank"] == r.rank
        echo(f"  seat {r.seat} ({seats[r.seat].faction}): {r.score} points, rank {r.rank}"
             + (" (winner)" if r.won else "") + ("" if ok else
             f"   <-- MISMATCH: stored {stored['score'] if stored else None} points, "
             f"rank {stored['rank'] if stored else None}"))
        if not ok:
            res.mismatches.append(f"seat {r.seat}: replayed score {r.score}, stored "
                                  f"{stored['score'] if stored else None}")
    for k in ("steps", "rounds", "first_seat"):
        val = {"steps": state.step, "rounds": state.round, "first_seat": state.first_seat}[k]
        if grow[k] != val:
            res.mismatches.append(f"games.{k}: replayed {val}, stored {grow[k]}")
    if not compare_moves:
        echo("  (this run was simulated with --no-log-moves: moves checked through scores only)")
    res.final_board = _board(game, state)
    return res
