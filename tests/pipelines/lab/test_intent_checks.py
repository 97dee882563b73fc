"""Issue 28: the checks of what the design means a source or a chance card to do (unused source,
source cap, paying hazard) flag the pattern they name and stay quiet without it (synthetic
frames of known shape); the game hooks they read give what the rules data says."""

from __future__ import annotations

import polars as pl
import pytest

from pipelines.lab.checks_data import Hazard, SourceCap, Thresholds, load_thresholds
from pipelines.lab.intent_checks import check_caps, check_hazards, check_unused
from pipelines.lab.play_checks import Names

NAMES = Names("toy", "{}")


def _flagged(findings, check):
    return [f for f in findings if f.check == check and f.flagged]


def _scored(per_game: list[dict[str, int]], seats: int = 4, tier: str = "greedy") -> pl.DataFrame:
    """Per game, {category: seats that scored it}."""
    rows = []
    for g, cats in enumerate(per_game):
        for cat, k in (cats or {None: 0}).items():
            rows.append({"tier": tier, "run_id": "r", "game_id": g, "seats": seats,
                         "category": cat, "scored": k})
    return pl.DataFrame(rows, schema={"tier": pl.String, "run_id": pl.String, "game_id": pl.Int32,
                                      "seats": pl.Int64, "category": pl.String, "scored": pl.Int64})


# -- unused source -------------------------------------------------------------------------------------

def test_a_category_no_seat_scores_is_an_unused_source():
    frame = _scored([{"cities": 4, "production": 3}] * 20)
    found = _flagged(check_unused(frame, ["cities", "production", "metropolis"], Thresholds(),
                                  NAMES)[0], "unused source")
    assert [f.subject for f in found] == ["category metropolis"]
    assert "no seat scored it in 20 games" in found[0].evidence
    assert found[0].value == 0 and 0 < found[0].high < 0.1 and found[0].certain


def test_a_category_one_seat_in_four_scores_is_used_and_penalties_are_not_judged():
    frame = _scored([{"cities": 4, "metropolis": 1}] * 20)
    found, table = check_unused(frame, ["cities", "metropolis", "feeding"],
                                Thresholds(penalties=["feeding"]), NAMES)
    assert not _flagged(found, "unused source")
    assert set(table["category"]) == {"cities", "metropolis"}       # feeding left out
    assert table.filter(pl.col("category") == "metropolis")["share"].item() == pytest.approx(0.25)


def test_an_unused_source_is_judged_per_tier():
    frame = pl.concat([_scored([{"metropolis": 2}] * 10, tier="mcts:400"),
                       _scored([{}] * 10, tier="greedy")])
    found = _flagged(check_unused(frame, ["metropolis"], Thresholds(), NAMES)[0], "unused source")
    assert [f.tier for f in found] == ["greedy"]


# -- source cap --------------------------------------------------------------------------------------------

def _shares(values, tier="greedy"):
    return pl.DataFrame({"tier": [tier] * len(values), "run_id": ["r"] * len(values),
                         "game_id": list(range(len(values))), "share": values})


CAP = Thresholds(source_cap=[SourceCap(category="resources", at_most=0.1, source="rulebook")])


def test_a_source_above_its_cap_is_flagged_with_its_reason():
    found = check_caps({"resources": _shares([0.2, 0.22, 0.25, 0.19, 0.21, 0.24])}, CAP, NAMES)[0]
    f = _flagged(found, "source cap")
    assert len(f) == 1 and f[0].certain and "meant at most 10% (rulebook)" in f[0].evidence
    assert f[0].low < 0.218 < f[0].high


def test_a_source_within_its_cap_is_not_flagged():
    found = check_caps({"resources": _shares([0.05, 0.07, 0.06, 0.04, 0.08])}, CAP, NAMES)[0]
    assert found and not _flagged(found, "source cap")


# -- paying hazard -------------------------------------------------------------------------------------

VALUES = {"gift": {"gems": 2.0, "oxygen": 0.0}, "blow": {"gems": 0.0, "oxygen": -1.0}}
HAZ = Thresholds(hazard=[Hazard(action="anomaly", weights={"gems": 1.0, "oxygen": 1.0},
                                source="meant to hurt")])


def _draws(per_game: list[dict[str, int]]):
    rows = [{"tier": "greedy", "run_id": "r", "game_id": g, "seats": 2, "entry": e, "draws": k}
            for g, d in enumerate(per_game) for e, k in d.items()]
    return {"anomaly": pl.DataFrame(rows)}


def test_a_hazard_deck_that_pays_on_average_is_flagged():
    draws = _draws([{"gift": 3, "blow": 2}, {"gift": 2, "blow": 3}, {"gift": 4, "blow": 1}] * 4)
    found = _flagged(check_hazards(draws, VALUES, HAZ, NAMES)[0], "paying hazard")
    assert len(found) == 1 and found[0].certain
    # 36 gifts (+2) and 24 blows (-1) in 60 draws: +0.8 a draw
    assert found[0].value == pytest.approx((36 * 2 - 24) / 60)
    assert "gems +1.20" in found[0].evidence and "2.5" in found[0].evidence   # 5 draws, 2 seats


def test_a_hazard_deck_that_costs_on_average_is_not_flagged():
    draws = _draws([{"gift": 1, "blow": 4}, {"gift": 1, "blow": 3}] * 6)
    found = check_hazards(draws, VALUES, HAZ, NAMES)[0]
    assert found and not _flagged(found, "paying hazard") and found[0].value < 0


# -- the data and the game hooks ----------------------------------------------------------------------

def test_the_shipped_thresholds_hold_a_cap_a_penalty_and_a_hazard():
    uwc = load_thresholds("underwater_cities")
    assert [c.category for c in uwc.source_cap] == ["resources"] and uwc.penalties == ["feeding"]
    assert [h.action for h in load_thresholds("cave_colony").hazard] == ["anomaly"]


def test_cave_anomaly_card_values_follow_the_card_data():
    """anomaly.py `effect_value`: an Event Die roll weighs its branches by the faces."""
    from engine.games.cave_colony.anomaly import chance_values
    doc = {"dice": {"event": [1, 2, 3, 4, 5, 6]}, "anomaly_cards": [
        {"id": "a", "effect": {"oxygen": -2}},
        {"id": "b", "effect": {"gems": 2, "lose_gems": 1, "end_turn": True}},
        {"id": "c", "effect": {"roll": {"at_least": 5, "success": {"gems": 3},
                                        "failure": {"oxygen": -3}}}}]}
    v = chance_values(doc)
    assert v["a"] == {"oxygen": -2.0, "energy": 0.0, "gems": 0.0, "end_turn": 0.0}
    assert v["b"]["gems"] == 1.0 and v["b"]["end_turn"] == 1.0
    assert v["c"]["gems"] == pytest.approx(1.0) and v["c"]["oxygen"] == pytest.approx(-2.0)


def test_underwater_cities_contracts_count_only_when_switched_on():
    from engine.core.registry import get_game
    in_play = get_game("underwater_cities").extra["categories_in_play"]
    assert "contracts" not in in_play({"switches": {"contracts": False}})
    assert "contracts" in in_play({"switches": {"contracts": True}})


def test_underhaven_advanced_categories_count_only_with_their_modules():
    from engine.core.registry import get_game
    in_play = get_game("underhaven").extra["categories_in_play"]
    base = in_play({"modules": {}})
    assert "focus" not in base and "loans" not in base and "end_clusters" in base
    full = in_play({"modules": {"focus": True, "corp_locations": True}})
    assert "focus" in full and "loans" in full
