"""Compare two runs of the same game (`delve compare RUN_A RUN_B`, the What-if page).

For each faction and each seat: win rate and mean score in A and in B, the difference B - A
with its 95% interval and a p-value, Holm-corrected across the whole table; then the changes
in points per score category, in game length, and the per-cell difference of the move heatmap.

Paired or not.  When B replays A's games (`--paired-with`, or two members of one sweep), each
(game id, seat) of A is matched to the same game and seat of B (same seed, same faction), and
the differences are paired: a t interval on the per-game differences (common random numbers).
Otherwise the two runs are independent samples and the interval is Welch's.  The pairing is
checked on the data (seeds and factions must match game by game), never just assumed.

Everything is aggregated in DuckDB (counts, means, variances); Python only turns the
aggregates into intervals and p-values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl
from scipy import stats as sps

from engine.core.errors import DelveError

from pipelines.stats import holm
from pipelines.store import connect_read, resolve_run

ALPHA = 0.05


@dataclass
class Comparison:
    run_a: dict
    run_b: dict
    paired: bool
    why: str                 # why the pair is (not) paired
    n_games_a: int
    n_games_b: int
    n_pairs: int             # games matched game by game (paired only)
    table: pl.DataFrame      # kind, key, metric, n_a, n_b, a, b, diff, low, high, p, p_holm, significant
    categories: pl.DataFrame  # category, a, b, diff, low, high, p
    length: pl.DataFrame     # metric, a, b, diff, low, high, p
    heatmap: pl.DataFrame    # map, cell, x, y, a, b, diff  (moves per game)

    def significant_rows(self) -> pl.DataFrame:
        return self.table.filter(pl.col("significant"))


# -- intervals from aggregates ---------------------------------------------------------------------

def paired_from_stats(n: int, mean_d: float, sd_d: float | None, alpha: float = ALPHA):
    """(diff, low, high, p) of a paired difference from n, mean and sd of the differences."""
    if n < 2 or sd_d is None or math.isnan(sd_d):
        return mean_d, math.nan, math.nan, math.nan
    if sd_d == 0:
        return mean_d, mean_d, mean_d, (1.0 if mean_d == 0 else 0.0)
    se = sd_d / math.sqrt(n)
    t = sps.t.ppf(1 - alpha / 2, n - 1)
    p = float(2 * sps.t.sf(abs(mean_d / se), n - 1))
    return mean_d, mean_d - t * se, mean_d + t * se, p


def welch_from_stats(na, ma, sda, nb, mb, sdb, alpha: float = ALPHA):
    """(diff, low, high, p) of mb - ma for independent samples (Welch)."""
    if na < 2 or nb < 2 or sda is None or sdb is None:
        return mb - ma, math.nan, math.nan, math.nan
    va, vb = sda ** 2 / na, sdb ** 2 / nb
    se = math.sqrt(va + vb)
    d = mb - ma
    if se == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    df = (va + vb) ** 2 / ((va ** 2) / (na - 1) + (vb ** 2) / (nb - 1)) if va and vb else \
        (na - 1 if va else nb - 1)
    t = sps.t.ppf(1 - alpha / 2, df)
    p = float(2 * sps.t.sf(abs(d / se), df))
    return d, d - t * se, d + t * se, p


# -- pairing -------------------------------------------------------------------------------------

def check_pairing(con, a: dict, b: dict) -> tuple[bool, str, int]:
    """(paired, why, matched games).  Declared paired (B.paired_with = A, A.paired_with = B or
    one sweep) and verified: every game id of B exists in A with the same seed and the same
    faction in every seat."""
    declared = (b.get("paired_with") == a["run_id"] or a.get("paired_with") == b["run_id"]
                or (a.get("sweep_id") and a.get("sweep_id") == b.get("sweep_id"))
                or (a.get("paired_with") and a.get("paired_with") == b.get("paired_with")))
    if not declared:
        return False, "independent runs (B was not launched with --paired-with A)", 0
    ga, gb, bad = con.execute(
        """
        WITH a AS (SELECT game_id, seed FROM games WHERE run_id = ?),
             b AS (SELECT game_id, seed FROM games WHERE run_id = ?)
        SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
               (SELECT count(*) FROM b LEFT JOIN a USING (game_id)
                 WHERE a.seed IS NULL OR a.seed <> b.seed)
        """, [a["run_id"], b["run_id"]]).fetchone()
    bad_seats = con.execute(
        """
        SELECT count(*) FROM players pb JOIN players pa
          ON pa.run_id = ? AND pb.run_id = ? AND pa.game_id = pb.game_id AND pa.seat = pb.seat
        WHERE pa.faction <> pb.faction OR pa.bot <> pb.bot
        """, [a["run_id"], b["run_id"]]).fetchone()[0]
    if bad or bad_seats:
        return False, (f"declared paired, but {bad} game(s) differ in seed and {bad_seats} seat(s) "
                       f"in faction or bot: compared as independent runs"), 0
    matched = gb
    return True, f"paired game by game on {matched} common games (same seeds and seats)", matched


# -- the comparison -------------------------------------------------------------------------------

_PAIRED_ROWS = """
WITH a AS (SELECT game_id, seat, faction, won::INT AS w, score::DOUBLE AS s FROM players WHERE run_id = ?),
     b AS (SELECT game_id, seat, faction, won::INT AS w, score::DOUBLE AS s FROM players WHERE run_id = ?),
     j AS (SELECT a.faction, a.seat, a.w AS wa, b.w AS wb, a.s AS sa, b.s AS sb
           FROM a JOIN b USING (game_id, seat))
SELECT 'faction' AS kind, faction AS key, count(*) AS n, avg(wa), avg(wb), avg(wb - wa),
       stddev_samp(wb - wa), avg(sa), avg(sb), avg(sb - sa), stddev_samp(sb - sa)
FROM j GROUP BY faction
UNION ALL
SELECT 'seat', CAST(seat AS VARCHAR), count(*), avg(wa), avg(wb), avg(wb - wa),
       stddev_samp(wb - wa), avg(sa), avg(sb), avg(sb - sa), stddev_samp(sb - sa)
FROM j GROUP BY seat
"""

_RUN_ROWS = """
SELECT 'faction' AS kind, faction AS key, count(*), avg(won::INT), stddev_samp(won::INT),
       avg(score), stddev_samp(score)
FROM players WHERE run_id = ? GROUP BY faction
UNION ALL
SELECT 'seat', CAST(seat AS VARCHAR), count(*), avg(won::INT), stddev_samp(won::INT),
       avg(score), stddev_samp(score)
FROM players WHERE run_id = ? GROUP BY seat
"""

_CATEGORY_POINTS = """
WITH cats AS (SELECT DISTINCT category FROM score_events WHERE run_id IN (?, ?)),
pts AS (
  SELECT p.run_id, p.game_id, p.seat, c.category, coalesce(sum(e.points), 0)::DOUBLE AS pts
  FROM players p CROSS JOIN cats c
  LEFT JOIN score_events e ON e.run_id = p.run_id AND e.game_id = p.game_id
       AND e.seat = p.seat AND e.category = c.category
  WHERE p.run_id IN (?, ?)
  GROUP BY ALL)
"""

_CATEGORY_PAIRED = _CATEGORY_POINTS + """
SELECT a.category, count(*), avg(a.pts), avg(b.pts), avg(b.pts - a.pts), stddev_samp(b.pts - a.pts)
FROM pts a JOIN pts b ON a.game_id = b.game_id AND a.seat = b.seat AND a.category = b.category
WHERE a.run_id = ? AND b.run_id = ?
GROUP BY a.category ORDER BY a.category
"""

_CATEGORY_RUNS = _CATEGORY_POINTS + """
SELECT category, count(*) FILTER (WHERE run_id = ?), avg(pts) FILTER (WHERE run_id = ?),
       stddev_samp(pts) FILTER (WHERE run_id = ?), count(*) FILTER (WHERE run_id = ?),
       avg(pts) FILTER (WHERE run_id = ?), stddev_samp(pts) FILTER (WHERE run_id = ?)
FROM pts GROUP BY category ORDER BY category
"""

_LENGTH_PAIRED = """
WITH j AS (SELECT a.steps::DOUBLE AS sa, b.steps::DOUBLE AS sb, a.rounds::DOUBLE AS ra,
                  b.rounds::DOUBLE AS rb
           FROM games a JOIN games b ON a.game_id = b.game_id WHERE a.run_id = ? AND b.run_id = ?)
SELECT 'steps', count(*), avg(sa), avg(sb), avg(sb - sa), stddev_samp(sb - sa) FROM j
UNION ALL
SELECT 'rounds', count(*), avg(ra), avg(rb), avg(rb - ra), stddev_samp(rb - ra) FROM j
"""

_LENGTH_RUNS = """
SELECT 'steps', count(*) FILTER (WHERE run_id = ?), avg(steps) FILTER (WHERE run_id = ?),
       stddev_samp(steps) FILTER (WHERE run_id = ?), count(*) FILTER (WHERE run_id = ?),
       avg(steps) FILTER (WHERE run_id = ?), stddev_samp(steps) FILTER (WHERE run_id = ?)
FROM games WHERE run_id IN (?, ?)
UNION ALL
SELECT 'rounds', count(*) FILTER (WHERE run_id = ?), avg(rounds) FILTER (WHERE run_id = ?),
       stddev_samp(rounds) FILTER (WHERE run_id = ?), count(*) FILTER (WHERE run_id = ?),
       avg(rounds) FILTER (WHERE run_id = ?), stddev_samp(rounds) FILTER (WHERE run_id = ?)
FROM games WHERE run_id IN (?, ?)
"""

_HEATMAP = """
WITH n AS (SELECT count(*) FILTER (WHERE run_id = ?) AS na, count(*) FILTER (WHERE run_id = ?) AS nb
           FROM games WHERE run_id IN (?, ?)),
m AS (SELECT g.map, mv.cell, count(*) FILTER (WHERE mv.run_id = ?) AS ca,
             count(*) FILTER (WHERE mv.run_id = ?) AS cb
      FROM moves mv JOIN games g ON g.run_id = mv.run_id AND g.game_id = mv.game_id
      WHERE mv.run_id IN (?, ?) AND mv.cell IS NOT NULL GROUP BY ALL)
SELECT m.map, m.cell, c.x, c.y, m.ca / greatest(n.na, 1) AS a, m.cb / greatest(n.nb, 1) AS b,
       m.cb / greatest(n.nb, 1) - m.ca / greatest(n.na, 1) AS diff
FROM m CROSS JOIN n LEFT JOIN map_cells c ON c.game = ? AND c.map = m.map AND c.cell = m.cell
ORDER BY m.map, m.cell
"""


def compare(db, run_a: str, run_b: str, *, heatmap: bool = True) -> Comparison:
    a = resolve_run(db, run_a)
    b = resolve_run(db, run_b)
    if a["game"] != b["game"]:
        raise DelveError(f"Runs '{a['run_id']}' ({a['game']}) and '{b['run_id']}' ({b['game']}) "
                         f"are of different games: compare two runs of the same game")
    ra, rb = a["run_id"], b["run_id"]
    with connect_read(db) as con:
        paired, why, n_pairs = check_pairing(con, a, b)
        na, nb = con.execute("SELECT count(*) FILTER (WHERE run_id = ?), "
                             "count(*) FILTER (WHERE run_id = ?) FROM games "
                             "WHERE run_id IN (?, ?)", [ra, rb, ra, rb]).fetchone()
        if na == 0 or nb == 0:
            empty = a["run_id"] if na == 0 else b["run_id"]
            raise DelveError(f"Run '{empty}' has no games stored: nothing to compare")
        rows = []
        if paired:
            for kind, key, n, wa, wb, dw, sdw, sa, sb, ds, sds in con.execute(
                    _PAIRED_ROWS, [ra, rb]).fetchall():
                for metric, ma, mb, d, sd in (("win_rate", wa, wb, dw, sdw),
                                              ("score", sa, sb, ds, sds)):
                    diff, lo, hi, p = paired_from_stats(n, d, sd)
                    rows.append((kind, key, metric, n, n, ma, mb, diff, lo, hi, p))
            cats = [(c, ma, mb, *paired_from_stats(n, d, sd)) for c, n, ma, mb, d, sd in
                    con.execute(_CATEGORY_PAIRED, [ra, rb, ra, rb, ra, rb]).fetchall()]
            length = [(m, ma, mb, *paired_from_stats(n, d, sd)) for m, n, ma, mb, d, sd in
                      con.execute(_LENGTH_PAIRED, [ra, rb]).fetchall()]
        else:
            per = {}
            for run in (ra, rb):
                for kind, key, n, w, sdw, s, sds in con.execute(_RUN_ROWS, [run, run]).fetchall():
                    per.setdefault((kind, key), {})[run] = (n, w, sdw, s, sds)
            for (kind, key), d in per.items():
                if ra not in d or rb not in d:
                    continue
                (n1, w1, sw1, s1, ss1), (n2, w2, sw2, s2, ss2) = d[ra], d[rb]
                for metric, m1, sd1, m2, sd2 in (("win_rate", w1, sw1, w2, sw2),
                                                 ("score", s1, ss1, s2, ss2)):
                    diff, lo, hi, p = welch_from_stats(n1, m1, sd1, n2, m2, sd2)
                    rows.append((kind, key, metric, n1, n2, m1, m2, diff, lo, hi, p))
            args = [ra, rb, ra, rb] + [ra, ra, ra, rb, rb, rb]
            cats = [(c, m1, m2, *welch_from_stats(n1, m1, s1, n2, m2, s2)) for
                    c, n1, m1, s1, n2, m2, s2 in con.execute(_CATEGORY_RUNS, args).fetchall()]
            largs = [ra, ra, ra, rb, rb, rb, ra, rb] * 2
            length = [(m, m1, m2, *welch_from_stats(n1, m1, s1, n2, m2, s2)) for
                      m, n1, m1, s1, n2, m2, s2 in con.execute(_LENGTH_RUNS, largs).fetchall()]
        heat = con.execute(_HEATMAP, [ra, rb, ra, rb, ra, rb, ra, rb, a["game"]]).pl() \
            if heatmap else pl.DataFrame()
    rows.sort(key=lambda r: (r[0], r[2] != "win_rate", r[1] if r[0] == "faction" else int(r[1])))
    reject, adj = holm([r[10] for r in rows])
    schema = ["kind", "key", "metric", "n_a", "n_b", "a", "b", "diff", "low", "high", "p"]
    table = pl.DataFrame(rows, schema=schema, orient="row").with_columns(
        pl.Series("p_holm", adj, dtype=pl.Float64), pl.Series("significant", reject))
    cat_df = pl.DataFrame(cats, schema=["category", "a", "b", "diff", "low", "high", "p"],
                          orient="row")
    len_df = pl.DataFrame(length, schema=["metric", "a", "b", "diff", "low", "high", "p"],
                          orient="row")
    return Comparison(a, b, paired, why, int(na), int(nb), n_pairs, table, cat_df, len_df, heat)


# -- text output ----------------------------------------------------------------------------------

def _pct(x) -> str:
    return "   n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:6.1%}"


def _num(x, w=7, d=2) -> str:
    return f"{'n/a':>{w}}" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:{w}.{d}f}"


def _pv(x) -> str:
    return "    n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:7.4f}"


def format_comparison(c: Comparison) -> str:
    out = [f"A: {c.run_a['run_id']} ({c.run_a['variant']}, rules {c.run_a['rules_hash']}, "
           f"{c.n_games_a} games)",
           f"B: {c.run_b['run_id']} ({c.run_b['variant']}, rules {c.run_b['rules_hash']}, "
           f"{c.n_games_b} games)",
           f"{'PAIRED' if c.paired else 'NOT PAIRED'}: {c.why}",
           "Differences are B - A with 95% intervals; p-values Holm-corrected across the table "
           "(* = significant at 5%).", ""]
    for metric, title, fmt in (("win_rate", "win rate", _pct), ("score", "mean score", _num)):
        out.append(f"{title:<12} {'':<16} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} "
                   f"{'p':>7} {'p Holm':>7}")
        for r in c.table.filter(pl.col("metric") == metric).iter_rows(named=True):
            mark = "*" if r["significant"] else " "
            out.append(f"{r['kind']:<12} {r['key']:<16} {fmt(r['a']):>7} {fmt(r['b']):>7} "
                       f"{fmt(r['diff']):>7} [{fmt(r['low'])}, {fmt(r['high'])}] "
                       f"{_pv(r['p'])} {_pv(r['p_holm'])} {mark}")
        out.append("")
    out.append(f"{'category':<28} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} {'p':>7}"
               "   (points per player-game)")
    for r in c.categories.iter_rows(named=True):
        out.append(f"{r['category']:<28} {_num(r['a'])} {_num(r['b'])} {_num(r['diff'])} "
                   f"[{_num(r['low'])}, {_num(r['high'])}] {_pv(r['p'])}")
    out.append("")
    out.append(f"{'game length':<28} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} {'p':>7}")
    for r in c.length.iter_rows(named=True):
        out.append(f"{r['metric']:<28} {_num(r['a'])} {_num(r['b'])} {_num(r['diff'])} "
                   f"[{_num(r['low'])}, {_num(r['high'])}] {_pv(r['p'])}")
    if c.heatmap.height:
        top = c.heatmap.with_columns(pl.col("diff").abs().alias("_abs")).sort(
            "_abs", descending=True).head(5)
        out.append("")
        out.append("heatmap: cells whose moves per game changed most (B - A)")
        for r in top.iter_rows(named=True):
            out.append(f"  {r['map']} cell {r['cell']} ({r['x']},{r['y']}): "
                       f"{r['a']:.3f} -> {r['b']:.3f} ({r['diff']:+.3f})")
    return "\n".join(out)
