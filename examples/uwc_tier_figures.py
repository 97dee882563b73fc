"""Underwater Cities play figures from stored runs (issue 27, "players build networks"): per run,
the mean over its games of each game's per-seat means, with a normal 95% interval (the game is
the unit): score, winner's score, tunnels and cities built (`build` moves whose detail names a
tunnel or a city), Special cards paid (`pay_special` moves), seats that scored the brown
metropolis (`metropolis` points) and leftover resources' share of the score.

    python examples/uwc_tier_figures.py data/delve.duckdb      # every run in the file

Used for engine/games/underwater_cities/RULES.md, "Skill tiers" (the 228-game tier runs)."""
from __future__ import annotations

import sys

import duckdb

c = duckdb.connect(sys.argv[1], read_only=True)
bots = dict(c.sql("select run_id, config->>'$.bots' from runs").fetchall())
q = """
with m as (
  select run_id, game_id, seat,
    count(*) filter (where action='build' and detail like 'tunnel%') tunnels,
    count(*) filter (where action='build' and detail like '%city%') cities,
    count(*) filter (where action='pay_special') specials
  from moves group by all),
e as (
  select run_id, game_id, seat,
    coalesce(sum(points) filter (where category='metropolis'),0) brown,
    coalesce(sum(points) filter (where category='resources'),0) leftover
  from score_events group by all),
pg as (
  select p.run_id, p.game_id, p.seat, p.score,
    coalesce(m.tunnels,0) tunnels, coalesce(m.cities,0) cities, coalesce(m.specials,0) specials,
    coalesce(e.brown,0) brown, coalesce(e.leftover,0) leftover
  from players p left join m using (run_id, game_id, seat) left join e using (run_id, game_id, seat)),
g as (  -- per game means (the game is the unit)
  select run_id, game_id, avg(score) score, max(score) winner, avg(tunnels) tunnels,
    avg(cities) cities, avg(specials) specials, sum((brown>0)::int) brown_seats,
    sum(leftover)/sum(score) leftover_share
  from pg group by all)
select run_id, count(*) games,
  avg(score), 1.96*stddev_samp(score)/sqrt(count(*)),
  avg(winner), 1.96*stddev_samp(winner)/sqrt(count(*)),
  avg(tunnels), 1.96*stddev_samp(tunnels)/sqrt(count(*)),
  avg(cities), 1.96*stddev_samp(cities)/sqrt(count(*)),
  avg(specials), 1.96*stddev_samp(specials)/sqrt(count(*)),
  sum(brown_seats), count(*)*4,
  avg(leftover_share), 1.96*stddev_samp(leftover_share)/sqrt(count(*)),
  quantile_cont(score, 0.5)
from g group by run_id order by run_id
"""
for r in c.sql(q).fetchall():
    rid, n, s, se, w, we, t, te, ci, cie, sp, spe, b, seats, lo, loe, med = r
    print(f"{rid} ({bots.get(rid)}), {n} games: score {s:.1f} ±{se:.1f} (median of the game means {med:.1f}); winner {w:.1f} ±{we:.1f}; "
          f"tunnels {t:.2f} ±{te:.2f}; cities built {ci:.2f} ±{cie:.2f}; specials paid {sp:.2f} ±{spe:.2f}; "
          f"brown metropolis scored {b} of {seats} seats; leftover share {100*lo:.1f}% ±{100*loe:.1f}")
