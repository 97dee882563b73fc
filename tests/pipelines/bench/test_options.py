"""`delve bench --options` (pipelines/bench/options.py): the options each kind of decision
offers over seeded games (issue 27, "Small decisions": decisions of more than ~30 options)."""

from __future__ import annotations

import re

from pipelines.bench.options import WIDE, option_counts, summary


def test_every_decision_is_counted_once_under_its_kind():
    counts = option_counts("glimmerdeep", games=1, seed=3, bot="random")
    assert len(counts["all"]) == sum(len(v) for k, v in counts.items() if k != "all")
    assert min(counts["all"]) >= 1
    # an excavation card is two small decisions (RULES.md, "Small decisions: the excavation
    # in two steps"), an anchor (`excavate`) and the dig through it (`excavate_at`), each
    # counted under its own kind; the anchors stay below WIDE where the card's ~100 digs
    # were far above it, and the Deepdelvers' sheet (`fx`) is the widest kind left
    assert counts["excavate_at"] and counts["excavate"]
    assert max(counts["excavate"]) <= WIDE
    assert max(counts["fx"]) == max(counts["all"]) > WIDE


def test_the_same_seed_counts_the_same_options():
    a = option_counts("cave_colony", games=1, seed=5, bot="random")
    b = option_counts("cave_colony", games=1, seed=5, bot="random")
    assert a == b


def test_summary_figures():
    n, mean, p99, mx, wide = summary([1, 2, 3, 40, 50] + [2] * 95)
    assert (n, mx) == (100, 50)
    assert mean == (1 + 2 + 3 + 40 + 50 + 190) / 100
    assert p99 == 50 and wide == 0.02


def test_delve_bench_options_names_the_wide_decisions(cli):
    res = cli("bench", "--options", "--game", "glimmerdeep", "--games", 1, "--seed", 3,
              "--options-bot", "random")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "glimmerdeep: options per decision over 1 random games (4 players, seed 3)" in out
    assert re.search(r"^all\s+\d+\s+[\d.]+\s+\d+\s+\d+\s+[\d.]+%$", out, re.M)
    assert re.search(r"^wide decisions: fx, excavate_at$", out, re.M)
    # the search section is not run
    assert "iterations/s" not in out
