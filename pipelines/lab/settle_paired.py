"""A paired comparison that grows until it is settled (`delve simulate GAME --paired-with A
--until-settled`): run B replays run A's games under B's rules, and both grow together, A by
whole seating cycles of its own design and B by replaying each new game of A, until every
faction's paired change of win rate is settled:

- *changed*: the exact McNemar test on the games whose outcome changed rejects "no change";
- *unchanged within ±margin*: the paired interval (Newcombe) at level 2a lies inside ±margin
  (two one-sided tests at level a: a TOST);
- else not yet settled.

The stopping rule's error: at most L = ceil(max_games / batch) looks, each at level
a = alpha / (L F) for F factions (Bonferroni over the planned looks and the factions), so the
probability that any claim of any look is wrong is at most alpha whenever the run stops (the
Bonferroni bound of a group-sequential design, as `pipelines/run/settle.py` uses for one run).  The level is
stored on B (`config.until_settled`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Callable

from engine.core.errors import DelveError

from pipelines.run.execute import new_run_id
from pipelines.run.pairing import add_games, paired_plan, start_run
from pipelines.run.plan import make_plan
from pipelines.run.settle import look_until_settled
from pipelines.stats.verdicts import check_margin
from pipelines.store import Store, connect_read, resolve_run

from .compare import _PAIRED_ROWS, mcnemar_exact, paired_proportions

CHANGED, UNCHANGED, OPEN = "changed", "unchanged within the margin", "not yet settled"


@dataclass
class PairedSettled:
    run_a: str
    run_b: str
    n_games: int
    settled: bool
    alpha_per_claim: float
    looks: int
    verdicts: dict[str, tuple[str, float, float, float]] = field(default_factory=dict)
    history: list[tuple[int, int]] = field(default_factory=list)   # (games, factions open)


def paired_verdicts(db, run_a: str, run_b: str, *, margin: float, level: float
                    ) -> dict[str, tuple[str, float, float, float]]:
    """Per faction: (verdict, B - A win rate, low, high) with the interval at level 2 `level`
    (the TOST's), the difference judged by the exact McNemar test at `level`."""
    with connect_read(db) as con:
        rows = con.execute(_PAIRED_ROWS, [run_a, run_b]).fetchall()
    out = {}
    for (kind, key, n, wa, wb, _dw, _sdw, _sa, _sb, _ds, _sds, up, down, n11, n10, n01,
         n00) in rows:
        if kind != "faction":
            continue
        diff, low, high, _p, _note = paired_proportions(n, wa, wb, up, down, n11, n10, n01, n00,
                                                        alpha=2 * level)
        if up + down > 0 and mcnemar_exact(n01, n10) < level:
            verdict = CHANGED
        elif -margin < low and high < margin:
            verdict = UNCHANGED
        else:
            verdict = OPEN
        out[str(key)] = (verdict, float(diff), float(low), float(high))
    return out


def grow_paired_until_settled(store: Store, base_run: str, *, variants=(), sets=(), margin: float,
                              batch: int, max_games: int, config: dict, label: str = "",
                              variant: str | None = None, alpha: float = 0.05, jobs: int = 1,
                              chunk_size: int | None = None, log_moves: bool = True,
                              progress: bool = False,
                              echo: Callable[[str], None] = lambda s: None) -> PairedSettled:
    check_margin(margin)
    db = store.path
    base = resolve_run(db, base_run)
    if base["paired_with"]:
        raise DelveError(f"--paired-with {base['run_id']}: that run is itself paired with "
                         f"{base['paired_with']}; grow from its base run")
    cfg_a = json.loads(base["config"] or "{}")
    plan_b, _ = paired_plan(db, base["run_id"], variants=variants, sets=sets)
    n_players = len(plan_b.specs[0].seats)
    kwargs_a = dict(n_players=n_players, bots=cfg_a.get("bots", "random"), seed=int(base["seed"]),
                    variants=tuple(cfg_a.get("variants", ())), sets=tuple(cfg_a.get("sets", ())),
                    map=cfg_a.get("map"), factions=cfg_a.get("factions", "rotate"),
                    seating=cfg_a.get("seating", "rotate"))     # A grows in its own design

    def plan_a(first: int, n: int):
        return make_plan(base["game"], n_games=n, first_index=first, **kwargs_a)

    def plan_b_for(first: int, n: int):
        plan, _ = paired_plan(db, base["run_id"], variants=variants, sets=sets)
        plan.specs = [s for s in plan.specs if first <= s.index < first + n]
        return plan

    probe = plan_a(0, 1)
    cycle = probe.design.cycle if probe.design is not None else 1
    batch = cycle * max(1, math.ceil(batch / cycle))
    have = len(plan_b.specs)
    if max_games < have + batch:
        raise DelveError(f"--max-games {max_games}: expected at least the base run's {have} games "
                         f"and one batch of whole seating cycles ({batch} games)")
    factions = len(set(probe.game.factions(probe.rules.model))) or 1
    looks = 1 + max(0, math.ceil((max_games - have) / batch))
    level = alpha / (looks * factions)
    run_b = new_run_id(base["game"])
    cfg_b = dict(config, until_settled={"margin": margin, "alpha": alpha, "looks_max": looks,
                                        "alpha_per_claim": level, "batch": batch,
                                        "paired": True}, max_games=max_games)
    echo(f"paired with {base['run_id']} ({have} games); growing both in batches of {batch} games "
         f"(whole seating cycles of {cycle}) up to {max_games}: at most {looks} looks, each claim "
         f"at level {level:.2g} (Bonferroni over the looks and {factions} factions); margin "
         f"±{100 * margin:g} points")
    start_run(plan_b, store, label=label, config=cfg_b, paired_with=base["run_id"], jobs=jobs,
              chunk_size=chunk_size, progress=progress, log_moves=log_moves, run_id=run_b,
              variant=variant)
    done = have
    res = PairedSettled(base["run_id"], run_b, done, False, level, 0)

    def grow(first: int) -> None:           # A first (its new games), then B replays them
        add_games(plan_a, store, base["run_id"], first, batch, jobs=jobs, chunk_size=chunk_size,
                  log_moves=log_moves, progress=progress)
        add_games(plan_b_for, store, run_b, first, batch, jobs=jobs, chunk_size=chunk_size,
                  log_moves=log_moves, progress=progress)
    return look_until_settled(res, done, batch, max_games,
                              judge=lambda: paired_verdicts(db, base["run_id"], run_b,
                                                            margin=margin, level=level),
                              is_open=lambda v: v[0] == OPEN, grow=grow, echo=echo,
                              what="paired games")


def settled_lines(res: PairedSettled, margin: float) -> list[str]:
    """The verdicts in words, one line per faction."""
    out = []
    for f, (verdict, d, lo, hi) in sorted(res.verdicts.items()):
        span = f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
        out.append(f"{f:<20} {verdict:<28} {span}")
    state = ("settled" if res.settled else
             "NOT settled (reached --max-games): the open factions need more games")
    out.append(f"{res.n_games} paired games, {res.looks} looks, each claim at level "
               f"{res.alpha_per_claim:.2g}, margin ±{100 * margin:g} points: {state}")
    return out
