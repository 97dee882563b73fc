"""A playtester's eye (issue 28): checks that find degenerate design in the stored games, each
per skill tier, with its 95% interval, against a threshold in `data/checks/checks.toml`.

- **saturation**: a score category equal for every seat of a game (on a map, or on all), or
  at its most for a faction's seats, in most games: a bonus that does not separate players.
- **dead and forced options**: from `moves.offered` (what each decision offered); an option
  chosen far less often than a uniform choice among what was offered would choose it, or
  chosen (almost) always when it had an alternative.
- **runaway leader and decisiveness**: the winner's score over the last seat's; from which
  share of the rounds the eventual winner leads for good; lead changes per game (per-round
  totals of `score_events`).
- **length**: games ended by a turn limit or a stall; rounds and steps spread.
- **out of range**: scores against reference ranges the game's data declares.
- **dominant source**: one score category, or one action, giving most of the winners' points.
- **unused source**, **source cap**, **paying hazard** (`intent_checks`): a category no one
  scores, a category above the share the designer means it to give, chance cards meant as
  hazards that pay on average.

A *tier* is the bot every seat of a game played (`mixed` when seats differ): the checks of one
run, or of every run of a game on the same rules and player count, are computed per tier.
The games are the unit of independence of every interval.  Counting is SQL; thresholds,
intervals and sentences are pure Python below it.
"""

from __future__ import annotations

import json
import math

import polars as pl

from engine.core.names import entry_name, without_article
from pipelines.stats import exact_ci, mean_ci, median_ci, ratio_ci

from .checks_data import Thresholds

LIMIT_WORDS = ("limit", "stall", "timeout", "max_steps", "max_turns", "abort")

SCOPE = """ck AS (
  SELECT g.run_id, g.game_id, g.map, g.rounds, g.steps, g.ended_by, g.winner_seat, g.n_players,
         CASE WHEN min(p.bot) = max(p.bot) THEN min(p.bot) ELSE 'mixed' END AS tier
  FROM games g JOIN players p USING (run_id, game_id)
  WHERE g.run_id IN (SELECT unnest(?::VARCHAR[])) AND g.game_id < ?
  GROUP BY ALL)"""
ALL_GAMES = 2**31 - 1


class Scope(list):
    """Run ids, and the games of each run checked: those below `games` (all by default; the
    Factions page's lead checks a large run's first games only, and says so)."""

    def __init__(self, run_ids, games: int = ALL_GAMES):
        super().__init__(run_ids)
        self.games = int(games)


def _params(run_ids) -> list:
    return [list(run_ids), getattr(run_ids, "games", ALL_GAMES)]


def _q(con, sql: str, run_ids: list[str], *params) -> pl.DataFrame:
    return con.execute(f"WITH {SCOPE}, {sql}", [*_params(run_ids), *params]).pl()


def pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.0%}"


def interval(value: float, low: float, high: float, fmt=pct) -> str:
    return f"{fmt(value)} [{fmt(low)}, {fmt(high)}]"


def num(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else (f"{x:.0f}" if abs(x) >= 10 else f"{x:.2g}")


# -- names ------------------------------------------------------------------------------------------

class Names:
    """Display names of categories, actions, maps, factions and catalogue entries, each with the
    id a designer looks up in the rules data."""

    def __init__(self, game_id: str, rules_json: str | None):
        try:
            from engine.core.registry import get_game
            self.labels = dict(get_game(game_id).labels or {})
        except Exception:  # noqa: BLE001 - a game no longer registered: ids only
            self.labels = {}
        self.doc = json.loads(rules_json or "{}")
        self._entries: dict[str, str] = {}
        from .design_checks import catalogue
        for coll, entry in catalogue(self.doc, skip=()):
            self._entries.setdefault(entry, coll)
        for coll, node in self.doc.items():   # tables keyed by id (Glimmerdeep's factions)
            if isinstance(node, dict) and node and all(isinstance(v, dict) and "name" in v
                                                       for v in node.values()):
                for entry in node:
                    self._entries.setdefault(str(entry), coll)

    def label(self, key: str) -> str:
        """The game's name for an id, else the id in words (underscores as spaces)."""
        return self.labels.get(key) or _words(key)

    def category(self, cat: str) -> str:
        shown = self.labels.get(cat)
        return shown if shown else f"category {_words(cat)}"

    def entry(self, entry: str, where: str | None = None) -> str:
        """'Snowy Summit': the entry's display name in the rules data (`where`: its collection,
        when the rules do not say), else the game's label for it, else its id in words."""
        coll = self._entries.get(entry, where)
        if coll is None:
            return self.label(entry)
        shown = entry_name(self.doc, coll, entry)
        return self.labels.get(shown or entry) or shown or self.label(entry)

    def faction(self, faction: str) -> str:
        """'Gemwardens': a faction as the pages name it (its entry's name without the article)."""
        return without_article(self.entry(faction, "factions"))

    def option(self, key: str) -> str:
        if ":" in key:
            action, word = key.split(":", 1)
            return f"{self.label(action)}: {self.entry(word)}"
        return f"action {self.label(key)}"


def _words(key: str) -> str:
    return str(key).replace("_", " ")


def _finding(check, subject, flagged, evidence, tier, value=None, low=None, high=None,
             threshold=None, certain=False):
    from .design_checks import Finding
    return Finding(check, subject, bool(flagged), evidence, tier=tier, value=value, low=low,
                   high=high, threshold=threshold, certain=bool(certain))


# -- saturation ------------------------------------------------------------------------------------

_SEAT_CATEGORIES = """
cats AS (SELECT DISTINCT e.category FROM score_events e JOIN ck USING (run_id, game_id)),
pts AS (SELECT e.run_id, e.game_id, e.seat, e.category, sum(e.points) AS pts
        FROM score_events e JOIN ck USING (run_id, game_id) GROUP BY ALL)
SELECT ck.tier, coalesce(ck.map, '') AS map, ck.n_players, p.run_id, p.game_id, p.seat, p.faction,
       p.won, c.category, coalesce(pts.pts, 0)::BIGINT AS pts
FROM players p JOIN ck USING (run_id, game_id) CROSS JOIN cats c
LEFT JOIN pts ON pts.run_id = p.run_id AND pts.game_id = p.game_id AND pts.seat = p.seat
            AND pts.category = c.category
"""


def seat_categories(con, run_ids) -> pl.DataFrame:
    return _q(con, _SEAT_CATEGORIES, run_ids)


def check_saturation(frame: pl.DataFrame, th: Thresholds, names: Names):
    """Per tier and category (and map): the share of games in which every seat scored the same,
    non-zero; per tier, category and faction: the share of seats at the most any seat of that
    faction scored in it."""
    findings, rows = [], []
    frame = frame.filter(~pl.col("category").is_in(th.skip_categories) & (pl.col("n_players") > 1))
    if frame.is_empty():
        return findings, pl.DataFrame()
    per_game = (frame.group_by("tier", "map", "category", "run_id", "game_id")
                .agg(equal=(pl.col("pts").n_unique() == 1) & (pl.col("pts").max() != 0)))
    maps = per_game["map"].n_unique()
    # with several maps, per map (the map is the data entry to look at), else over all games
    groups = [("tier", "category", "map")] if maps > 1 else [("tier", "category")]
    flagged_equal = set()
    for keys in groups:
        agg = per_game.group_by(*keys).agg(n=pl.len(), k=pl.col("equal").sum()).sort(*keys)
        for r in agg.iter_rows(named=True):
            k, n = int(r["k"]), int(r["n"])
            low, high = exact_ci(k, n)
            share = k / n
            on = f" on map {names.entry(r['map'], 'maps')}" if "map" in keys else ""
            flag = share > th.saturation_share and n >= 5
            rows.append({"tier": r["tier"], "measure": "every seat equal", "category": r["category"],
                         "map": r.get("map", ""), "faction": "", "games": n, "share": share,
                         "low": low, "high": high})
            if flag:
                flagged_equal.add((r["tier"], r["category"]))
                findings.append(_finding(
                    "saturation", f"{names.category(r['category'])}{on}", True,
                    f"every seat scored the same in {k} of {n} games ({interval(share, low, high)}; "
                    f"flag above {pct(th.saturation_share)}): it does not separate players",
                    r["tier"], share, low, high, th.saturation_share, low > th.saturation_share))
    caps = (frame.group_by("tier", "category", "faction")
            .agg(n=pl.len(), cap=pl.col("pts").max(), mean=pl.col("pts").mean(),
                 at_cap=(pl.col("pts") == pl.col("pts").max()).sum())
            .sort("tier", "category", "faction"))
    # a cap is a high score: at least the category's upper quartile over every seat (a
    # faction stuck at a low constant is not "at its cap")
    high_q = dict(frame.group_by("tier", "category").agg(q=pl.col("pts").quantile(0.75))
                  .select(pl.concat_str("tier", "category", separator="\x00"), "q").iter_rows())
    for r in caps.iter_rows(named=True):
        n, k, cap = int(r["n"]), int(r["at_cap"]), r["cap"]
        if cap is None or cap <= 0 or cap < high_q.get(f"{r['tier']}\x00{r['category']}", 0):
            continue
        low, high = exact_ci(k, n)
        share = k / n
        rows.append({"tier": r["tier"], "measure": "at its most", "category": r["category"],
                     "map": "", "faction": r["faction"], "games": n, "share": share,
                     "low": low, "high": high})
        if share > th.saturation_share and n >= 5 and (r["tier"], r["category"]) not in flagged_equal:
            findings.append(_finding(
                "saturation", f"{names.category(r['category'])} of {names.faction(r['faction'])}",
                True,
                f"{k} of {n} seats ({interval(share, low, high)}) score its most, {cap} "
                f"(mean {r['mean']:.1f}; flag above {pct(th.saturation_share)}): a cap reached "
                f"in most games", r["tier"], share, low, high, th.saturation_share,
                low > th.saturation_share))
    return findings, pl.DataFrame(rows)


# -- dead and forced options --------------------------------------------------------------------------

_OFFERS = """
m AS (SELECT m.run_id, m.game_id, m.step, ck.tier, m.action,
             m.action || ':' || split_part(coalesce(m.detail, ''), ' ', 1) AS entry_key, m.offered
      FROM moves m JOIN ck USING (run_id, game_id) WHERE m.offered IS NOT NULL AND m.offered <> ''),
k AS (SELECT run_id, game_id, step, tier, action, entry_key,
             unnest(string_split(offered, ' ')) AS key FROM m),
l AS (SELECT *, CASE WHEN strpos(key, ':') > 0 THEN split_part(key, ':', 1) ELSE '' END AS lvl
      FROM k),
f AS (SELECT * FROM l WHERE NOT regexp_full_match(split_part(key, ':', 1), ?)),
a AS (SELECT *, count(*) OVER (PARTITION BY run_id, game_id, step, lvl) AS alternatives FROM f)
SELECT tier, key, run_id, game_id, count(*)::BIGINT AS offered,
       count(*) FILTER (WHERE (lvl = '' AND key = action) OR (lvl <> '' AND key = entry_key))::BIGINT
         AS chosen,
       sum(1.0 / alternatives) AS expected
FROM a WHERE alternatives >= 2 AND (lvl = '' OR lvl = action)
GROUP BY ALL
"""


def procedural_regex(patterns: list[str]) -> str:
    """One regular expression (RE2, DuckDB's) for the procedural options' glob patterns."""
    import re
    alts = [re.escape(p).replace(r"\*", ".*") for p in patterns]
    return "(" + "|".join(alts) + ")" if alts else "(?!)"


def offers(con, run_ids, procedural: list[str] = ()) -> pl.DataFrame:
    """Per tier, option key and game: decisions that offered it with an alternative, times it
    was chosen, and times a uniform choice among the alternatives would choose it.  Procedural
    options (skip, stop, pass...: `procedural` glob patterns) are neither judged nor counted as
    alternatives: a decision between excavating and skipping is not a design choice."""
    logged = con.execute("SELECT count(*) FROM information_schema.columns WHERE "
                         "table_name = 'moves' AND column_name = 'offered'").fetchone()[0]
    if not logged:   # a database written before moves.offered: nothing to judge
        return pl.DataFrame(schema={"tier": pl.String, "key": pl.String, "run_id": pl.String,
                                    "game_id": pl.Int32, "offered": pl.Int64,
                                    "chosen": pl.Int64, "expected": pl.Float64})
    return _q(con, _OFFERS, run_ids, procedural_regex(list(procedural)))


def check_options(frame: pl.DataFrame, th: Thresholds, names: Names):
    findings, rows = [], []
    if frame.is_empty():
        return findings, pl.DataFrame()
    for (tier, key), g in sorted(frame.group_by("tier", "key"), key=lambda t: t[0]):
        o, c, e = int(g["offered"].sum()), int(g["chosen"].sum()), float(g["expected"].sum())
        ratio, r_low, r_high = ratio_ci(g["chosen"], g["expected"])
        share, s_low, s_high = ratio_ci(g["chosen"], g["offered"], share=True)
        rows.append({"tier": tier, "option": key, "games": g.height, "offered": o, "chosen": c,
                     "uniform_would_choose": e, "vs_uniform": ratio, "low": r_low, "high": r_high,
                     "share_chosen": share, "share_low": s_low, "share_high": s_high})
        chosen_games = int((g["chosen"] > 0).sum())
        entry = ":" in key
        # an action (not an entry) is dead only if few games ever choose it: one-a-round actions
        # (the start-player space) are offered at every turn and taken once
        rarely_in_games = chosen_games < th.dead_games_share * g.height
        if e >= th.min_expected and ratio < th.dead_ratio and (entry or rarely_in_games):
            word = "never" if c == 0 else "almost never"
            findings.append(_finding(
                "dead option", names.option(key), True,
                f"{word} chosen: {c} times in {o} decisions that offered it with an alternative "
                f"(chosen in {chosen_games} of the {g.height} games that offered it), where a "
                f"uniform choice would choose it {e:.0f} times: "
                f"{interval(ratio, r_low, r_high, num)} times as often (flag below "
                f"{th.dead_ratio:g})", tier, ratio, r_low, r_high, th.dead_ratio,
                r_high < th.dead_ratio))
        elif o >= th.min_offered and share >= th.forced_share:
            findings.append(_finding(
                "forced option", names.option(key), True,
                f"chosen in {c} of {o} decisions that offered an alternative "
                f"({interval(share, s_low, s_high)}, {g.height} games; flag at "
                f"{pct(th.forced_share)}): the alternatives do not compete", tier, share, s_low,
                s_high, th.forced_share, s_low >= th.forced_share))
    return findings, pl.DataFrame(rows)


# -- runaway leader and decisiveness ---------------------------------------------------------------

_LEADS = """
seats AS (SELECT p.run_id, p.game_id, p.seat, ck.tier, ck.rounds, ck.winner_seat
          FROM players p JOIN ck USING (run_id, game_id)
          WHERE ck.n_players > 1 AND ck.winner_seat IS NOT NULL AND ck.rounds >= 1),
grid AS (SELECT *, unnest(range(1, rounds + 1)) AS round FROM seats),
pts AS (SELECT e.run_id, e.game_id, e.seat, least(greatest(e.round, 1), ck.rounds) AS round,
               sum(e.points) AS pts
        FROM score_events e JOIN ck USING (run_id, game_id) GROUP BY ALL),
cum AS (SELECT grid.*, sum(coalesce(pts.pts, 0)) OVER (
          PARTITION BY grid.run_id, grid.game_id, grid.seat ORDER BY grid.round) AS total
        FROM grid LEFT JOIN pts USING (run_id, game_id, seat, round)),
lead AS (SELECT run_id, game_id, tier, round, rounds, any_value(winner_seat) AS winner,
                max(total) AS top, arg_max(seat, total) AS top_seat
         FROM cum GROUP BY ALL),
ties AS (SELECT c.run_id, c.game_id, c.round, count(*) AS at_top
         FROM cum c JOIN lead l USING (run_id, game_id, round) WHERE c.total = l.top GROUP BY ALL),
seq AS (SELECT l.run_id, l.game_id, l.tier, l.round, l.rounds, l.winner,
               CASE WHEN t.at_top = 1 THEN l.top_seat END AS leader
        FROM lead l JOIN ties t USING (run_id, game_id, round)),
prev AS (SELECT *, last_value(leader IGNORE NULLS) OVER (
           PARTITION BY run_id, game_id ORDER BY round
           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before FROM seq)
SELECT tier, run_id, game_id, any_value(rounds) AS rounds,
       count(*) FILTER (WHERE leader IS NOT NULL AND before IS NOT NULL AND leader <> before)::BIGINT
         AS lead_changes,
       coalesce(max(round) FILTER (WHERE leader IS DISTINCT FROM winner), 0) + 1 AS leads_from
FROM prev GROUP BY ALL
"""

_SPREAD = """
s AS (SELECT p.run_id, p.game_id, max(p.score) AS top, min(p.score) AS bottom
      FROM players p JOIN ck USING (run_id, game_id) WHERE ck.n_players > 1 GROUP BY ALL)
SELECT ck.tier, s.* FROM s JOIN ck USING (run_id, game_id)
"""


def leads(con, run_ids) -> pl.DataFrame:
    return _q(con, _LEADS, run_ids)


def spreads(con, run_ids) -> pl.DataFrame:
    return _q(con, _SPREAD, run_ids)


def check_decisiveness(lead: pl.DataFrame, spread: pl.DataFrame, th: Thresholds):
    findings, rows = [], []
    for tier in sorted(set(spread["tier"].to_list()) | set(lead["tier"].to_list())):
        s = spread.filter((pl.col("tier") == tier) & (pl.col("top") > 0))
        # the last seat's score as a share of the winner's (defined when the last scores 0,
        # unlike its inverse): below 1 / runaway_ratio is a winner more than that many times
        share = (s["bottom"] / s["top"]).to_list()
        if share:
            med, low, high = median_ci(share)
            cut = 1 / th.runaway_ratio
            rows.append({"tier": tier, "measure": "last seat's score / winner's (median)",
                         "games": len(share), "value": med, "low": low, "high": high})
            times = f" (the winner {1 / med:.1f}x)" if med > 0 else ""
            findings.append(_finding(
                "runaway leader", "the last seat's score against the winner's", med < cut,
                f"the last seat scores a median {pct(med)} [{pct(low)}, {pct(high)}] of the "
                f"winner's score{times} over {len(share)} games (flag below {pct(cut)}: a "
                f"winner more than {th.runaway_ratio:g}x)", tier, med, low, high, cut,
                high < cut))
        g = lead.filter(pl.col("tier") == tier)
        if g.is_empty():
            continue
        decided = ((g["leads_from"] - 1) / g["rounds"]).to_list()
        med, low, high = median_ci(decided)
        rows.append({"tier": tier, "measure": "share of rounds before the winner leads for good "
                     "(median)", "games": g.height, "value": med, "low": low, "high": high})
        findings.append(_finding(
            "decided early", "the eventual winner's lead", med <= th.decided_share,
            f"the winner leads for good after {pct(med)} [{pct(low)}, {pct(high)}] of the rounds "
            f"(median over {g.height} games with one winner; flag at {pct(th.decided_share)} or "
            f"earlier)", tier, med, low, high, th.decided_share, high <= th.decided_share))
        # a count per game: the clustered ratio estimator, never narrower than the Poisson
        # exact interval of the total (0 changes in 16 games is not "exactly 0")
        m, low, high = ratio_ci(g["lead_changes"].to_list(), [1.0] * g.height)
        rows.append({"tier": tier, "measure": "lead changes per game (mean)", "games": g.height,
                     "value": m, "low": low, "high": high})
        findings.append(_finding(
            "lead changes", "changes of the leader (round by round)", m < th.min_lead_changes,
            f"{m:.2f} [{low:.2f}, {high:.2f}] per game (mean over {g.height} games; flag below "
            f"{th.min_lead_changes:g})", tier, m, low, high, th.min_lead_changes,
            high < th.min_lead_changes))
    return findings, pl.DataFrame(rows)


# -- length ------------------------------------------------------------------------------------------

_LENGTH = """
x AS (SELECT 1)
SELECT tier, run_id, game_id, rounds, steps, coalesce(ended_by, '') AS ended_by FROM ck
"""


def check_length(con, run_ids, th: Thresholds):
    frame = _q(con, _LENGTH, run_ids)
    findings, rows = [], []
    limit = pl.any_horizontal([pl.col("ended_by").str.to_lowercase().str.contains(w)
                               for w in LIMIT_WORDS])
    for tier in sorted(set(frame["tier"].to_list())):
        g = frame.filter(pl.col("tier") == tier)
        n = g.height
        k = int(g.select(limit.sum()).item())
        low, high = exact_ci(k, n)
        r_med, r_low, r_high = median_ci(g["rounds"].to_list())
        q10, q90 = g["rounds"].quantile(0.1), g["rounds"].quantile(0.9)
        rows.append({"tier": tier, "games": n, "turn_limit": k, "share": k / n, "low": low,
                     "high": high, "median_rounds": r_med, "rounds_p10": q10, "rounds_p90": q90,
                     "median_steps": g["steps"].median()})
        findings.append(_finding(
            "turn limit", "games ended by a turn limit or a stall", k / n > th.turn_limit_share,
            f"{k} of {n} games ({interval(k / n, low, high)}; flag above "
            f"{pct(th.turn_limit_share)}); rounds: median {r_med:.0f} [{r_low:.0f}, {r_high:.0f}], "
            f"10-90% {q10:.0f}-{q90:.0f}", tier, k / n, low, high, th.turn_limit_share,
            low > th.turn_limit_share))
    return findings, pl.DataFrame(rows)


# -- out of range ------------------------------------------------------------------------------------

_SCORES = """
x AS (SELECT 1)
SELECT ck.tier, ck.n_players, p.run_id, p.game_id, p.seat, p.score, p.won,
       p.score = max(p.score) OVER (PARTITION BY p.run_id, p.game_id) AND ck.winner_seat IS NOT NULL
         AS top,
       p.score = min(p.score) OVER (PARTITION BY p.run_id, p.game_id) AND ck.n_players > 1 AS bottom
FROM players p JOIN ck USING (run_id, game_id)
"""


def scores(con, run_ids) -> pl.DataFrame:
    return _q(con, _SCORES, run_ids)


def check_range(frame: pl.DataFrame, th: Thresholds):
    findings, rows = [], []
    for ref in th.reference:
        sub = frame.filter(pl.col("n_players").is_in(ref.players) if ref.players else pl.lit(True))
        if ref.stat == "winner":
            sub = sub.filter(pl.col("won") & pl.col("top")).unique(["run_id", "game_id"])
        elif ref.stat == "loser":
            sub = sub.filter(pl.col("bottom")).unique(["run_id", "game_id"])
        else:   # every seat's score: a game's seats are not independent, the game's mean is
            sub = sub.group_by("tier", "run_id", "game_id").agg(pl.col("score").mean())
        for tier in sorted(set(sub["tier"].to_list())):
            vals = sub.filter(pl.col("tier") == tier)["score"].to_list()
            med, low, high = median_ci(vals)
            inside = sum((ref.low is None or v >= ref.low) and (ref.high is None or v <= ref.high)
                         for v in vals)
            i_low, i_high = exact_ci(inside, len(vals))
            outside = (ref.low is not None and med < ref.low) or (ref.high is not None and med > ref.high)
            certain = ((ref.low is not None and high < ref.low)
                       or (ref.high is not None and low > ref.high))
            who = {"score": "the seats' scores (a game's mean)", "winner": "the winner's score",
                   "loser": "the last seat's score"}[ref.stat]
            players = f" at {'/'.join(map(str, ref.players))} players" if ref.players else ""
            rows.append({"tier": tier, "stat": ref.stat, "players": players.strip(),
                         "reference": ref.words(), "n": len(vals), "median": med, "low": low,
                         "high": high, "share_inside": inside / len(vals) if vals else math.nan})
            findings.append(_finding(
                "out of range", f"{who}{players} against {ref.words()}", outside,
                f"median {med:.0f} [{low:.0f}, {high:.0f}] over {len(vals)} games; "
                f"{interval(inside / len(vals), i_low, i_high)} of the games inside the range "
                f"({ref.source})",
                tier, med, low, high, None, certain))
    return findings, pl.DataFrame(rows)


# -- dominant source ---------------------------------------------------------------------------------

_WINNER_ACTIONS = """
last AS (SELECT m.run_id, m.game_id, max(m.step) AS last_step
         FROM moves m JOIN ck USING (run_id, game_id) GROUP BY ALL),
w AS (SELECT p.run_id, p.game_id, p.seat, p.score FROM players p JOIN ck USING (run_id, game_id)
      WHERE p.won AND ck.winner_seat IS NOT NULL AND p.score > 0),
ev AS (SELECT e.run_id, e.game_id, e.seat, e.points,
              CASE WHEN e.step < l.last_step THEN m.action END AS action
       FROM score_events e JOIN w USING (run_id, game_id, seat)
       LEFT JOIN last l USING (run_id, game_id)
       LEFT JOIN moves m ON m.run_id = e.run_id AND m.game_id = e.game_id AND m.step = e.step
                        AND m.seat = e.seat)
SELECT ck.tier, ev.run_id, ev.game_id, coalesce(ev.action, '(end of game or automatic)') AS source,
       sum(ev.points)::DOUBLE / any_value(w.score) AS share
FROM ev JOIN w USING (run_id, game_id, seat) JOIN ck USING (run_id, game_id)
GROUP BY ALL
"""

_WINNER_CATEGORIES = """
w AS (SELECT p.run_id, p.game_id, p.seat, p.score FROM players p JOIN ck USING (run_id, game_id)
      WHERE p.won AND ck.winner_seat IS NOT NULL AND p.score > 0)
SELECT ck.tier, e.run_id, e.game_id, e.category AS source, sum(e.points)::DOUBLE / any_value(w.score) AS share
FROM score_events e JOIN w USING (run_id, game_id, seat) JOIN ck USING (run_id, game_id)
GROUP BY ALL
"""


def winner_sources(con, run_ids) -> tuple[pl.DataFrame, pl.DataFrame]:
    return _q(con, _WINNER_CATEGORIES, run_ids), _q(con, _WINNER_ACTIONS, run_ids)


def check_dominant(cats: pl.DataFrame, acts: pl.DataFrame, th: Thresholds, names: Names,
                   winners: dict[str, int]):
    findings, rows = [], []
    for kind, frame in (("category", cats), ("action", acts)):
        if frame.is_empty():
            continue
        frame = frame.filter(~pl.col("source").is_in(th.skip_sources + th.skip_categories))
        for (tier, source), g in sorted(frame.group_by("tier", "source"), key=lambda t: t[0]):
            n = winners.get(tier, g.height)
            vals = g["share"].to_list() + [0.0] * max(n - g.height, 0)   # winners without any
            m, low, high = mean_ci(vals)
            rows.append({"tier": tier, "kind": kind, "source": source, "winners": n, "share": m,
                         "low": low, "high": high})
            if m > th.dominant_share and not source.startswith("("):
                what = names.category(source) if kind == "category" else names.option(source)
                findings.append(_finding(
                    "dominant source", what, True,
                    f"gives the winners {interval(m, low, high)} of their points (mean over {n} "
                    f"winners; flag above {pct(th.dominant_share)})", tier, m, low, high,
                    th.dominant_share, low > th.dominant_share))
    return findings, pl.DataFrame(rows)


# -- all of them ---------------------------------------------------------------------------------------

CHECKS = ("saturation", "dead option", "forced option", "runaway leader", "decided early",
          "lead changes", "turn limit", "out of range", "dominant source", "unused source",
          "source cap", "paying hazard")


def play_checks(con, run_ids: list[str], game_id: str, rules_json: str | None, th: Thresholds):
    """Every check above on the games of `run_ids` (one game's runs), per tier: (findings,
    tables by name)."""
    names = Names(game_id, rules_json)
    findings, tables = [], {}
    f, tables["saturation"] = check_saturation(seat_categories(con, run_ids), th, names)
    findings += f
    f, tables["options"] = check_options(offers(con, run_ids, th.procedural), th, names)
    findings += f
    f, tables["decisiveness"] = check_decisiveness(leads(con, run_ids), spreads(con, run_ids), th)
    findings += f
    f, tables["tier_length"] = check_length(con, run_ids, th)
    findings += f
    f, tables["range"] = check_range(scores(con, run_ids), th)
    findings += f
    cats, acts = winner_sources(con, run_ids)
    n_winners = dict(con.execute(
        f"WITH {SCOPE} SELECT tier, count(*) FROM ck WHERE winner_seat IS NOT NULL "
        f"AND n_players > 1 GROUP BY tier", _params(run_ids)).fetchall())
    f, tables["sources"] = check_dominant(cats, acts, th, names, n_winners)
    findings += f
    from .intent_checks import intent_checks
    f, more = intent_checks(con, run_ids, game_id, rules_json, th, names)
    findings += f
    tables.update(more)
    if not any(x.check == "dead option" or x.check == "forced option" for x in findings):
        findings.append(_finding(
            "dead option", "options offered", False,
            "no option is chosen far less than a uniform choice would, nor always when it had an "
            "alternative" if tables["options"].height else
            "no decision of these games logged what it offered (moves.offered: random seats "
            "draw without listing, and runs before it was logged lack it)", ""))
    if not any(x.check == "saturation" for x in findings):
        findings.append(_finding("saturation", "score categories", False,
                                 "no category is equal for every seat, nor at its most for a "
                                 "faction's seats, in most games", ""))
    return findings, tables


def check_sentences(findings, limit: int = 6) -> list[str]:
    """The flagged play checks in plain words, the surest first (the whole interval past the
    threshold), then in the order of CHECKS; at most `limit`, and a count of the rest."""
    flagged = [f for f in findings if f.flagged and f.check in CHECKS]
    flagged.sort(key=lambda f: (not f.certain, CHECKS.index(f.check)))
    out = [f"**{f.check.capitalize()}**{f' ({f.tier} bots)' if f.tier else ''}: {f.subject}: "
           f"{f.evidence}{'' if f.certain else ' (not yet certain: the interval reaches the threshold)'}"
           for f in flagged[:limit]]
    if len(flagged) > limit:
        out.append(f"... and {len(flagged) - limit} more on the Checks page.")
    return out


def tier_checks(db, run: str, thresholds=None):
    """The play checks of every finished run of RUN's game on the same rules and player count,
    per tier (the Checks page's "per skill tier"): (findings, tables, run ids)."""
    from pipelines.store import connect_read, resolve_run
    from .checks_data import load_thresholds
    row = resolve_run(db, run)
    th = thresholds if thresholds is not None else load_thresholds(row["game"])
    with connect_read(db) as con:
        ids = [r[0] for r in con.execute(
            "SELECT run_id FROM runs WHERE game = ? AND rules_hash = ? AND n_players IS NOT "
            "DISTINCT FROM ? AND status = 'done' ORDER BY created_at, run_id",
            [row["game"], row["rules_hash"], row["n_players"]]).fetchall()] or [row["run_id"]]
        findings, tables = play_checks(con, ids, row["game"], row["rules"], th)
    return findings, tables, ids


def by_tier(findings) -> pl.DataFrame:
    """One row per check and subject, one column per tier: the mark, the estimate and its
    interval (the finding's evidence, shortened)."""
    rows: dict[tuple[str, str], dict[str, str]] = {}
    tiers: list[str] = []
    for f in findings:
        if f.check not in CHECKS or not f.tier:
            continue
        if f.tier not in tiers:
            tiers.append(f.tier)
        cell = ("⚑ " if f.flagged else "ok ") + (_short(f) if f.value is not None else "")
        rows.setdefault((f.check, f.subject), {})[f.tier] = cell.strip()
    tiers.sort()
    out = [{"check": c, "subject": s, **{t: cells.get(t, "—") for t in tiers}}
           for (c, s), cells in sorted(rows.items(), key=lambda kv: (CHECKS.index(kv[0][0]), kv[0][1]))]
    return pl.DataFrame(out) if out else pl.DataFrame({"check": [], "subject": []})


def _short(f) -> str:
    share = f.check in ("saturation", "forced option", "turn limit", "dominant source",
                        "decided early", "runaway leader", "unused source", "source cap")
    fmt = pct if share else num
    return f"{fmt(f.value)} [{fmt(f.low)}, {fmt(f.high)}]"


LEAD_GAMES = 10_000   # the Factions page's lead checks at most this many games of a run


def lead_checks(db, run: str, max_games: int = LEAD_GAMES):
    """The play checks of RUN's first `max_games` games (by game id: the same games whatever
    the order they were stored in), for the Factions page's lead: (findings, games checked,
    games in the run).  Large runs are checked in full by `delve checks` and the Checks page."""
    from pipelines.store import connect_read, resolve_run
    from .checks_data import load_thresholds
    row = resolve_run(db, run)
    with connect_read(db) as con:
        n = con.execute("SELECT count(*) FROM games WHERE run_id = ?", [row["run_id"]]).fetchone()[0]
        scope = Scope([row["run_id"]], max_games)
        found, _ = play_checks(con, scope, row["game"], row["rules"], load_thresholds(row["game"]))
    return found, min(n, max_games), n
