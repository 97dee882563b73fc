"""A comparison of two runs (pipelines.lab.compare) in the words and units a designer reads:
the verdict in sentences (what changed, by how much, on how many games) and the table with
percentages, points and p-values rounded as people write them.  Pure functions (the What-if
page and tests call them)."""

from __future__ import annotations

import math
from typing import Any, Mapping

import polars as pl

METRIC = {"win_rate": "win rate", "score": "mean score"}


def p_text(p: float | None) -> str:
    """A p-value as people write it: 0.03, 0.004, < 0.001; '' when there is none."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return ""
    if p < 0.001:
        return "< 0.001"
    return f"{p:.2g}" if p < 0.01 else f"{p:.2f}"


def _value(metric: str, x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if metric == "win_rate":
        return f"{100 * x:+.1f} points" if signed else f"{100 * x:.1f}%"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _who(r: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    key = str(r["key"])
    return f"seat {key}" if r["kind"] == "seat" else labels.get(key, key)


def display_table(cmp, labels: Mapping[str, str] | None = None,
                  settle: list | None = None) -> pl.DataFrame:
    """The comparison's rows with plain column names and units."""
    labels = labels or {}
    rows = []
    for i, r in enumerate(cmp.table.iter_rows(named=True)):
        m = r["metric"]
        interval = ("" if r["low"] is None or math.isnan(r["low"]) else
                    f"[{_value(m, r['low'], True)}, {_value(m, r['high'], True)}]"
                    .replace(" points,", ",") if m == "win_rate" else
                    f"[{r['low']:+.2f}, {r['high']:+.2f}]")
        row = {"who": _who(r, labels), "measure": METRIC.get(m, m),
               "games (A / B)": f"{r['n_a']:,} / {r['n_b']:,}",
               "A": _value(m, r["a"]), "B": _value(m, r["b"]),
               "change B - A": _value(m, r["diff"], True), "95% interval": interval,
               "p (Holm)": p_text(r["p_holm"]), "clear change": bool(r["significant"])}
        if settle is not None:
            row["≈ more games to settle"] = settle[i]
        rows.append(row)
    return pl.DataFrame(rows)


def equivalence_sentence(rows: list[Mapping[str, Any]], margin: float, games: str,
                         labels: Mapping[str, str]) -> str:
    """Whether the change left every faction's win rate within ±margin: each faction's 95%
    interval of the difference inside ±margin is its two one-sided tests at 2.5% each (a TOST
    at the interval's level); "every faction" is their intersection-union, which needs no
    correction over the factions.  Otherwise which factions' intervals still reach beyond."""
    pts = f"±{100 * margin:g} points"
    ok = [r for r in rows if r["low"] is not None and not math.isnan(r["low"])
          and -margin < r["low"] and r["high"] < margin]
    if len(ok) == len(rows):
        return (f"Every faction's win rate moved by less than {pts}: each 95% interval of the "
                f"change lies inside {pts} (an equivalence test per faction; {games}).")
    wide = [r for r in rows if r not in ok]
    names = ", ".join(_who(r, labels) for r in wide[:4]) + ("..." if len(wide) > 4 else "")
    return (f"Not yet shown that every faction stays within {pts}: the intervals of {names} "
            f"still reach beyond it ({len(ok)} of {len(rows)} shown within; {games}).")


def verdict(cmp, labels: Mapping[str, str] | None = None,
            margin: float | None = None) -> list[str]:
    """What changed from run A to run B, in sentences, most important first; `margin`: the
    smallest change in a faction's win rate that matters (the game's, from
    data/balance/margins.toml, when not given): with no faction changed detectably, says
    whether every faction is shown unchanged within it."""
    from pipelines.stats.verdicts import margin_for
    labels = labels or {}
    margin = margin if margin is not None else margin_for((getattr(cmp, "a", None) or {}).get("game"))
    games = (f"{cmp.n_pairs:,} paired games" if cmp.paired else
             f"{cmp.n_games_a:,} and {cmp.n_games_b:,} games, not paired")
    out = []
    t = cmp.table
    for kind, metric, what in (("faction", "win_rate", "faction's win rate"),
                               ("faction", "score", "faction's mean score"),
                               ("seat", "win_rate", "seat's win rate")):
        rows = [r for r in t.iter_rows(named=True) if r["kind"] == kind and r["metric"] == metric]
        if not rows:
            continue
        moved = [r for r in rows if r["significant"]]
        if not moved:
            out.append(f"No {what} changed detectably ({games}; Holm-corrected over the "
                       f"{len(rows)} {'seats' if kind == 'seat' else 'factions'}).")
            if kind == "faction" and metric == "win_rate":
                out.append(equivalence_sentence(rows, margin, games, labels))
            continue
        parts = [f"{_who(r, labels)} {_value(metric, r['diff'], True)} "
                 f"[{_value(metric, r['low'], True)}, {_value(metric, r['high'], True)}]"
                 .replace(" points,", ",") + f" (p {p_text(r['p_holm'])})" for r in moved]
        noun = what.split("'s ")[1]
        out.append(f"The {noun} changed for {len(moved)} of {len(rows)}: " + "; ".join(parts)
                   + f" ({games}).")
    for r in cmp.length.iter_rows(named=True):
        if r["metric"] == "rounds":
            change = (f"{r['diff']:+.1f} rounds [{r['low']:+.1f}, {r['high']:+.1f}]"
                      if r["low"] is not None and not math.isnan(r["low"]) else
                      f"{r['diff']:+.1f} rounds")
            clear = "a clear change" if r["significant"] else "no clear change"
            out.append(f"Games last {r['a']:.1f} rounds in A and {r['b']:.1f} in B: {change}, "
                       f"{clear}.")
    return out
