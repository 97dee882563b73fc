"""Checks of what the design means a score source or a chance card to do (issue 28), per skill
tier, each with its 95% interval (the game is the unit), beside `play_checks`:

- **unused source**: a score category the game has that (almost) no seat scores: a bonus no
  one reaches (a metropolis never connected, an achievement never made).
- **source cap**: a category giving a larger share of a score than the designer means it to
  (`[[GAME.source_cap]]` in `data/checks/checks.toml`, with its reason: leftover resources
  worth a fifth of every score where the rulebook's example gives them 6 points).
- **paying hazard**: chance cards meant to cost the worker that draws them
  (`[[GAME.hazard]]`) whose draws are worth more than nothing on average: the game's
  `Game.extra["chance_values"]` gives each card's expected change per resource, the move log
  which cards were drawn, the data what a unit of each resource is worth.

Counting is SQL; the thresholds, intervals and sentences are the pure Python below it.
"""

from __future__ import annotations

import json

import polars as pl

from pipelines.stats import mean_ci, ratio_ci

from .checks_data import Thresholds
from .play_checks import _finding, _q
from .play_checks import pct as _pct


# -- unused source ------------------------------------------------------------------------------------

_SCORED = """
s AS (SELECT e.run_id, e.game_id, e.seat, e.category
      FROM score_events e JOIN ck USING (run_id, game_id) GROUP BY ALL HAVING sum(e.points) <> 0),
seats AS (SELECT run_id, game_id, count(*) AS seats FROM players JOIN ck USING (run_id, game_id)
          GROUP BY ALL),
c AS (SELECT run_id, game_id, category, count(*) AS scored FROM s GROUP BY ALL)
SELECT ck.tier, ck.run_id, ck.game_id, seats.seats::BIGINT AS seats, c.category,
       coalesce(c.scored, 0)::BIGINT AS scored
FROM ck JOIN seats USING (run_id, game_id) LEFT JOIN c USING (run_id, game_id)
"""


def scored_seats(con, run_ids) -> pl.DataFrame:
    """Per tier, game and category: the seats, and the seats that scored it (non-zero); a game
    where no seat scored anything has one row with a null category."""
    return _q(con, _SCORED, run_ids)


def check_unused(frame: pl.DataFrame, categories, th: Thresholds, names):
    """Per tier, every category of the game (`categories`, skipped ones left out): the share
    of seats that scored it, clustered by game; flagged below `unused_share`."""
    findings, rows = [], []
    if frame.is_empty():
        return findings, pl.DataFrame()
    skip = set(th.skip_categories) | set(th.skip_sources) | set(th.penalties)
    cats = [c for c in categories if c not in skip]
    for tier in sorted(set(frame["tier"].to_list())):
        sub = frame.filter(pl.col("tier") == tier)
        games = sub.unique(["run_id", "game_id"]).select("run_id", "game_id", "seats")
        for cat in cats:
            hit = sub.filter(pl.col("category") == cat).select("run_id", "game_id", "scored")
            g = games.join(hit, on=["run_id", "game_id"], how="left").fill_null(0)
            k, n = int(g["scored"].sum()), int(g["seats"].sum())
            share, low, high = ratio_ci(g["scored"], g["seats"], share=True)
            rows.append({"tier": tier, "category": cat, "games": g.height, "seats": n,
                         "scored": k, "share": share, "low": low, "high": high})
            if share < th.unused_share and g.height >= 5:
                word = "no seat scored it" if k == 0 else f"{k} of {n} seats scored it"
                findings.append(_finding(
                    "unused source", names.category(cat), True,
                    f"{word} in {g.height} games ({_pct(share)} [{_pct(low)}, {_pct(high)}] of "
                    f"the seats; flag below {_pct(th.unused_share)}): a source no one reaches, "
                    f"look at what it takes to score it", tier, share, low, high,
                    th.unused_share, high < th.unused_share))
    if not findings and rows:
        findings.append(_finding("unused source", "score categories", False,
                                 f"every category of the game is scored by at least "
                                 f"{_pct(th.unused_share)} of the seats", ""))
    return findings, pl.DataFrame(rows)


# -- source cap ------------------------------------------------------------------------------------------

_SHARES = """
p AS (SELECT p.run_id, p.game_id, p.seat, p.score FROM players p JOIN ck USING (run_id, game_id)
      WHERE p.score > 0),
e AS (SELECT e.run_id, e.game_id, e.seat, sum(e.points) AS pts
      FROM score_events e JOIN ck USING (run_id, game_id) WHERE e.category = ? GROUP BY ALL)
SELECT ck.tier, p.run_id, p.game_id, avg(coalesce(e.pts, 0)::DOUBLE / p.score) AS share
FROM p JOIN ck USING (run_id, game_id) LEFT JOIN e USING (run_id, game_id, seat)
GROUP BY ALL
"""


def category_shares(con, run_ids, category: str) -> pl.DataFrame:
    """Per tier and game: the mean over the seats (with a positive score) of the share of the
    seat's score that `category` gave."""
    return _q(con, _SHARES, run_ids, category)


def check_caps(shares: dict[str, pl.DataFrame], th: Thresholds, names):
    """Per tier, each `source_cap` category's share of a seat's score (`shares`: by category,
    `category_shares`), a game's mean being one value; flagged above its `at_most`."""
    findings, rows = [], []
    for cap in th.source_cap:
        frame = shares[cap.category]
        for tier in sorted(set(frame["tier"].to_list())):
            vals = frame.filter(pl.col("tier") == tier)["share"].to_list()
            m, low, high = mean_ci(vals)
            rows.append({"tier": tier, "category": cap.category, "games": len(vals),
                         "share": m, "low": low, "high": high, "at_most": cap.at_most})
            findings.append(_finding(
                "source cap", names.category(cap.category), m > cap.at_most,
                f"gives a seat {_pct(m)} [{_pct(low)}, {_pct(high)}] of its score (a game's mean "
                f"over its seats, {len(vals)} games); meant at most {_pct(cap.at_most)} "
                f"({cap.source})", tier, m, low, high, cap.at_most, low > cap.at_most))
    return findings, pl.DataFrame(rows)


# -- paying hazard -------------------------------------------------------------------------------------

_DRAWS = """
d AS (SELECT m.run_id, m.game_id, split_part(coalesce(m.detail, ''), ' ', 1) AS entry,
             count(*) AS draws
      FROM moves m JOIN ck USING (run_id, game_id) WHERE m.action = ? GROUP BY ALL),
seats AS (SELECT run_id, game_id, count(*) AS seats FROM players JOIN ck USING (run_id, game_id)
          GROUP BY ALL)
SELECT ck.tier, ck.run_id, ck.game_id, seats.seats::BIGINT AS seats, d.entry,
       coalesce(d.draws, 0)::BIGINT AS draws
FROM ck JOIN seats USING (run_id, game_id) LEFT JOIN d USING (run_id, game_id)
"""


def hazard_draws(con, run_ids, action: str) -> pl.DataFrame:
    return _q(con, _DRAWS, run_ids, action)


def chance_values(game_id: str, rules_json: str | None) -> dict[str, dict[str, float]]:
    """The game's expected change per resource of each chance card (`extra["chance_values"]`
    over the run's rules document); empty when the game gives none."""
    try:
        from engine.core.registry import get_game
        fn = get_game(game_id).extra.get("chance_values")
    except Exception:  # noqa: BLE001 - a game no longer registered
        return {}
    if fn is None or not rules_json:
        return {}
    return fn(json.loads(rules_json))


def check_hazards(draws: dict[str, pl.DataFrame], values: dict[str, dict[str, float]],
                  th: Thresholds, names):
    """Per tier, each `hazard` action's cards drawn (`draws`: by action, `hazard_draws`) valued
    by `values` (per card, the expected change per resource) and the hazard's weights: the
    mean worth of a draw, clustered by game; flagged above its `at_most`."""
    findings, rows = [], []
    for hz in th.hazard:
        frame = draws[hz.action]
        if not values or frame.is_empty():
            continue
        worth = {e: sum(w * v.get(r, 0.0) for r, w in hz.weights.items()) for e, v in values.items()}
        per = {r: {e: v.get(r, 0.0) for e, v in values.items()} for r in hz.weights}
        frame = frame.with_columns(
            value=pl.col("entry").replace_strict(worth, default=0.0, return_dtype=pl.Float64)
            * pl.col("draws"),
            **{f"r_{r}": pl.col("entry").replace_strict(m, default=0.0, return_dtype=pl.Float64)
               * pl.col("draws") for r, m in per.items()})
        for tier in sorted(set(frame["tier"].to_list())):
            g = (frame.filter(pl.col("tier") == tier)
                 .group_by("run_id", "game_id")
                 .agg(pl.col("seats").first(), pl.col("draws").sum(), pl.col("value").sum(),
                      *[pl.col(f"r_{r}").sum() for r in per]))
            draws = int(g["draws"].sum())
            if draws == 0:
                continue
            m, low, high = ratio_ci(g["value"], g["draws"], counts=False)
            parts = ", ".join(f"{r.replace('_', ' ')} {float(g[f'r_{r}'].sum()) / draws:+.2f}"
                              for r in per)
            rate, r_low, r_high = ratio_ci(g["draws"], g["seats"])
            rows.append({"tier": tier, "action": hz.action, "games": g.height, "draws": draws,
                         "value": m, "low": low, "high": high, "per_seat": rate,
                         **{r: float(g[f"r_{r}"].sum()) / draws for r in per}})
            weights = ", ".join(f"{r.replace('_', ' ')} {w:g}" for r, w in hz.weights.items())
            findings.append(_finding(
                "paying hazard", f"action {names.label(hz.action)}",
                m > hz.at_most,
                f"meant as a hazard, a draw is worth {m:+.2f} [{low:+.2f}, {high:+.2f}] to the "
                f"worker on average ({parts}; valued {weights}); drawn {rate:.1f} "
                f"[{r_low:.1f}, {r_high:.1f}] times a seat a game ({draws} draws in {g.height} "
                f"games; flag above {hz.at_most:+g}: {hz.source})",
                tier, m, low, high, hz.at_most, low > hz.at_most))
    return findings, pl.DataFrame(rows)


def intent_checks(con, run_ids, game_id: str, rules_json: str | None, th: Thresholds, names):
    """The three checks above: (findings, tables by name)."""
    try:
        from engine.core.registry import get_game
        game = get_game(game_id)
        in_play = game.extra.get("categories_in_play")
        categories = (list(in_play(json.loads(rules_json))) if in_play and rules_json
                      else list(game.score_categories))
    except Exception:  # noqa: BLE001 - a game no longer registered: the categories stored
        categories = [r[0] for r in con.execute(
            "SELECT DISTINCT category FROM score_events WHERE run_id IN (SELECT unnest(?::VARCHAR[]))",
            [list(run_ids)]).fetchall()]
    findings, tables = [], {}
    f, tables["unused"] = check_unused(scored_seats(con, run_ids), categories, th, names)
    findings += f
    shares = {c.category: category_shares(con, run_ids, c.category) for c in th.source_cap}
    f, tables["caps"] = check_caps(shares, th, names)
    findings += f
    draws = {h.action: hazard_draws(con, run_ids, h.action) for h in th.hazard}
    f, tables["hazards"] = check_hazards(draws, chance_values(game_id, rules_json), th, names)
    findings += f
    return findings, tables
