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


# -- faction x player count ---------------------------------------------------------------------

def _counts(rates: dict[int, dict[str, tuple[int, int]]]):
    return {k: pl.DataFrame({"faction": list(v), "games": [n for n, _ in v.values()],
                             "wins": [float(w) for _, w in v.values()]}) for k, v in rates.items()}


def test_a_faction_twice_its_fair_share_at_every_count_does_not_differ():
    """Relative to the fair share 1/P: 50% of 2-player games and 50% of 4-player games would
    differ as rates, but 2x the fair share is the same strength at 4 players only."""
    from pipelines.stats.heterogeneity import player_count_heterogeneity
    same = player_count_heterogeneity(_counts({2: {"a": (400, 260)}, 4: {"a": (400, 160)}}))
    row = same.row(0, named=True)
    assert not row["differs"] and row["p"] > 0.05 and row["df"] == 1
    assert row["rates"]["4"][4] == 0.25                           # the fair share at 4 players


def test_a_faction_strong_at_two_players_and_fair_at_four_differs():
    from pipelines.stats.heterogeneity import player_count_heterogeneity
    het = player_count_heterogeneity(_counts({2: {"a": (400, 280), "b": (400, 200)},
                                              4: {"a": (400, 100), "b": (400, 101)}}))
    rows = {r["faction"]: r for r in het.iter_rows(named=True)}
    assert rows["a"]["differs"] and rows["a"]["p_holm"] < 0.001
    assert not rows["b"]["differs"]


def test_player_count_heterogeneity_through_the_api(tmp_path):
    from click.testing import CliRunner
    from delve.api import Database
    from delve.cli import main
    db = tmp_path / "p.duckdb"
    for p in (2, 4):
        res = CliRunner().invoke(main, ["simulate", "glimmerdeep", "--games", 16, "--players", p,
                                        "--bots", "greedy", "--seed", 1, "--db", str(db),
                                        "--no-progress"])
        assert res.exit_code == 0, res.output
    het = Database(db).player_count_heterogeneity("glimmerdeep")
    assert het is not None and het.height == 8
    assert all({k for k, v in r.items() if v} == {"2", "4"} for r in het["rates"].to_list())
