"""Win rate by card held (issue 15, "For the designers": "log them per player ... so that the
dashboard can show win rates by card held, with intervals"): dashboard/queries/cards.py and its
section of the Factions page, on the cave-colony run of the simulated database."""

from __future__ import annotations

from pathlib import Path

import duckdb
from dashfix import APP, sim_runs
from streamlit.testing.v1 import AppTest

from dashboard.queries import cards as qcards


def _held(db: Path, run_id: str) -> dict[str, tuple[int, int]]:
    """card -> (seats holding it, their wins), counted here in Python from the raw rows."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT held_cards, won FROM players WHERE run_id = ?",
                           [run_id]).fetchall()
    finally:
        con.close()
    out: dict[str, list[int]] = {}
    for held, won in rows:
        for card in set((held or "").split()):
            n_w = out.setdefault(card, [0, 0])
            n_w[0] += 1
            n_w[1] += int(won)
    return {k: (v[0], v[1]) for k, v in out.items()}


def test_card_rates_count_every_card_held_with_its_interval(sim_db: Path):
    run_id = sim_runs(sim_db)["cave_colony-e2e"]
    assert qcards.has_held_cards(str(sim_db), run_id)
    frame = qcards.card_rates(str(sim_db), run_id)
    expected = _held(sim_db, run_id)
    assert set(frame["card"]) == set(expected) and len(expected) > 10
    assert set(frame["kind"]) == {"pos", "neg", "eq"}
    for r in frame.iter_rows(named=True):
        assert (r["games"], round(r["wins"])) == expected[r["card"]]
        assert r["low"] - 1e-12 <= r["rate"] <= r["high"] + 1e-12 and r["fair_share"] == 0.25


def test_games_without_cards_show_no_card_section(sim_db: Path):
    run_id = sim_runs(sim_db)["baseline"]                  # glimmerdeep: no held cards
    assert not qcards.has_held_cards(str(sim_db), run_id)


def test_the_factions_page_shows_win_rates_by_card_held(sim_db: Path, monkeypatch):
    monkeypatch.setenv("DELVE_DB", str(sim_db))
    at = AppTest.from_file(str(APP), default_timeout=120)
    run = sim_runs(sim_db)["cave_colony-e2e"]
    at.query_params["run"] = run
    at.query_params["card_kind"] = "neg"
    at.switch_page("app_pages/factions.py")
    at.run()
    assert not at.exception
    assert any(m.value == "#### Win rate by card held" for m in at.markdown)
    assert at.selectbox(key="card_kind").value == "neg"
    shown = [d.value for d in at.dataframe if "card" in d.value.columns]
    # the cards by their names in the rules (issue 31: no internal id), all negative traits
    from dashboard.labels import run_names
    names = run_names(str(sim_db), {"run_id": run, "game": "cave_colony"})
    negative = {v for k, v in names.items() if k.startswith("neg_")}
    assert shown and len(shown[0]) and set(shown[0]["card"]) <= negative, set(shown[0]["card"])


def test_the_checks_page_shows_the_card_table(sim_db: Path, monkeypatch):
    monkeypatch.setenv("DELVE_DB", str(sim_db))
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params["run"] = sim_runs(sim_db)["cave_colony-e2e"]
    at.switch_page("app_pages/checks.py")
    at.run()
    assert not at.exception
    assert any(e.label.startswith("Cards held") for e in at.expander)
    findings = [d.value for d in at.dataframe if "check" in d.value.columns]
    assert findings and "deciding card" in set(findings[0]["check"])
