"""Variants (issue 5: "Variants"): TOML patches and --set overrides are validated like the
base rules, errors name the path, `delve rules` prints the diff, shipped variants load."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.rules import REPO_ROOT

from pipeline_helpers import glimmerdeep_ready

VARIANTS = sorted((REPO_ROOT / "data" / "variants" / "glimmerdeep").glob("*.toml"))


@pytest.mark.parametrize("arg, path, words", [
    ("costs.nope=1", "costs.nope", "unknown path"),
    ("costs.build=-1", "costs.build", "greater than or equal to 0"),
    ('costs.build="three"', "costs.build", "valid integer"),
    ("factions.ferrets.bonus=1", "factions.ferrets", "unknown path"),
])
def test_set_errors_name_the_path(cli, arg, path, words):
    res = cli("rules", "toy", "--set", arg)
    assert res.exit_code == 2
    assert path in res.output and words in res.output and "Traceback" not in res.output


def test_variant_file_errors_name_the_file_and_path(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[costs]\nbiuld = 2\n")
    res = cli("rules", "toy", "--variant", bad)
    assert res.exit_code == 2 and "bad.toml" in res.output and "costs.biuld" in res.output
    bad.write_text("[game]\nrounds = 0\n")
    res = cli("rules", "toy", "--variant", bad)
    assert res.exit_code == 2 and "game.rounds" in res.output


def test_rules_prints_the_diff_of_variant_and_set(cli, tmp_path):
    patch = tmp_path / "long.toml"
    patch.write_text("[game]\nrounds = 6\n")
    res = cli("rules", "toy", "--variant", patch, "--set", "costs.build=2", "--diff-only")
    assert res.exit_code == 0
    assert "~ game.rounds: 4 -> 6" in res.stdout and "~ costs.build: 3 -> 2" in res.stdout
    assert "# rules hash:" in res.stdout


@pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep not registered")
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.stem for v in VARIANTS])
def test_shipped_glimmerdeep_variants_load_and_change_something(cli, variant: Path):
    res = cli("rules", "glimmerdeep", "--variant", variant, "--diff-only")
    assert res.exit_code == 0, res.output
    assert "~ " in res.stdout


def test_at_least_six_glimmerdeep_variants_are_shipped():
    assert len(VARIANTS) >= 6
