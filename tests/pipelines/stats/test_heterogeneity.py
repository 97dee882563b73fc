"""Issue 29: faction x map heterogeneity.  A faction much stronger on one map is flagged, with
Holm over the factions; a faction equally strong everywhere is not; thin maps are said so."""

from __future__ import annotations

import polars as pl

from dashboard.findings import map_findings
from pipelines.stats.heterogeneity import map_heterogeneity, map_table


def _rates(rows):
    return pl.DataFrame([{"faction": f, "games": n, "wins": w} for f, n, w in rows])


def test_a_faction_stronger_on_one_map_is_flagged_and_an_even_one_is_not():
    per = {"cave": _rates([("moles", 200, 160), ("bats", 200, 50)]),
           "lake": _rates([("moles", 200, 20), ("bats", 200, 52)])}
    het = map_heterogeneity(per)
    moles = het.filter(pl.col("faction") == "moles").row(0, named=True)
    bats = het.filter(pl.col("faction") == "bats").row(0, named=True)
    assert moles["differs"] and moles["p_holm"] < 1e-6
    assert not bats["differs"] and bats["p_holm"] > 0.5
    table = map_table(het)
    assert table.columns[:3] == ["faction", "cave", "lake"] and "80% [" in table["cave"][1]
    words = [f.text for f in map_findings(het, {"moles": "Moles"})]
    assert len(words) == 1 and words[0].startswith("Moles' win rate depends on the map: 10%")
    assert "on Cave (200 games)" in words[0] and "Holm over the 2 factions" in words[0]


def test_no_difference_and_too_few_games_are_said_plainly():
    per = {"cave": _rates([("moles", 200, 50), ("bats", 6, 1)]),
           "lake": _rates([("moles", 200, 52), ("bats", 6, 2)])}
    het = map_heterogeneity(per)
    bats = het.filter(pl.col("faction") == "bats").row(0, named=True)
    assert bats["note"].startswith("too few games") and not bats["differs"]
    [word] = [f.text for f in map_findings(het)]
    assert word.startswith("No faction's win rate differs detectably between the maps")
