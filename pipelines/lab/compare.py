"""Compare two runs of the same game (`delve compare RUN_A RUN_B`, the What-if page).

For each faction and each seat: win rate and mean score in A and in B, the difference B - A
with its 95% interval and a p-value; then the changes in points per score category, in game
length, and the per-cell difference of the move heatmap.

Families (issue 12, P6).  The p-values are Holm-corrected within declared families, each on
its own: "faction win rates" (the primary question of a what-if), "faction scores", "seats"
(win rates and scores by seat), "categories" and "game length".  Every row names its family.
Win rates: a tied win counts 1/k for each of its k winners (P13).  Paired win-rate differences
get an exact sign test (exact McNemar for 0/1 outcomes) and Newcombe's score interval for
paired proportions (method 10, Wilson margins with the pairs' correlation); when no game's
outcome changed the interval is the rule-of-three bound +-3/n, said in `note` (P8).
Categories are aggregated to one value per game (points per player-game, the mean over the
game's seats) before the interval, so the seats of one game are not counted as independent
(P3).  Two runs that were not declared paired but play the same seeds and seats game by game
(e.g. the same --seed) are detected and compared as paired (P13).

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
from pipelines.stats.paired import mcnemar_exact, paired_proportions  # noqa: F401 (re-exported)
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
    table: pl.DataFrame      # kind, key, metric, n_a, n_b, a, b, diff, low, high, p, family, p_holm, significant, note, low_sim, high_sim
    categories: pl.DataFrame  # category, a, b, diff, low, high, p, family, p_holm, significant
    length: pl.DataFrame     # metric, a, b, diff, low, high, p, family, p_holm, significant
    heatmap: pl.DataFrame    # map, cell, x, y, a, b, diff (moves per game), se, p, p_holm, significant

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
    faction in every seat.  A seat's bot may differ: a change of bots (skill tiers, `--bots`)
    is a treatment like a rules change, and `why` says in how many seats it changed."""
    declared = (b.get("paired_with") == a["run_id"] or a.get("paired_with") == b["run_id"]
                or (a.get("sweep_id") and a.get("sweep_id") == b.get("sweep_id"))
                or (a.get("paired_with") and a.get("paired_with") == b.get("paired_with")))
    ga, gb, bad = con.execute(
        """
        WITH a AS (SELECT game_id, seed FROM games WHERE run_id = ?),
             b AS (SELECT game_id, seed FROM games WHERE run_id = ?)
        SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
               (SELECT count(*) FROM b LEFT JOIN a USING (game_id)
                 WHERE a.seed IS NULL OR a.seed <> b.seed)
        """, [a["run_id"], b["run_id"]]).fetchone()
    bad_seats, bot_seats = con.execute(
        """
        SELECT count(*) FILTER (WHERE pa.faction IS DISTINCT FROM pb.faction),
               count(*) FILTER (WHERE pa.bot IS DISTINCT FROM pb.bot)
        FROM players pb JOIN players pa
          ON pa.run_id = ? AND pb.run_id = ? AND pa.game_id = pb.game_id AND pa.seat = pb.seat
        """, [a["run_id"], b["run_id"]]).fetchone()
    bots = (f"; B changes the bot in {bot_seats} seat(s): the differences measure that change"
            if bot_seats else "")
    if not declared:
        if gb and not bad and not bad_seats:
            # not declared, but the same games (e.g. two runs with the same --seed): pair them
            return True, (f"not declared paired, but every one of B's {gb} games has A's seed and "
                          f"factions in every seat (the same --seed): compared game by game as "
                          f"paired{bots}"), gb
        return False, "independent runs (B was not launched with --paired-with A)", 0
    if bad or bad_seats:
        return False, (f"declared paired, but {bad} game(s) differ in seed and {bad_seats} seat(s) "
                       f"in faction: compared as independent runs"), 0
    matched = gb
    return True, (f"paired game by game on {matched} common games (same seeds and factions in "
                  f"every seat){bots}"), matched


# -- the comparison -------------------------------------------------------------------------------

# A win shared by k tied winners counts 1/k (w), in the rates and in the 2x2 table of McNemar.
_CREDIT = """
SELECT game_id, seat, faction, won::INT AS won,
       CASE WHEN won THEN 1.0 / count(*) FILTER (WHERE won) OVER (PARTITION BY game_id) ELSE 0.0 END AS w,
       score::DOUBLE AS s
FROM players WHERE run_id = ?
"""

_PAIRED_ROWS = f"""
WITH a AS ({_CREDIT}), b AS ({_CREDIT}),
     j AS (SELECT a.faction, a.seat, a.w AS wa, b.w AS wb, a.s AS sa, b.s AS sb
           FROM a JOIN b USING (game_id, seat))
SELECT 'faction' AS kind, faction AS key, count(*) AS n, avg(wa), avg(wb), avg(wb - wa),
       stddev_samp(wb - wa), avg(sa), avg(sb), avg(sb - sa), stddev_samp(sb - sa),
       count(*) FILTER (WHERE wb > wa), count(*) FILTER (WHERE wb < wa),
       sum(least(wa, wb)), sum(greatest(wa - wb, 0)), sum(greatest(wb - wa, 0)),
       sum(1 - greatest(wa, wb))
FROM j GROUP BY faction
UNION ALL
SELECT 'seat', CAST(seat AS VARCHAR), count(*), avg(wa), avg(wb), avg(wb - wa),
       stddev_samp(wb - wa), avg(sa), avg(sb), avg(sb - sa), stddev_samp(sb - sa),
       count(*) FILTER (WHERE wb > wa), count(*) FILTER (WHERE wb < wa),
       sum(least(wa, wb)), sum(greatest(wa - wb, 0)), sum(greatest(wb - wa, 0)),
       sum(1 - greatest(wa, wb))
FROM j GROUP BY seat
"""

_RUN_ROWS = f"""
WITH c AS ({_CREDIT})
SELECT 'faction' AS kind, faction AS key, count(*), avg(w), stddev_samp(w), avg(s), stddev_samp(s)
FROM c GROUP BY faction
UNION ALL
SELECT 'seat', CAST(seat AS VARCHAR), count(*), avg(w), stddev_samp(w), avg(s), stddev_samp(s)
FROM c GROUP BY seat
"""

# Points per category, one value per game: the mean over the game's seats (points per
# player-game), so that the seats of one game are one observation (issue 12, P3).
_CATEGORY_POINTS = """
WITH cats AS (SELECT DISTINCT category FROM score_events WHERE run_id IN (?, ?)),
pts AS (
  SELECT p.run_id, p.game_id, p.seat, c.category, coalesce(sum(e.points), 0)::DOUBLE AS pts
  FROM players p CROSS JOIN cats c
  LEFT JOIN score_events e ON e.run_id = p.run_id AND e.game_id = p.game_id
       AND e.seat = p.seat AND e.category = c.category
  WHERE p.run_id IN (?, ?)
  GROUP BY ALL),
gpts AS (SELECT run_id, game_id, category, avg(pts) AS pts FROM pts GROUP BY ALL)
"""

_CATEGORY_PAIRED = _CATEGORY_POINTS + """
SELECT a.category, count(*), avg(a.pts), avg(b.pts), avg(b.pts - a.pts), stddev_samp(b.pts - a.pts)
FROM gpts a JOIN gpts b ON a.game_id = b.game_id AND a.category = b.category
WHERE a.run_id = ? AND b.run_id = ?
GROUP BY a.category ORDER BY a.category
"""

_CATEGORY_RUNS = _CATEGORY_POINTS + """
SELECT category, count(*) FILTER (WHERE run_id = ?), avg(pts) FILTER (WHERE run_id = ?),
       stddev_samp(pts) FILTER (WHERE run_id = ?), count(*) FILTER (WHERE run_id = ?),
       avg(pts) FILTER (WHERE run_id = ?), stddev_samp(pts) FILTER (WHERE run_id = ?)
FROM gpts GROUP BY category ORDER BY category
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
pg AS (SELECT mv.run_id, g.map, mv.cell, mv.game_id, count(*)::DOUBLE AS c
       FROM moves mv JOIN games g ON g.run_id = mv.run_id AND g.game_id = mv.game_id
       WHERE mv.run_id IN (?, ?) AND mv.cell IS NOT NULL GROUP BY ALL),
m AS (SELECT map, cell,
             coalesce(sum(c) FILTER (WHERE run_id = ?), 0) AS ca,
             coalesce(sum(c * c) FILTER (WHERE run_id = ?), 0) AS qa,
             coalesce(sum(c) FILTER (WHERE run_id = ?), 0) AS cb,
             coalesce(sum(c * c) FILTER (WHERE run_id = ?), 0) AS qb
      FROM pg GROUP BY ALL)
SELECT m.map, m.cell, c.x, c.y, m.ca / greatest(n.na, 1) AS a, m.cb / greatest(n.nb, 1) AS b,
       m.cb / greatest(n.nb, 1) - m.ca / greatest(n.na, 1) AS diff,
       -- the per-game counts' sample variances (a game without a move there counts 0)
       greatest(m.qa - m.ca * m.ca / greatest(n.na, 1), 0) / greatest(n.na - 1, 1) AS var_a,
       greatest(m.qb - m.cb * m.cb / greatest(n.nb, 1), 0) / greatest(n.nb - 1, 1) AS var_b,
       n.na, n.nb
FROM m CROSS JOIN n LEFT JOIN map_cells c ON c.game = ? AND c.map = m.map AND c.cell = m.cell
ORDER BY m.map, m.cell
"""


def heatmap_noise(heat: pl.DataFrame) -> pl.DataFrame:
    """The heatmap difference with its noise (audit N10): each cell's B - A in moves per game
    with its standard error from the games' counts (Welch, the runs as independent samples:
    conservative for a paired pair), its normal p-value, and `significant` where Holm over
    every cell of the comparison rejects at 5% (`p_holm`)."""
    if heat.is_empty():
        return heat
    se = (heat["var_a"] / heat["na"].clip(lower_bound=1) +
          heat["var_b"] / heat["nb"].clip(lower_bound=1)).sqrt()
    p = [(1.0 if d == 0 else 0.0) if e == 0 else float(2 * sps.norm.sf(abs(d) / e))
         for d, e in zip(heat["diff"].to_list(), se.to_list())]
    reject, adj = holm(p)
    return heat.drop("var_a", "var_b", "na", "nb").with_columns(
        pl.Series("se", se.to_list(), dtype=pl.Float64), pl.Series("p", p, dtype=pl.Float64),
        pl.Series("p_holm", [float(x) for x in adj], dtype=pl.Float64),
        pl.Series("significant", [bool(x) for x in reject], dtype=pl.Boolean))



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
            for (kind, key, n, wa, wb, dw, sdw, sa, sb, ds, sds, up, down, n11, n10, n01,
                 n00) in con.execute(_PAIRED_ROWS, [ra, rb]).fetchall():
                args = (n, wa, wb, up, down, n11, n10, n01, n00)
                diff, lo, hi, p, note = paired_proportions(*args)
                rows.append((kind, key, "win_rate", n, n, wa, wb, diff, lo, hi, p, note,
                             lambda al, x=args: paired_proportions(*x, alpha=al)[1:3]))
                diff, lo, hi, p = paired_from_stats(n, ds, sds)
                note = "identical in every game" if sds == 0 and ds == 0 else ""
                rows.append((kind, key, "score", n, n, sa, sb, diff, lo, hi, p, note,
                             lambda al, x=(n, ds, sds): paired_from_stats(*x, alpha=al)[1:3]))
            cats = [(c, ma, mb, *paired_from_stats(n, d, sd)) for c, n, ma, mb, d, sd in
                    con.execute(_CATEGORY_PAIRED, [ra, rb, ra, rb, ra, rb]).fetchall()]
            length = [(m, ma, mb, *paired_from_stats(n, d, sd)) for m, n, ma, mb, d, sd in
                      con.execute(_LENGTH_PAIRED, [ra, rb]).fetchall()]
        else:
            per = {}
            for run in (ra, rb):
                for kind, key, n, w, sdw, s, sds in con.execute(_RUN_ROWS, [run]).fetchall():
                    per.setdefault((kind, key), {})[run] = (n, w, sdw, s, sds)
            for (kind, key), d in per.items():
                if ra not in d or rb not in d:
                    continue
                (n1, w1, sw1, s1, ss1), (n2, w2, sw2, s2, ss2) = d[ra], d[rb]
                for metric, m1, sd1, m2, sd2 in (("win_rate", w1, sw1, w2, sw2),
                                                 ("score", s1, ss1, s2, ss2)):
                    args = (n1, m1, sd1, n2, m2, sd2)
                    diff, lo, hi, p = welch_from_stats(*args)
                    rows.append((kind, key, metric, n1, n2, m1, m2, diff, lo, hi, p, "",
                                 lambda al, x=args: welch_from_stats(*x, alpha=al)[1:3]))
            args = [ra, rb, ra, rb] + [ra, ra, ra, rb, rb, rb]
            cats = [(c, m1, m2, *welch_from_stats(n1, m1, s1, n2, m2, s2)) for
                    c, n1, m1, s1, n2, m2, s2 in con.execute(_CATEGORY_RUNS, args).fetchall()]
            largs = [ra, ra, ra, rb, rb, rb, ra, rb] * 2
            length = [(m, m1, m2, *welch_from_stats(n1, m1, s1, n2, m2, s2)) for
                      m, n1, m1, s1, n2, m2, s2 in con.execute(_LENGTH_RUNS, largs).fetchall()]
        heat = heatmap_noise(con.execute(_HEATMAP, [ra, rb, ra, rb, ra, rb, ra, ra, rb, rb,
                                                    a["game"]]).pl()) if heatmap else pl.DataFrame()
    rows.sort(key=lambda r: (r[0], r[2] != "win_rate", r[1] if r[0] == "faction" else int(r[1])))
    families = [family_of(r[0], r[2]) for r in rows]
    adj, reject = [math.nan] * len(rows), [False] * len(rows)
    for fam in FAMILIES:
        idx = [i for i, f in enumerate(families) if f == fam]
        if idx:
            rj, ad = holm([rows[i][10] for i in idx])
            for i, r_, a_ in zip(idx, rj, ad):
                adj[i], reject[i] = a_, bool(r_)
    # simultaneous intervals (audit N7): each row's interval at alpha / m, m its family's
    # size (Bonferroni), so that the bars a chart draws are as strict as the family's marks
    size = {f: families.count(f) for f in set(families)}
    sim = [r[12](ALPHA / size[f]) for r, f in zip(rows, families)]
    schema = ["kind", "key", "metric", "n_a", "n_b", "a", "b", "diff", "low", "high", "p"]
    table = pl.DataFrame([r[:11] for r in rows], schema=schema, orient="row").with_columns(
        pl.Series("family", families, dtype=pl.Utf8), pl.Series("p_holm", adj, dtype=pl.Float64),
        pl.Series("significant", reject, dtype=pl.Boolean),
        pl.Series("note", [r[11] for r in rows], dtype=pl.Utf8),
        pl.Series("low_sim", [float(x[0]) for x in sim], dtype=pl.Float64),
        pl.Series("high_sim", [float(x[1]) for x in sim], dtype=pl.Float64))
    cat_df = _with_family(pl.DataFrame(cats, schema=["category", "a", "b", "diff", "low", "high",
                                                     "p"], orient="row"), "categories")
    len_df = _with_family(pl.DataFrame(length, schema=["metric", "a", "b", "diff", "low", "high",
                                                       "p"], orient="row"), "game length")
    return Comparison(a, b, paired, why, int(na), int(nb), n_pairs, table, cat_df, len_df, heat)


#: The declared families of a comparison, in order: each is Holm-corrected on its own.
FAMILIES = ("faction win rates", "faction scores", "seats", "categories", "game length")


def family_of(kind: str, metric: str) -> str:
    if kind == "faction":
        return "faction win rates" if metric == "win_rate" else "faction scores"
    return "seats"


def _with_family(frame: pl.DataFrame, family: str) -> pl.DataFrame:
    ps = frame["p"].to_list() if frame.height else []
    reject, adj = holm([math.nan if p is None else p for p in ps])
    return frame.with_columns(pl.lit(family).alias("family"),
                              pl.Series("p_holm", adj, dtype=pl.Float64),
                              pl.Series("significant", [bool(r) for r in reject], dtype=pl.Boolean))


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
           "Differences are B - A with 95% intervals; p-values Holm-corrected within each family "
           "(named above each block; * = significant at 5% in its family). Win rates: exact "
           "McNemar p and Newcombe's paired score interval when paired; a tied win counts 1/k.",
           ""]
    for metric, title, fmt in (("win_rate", "win rate", _pct), ("score", "mean score", _num)):
        for kind in ("faction", "seat"):
            part = c.table.filter((pl.col("metric") == metric) & (pl.col("kind") == kind))
            if not part.height:
                continue
            fam = part["family"][0]
            out.append(f"{title:<12} {'':<16} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} "
                       f"{'p':>7} {'p Holm':>7}   family: {fam}")
            for r in part.iter_rows(named=True):
                mark = "*" if r["significant"] else " "
                note = f"  ({r['note']})" if r.get("note") else ""
                out.append(f"{r['kind']:<12} {r['key']:<16} {fmt(r['a']):>7} {fmt(r['b']):>7} "
                           f"{fmt(r['diff']):>7} [{fmt(r['low'])}, {fmt(r['high'])}] "
                           f"{_pv(r['p'])} {_pv(r['p_holm'])} {mark}{note}")
            out.append("")
    out.append(f"{'category':<28} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} {'p':>7} "
               f"{'p Holm':>7}   family: categories (points per player-game, one value per game)")
    for r in c.categories.iter_rows(named=True):
        out.append(f"{r['category']:<28} {_num(r['a'])} {_num(r['b'])} {_num(r['diff'])} "
                   f"[{_num(r['low'])}, {_num(r['high'])}] {_pv(r['p'])} {_pv(r['p_holm'])} "
                   f"{'*' if r['significant'] else ' '}")
    out.append("")
    out.append(f"{'game length':<28} {'A':>7} {'B':>7} {'B - A':>7} {'95% interval':>19} {'p':>7} "
               f"{'p Holm':>7}   family: game length")
    for r in c.length.iter_rows(named=True):
        out.append(f"{r['metric']:<28} {_num(r['a'])} {_num(r['b'])} {_num(r['diff'])} "
                   f"[{_num(r['low'])}, {_num(r['high'])}] {_pv(r['p'])} {_pv(r['p_holm'])} "
                   f"{'*' if r['significant'] else ' '}")
    if c.heatmap.height:
        heat = c.heatmap.with_columns(   # a cell no game ever changed: 0 / 0, no signal
            (pl.col("diff").abs() / pl.col("se")).fill_nan(0.0).alias("_z"))
        beyond = heat.filter(pl.col("significant"))
        out.append("")
        if beyond.height:
            out.append(f"heatmap: {beyond.height} of {heat.height} cells changed beyond noise "
                       f"(moves per game B - A, +- its standard error; Holm over the cells), "
                       f"largest first")
            shown = beyond.sort("_z", descending=True).head(5)
        else:
            out.append(f"heatmap: no cell's change is beyond noise (Holm over {heat.height} "
                       f"cells); the largest, for reference")
            shown = heat.sort("_z", descending=True).head(3)
        for r in shown.iter_rows(named=True):
            out.append(f"  {r['map']} cell {r['cell']} ({r['x']},{r['y']}): "
                       f"{r['a']:.3f} -> {r['b']:.3f} ({r['diff']:+.3f} +- {r['se']:.3f}, "
                       f"p Holm {_pv(r['p_holm'])})")
    return "\n".join(out)
