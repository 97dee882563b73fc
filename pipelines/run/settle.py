"""A run that grows until every faction's verdict is settled (`delve simulate --until-settled`).

The run is played in batches of whole seating cycles (so every look rests on a balanced design)
until each faction is *balanced within ±margin*, *too strong* or *too weak*
(`pipelines.stats.verdicts`), or `max_games` are played.

The stopping rule's error: the run may look at most L = ceil(max_games / batch) times, and every
look tests at level alpha / L (Bonferroni over the planned looks; Holm over the factions within
a look).  The probability that any verdict of any look is wrong is then at most alpha, whenever
the run stops: a conservative alpha-spending rule (the Bonferroni bound of a group-sequential
design, cruder than O'Brien-Fleming but valid for any look schedule and both kinds of claim,
difference and equivalence).  The level per look is stored on the run
(`config.until_settled.alpha_per_look`), so the Factions page, the report and `delve.api` judge
the grown run at the same level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from engine.core.errors import DelveError

from pipelines.stats import rate_table
from pipelines.stats.verdicts import STRONG, UNKNOWN, WEAK, check_margin, verdict_columns
from pipelines.store import Store, connect_read

from .execute import new_run_id
from .pairing import add_games, faction_rates, start_run
from .plan import Plan, make_plan


@dataclass
class Settled:
    run_id: str
    n_games: int
    settled: bool
    alpha_per_look: float
    looks: int
    verdicts: dict[str, tuple[str, float, float]] = field(default_factory=dict)  # f -> (verdict, rate, p)
    history: list[tuple[int, int]] = field(default_factory=list)   # (games, factions unsettled)


def decided_rates(db, run_id: str) -> tuple[dict[str, tuple[float, int]], int]:
    """faction -> (wins, player-games) over the decided games (a tied win counts 1/k), and the
    number of decided games."""
    rates = faction_rates(db, run_id, decided_only=True)
    with connect_read(db) as con:
        decided = con.execute("SELECT count(DISTINCT game_id) FROM players WHERE run_id = ? AND won",
                              [run_id]).fetchone()[0]
    return rates, int(decided)


def judge(rates: dict[str, tuple[float, int]], decided: int, n_players: int, *, margin: float,
          alpha: float) -> dict[str, tuple[str, float, float]]:
    """Each faction's verdict at level `alpha`: (verdict, rate, equivalence Holm p)."""
    names = sorted(rates)
    wins = [rates[f][0] for f in names]
    n = [rates[f][1] for f in names]
    fair = [1.0 / n_players] * len(names)
    table = rate_table(wins, n, fair, alpha=alpha)
    cols = verdict_columns(wins, n, fair, table["rate"], table["significant"], margin=margin,
                           alpha=alpha, total_games=decided)
    # each verdict with the Holm p of its own test: the difference test for too strong / too
    # weak, the equivalence test (TOST) for balanced and for not yet known
    return {f: (cols["verdict"][i], table["rate"][i],
                table["p_holm"][i] if cols["verdict"][i] in (STRONG, WEAK) else cols["p_tost_holm"][i])
            for i, f in enumerate(names)}


def grow_until_settled(game_id: str, store: Store, *, margin: float, batch: int, max_games: int,
                       plan_kwargs: dict, label: str = "", config: dict | None = None,
                       alpha: float = 0.05, jobs: int = 1, chunk_size: int | None = None,
                       log_moves: bool = True, progress: bool = False,
                       echo: Callable[[str], None] = lambda s: None) -> Settled:
    check_margin(margin)

    def plan_for(first: int, n: int) -> Plan:
        return make_plan(game_id, n_games=n, first_index=first, **plan_kwargs)

    probe = plan_for(0, 1)
    cycle = probe.design.cycle if probe.design is not None else 1
    batch = cycle * max(1, math.ceil(batch / cycle))        # whole seating cycles
    if max_games < batch:
        raise DelveError(f"--max-games {max_games}: expected at least one batch of whole seating "
                         f"cycles ({batch} games; a cycle is {cycle})")
    looks = max(1, math.ceil(max_games / batch))
    per_look = alpha / looks
    n_players = int(plan_kwargs.get("n_players") or 4)
    run_id = new_run_id(probe.game.id)
    cfg = dict(config or {}, until_settled={"margin": margin, "alpha": alpha, "looks_max": looks,
                                           "alpha_per_look": per_look, "batch": batch},
               max_games=max_games)
    echo(f"growing in batches of {batch} games (whole seating cycles of {cycle}) up to "
         f"{max_games}: at most {looks} looks, each at level {per_look:.2g} (Bonferroni over the "
         f"looks, Holm over the factions); margin ±{100 * margin:g} points")
    start_run(plan_for(0, batch), store, label=label, config=cfg, jobs=jobs, chunk_size=chunk_size,
              progress=progress, log_moves=log_moves, run_id=run_id)
    done = batch
    res = Settled(run_id, done, False, per_look, 0)

    def grow(first: int) -> None:
        add_games(plan_for, store, run_id, first, batch, jobs=jobs, chunk_size=chunk_size,
                  log_moves=log_moves, progress=progress)
    return look_until_settled(res, done, batch, max_games,
                              judge=lambda: judge(*decided_rates(store.path, run_id), n_players,
                                                  margin=margin, alpha=per_look),
                              is_open=lambda v: v[0] == UNKNOWN, grow=grow, echo=echo)


def look_until_settled(res, done: int, batch: int, max_games: int, *, judge: Callable[[], dict],
                       is_open: Callable[[tuple], bool], grow: Callable[[int], None],
                       echo: Callable[[str], None], what: str = "games"):
    """The looks of a growing run (one run here; a paired pair in pipelines/lab/settle_paired):
    judge, record the look, stop when nothing is open or the next batch would pass
    `max_games`, else `grow(done)` by one batch.  `res` carries verdicts, looks, history,
    settled and n_games."""
    while True:
        res.verdicts = judge()
        res.looks += 1
        open_ = [f for f, v in res.verdicts.items() if is_open(v)]
        res.history.append((done, len(open_)))
        echo(f"{done} {what}: {len(res.verdicts) - len(open_)} of {len(res.verdicts)} factions "
             f"settled" + (f"; not yet: {', '.join(open_)}" if open_ else ""))
        if not open_:
            res.settled = True
            break
        if done + batch > max_games:
            break
        grow(done)
        done += batch
    res.n_games = done
    return res
