"""Issue 12: the review's calibration checks as tests.  The size of the paired win-rate test
under the null by exact enumeration, and the coverage of the win-rate intervals on real games
split into independent blocks (slow: it plays 512 games)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pytest
from scipy import stats as sps

from pipelines.lab.compare import mcnemar_exact
from pipelines.stats import rate_ci

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("n", [32, 75, 150])
@pytest.mark.parametrize("q", [0.01, 0.05, 0.15])
def test_paired_win_rate_test_has_size_at_most_five_percent_under_the_null(n, q):
    """Exact enumeration of (games up, games down, unchanged) with P(up) = P(down) = q: the
    exact McNemar test rejects at 5% with probability <= 5%."""
    size = 0.0
    for up in range(n + 1):
        for down in range(n + 1 - up):
            same = n - up - down
            lp = (math.lgamma(n + 1) - math.lgamma(up + 1) - math.lgamma(down + 1)
                  - math.lgamma(same + 1) + up * math.log(q) + down * math.log(q)
                  + same * math.log(1 - 2 * q))
            if lp < -40:
                continue
            if mcnemar_exact(up, down) <= 0.05:   # the p-value of compare's paired_proportions
                size += math.exp(lp)
    assert size <= 0.05


@pytest.mark.slow
def test_win_rate_intervals_cover_on_real_games_split_into_blocks(tmp_path):
    """The review: 1024 games in 16 blocks, each block's 95% interval covering the
    leave-one-out pooled rate 94.5% of the time.  Here 512 balanced-seated games in 16 blocks
    of 32 (16 player-games per faction and block); a tied win counts 1/k."""
    db = tmp_path / "cal.duckdb"
    done = subprocess.run([sys.executable, "-m", "delve", "simulate", "glimmerdeep", "--games",
                           "512", "--players", "4", "--bots", "random", "--seed", "100",
                           "--jobs", "2", "--no-log-moves", "--no-progress", "--db", str(db)],
                          cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("""
        SELECT game_id // 32 AS block, faction,
               sum(CASE WHEN won THEN 1.0 / nw ELSE 0 END) AS wins, count(*) AS n
        FROM (SELECT *, count(*) FILTER (WHERE won) OVER (PARTITION BY game_id) AS nw FROM players)
        GROUP BY ALL ORDER BY ALL""").fetchall()
    con.close()
    by = {}
    for block, faction, wins, n in rows:
        by.setdefault(faction, {})[block] = (float(wins), int(n))
    hits = total = 0
    chi2 = 0.0
    dof = 0
    for faction, blocks in by.items():
        tw = sum(w for w, _ in blocks.values())
        tn = sum(n for _, n in blocks.values())
        for block, (w, n) in blocks.items():
            truth = (tw - w) / (tn - n)
            r = rate_ci(w, n)
            hits += r.low <= truth <= r.high
            total += 1
            chi2 += (w - n * tw / tn) ** 2 / (n * (tw / tn) * (1 - tw / tn))
        dof += len(blocks) - 1
    assert total == 128
    assert hits / total >= 0.88
    # no overdispersion between blocks (the seats of a faction are independent across games)
    assert sps.chi2.sf(chi2, dof) > 0.001


def test_a_tied_win_moves_the_paired_table_by_its_fraction_and_never_makes_a_mark():
    """Audit N10: the rates count a tied win 1/k while the McNemar table counted it 0/1, so a
    half-change was a whole discordant game.  The table is now the credits' (its margins are
    the two rates), and the sign test rounds a fraction towards the even split."""
    from pipelines.lab.compare import paired_proportions
    # 40 games: B wins 10 that A lost, A wins 2 that B lost, and one game A won alone that B
    # tied with one other seat (credit 1 -> 1/2): half a game down
    n, n11, n10, n01 = 40, 5 + 0.5, 2 + 0.5, 10
    n00 = n - n11 - n10 - n01
    pa, pb = (n11 + n10) / n, (n11 + n01) / n
    diff, low, high, p, _ = paired_proportions(n, pa, pb, 10, 3, n11, n10, n01, n00)
    assert diff == pytest.approx(pb - pa) and low < diff < high
    assert p == pytest.approx(mcnemar_exact(10, 3))              # 2.5 down rounds up to 3
    assert mcnemar_exact(10, 2.5) >= mcnemar_exact(10, 2)          # never more significant
    assert mcnemar_exact(10.5, 2) == mcnemar_exact(10, 2)
    assert mcnemar_exact(0.5, 0) == 1.0 and mcnemar_exact(1.5, 0.5) == 1.0
