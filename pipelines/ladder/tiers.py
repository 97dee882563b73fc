"""Balance per skill tier (`delve simulate GAME --tiers greedy,mcts:200,mcts:800`).

A tier is the bot every seat plays with.  The tiers' runs replay the same games (the same
run seed, so the same game seeds, seatings and maps: only the bots differ), grouped like a
sweep: one `sweep_id` ("tiers-<game>-..."), `paired_with` = the first tier's run, and the
tier on `config.tier` (also `runs.bots`).  Paired runs let the tier view compare a faction's
win rate between tiers game by game (pipelines/stats paired differences).
"""

from __future__ import annotations

from typing import Callable

from engine.core.errors import DelveError


def parse_tiers(text: str) -> list[str]:
    from pipelines.run.plan import parse_bots, parse_list
    tiers = [parse_bots(t, 1)[0] for t in parse_list(text) if t]
    if len(tiers) < 1 or len(set(tiers)) != len(tiers):
        raise DelveError(f"--tiers '{text}': expected distinct bots, e.g. greedy,mcts:200,mcts:800")
    return tiers


def run_tiers(game_id: str, store, *, tiers: list[str], n_games: int, players: int,
              seed: int = 0, plan_kwargs: dict | None = None, label: str = "", jobs: int = 1,
              chunk_size: int | None = None, log_moves: bool = True, progress: bool = False,
              echo: Callable[[str], None] = lambda s: None) -> tuple[str, list[tuple[str, str]]]:
    """Validate every tier's plan first, then play one run per tier; (sweep id, [(tier,
    run id)])."""
    from pipelines.lab.sweep import new_sweep_id
    from pipelines.run.pairing import start_run
    from pipelines.run.plan import make_plan

    kw = dict(plan_kwargs or {})
    plans = [(t, make_plan(game_id, n_games=n_games, n_players=players, bots=t, seed=seed, **kw))
             for t in tiers]
    sweep_id = new_sweep_id(game_id, "tiers")
    first, out = None, []
    for tier, plan in plans:
        config = {"game": game_id, "games": n_games, "players": players, "bots": tier,
                  "seed": seed, "tier": tier, "tiers": tiers, "sweep_id": sweep_id,
                  "label": label, "jobs": jobs, "log_moves": log_moves,
                  "game_modules": list(plan.game_modules),
                  **{k: (list(v) if isinstance(v, tuple) else v) for k, v in kw.items()}}
        summary = start_run(plan, store, label=label or f"tier {tier}", config=config,
                            paired_with=first, sweep_id=sweep_id, jobs=jobs,
                            chunk_size=chunk_size, progress=progress, log_moves=log_moves)
        first = first or summary.run_id
        out.append((tier, summary.run_id))
        echo(f"tier {tier}: {summary.run_id} ({summary.n_games} games, {summary.wall_s:.1f}s)")
    return sweep_id, out
