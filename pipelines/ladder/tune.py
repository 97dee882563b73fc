"""Tuning the search bot per game: a small grid search (NTBEA-style in spirit: few
parameters, few values each, every candidate played against the same baseline with the same
seeds), scored by the candidate seat's mean rank (lower is better; less noisy than the win
rate at small samples), with its win rate and interval alongside.  The chosen values are
written by hand to data/bots/<game>.toml with the command that found them as `source`."""

from __future__ import annotations

import itertools

from .match import MatchResult, play_match


def parse_grid(text: str) -> list[dict]:
    """'c=0.3,1;depth=0,4' -> every combination [{'c': '0.3', 'depth': '0'}, ...]."""
    axes = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, _, vals = part.partition("=")
        axes.append([(key.strip(), v.strip()) for v in vals.split(",") if v.strip()])
    return [dict(combo) for combo in itertools.product(*axes)] if axes else [{}]


def candidate_spec(budget: int, over: dict) -> str:
    return "/".join([f"mcts:{budget}"] + [f"{k}={v}" for k, v in over.items()])


def tune(game_id: str, *, budget: int, grid: str, games: int, players: int, seed: int = 0,
         jobs: int = 1, opponent: str = "greedy", echo=print) -> list[MatchResult]:
    from pipelines.run.plan import parse_bots
    results = []
    for over in parse_grid(grid):
        spec = parse_bots(candidate_spec(budget, over), 1)[0]   # validated, canonical
        res = play_match(game_id, spec, opponent, games=games, players=players, seed=seed,
                         jobs=jobs)
        lo, hi = res.interval()
        echo(f"{spec:<48} mean rank {res.mean_rank:.2f}  win {res.rate:6.1%} "
             f"[{lo:.1%}, {hi:.1%}]  {res.seconds / max(1, res.games):.1f} s/game")
        results.append(res)
    return sorted(results, key=lambda r: (r.mean_rank, -r.rate))
