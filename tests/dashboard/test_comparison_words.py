"""The What-if verdict in words (issue 29, what-if equivalence): with no faction changed
detectably, it says whether the change is shown to leave every faction within the margin."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl

from dashboard.comparison_words import verdict


def _cmp(intervals, significant=False):
    rows = [{"kind": "faction", "key": f"f{i}", "metric": "win_rate", "diff": (lo + hi) / 2,
             "low": lo, "high": hi, "p_holm": 0.9, "significant": significant}
            for i, (lo, hi) in enumerate(intervals)]
    return SimpleNamespace(paired=True, n_pairs=4000, n_games_a=4000, n_games_b=4000,
                           a={"game": "glimmerdeep"}, table=pl.DataFrame(rows),
                           length=pl.DataFrame(schema={"metric": pl.String}))


def test_every_faction_within_the_margin_is_said_so():
    words = verdict(_cmp([(-0.02, 0.015), (-0.01, 0.025)]), margin=0.03)
    assert words[0].startswith("No faction's win rate changed detectably")
    assert words[1].startswith("Every faction's win rate moved by less than ±3 points")
    assert "4,000 paired games" in words[1]


def test_an_interval_reaching_past_the_margin_is_not_yet_equivalence():
    words = verdict(_cmp([(-0.02, 0.015), (-0.05, 0.04)]), margin=0.03)
    assert words[1].startswith("Not yet shown that every faction stays within ±3 points")
    assert "f1" in words[1] and "1 of 2 shown within" in words[1]
    assert "Every faction" not in " ".join(words)


def test_a_detected_change_is_reported_not_an_equivalence():
    words = verdict(_cmp([(0.04, 0.08)], significant=True), margin=0.03)
    assert words[0].startswith("The win rate changed for 1 of 1")
    assert not any("within ±" in w for w in words)
