"""A match: one bot in one seat against another bot in every other seat, the seat rotated
game by game, factions rotated as in any run.  Played in worker processes without the
database (the tuning grid); the ladder writes its matches to the database as runs."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import game_seed
from pipelines.stats import rate_ci


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (pipelines.stats.rate_ci, statsmodels);
    (0, 1) when no game was played."""
    if n == 0:
        return 0.0, 1.0
    r = rate_ci(wins, n)
    return r.low, r.high


@dataclass
class MatchResult:
    spec: str
    opponent: str
    games: int = 0
    wins: float = 0.0        # shared wins count 1/k
    rank_sum: int = 0        # the candidate seat's rank (1 = first)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def match_seats(factions: list[str], i: int, players: int, spec: str, opponent: str):
    """Game i: the candidate in seat i % players, factions rotated over seats."""
    cand = i % players
    return [Seat(factions[(i // players + s) % len(factions)], spec if s == cand else opponent)
            for s in range(players)], cand


def play_match_games(game_id: str, spec: str, opponent: str, players: int, seed: int,
                     indices: list[int], modules: tuple[str, ...] = ()) -> list[tuple]:
    """(won share, rank, wall s) of the candidate seat in each game of `indices`."""
    import importlib
    import time
    for mod in modules:
        importlib.import_module(mod)
    game = get_game(game_id)
    rules = game.load_rules().model
    factions = game.factions(rules)
    maps = game.maps(rules)
    out = []
    for i in indices:
        seats, cand = match_seats(factions, i, players, spec, opponent)
        t0 = time.perf_counter()
        rec = play_game(game, rules, seats, game_seed(seed, i), log=False,
                        map=maps[(i // (players * len(factions))) % len(maps)])
        winners = [p["seat"] for p in rec.players if p["won"]]
        share = 1.0 / len(winners) if cand in winners else 0.0
        rank = next(p["rank"] for p in rec.players if p["seat"] == cand)
        out.append((share, rank, time.perf_counter() - t0))
    return out


def play_match(game_id: str, spec: str, opponent: str, *, games: int, players: int,
               seed: int = 0, jobs: int = 1) -> MatchResult:
    from joblib import Parallel, delayed
    chunks = [list(range(k, games, max(1, jobs * 4))) for k in range(min(games, max(1, jobs * 4)))]
    if jobs == 1:
        parts = [play_match_games(game_id, spec, opponent, players, seed, list(range(games)))]
    else:
        parts = Parallel(n_jobs=jobs)(delayed(play_match_games)(
            game_id, spec, opponent, players, seed, c) for c in chunks)
    res = MatchResult(spec, opponent)
    for part in parts:
        for share, rank, secs in part:
            res.games += 1
            res.wins += share
            res.rank_sum += rank
            res.seconds += secs
    return res
