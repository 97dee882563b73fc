"""Issue 28: every play check can fail.  For a check, a variant in data/variants/<game>/ that
trips it, and the base game that does not, on real greedy games (small batches; the checks'
intervals say how few)."""

from __future__ import annotations

from pathlib import Path

from pipelines.lab.design_checks import run_checks
from pipelines.store import connect_read

REPO = Path(__file__).resolve().parents[3]


def _checks(cli, db, game, *args):
    res = cli("simulate", game, "--players", 4, "--bots", "greedy", "--seed", 3, "--jobs", 1,
              "--db", db, "--no-progress", *args)
    assert res.exit_code == 0, res.output
    with connect_read(db) as con:
        run = con.execute("SELECT run_id FROM runs ORDER BY created_at DESC LIMIT 1").fetchone()[0]
    return run_checks(db, run)


def _base_and_variant(cli, db, game, variant, *args):
    """The checks of the base game's run and of the variant's (data/variants/VARIANT), on the
    same seed and options."""
    return (_checks(cli, db, game, *args),
            _checks(cli, db, game, *args, "--variant", REPO / "data/variants" / variant))


def _flag(rep, check):
    return [f for f in rep.findings if f.check == check and f.flagged]


def test_turn_limit_is_tripped_by_a_short_turn_limit_and_not_by_the_base(cli, tmp_path):
    """Cave colony: greedy games end by five colony cards (rulebook line 145) around round
    20-30; a 12-round limit stops every one of them."""
    db = tmp_path / "t.duckdb"
    base = _checks(cli, db, "cave_colony", "--games", 12)
    assert not _flag(base, "turn limit")
    short = _checks(cli, db, "cave_colony", "--games", 12, "--variant",
                    REPO / "data/variants/cave_colony/short_turn_limit.toml")
    [f] = _flag(short, "turn limit")
    assert "12 of 12 games" in f.evidence and f.certain


def test_dominant_source_is_tripped_by_a_rich_map_objective_and_not_by_the_base(cli, tmp_path):
    """Glimmerdeep on the Bioluminescent map: at the printed 4 VP per building the map
    objective is one source among several; at 40 it gives the winners most of their points."""
    base, rich = _base_and_variant(cli, tmp_path / "d.duckdb", "glimmerdeep",
                                   "glimmerdeep/rich_bioluminescent.toml", "--games", 16, "--map",
                                   "bioluminescent")
    assert not _flag(base, "dominant source")
    found = _flag(rich, "dominant source")
    assert [f.subject for f in found] == ["Map objective"]
    assert found[0].certain


def test_unused_source_is_tripped_by_a_map_objective_worth_nothing_and_not_by_the_base(cli, tmp_path):
    """Glimmerdeep on the Bioluminescent map: at 4 VP per building most seats score the map
    objective; at 0 no seat does, a source no one reaches."""
    base, dark = _base_and_variant(cli, tmp_path / "n.duckdb", "glimmerdeep",
                                   "glimmerdeep/dark_bioluminescent.toml", "--games", 12, "--map",
                                   "bioluminescent")
    assert not _flag(base, "unused source")
    [f] = _flag(dark, "unused source")
    assert f.subject == "Map objective" and f.value == 0 and f.certain


def test_an_early_decision_without_lead_changes_is_tripped_by_a_one_round_game(cli, tmp_path):
    """Glimmerdeep: over five rounds the eventual winner takes the lead late and the lead
    changes; in a one-round game the only round decides, and nothing changes hands."""
    db = tmp_path / "r.duckdb"
    base = _checks(cli, db, "glimmerdeep", "--games", 16)
    for check in ("decided early", "lead changes", "runaway leader"):
        assert not _flag(base, check), check
    short = _checks(cli, db, "glimmerdeep", "--games", 16, "--variant",
                    REPO / "data/variants/glimmerdeep/one_round.toml")
    assert {f.check for f in short.flagged} >= {"decided early", "lead changes", "runaway leader"}
    [changes] = _flag(short, "lead changes")
    assert changes.value == 0 and changes.high > 0       # an honest width for a count of 0


def test_dead_and_forced_colony_cards_are_tripped_by_the_old_costs_and_not_by_the_base(cli, tmp_path):
    """Cave colony: with 1- and 4-gem colony cards (the data before issue 28) greedy keeps a
    1-gem card whenever drawn and a 4-gem one almost never; with 2-3 gems no card is flagged
    for certain (at most one card's interval still reaches the threshold, by chance)."""
    import tomllib
    cards = tomllib.loads((REPO / "data/rules/cave_colony/colony_cards.toml").read_text())
    names = {c["name"] for c in cards["colony_cards"]}      # subjects name cards in words

    def is_colony(subject: str) -> bool:
        return subject.rpartition(": ")[2] in names

    db = tmp_path / "c.duckdb"
    base = _checks(cli, db, "cave_colony", "--games", 48)
    colony = [f for f in base.flagged if is_colony(f.subject)]
    assert len(colony) <= 1 and not [f for f in colony if f.certain], [f.subject for f in colony]
    [hazard] = [f for f in base.findings if f.check == "paying hazard"]
    assert not hazard.flagged and hazard.high < 0          # anomaly draws cost, as meant
    old = _checks(cli, db, "cave_colony", "--games", 48, "--variant",
                  REPO / "data/variants/cave_colony/turn3_colony_costs.toml")
    dead = {f.subject for f in _flag(old, "dead option") if is_colony(f.subject)}
    forced = {f.subject for f in _flag(old, "forced option") if is_colony(f.subject)}
    assert any(s.endswith(": Crystal Spire") for s in dead) and len(dead) >= 4, dead
    assert any(s.endswith(": Ember Pit") for s in forced), forced


def test_out_of_range_is_tripped_by_a_lavish_network_scoring_and_not_by_the_base(cli, tmp_path):
    """Underwater Cities against the published game's usual 80-130 points a player
    (data/checks/checks.toml): the base greedy game is inside; five times the printed network
    scoring is far above."""
    db = tmp_path / "u.duckdb"
    base = _checks(cli, db, "underwater_cities", "--games", 3)   # inside on 3 games
    [inside] = [f for f in base.findings if f.check == "out of range"]
    assert not inside.flagged and 80 <= inside.value <= 130
    lavish = _checks(cli, db, "underwater_cities", "--games", 3, "--variant",
                     REPO / "data/variants/underwater_cities/lavish_network.toml")
    [above] = _flag(lavish, "out of range")
    assert above.value > 130 and above.certain
    assert not _flag(lavish, "source cap")          # leftovers a small share of a large score
    hoard = _checks(cli, db, "underwater_cities", "--games", 3, "--variant",
                    REPO / "data/variants/underwater_cities/hoarded_resources.toml")
    [cap] = _flag(hoard, "source cap")
    assert cap.subject == "Resources" and cap.certain


def test_paying_hazard_is_tripped_by_the_old_anomaly_deck(cli, tmp_path):
    """Cave colony: the anomaly deck before issue 28 paid a worker +0.38 a draw (gems, energy,
    oxygen, valued as data/checks/checks.toml values them); the base deck costs (the base is
    judged in the colony-card test above)."""
    old = _checks(cli, tmp_path / "h.duckdb", "cave_colony", "--games", 12, "--variant",
                  REPO / "data/variants/cave_colony/turn3_anomalies.toml")
    [f] = _flag(old, "paying hazard")
    assert f.certain and 0.3 < f.value < 0.5, f.evidence
