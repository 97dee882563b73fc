"""Sweeps: one run per value of a rules parameter, all on the same seeds (`delve sweep`).

    delve sweep glimmerdeep --set game.rounds=4,5,6 --games 200
    delve sweep toy --set factions.moles.bonus=0:4:1 --players 2 --factions moles,badgers

A `--set path=v1,v2,v3` (or `path=lo:hi:step`, both ends included) is swept; a `--set` with a
single value is applied to every run.  Several swept paths give their cartesian product.
Every run of a sweep has the same run seed, so game i has the same seed and the same seats in
every run (the runs are paired on the same seeds: common random numbers); each run records
the sweep's `sweep_id`, `paired_with` = the sweep's first run, and its point in `config.sweep`.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Sequence

import click
import polars as pl

from engine.core.errors import DelveError
from engine.core.rules import parse_set

from pipelines.run.plan import make_plan
from pipelines.stats import rate_ci
from pipelines.store import Store, connect_read

MAX_POINTS = 60
_NUM = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"^\s*({_NUM})\s*:\s*({_NUM})\s*(?::\s*({_NUM})\s*)?$")


def _num(text: str):
    return int(text) if re.fullmatch(r"-?\d+", text.strip()) else float(text)


def parse_values(arg: str, raw: str) -> list:
    """The values of a swept --set: 'v1,v2,v3' or 'lo:hi[:step]' (inclusive; step 1 by default
    for integers).  Each value is parsed like a --set value (TOML literal, else a bare word)."""
    m = _RANGE.match(raw)
    if m:
        lo, hi = _num(m.group(1)), _num(m.group(2))
        step = _num(m.group(3)) if m.group(3) else (1 if isinstance(lo, int) and isinstance(hi, int)
                                                   else None)
        if step is None:
            raise DelveError(f"--set {arg}: a range of decimals needs a step, e.g. {lo}:{hi}:0.5")
        if step <= 0 or hi < lo:
            raise DelveError(f"--set {arg}: expected lo:hi:step with lo <= hi and step > 0")
        n = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if n > MAX_POINTS:
            raise DelveError(f"--set {arg}: {n} values; a sweep takes at most {MAX_POINTS}")
        vals = [lo + i * step for i in range(n)]
        if all(isinstance(v, int) for v in (lo, hi, step)):
            return [int(v) for v in vals]
        return [round(float(v), 10) for v in vals]
    vals = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            raise DelveError(f"--set {arg}: an empty value in the list")
        vals.append(parse_set(f"x={part}")[1])
    if len(vals) > MAX_POINTS:
        raise DelveError(f"--set {arg}: {len(vals)} values; a sweep takes at most {MAX_POINTS}")
    return vals


def is_swept(raw: str) -> bool:
    raw = raw.strip()
    if raw[:1] in "[{\"'":
        return False
    return "," in raw or bool(_RANGE.match(raw) and ":" in raw)


def split_sets(sets: Sequence[str]) -> tuple[list[str], list[tuple[str, list]]]:
    """(fixed --set args, [(path, values), ...] swept)."""
    fixed, swept = [], []
    for arg in sets:
        if "=" not in arg:
            raise DelveError(f"--set {arg}: expected the form dotted.path=value")
        path, raw = arg.split("=", 1)
        if is_swept(raw):
            swept.append((path.strip(), parse_values(arg, raw)))
        else:
            fixed.append(arg)
    return fixed, swept


def set_arg(path: str, value) -> str:
    """A --set argument for a value (TOML literal: JSON works for numbers, bools, strings)."""
    return f"{path}={json.dumps(value)}"


def new_sweep_id(game_id: str, kind: str = "sweep") -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{kind}-{game_id}-{stamp}-{uuid.uuid4().hex[:6]}"


@dataclass
class SweepResult:
    sweep_id: str
    runs: list[tuple[dict, str]]   # (point {path: value}, run_id)


def run_sweep(game_id: str, store: Store, *, swept: list[tuple[str, list]], fixed: Sequence[str],
              n_games: int, plan_kwargs: dict, label: str = "", jobs: int = 1,
              chunk_size: int | None = None, log_moves: bool = True, progress: bool = False,
              echo: Callable[[str], None] = lambda s: None, sweep_id: str | None = None,
              kind: str = "sweep") -> SweepResult:
    """Validate every point first (nothing is written if one fails), then play one run each."""
    from pipelines.run.pairing import start_run
    if not swept:
        raise DelveError("delve sweep needs at least one swept --set, e.g. --set game.rounds=4,5,6 "
                         "or --set game.rounds=3:6")
    paths = [p for p, _ in swept]
    points = [dict(zip(paths, combo)) for combo in itertools.product(*[v for _, v in swept])]
    plans = []
    for point in points:
        sets = list(fixed) + [set_arg(p, v) for p, v in point.items()]
        plans.append((point, make_plan(game_id, n_games=n_games, sets=sets, **plan_kwargs)))
    sweep_id = sweep_id or new_sweep_id(game_id, kind)
    out = SweepResult(sweep_id, [])
    first = None
    for point, plan in plans:
        config = {"game": game_id, "games": n_games, "sets": list(plan.sets), "sweep": point,
                  "sweep_id": sweep_id, "label": label, "jobs": jobs,
                  "game_modules": list(plan.game_modules), "log_moves": log_moves,
                  **{k: (list(v) if isinstance(v, tuple) else v) for k, v in plan_kwargs.items()
                     if k != "sets"}}
        config["players"] = config.pop("n_players", plan.n_players)
        summary = start_run(plan, store, label=label or f"{kind} {point}", config=config,
                            paired_with=first, sweep_id=sweep_id, jobs=jobs,
                            chunk_size=chunk_size, progress=progress, log_moves=log_moves)
        first = first or summary.run_id
        out.runs.append((point, summary.run_id))
        echo(f"{point}: {summary.run_id} ({summary.n_games} games, {summary.wall_s:.1f}s)")
    return out


def sweep_table(db, sweep_id: str) -> pl.DataFrame:
    """One row per (run, faction): the sweep point, wins (a tied win 1/k), player-games and the
    win rate with its 95% Wilson interval; aggregated in DuckDB."""
    with connect_read(db) as con:
        rows = con.execute(
            """SELECT r.run_id, r.config, r.n_players, p.faction, sum(p.credit),
                      count(*), avg(p.score)
               FROM runs r JOIN (
                   SELECT *, CASE WHEN won THEN 1.0 / count(*) FILTER (WHERE won)
                                  OVER (PARTITION BY run_id, game_id) ELSE 0.0 END AS credit
                   FROM players) p ON p.run_id = r.run_id
               WHERE r.sweep_id = ? GROUP BY r.run_id, r.config, r.n_players, p.faction, r.created_at
               ORDER BY r.created_at, p.faction""",
            [sweep_id]).fetchall()
    out = []
    for run_id, cfg, n_players, faction, wins, n, score in rows:
        point = json.loads(cfg or "{}").get("sweep", {})
        r = rate_ci(float(wins), int(n))   # a tied win counts 1/k (issue 12, P13)
        out.append({"run_id": run_id, "point": json.dumps(point, sort_keys=True),
                    "value": next(iter(point.values())) if len(point) == 1 else None,
                    "faction": faction, "wins": float(wins), "n": int(n), "win_rate": r.rate,
                    "low": r.low, "high": r.high, "mean_score": float(score),
                    "fair": 1.0 / (n_players or 1)})
    return pl.DataFrame(out)


def max_deviation(table: pl.DataFrame) -> pl.DataFrame:
    """Per sweep point: the largest |win rate - fair share| over factions (point estimate)."""
    return (table.with_columns((pl.col("win_rate") - pl.col("fair")).abs().alias("dev"))
            .group_by("point", "run_id", maintain_order=True)
            .agg(pl.col("value").first(), pl.col("dev").max().alias("max_deviation"),
                 pl.col("faction").sort_by("dev").last().alias("worst_faction")))


#: The family in which the sweep's paired differences are Holm-corrected: every (point, faction)
#: difference against the reference point, together.
SWEEP_FAMILY = "sweep: faction win rates against the reference point"


def sweep_vs_reference(db, sweep_id: str) -> pl.DataFrame:
    """Each faction's win-rate change at every sweep point against the sweep's reference point
    (its first run), game by game on the shared seeds: `pipelines.lab.compare` does each pair
    (paired when the seeds and seats match: exact McNemar p-value, Newcombe's score interval,
    the rule-of-three bound when no game changed; Welch otherwise), and the p-values of all
    points and factions are Holm-corrected together in one family (`SWEEP_FAMILY`)."""
    from pipelines.lab.compare import compare
    from pipelines.stats import holm
    with connect_read(db) as con:
        runs = con.execute("SELECT run_id, config FROM runs WHERE sweep_id = ? "
                           "ORDER BY created_at, run_id", [sweep_id]).fetchall()
    schema = {"point": pl.Utf8, "value": pl.Object, "faction": pl.Utf8, "paired": pl.Boolean,
              "n": pl.Int64, "ref": pl.Float64, "win_rate": pl.Float64, "diff": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "p": pl.Float64, "note": pl.Utf8}
    if len(runs) < 2:
        return pl.DataFrame(schema={k: v for k, v in schema.items() if k != "value"})
    ref_id = runs[0][0]
    rows = []
    for run_id, cfg in runs[1:]:
        point = json.loads(cfg or "{}").get("sweep", {})
        c = compare(db, ref_id, run_id, heatmap=False)
        fac = c.table.filter((pl.col("kind") == "faction") & (pl.col("metric") == "win_rate"))
        for r in fac.iter_rows(named=True):
            rows.append({"point": json.dumps(point, sort_keys=True), "faction": r["key"],
                         "paired": c.paired, "n": int(r["n_b"]), "ref": r["a"],
                         "win_rate": r["b"], "diff": r["diff"], "low": r["low"],
                         "high": r["high"], "p": r["p"], "note": r["note"] or ""})
    out = pl.DataFrame(rows, schema={k: v for k, v in schema.items() if k != "value"})
    if out.height:
        ps = [1.0 if p is None or math.isnan(p) else p for p in out["p"].to_list()]
        reject, adj = holm(ps)
        out = out.with_columns(pl.Series("p_holm", adj, dtype=pl.Float64),
                               pl.Series("significant", [bool(x) for x in reject]),
                               pl.lit(SWEEP_FAMILY).alias("family"))
    return out


def format_vs_reference(diffs: pl.DataFrame) -> str:
    """The paired differences in words: which factions moved significantly, per point."""
    if not diffs.height:
        return ""
    paired = bool(diffs["paired"].all())
    ref = "the first point"
    lines = [f"against {ref}, game by game on the same seeds "
             f"({'paired' if paired else 'NOT paired: seeds or seats differ, Welch'}; "
             f"Holm over all {diffs.height} point x faction differences):"]
    for pt in dict.fromkeys(diffs["point"].to_list()):
        sub = diffs.filter(pl.col("point") == pt)
        sig = sub.filter(pl.col("significant"))
        if sig.height:
            moved = ", ".join(f"{r['faction']} {r['diff']:+.1%} [{r['low']:+.1%},{r['high']:+.1%}]"
                              for r in sig.iter_rows(named=True))
        else:
            widest = sub.select((pl.col("high") - pl.col("low")).max()).item()
            moved = (f"no faction's win rate changed significantly (intervals up to "
                     f"{widest:.1%} wide)" if widest is not None else "no games to compare")
        lines.append(f"  {pt}: {moved}")
    return "\n".join(lines)


def format_sweep(table: pl.DataFrame, diffs: pl.DataFrame | None = None) -> str:
    factions = sorted(set(table["faction"].to_list()))
    points = list(dict.fromkeys(table["point"].to_list()))
    lines = [f"{'point':<32} " + " ".join(f"{f[:16]:>22}" for f in factions) + "  max dev"]
    dev = {r["point"]: r for r in max_deviation(table).iter_rows(named=True)}
    for pt in points:
        sub = {r["faction"]: r for r in table.filter(pl.col("point") == pt).iter_rows(named=True)}
        cells = []
        for f in factions:
            r = sub.get(f)
            cells.append(f"{r['win_rate']:5.1%} [{r['low']:5.1%},{r['high']:5.1%}]" if r else "")
        lines.append(f"{pt:<32} " + " ".join(f"{c:>22}" for c in cells)
                     + f"  {dev[pt]['max_deviation']:.3f}")
    best = min(dev.values(), key=lambda r: r["max_deviation"])
    lines.append(f"closest to fair (point estimate): {best['point']} (largest deviation "
                 f"{best['max_deviation']:.3f}); use `delve balance` for an answer with a stated "
                 f"error rate")
    if diffs is not None and diffs.height:
        lines.append(format_vs_reference(diffs))
    return "\n".join(lines)
