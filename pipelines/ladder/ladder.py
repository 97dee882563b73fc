"""The skill ladder (`delve ladder`): rungs random < greedy < mcts:B < mcts:2B < ..., each
rung in one seat against the rung below in every other seat.

Every rung is played as one run per seat (the rung's seat fixed within a run, so the bots
stay fixed to seats as in any run, and the factions rotate over the seats as usual); the
runs are ordinary runs in the database, found again by their label `ladder <id>` and their
config's `ladder` entry: {"id", "rung" (1 = greedy over random), "spec", "below", "seat"}.
A rung's win rate is its seat's share of the wins (a shared win counts 1/k) over all its
runs, with a 95% Wilson interval; the fair share is 1 / players.  A rung is *validated* when
the whole interval lies above the fair share.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from .match import wilson


def ladder_rungs(start_budget: int, n_search: int) -> list[str]:
    """random, greedy, then `n_search` MCTS rungs with budgets doubling from `start_budget`."""
    return ["random", "greedy"] + [f"mcts:{start_budget * 2 ** k}" for k in range(n_search)]


@dataclass
class Rung:
    index: int
    spec: str
    below: str
    games: int = 0
    wins: float = 0.0
    run_ids: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def validated(self, fair: float) -> bool:
        return self.games > 0 and self.interval()[0] > fair


def seat_share(store, run_id: str, seat: int) -> tuple[int, float]:
    """(games, wins) of `seat` in a run; a win shared by k seats counts 1/k."""
    with store.read() as con:
        row = con.execute(
            "SELECT count(*), coalesce(sum(CASE WHEN p.won THEN 1.0 / w.k ELSE 0 END), 0) "
            "FROM players p JOIN (SELECT game_id, count(*) FILTER (WHERE won) AS k "
            "FROM players WHERE run_id = ? GROUP BY game_id) w USING (game_id) "
            "WHERE p.run_id = ? AND p.seat = ?", [run_id, run_id, seat]).fetchone()
    return int(row[0]), float(row[1])


def run_ladder(game_id: str, store, *, players: int, games: int, rungs: list[str],
               seed: int = 0, jobs: int = 1, vs: str | None = None, label: str = "",
               progress: bool = False, echo=print,
               seating: str | None = None) -> tuple[str, list[Rung]]:
    """Play the ladder; `vs` fixes the other seats' bot for every rung (e.g. greedy) instead
    of the rung below.  Returns the ladder id and its rungs (from rung 1 up)."""
    from pipelines.run.execute import run_plan
    from pipelines.run.plan import make_plan, parse_bots

    ladder_id = uuid.uuid4().hex[:8]
    per_seat = -(-games // players)
    out = []
    for k in range(1, len(rungs)):
        spec = parse_bots(rungs[k], 1)[0]
        below = parse_bots(vs or rungs[k - 1], 1)[0]
        if spec == below:
            continue
        rung = Rung(k, spec, below)
        for s in range(players):
            bots = ",".join(spec if j == s else below for j in range(players))
            run_seed = seed + 1000 * k + s
            plan = make_plan(game_id, n_games=per_seat, n_players=players, bots=bots,
                             seed=run_seed, seating=seating)
            config = {"game": game_id, "games": per_seat, "players": players, "bots": bots,
                      "seed": run_seed, "jobs": jobs, "log_moves": False,
                      "game_modules": list(plan.game_modules),
                      "ladder": {"id": ladder_id, "rung": k, "spec": spec, "below": below,
                                 "seat": s}}
            summary = run_plan(plan, store, jobs=jobs, log_moves=False,
                               label=label or f"ladder {ladder_id}", config=config,
                               progress=progress)
            n, w = seat_share(store, summary.run_id, s)
            rung.games += n
            rung.wins += w
            rung.run_ids.append(summary.run_id)
        out.append(rung)
        lo, hi = rung.interval()
        echo(f"  rung {k}: {spec} vs {below}: {rung.rate:.1%} [{lo:.1%}, {hi:.1%}] over "
             f"{rung.games} games")
    return ladder_id, out


def stored_ladder(store, ladder_id: str) -> list[dict]:
    """A stored ladder's rungs from its runs: rung, spec, below, games, wins (by seat share)."""
    with store.read() as con:
        rows = con.execute(
            "SELECT run_id, json_extract(config, '$.ladder.rung')::INTEGER AS rung, "
            "json_extract_string(config, '$.ladder.spec') AS spec, "
            "json_extract_string(config, '$.ladder.below') AS below, "
            "json_extract(config, '$.ladder.seat')::INTEGER AS seat FROM runs "
            "WHERE json_extract_string(config, '$.ladder.id') = ? ORDER BY rung, seat",
            [ladder_id]).fetchall()
    rungs: dict[int, dict] = {}
    for run_id, k, spec, below, seat in rows:
        n, w = seat_share(store, run_id, seat)
        r = rungs.setdefault(k, {"rung": k, "spec": spec, "below": below, "games": 0,
                                 "wins": 0.0})
        r["games"] += n
        r["wins"] += w
    return [rungs[k] for k in sorted(rungs)]
