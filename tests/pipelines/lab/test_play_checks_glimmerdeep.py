"""Issue 28 on our own data: turn 3's Glimmerdeep maps saturated their objectives (every
deliberate player reached Snowy Summit's Peak with the third card and tied for 30 VP; every
player connected all six Trade Routes outposts; nearly every player dug all 12 forest spaces).
The variants that bring the old layouts back must trip the saturation check, and the base maps
(rock ridges and walled galleries, assumed data, RULES_DATA.md "Issue 28") must not."""

from __future__ import annotations

import pytest

from pipeline_helpers import glimmerdeep_ready

pytestmark = pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep not registered")

VARIANTS = "data/variants/glimmerdeep"
EQUAL = "every seat scored the same"


def _objective_equal(cli, tmp_path, map_id, variant=None):
    """The map-objective saturation line (every seat equal) of a small greedy batch, or None."""
    db = tmp_path / f"{map_id}-{variant or 'base'}.duckdb"
    args = ["simulate", "glimmerdeep", "--games", 16, "--players", 4, "--bots", "greedy",
            "--seed", 11, "--map", map_id, "--jobs", 1, "--db", db, "--no-progress"]
    if variant:
        args += ["--variant", f"{VARIANTS}/{variant}"]
    res = cli(*args)
    assert res.exit_code == 0, res.output
    out = cli("checks", "latest", "--db", db)
    assert out.exit_code == 0, out.output
    lines = [ln for ln in out.stdout.splitlines()
             if ln.startswith("FLAG saturation") and "Map objective" in ln and EQUAL in ln]
    return lines[0] if lines else None


@pytest.mark.parametrize("map_id, variant", [("snowy_summit", "turn3_peak.toml"),
                                             ("trade_routes", "turn3_trade_routes.toml"),
                                             ("underground_forest", "turn3_underground_forest.toml")])
def test_turn3_layout_trips_saturation_and_the_base_does_not(cli, tmp_path, map_id, variant):
    line = _objective_equal(cli, tmp_path, map_id, variant)
    assert line is not None, f"{variant}: the old layout should saturate the map objective"
    assert "[greedy]" in line
    assert _objective_equal(cli, tmp_path, map_id) is None
