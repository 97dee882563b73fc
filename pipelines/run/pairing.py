"""Paired runs and growing runs: the what-if lab's ways of playing games.

Paired run (`delve simulate ... --paired-with RUN_A`).  Run B replays run A's exact games under
B's rules: the same game ids, game seeds, seat assignments (faction and bot per seat) and maps,
read back from A's `games` and `players` rows.  A game is a pure function of (rules, seats,
seed), so the only thing that differs between A's game i and B's game i is the rules change:
the comparison is paired game by game (common random numbers) and its differences have a much
smaller variance than two independent batches.  B's `runs.paired_with` names A.

Growing run (`--until-ci W`).  A run is played in batches of games (with consecutive game ids
and the run seed, so a grown run holds the same games as one planned that size) until every
faction's 95% win-rate interval is narrower than W, or `max_games` is reached.

Both create the run row themselves (with `paired_with` / `sweep_id`) and then let
`runner.run_plan(resume=True)` play the games the run does not have yet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Sequence

from engine.core.errors import DelveError
from engine.core.protocol import Seat

from pipelines.run.plan import GameSpec, Plan, import_game, make_plan
from pipelines.run.execute import RunSummary, _run_row, new_run_id, run_plan
from pipelines.stats import rate_ci
from pipelines.store import Store, connect_read, resolve_run


# -- reading a base run ------------------------------------------------------------------------

def base_specs(db, run_id: str) -> list[GameSpec]:
    """The games of a stored run as GameSpecs: (game id, game seed, seats, map), by game id."""
    with connect_read(db) as con:
        games = con.execute("SELECT game_id, seed, map FROM games WHERE run_id = ? ORDER BY game_id",
                            [run_id]).fetchall()
        seats = con.execute("SELECT game_id, seat, faction, bot FROM players WHERE run_id = ? "
                            "ORDER BY game_id, seat", [run_id]).fetchall()
    by_game: dict[int, list[Seat]] = {}
    for gid, _seat, faction, bot in seats:
        by_game.setdefault(gid, []).append(Seat(faction, bot))
    return [GameSpec(int(gid), int(seed), tuple(by_game.get(gid, ())), mp) for gid, seed, mp in games]


def paired_plan(db, base_run: str, *, variants: Sequence[str] = (), sets: Sequence[str] = ()
                ) -> tuple[Plan, dict]:
    """A plan that replays every game of `base_run` (id, prefix or 'latest') under the base
    run's rules (its own variants and sets) with `variants` and `sets` applied on top.  Returns
    (plan, base run row).  Raises DelveError naming the problem (unknown run, a base run that
    is not done, a faction the new rules no longer have)."""
    base = resolve_run(db, base_run)
    if base["status"] != "done":
        raise DelveError(f"--paired-with {base['run_id']}: the run is '{base['status']}', expected "
                         f"a finished ('done') run (use `delve resume` first)")
    cfg = json.loads(base["config"] or "{}")
    game = import_game(base["game"], cfg.get("game_modules", ()))
    specs = base_specs(db, base["run_id"])
    if not specs:
        raise DelveError(f"--paired-with {base['run_id']}: the run has no games to replay")
    n_players = len(specs[0].seats)
    # B's rules are A's rules (its variant files and --set overrides) with the new changes on top.
    variants = tuple(cfg.get("variants", ())) + tuple(variants)
    sets = tuple(cfg.get("sets", ())) + tuple(sets)
    plan = make_plan(game.id, n_games=1, n_players=n_players, bots=cfg.get("bots", "random"),
                     seed=int(base["seed"]), variants=variants, sets=sets, map=cfg.get("map"),
                     factions=cfg.get("factions", "rotate"),
                     seating=cfg.get("seating", "rotate"))   # B's record names A's design
    known = set(game.factions(plan.rules.model))
    seatings = {tuple(s.faction for s in spec.seats) for spec in specs}
    for seating in sorted(seatings):
        missing = [f for f in seating if f not in known]
        if missing:
            raise DelveError(f"--paired-with {base['run_id']}: the new rules have no faction "
                             f"'{missing[0]}', which the base run seats; a paired run must seat "
                             f"the same factions")
        game.check_setup(plan.rules.model, n_players, cfg.get("map"), list(seating))
    plan.specs = specs
    return plan, base


# -- creating and playing runs -------------------------------------------------------------------

def start_run(plan: Plan, store: Store, *, label: str = "", config: dict | None = None,
              paired_with: str | None = None, sweep_id: str | None = None,
              jobs: int = 1, chunk_size: int | None = None, progress: bool = False,
              log_moves: bool = True, run_id: str | None = None,
              variant: str | None = None, backend: str = "loky",
              scheduler: str | None = None) -> RunSummary:
    """Create the run row (with `paired_with`, `sweep_id`) and play every game of the plan
    (on a Dask cluster with `backend="dask"`)."""
    run_id = run_id or new_run_id(plan.game.id)
    row = _run_row(plan, run_id, label, config)
    row["paired_with"] = paired_with
    row["sweep_id"] = sweep_id
    if variant:
        row["variant"] = variant
    store.create_run(row)
    return run_plan(plan, store, jobs=jobs, chunk_size=chunk_size, log_moves=log_moves,
                    progress=progress, run_id=run_id, resume=True, backend=backend,
                    scheduler=scheduler)


def add_games(plan_for: Callable[[int, int], Plan], store: Store, run_id: str, first: int, n: int,
              *, jobs: int = 1, chunk_size: int | None = None, log_moves: bool = True,
              progress: bool = False) -> RunSummary:
    """Play games first..first+n-1 (of the same run seed) into an existing run."""
    plan = plan_for(first, n)
    with store.write() as con:
        con.execute("UPDATE runs SET n_games = ? WHERE run_id = ?", [first + n, run_id])
    return run_plan(plan, store, jobs=jobs, chunk_size=chunk_size, log_moves=log_moves,
                    progress=progress, run_id=run_id, resume=True)


def faction_rates(db, run_id: str, decided_only: bool = False) -> dict[str, tuple[float, int]]:
    """faction -> (wins, player-games) of a run, aggregated in DuckDB; a win shared by k tied
    winners counts 1/k (issue 12, P13); `decided_only`: player-games of games with a winner."""
    count = "count(*) FILTER (WHERE nw > 0)" if decided_only else "count(*)"
    with connect_read(db) as con:
        rows = con.execute(
            f"SELECT faction, sum(CASE WHEN won THEN 1.0 / nw ELSE 0.0 END), {count} FROM "
            "(SELECT faction, won, count(*) FILTER (WHERE won) OVER (PARTITION BY game_id) AS nw "
            " FROM players WHERE run_id = ?) GROUP BY faction ORDER BY faction",
            [run_id]).fetchall()
    return {f: (float(w), int(n)) for f, w, n in rows}


def widest_interval(rates: dict[str, tuple[int, int]]) -> tuple[str, float]:
    """The faction whose 95% Wilson win-rate interval is widest, and its width."""
    worst, width = "", 0.0
    for f, (w, n) in rates.items():
        r = rate_ci(w, n)
        if r.high - r.low > width:
            worst, width = f, r.high - r.low
    return worst, width


def games_for_width(rates: dict[str, tuple[int, int]], width: float, n_games: int) -> int:
    """About how many games in all would make every faction's interval narrower than `width`
    (the interval narrows as 1/sqrt(n); uses each faction's current rate)."""
    need = n_games
    for f, (w, n) in rates.items():
        if n == 0:
            continue
        r = rate_ci(w, n)
        cur = r.high - r.low
        if cur > width:
            need = max(need, int(n_games * (cur / width) ** 2 + 0.999))
    return need


@dataclass
class GrowResult:
    run_id: str
    n_games: int
    width: float
    widest: str
    settled: bool
    batches: list[tuple[int, float]] = field(default_factory=list)   # (games so far, width)


def grow_until_ci(game_id: str, store: Store, *, width: float, batch: int, max_games: int,
                  plan_kwargs: dict, label: str = "", config: dict | None = None,
                  jobs: int = 1, chunk_size: int | None = None, log_moves: bool = True,
                  progress: bool = False, echo: Callable[[str], None] = lambda s: None,
                  sweep_id: str | None = None) -> GrowResult:
    """Play `batch` games at a time into one run until every faction's win-rate interval is
    narrower than `width` (or `max_games` are played)."""
    if not 0 < width < 1:
        raise DelveError(f"--until-ci {width}: expected an interval width between 0 and 1, e.g. 0.1")
    if max_games < batch:
        raise DelveError(f"--max-games {max_games}: expected at least --games ({batch})")

    def plan_for(first: int, n: int) -> Plan:
        return make_plan(game_id, n_games=n, first_index=first, **plan_kwargs)

    plan = plan_for(0, batch)
    run_id = new_run_id(plan.game.id)
    cfg = dict(config or {}, until_ci=width, max_games=max_games)
    start_run(plan, store, label=label, config=cfg, jobs=jobs, chunk_size=chunk_size,
              progress=progress, log_moves=log_moves, run_id=run_id, sweep_id=sweep_id)
    done = batch
    res = GrowResult(run_id, done, 1.0, "", False)
    while True:
        res.widest, res.width = widest_interval(faction_rates(store.path, run_id))
        res.batches.append((done, res.width))
        echo(f"{done} games: widest win-rate interval {res.width:.3f} ({res.widest}); target {width}")
        if res.width < width:
            res.settled = True
            break
        if done >= max_games:
            break
        n = min(batch, max_games - done)
        add_games(plan_for, store, run_id, done, n, jobs=jobs, chunk_size=chunk_size,
                  log_moves=log_moves, progress=progress)
        done += n
    res.n_games = done
    return res
