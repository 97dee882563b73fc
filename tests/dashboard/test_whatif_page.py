"""The What-if and Checks pages through streamlit.testing.v1.AppTest (widgets found by key):
the rules form validates with messages naming the path, a launch runs a real paired
`delve simulate` in the background and opens the comparison, the comparison shows pairing,
intervals and Holm-corrected p-values, the Checks page shows its findings."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashfix import REPO
from whatif_fixtures import build_whatif_db

WHATIF = REPO / "dashboard" / "app_pages" / "whatif.py"
CHECKS = REPO / "dashboard" / "app_pages" / "checks.py"


@pytest.fixture(scope="module")
def whatif_template(tmp_path_factory):
    return build_whatif_db(tmp_path_factory.mktemp("whatif") / "w.duckdb")


@pytest.fixture
def whatif_db(whatif_template, tmp_path):
    db = tmp_path / "w.duckdb"
    shutil.copy(whatif_template["db"], db)
    return dict(whatif_template, db=db)


def _page(path: Path, db: Path, monkeypatch, **params) -> AppTest:
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(path), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at


def _errors(at) -> str:
    return "\n".join(str(e.value) for e in at.error)


def test_form_is_generated_from_the_rules_model_and_validates_with_the_path(whatif_db, monkeypatch):
    at = _page(WHATIF, whatif_db["db"], monkeypatch, base=whatif_db["base"]).run()
    assert not at.exception
    assert at.selectbox(key="whatif_base").value == whatif_db["base"]
    assert at.selectbox(key="whatif_section").value == "game"
    rounds = at.number_input(key="whatif_field::game.rounds")
    assert rounds.value == 5
    rounds.set_value(0)
    at.button(key="whatif_apply").click().run()
    assert "game.rounds" in _errors(at) and "greater than or equal to 1" in _errors(at)
    assert at.button(key="whatif_launch").disabled
    # a list value is typed as a TOML literal and checked, never evaluated
    at.selectbox(key="whatif_section").set_value("objectives").run()
    field = at.text_input(key="whatif_field::objectives.trade_routes_vp")
    field.set_value("__import__('os').getcwd()")
    at.button(key="whatif_apply").click().run()
    assert "objectives.trade_routes_vp" in _errors(at)
    assert not at.exception


def test_bad_variant_name_is_refused(whatif_db, monkeypatch):
    at = _page(WHATIF, whatif_db["db"], monkeypatch, base=whatif_db["base"]).run()
    at.number_input(key="whatif_field::game.rounds").set_value(4)
    at.button(key="whatif_apply").click().run()
    assert not _errors(at)
    at.text_input(key="whatif_name").set_value("no spaces; rm -rf").run()
    assert "Variant name" in _errors(at)
    assert at.button(key="whatif_launch").disabled


def test_launch_runs_a_paired_simulation_and_opens_the_comparison(whatif_db, monkeypatch):
    at = _page(WHATIF, whatif_db["db"], monkeypatch, base=whatif_db["base"]).run()
    at.number_input(key="whatif_field::game.rounds").set_value(6)
    at.button(key="whatif_apply").click().run()
    at.text_input(key="whatif_name").set_value("six_rounds_page").run()
    launch = at.button(key="whatif_launch")
    assert not launch.disabled
    launch.click().run()
    deadline = time.monotonic() + 180
    while at.query_params.get("b") in (None, [], whatif_db["paired"]) and time.monotonic() < deadline:
        time.sleep(1.0)
        at.run()
        assert not at.exception, at.exception
    new_b = at.query_params.get("b")
    new_b = new_b[0] if isinstance(new_b, list) else new_b
    assert new_b and new_b != whatif_db["paired"], "the paired run did not finish in time"
    at.run()
    assert any("Paired:" in str(m.value) for m in at.success)
    from pipelines.store import connect_read
    with connect_read(whatif_db["db"]) as con:
        variant, pw, sets = con.execute("SELECT variant, paired_with, config FROM runs "
                                        "WHERE run_id = ?", [new_b]).fetchone()
    assert variant == "six_rounds_page" and pw == whatif_db["base"]


def test_comparison_shows_pairing_intervals_and_holm(whatif_db, monkeypatch):
    at = _page(WHATIF, whatif_db["db"], monkeypatch, a=whatif_db["base"],
               b=whatif_db["paired"]).run()
    assert not at.exception
    assert any("Paired:" in str(m.value) for m in at.success)
    table = at.get_by_key("whatif_compare_table").dataframe[0].value
    # issue 31 (M3): plain column names, rates in % and points, p-values as people write them
    assert {"who", "measure", "A", "B", "change B - A", "95% interval", "p (Holm)",
            "clear change"} <= set(table.columns)
    assert set(table["measure"]) == {"win rate", "mean score"}
    assert table["who"].str.startswith("seat ").any()
    rates = table[table["measure"] == "win rate"]
    assert rates["A"].str.endswith("%").all() and rates["change B - A"].str.endswith("points").all()
    assert not table["p (Holm)"].str.contains("0000").any()
    verdict = " ".join(str(m.value) for m in at.get_by_key("whatif_verdict").markdown)
    assert "Games last 5.0 rounds in A and 4.0 in B" in verdict
    assert "win rate" in verdict
    length = at.get_by_key("whatif_length").dataframe[0].value
    rounds = length[length["metric"] == "rounds"].iloc[0]
    assert rounds["a"] == 5 and rounds["b"] == 4
    assert at.selectbox(key="whatif_sweep") is not None  # the sweep section is there
    diffs = at.get_by_key("whatif_sweep_diffs").dataframe[0].value
    assert {"point", "faction", "paired", "diff", "low", "high", "p", "p_holm",
            "family"} <= set(diffs.columns)
    assert diffs["paired"].all() and diffs["family"].str.startswith("sweep").all()


def test_checks_page_shows_findings(whatif_db, monkeypatch):
    at = _page(CHECKS, whatif_db["db"], monkeypatch, run=whatif_db["base"]).run()
    assert not at.exception
    findings = at.get_by_key("checks_findings").dataframe[0].value
    assert {"rarely chosen", "game length", "dominant opening"} <= set(findings["check"])
    assert at.selectbox(key="checks_ablate_entry").options


def test_games_to_settle():
    """Issue 12, P9: a power calculation (80% at the Holm-adjusted level), not 'half-width =
    |diff|' (50% power, unadjusted)."""
    from dashboard.queries.whatif import games_to_settle
    # the audit's figures: gemwardens at 1024 paired games, +2.1 [-0.1, +4.3] points:
    # about 1,270 more at alpha = 0.05, about 3,470 more at the Holm worst case alpha / 24
    assert games_to_settle(1024, 0.021, -0.001, 0.043) == pytest.approx(1270, rel=0.03)
    assert games_to_settle(1024, 0.021, -0.001, 0.043, alpha_adj=0.05 / 24) == \
        pytest.approx(3470, rel=0.03)
    assert games_to_settle(100, 0.05, -0.05, 0.15) > 300     # more than the old 50%-power answer
    assert games_to_settle(100, 0.2, 0.1, 0.3, significant=True) == 0       # already settled
    # an interval that excludes 0 but is not significant after Holm is not settled (Ironclads)
    assert games_to_settle(300, -0.12, -0.208, -0.032, alpha_adj=0.05 / 8) > 0
    assert games_to_settle(100, 0.0, -0.1, 0.1) is None
    # issue 29 (audit N3): planned for the margin, not the difference seen (a near-zero
    # difference no longer asks for six-figure game counts) ...
    assert games_to_settle(1024, 0.0005, -0.02, 0.021, effect=0.03) < 2000
    # ... and in games: a faction sitting in half the games needs twice its player-games
    assert games_to_settle(1024, 0.021, -0.001, 0.043, games_per_n=2.0) == \
        pytest.approx(2 * games_to_settle(1024, 0.021, -0.001, 0.043), abs=2)


@pytest.fixture(scope="module")
def four_games_db(tmp_path_factory):
    """A database holding a small random run of each of the four games."""
    from whatif_fixtures import delve
    db = tmp_path_factory.mktemp("whatif4") / "four.duckdb"
    runs = {g: delve("simulate", g, "--games", 2, "--players", 2, "--seed", 1, "--db", db,
                     "--no-progress", "--no-log-moves")
            for g in ("glimmerdeep", "underhaven", "underwater_cities", "cave_colony")}
    return db, runs


@pytest.mark.parametrize("game_id", ["underhaven", "underwater_cities", "cave_colony", "glimmerdeep"])
def test_every_section_of_every_game_opens_and_applies_without_a_change(four_games_db, game_id,
                                                                         monkeypatch):
    """Issue 31's blocker: the form raised "None: cannot be written as TOML" on opening for
    Underwater Cities and on Underhaven's corporations and the cave game's anomaly cards and
    equipment. Every section (its first entry) opens, and Apply with nothing changed records
    no change."""
    db, runs = four_games_db
    at = _page(WHATIF, db, monkeypatch, base=runs[game_id]).run()
    assert not at.exception, at.exception
    sections = at.selectbox(key="whatif_section").options
    assert len(sections) > 2
    for section in sections:
        at.selectbox(key="whatif_section").set_value(section).run()
        assert not at.exception, (section, at.exception)
        at.button(key="whatif_apply").click().run()
        assert not at.exception, (section, at.exception)
        assert not _errors(at), (section, _errors(at))
        assert any("No change yet" in str(c.value) for c in at.caption), section
