"""Issue 28: a playtester's eye.  Each play check flags the pattern it names and stays quiet on
play without it (synthetic frames of known shape), and the whole set runs on a real stored
run, per tier, with intervals (`delve checks`)."""

from __future__ import annotations

import polars as pl
import pytest

from pipelines.lab.checks_data import Reference, Thresholds, load_thresholds
from pipelines.lab.play_checks import (Names, by_tier, check_decisiveness, check_dominant,
                                       check_options, check_range, check_saturation,
                                       check_sentences, procedural_regex)
from pipelines.stats import median_ci, ratio_ci

TH = Thresholds()
NAMES = Names("toy", "{}")


def _seats(points_by_game, category="bonus", faction=None, tier="greedy", map_id=""):
    rows = []
    for g, pts in enumerate(points_by_game):
        for seat, p in enumerate(pts):
            rows.append({"tier": tier, "map": map_id, "n_players": len(pts), "run_id": "r",
                         "game_id": g, "seat": seat, "faction": faction or f"f{seat}",
                         "won": seat == 0, "category": category, "pts": p})
    return pl.DataFrame(rows)


def _flagged(findings, check):
    return [f for f in findings if f.check == check and f.flagged]


# -- saturation -------------------------------------------------------------------------------------

def test_a_category_equal_for_every_seat_in_most_games_is_saturated():
    frame = _seats([[30, 30, 30, 30]] * 9 + [[30, 25, 20, 15]] * 3)
    found = _flagged(check_saturation(frame, TH, NAMES)[0], "saturation")
    assert len(found) == 1 and "9 of 12 games" in found[0].evidence
    assert found[0].value == pytest.approx(0.75) and found[0].low < 0.75 < found[0].high


def test_a_category_that_separates_players_is_not_saturated():
    frame = _seats([[30, 25, 20, 15], [12, 30, 8, 20]] * 6)
    assert not _flagged(check_saturation(frame, TH, NAMES)[0], "saturation")


def test_a_faction_at_its_cap_in_most_games_is_saturated_and_skipped_categories_are_not():
    pts = [[18, 5, 7, 3]] * 8 + [[14, 6, 2, 9]] * 2
    frame = _seats(pts, category="calling")
    found = _flagged(check_saturation(frame, TH, NAMES)[0], "saturation")
    assert [f.subject for f in found] == ["category calling of f0"]
    assert "8 of 10 seats" in found[0].evidence and "18" in found[0].evidence
    skip = Thresholds(skip_categories=["calling"])
    assert not _flagged(check_saturation(frame, skip, NAMES)[0], "saturation")


# -- dead and forced options --------------------------------------------------------------------------

def _offers(key, per_game, games=12, tier="greedy"):
    return pl.DataFrame([{"tier": tier, "key": key, "run_id": "r", "game_id": g,
                          "offered": o, "chosen": c, "expected": e}
                         for g in range(games) for (o, c, e) in [per_game(g)]])


def test_a_card_offered_often_and_never_kept_is_dead():
    frame = _offers("keep:card_a", lambda g: (4, 0, 2.0))       # 1 of 2 choices, never taken
    found = _flagged(check_options(frame, TH, NAMES)[0], "dead option")
    assert len(found) == 1 and "never chosen" in found[0].evidence
    assert found[0].value == 0 and found[0].high > 0           # an honest width, not [0, 0]
    assert found[0].certain


def test_a_card_kept_as_often_as_chance_is_not_dead():
    frame = _offers("keep:card_a", lambda g: (4, 2, 2.0))
    assert not check_options(frame, TH, NAMES)[0]


def test_an_action_taken_once_a_game_is_not_dead_however_often_it_is_offered():
    """The start-player space: offered at every turn, taken once a round in every game."""
    frame = _offers("first_player", lambda g: (60, 3, 20.0))
    assert not _flagged(check_options(frame, TH, NAMES)[0], "dead option")
    never = _offers("first_player", lambda g: (60, 1 if g == 0 else 0, 20.0))
    assert _flagged(check_options(never, TH, NAMES)[0], "dead option")


def test_an_option_always_chosen_over_its_alternatives_is_forced():
    frame = _offers("unit_worker", lambda g: (10, 10, 5.0))
    found = _flagged(check_options(frame, TH, NAMES)[0], "forced option")
    assert len(found) == 1 and "120 of 120" in found[0].evidence
    assert not _flagged(check_options(_offers("unit_worker", lambda g: (10, 6, 5.0)), TH,
                                      NAMES)[0], "forced option")


def test_procedural_options_are_a_pattern_list():
    import re
    rx = procedural_regex(["skip", "*_none"])
    assert re.fullmatch(rx, "skip") and re.fullmatch(rx, "build_none")
    assert not re.fullmatch(rx, "skipper") and not re.fullmatch(rx, "build")


# -- runaway leader, decisiveness ----------------------------------------------------------------------

def _spread(pairs, tier="greedy"):
    return pl.DataFrame([{"tier": tier, "run_id": "r", "game_id": i, "top": t, "bottom": b}
                         for i, (t, b) in enumerate(pairs)])


def _leads(rows, tier="greedy"):
    return pl.DataFrame([{"tier": tier, "run_id": "r", "game_id": i, "rounds": r,
                          "lead_changes": c, "leads_from": f} for i, (r, c, f) in enumerate(rows)])


def test_a_runaway_winner_and_an_early_decision_are_flagged():
    found, _ = check_decisiveness(_leads([(10, 0, 2)] * 20), _spread([(90, 20)] * 20), TH)
    assert {f.check for f in found if f.flagged} == {"runaway leader", "decided early",
                                                      "lead changes"}


def test_a_close_game_decided_late_is_not():
    found, _ = check_decisiveness(_leads([(10, 3, 9), (10, 2, 10)] * 10),
                                  _spread([(90, 70), (80, 72)] * 10), TH)
    assert not [f for f in found if f.flagged]
    assert all(f.low <= f.value <= f.high for f in found)


# -- out of range, dominant source ---------------------------------------------------------------------

def _scores(winner_scores, n_players=4, tier="greedy"):
    return pl.DataFrame([{"tier": tier, "n_players": n_players, "run_id": "r", "game_id": i,
                          "seat": 0, "score": s, "won": True, "top": True, "bottom": False}
                         for i, s in enumerate(winner_scores)])


def test_winners_far_above_the_reference_range_are_out_of_range():
    th = Thresholds(reference=[Reference(stat="winner", low=60, high=140, source="example")])
    found, _ = check_range(_scores([280, 300, 250, 260, 310] * 4), th)
    assert found[0].flagged and found[0].certain and "(example)" in found[0].evidence
    found, _ = check_range(_scores([90, 100, 120, 80, 130] * 4), th)
    assert not found[0].flagged


def test_a_reference_for_other_player_counts_does_not_apply():
    th = Thresholds(reference=[Reference(stat="score", low=126, players=[1], source="solo")])
    assert check_range(_scores([50] * 10, n_players=4), th)[0] == []


def test_one_category_giving_most_of_the_winners_points_dominates_unless_it_is_the_game():
    cats = pl.DataFrame([{"tier": "greedy", "run_id": "r", "game_id": i, "source": c, "share": s}
                         for i in range(20) for c, s in (("objective", 0.7), ("cards", 0.3))])
    acts = pl.DataFrame(schema={"tier": pl.String, "run_id": pl.String, "game_id": pl.Int64,
                                "source": pl.String, "share": pl.Float64})
    found = _flagged(check_dominant(cats, acts, TH, NAMES, {"greedy": 20})[0], "dominant source")
    assert [f.subject for f in found] == ["category objective"]
    th = Thresholds(skip_sources=["objective"])
    assert not check_dominant(cats, acts, th, NAMES, {"greedy": 20})[0]


# -- data, words, statistics ---------------------------------------------------------------------------

def test_thresholds_come_from_data_and_a_bad_field_is_named(tmp_path):
    th = load_thresholds("underhaven")
    assert "start" in th.skip_categories and th.reference and th.reference[0].stat == "winner"
    bad = tmp_path / "checks.toml"
    bad.write_text("[default]\nsaturation_share = 2\n")
    from engine.core.errors import DelveError
    with pytest.raises(DelveError, match=r"checks.toml.*saturation_share"):
        load_thresholds("toy", bad)


def test_sentences_put_the_surest_flags_first_and_by_tier():
    frame = _seats([[30, 30, 30, 30]] * 9 + [[30, 25, 20, 15]] * 3)
    dead = _offers("keep:card_a", lambda g: (4, 0, 2.0))
    found = check_saturation(frame, TH, NAMES)[0] + check_options(dead, TH, NAMES)[0]
    words = check_sentences(found)
    assert words[0].startswith("**Dead option** (greedy bots)")   # certain before uncertain
    assert "not yet certain" in words[1]
    table = by_tier(found)
    assert table.columns == ["check", "subject", "greedy"]


def test_ratio_and_median_intervals_cover_their_estimates():
    r, low, high = ratio_ci([1, 2, 0, 3] * 10, [1.5] * 40)
    assert low < r < high
    m, low, high = median_ci(range(1, 101))
    assert low < m < high and high - low < 30


def test_with_several_maps_saturation_names_the_map_to_look_at():
    frame = pl.concat([_seats([[30, 30, 30, 30]] * 10, category="map_objective", map_id="peak"),
                       _seats([[30, 25, 20, 15]] * 10, category="map_objective", map_id="forest")
                       .with_columns(pl.col("game_id") + 100)])
    found = _flagged(check_saturation(frame, TH, NAMES)[0], "saturation")
    assert [f.subject for f in found] == ["category map objective on map peak"]


def test_every_seats_score_is_judged_per_game_not_per_seat():
    """A game's seats are not independent: the range check takes each game's mean score."""
    frame = pl.DataFrame([{"tier": "greedy", "n_players": 4, "run_id": "r", "game_id": g,
                           "seat": s, "score": 60 + s, "won": s == 3, "top": s == 3,
                           "bottom": s == 0} for g in range(6) for s in range(4)])
    th = Thresholds(reference=[Reference(stat="score", low=80, high=130, source="published")])
    found, table = check_range(frame, th)
    assert table["n"].to_list() == [6] and "over 6 games" in found[0].evidence
    assert found[0].value == pytest.approx(61.5) and found[0].flagged


def test_a_check_sentence_names_a_faction_as_the_pages_do():
    """'Gemwardens', not 'The Gemwardens' (the rules entry's name without its article, as the
    pages' `faction_name`)."""
    import json

    from dashboard.labels import faction_name
    from engine.core.names import entry_name
    from engine.core.registry import get_game
    from pipelines.lab.play_checks import Names
    g = get_game("glimmerdeep")
    rules = g.load_rules()
    names = Names("glimmerdeep", json.dumps(rules.doc))
    for f in g.factions(rules.model):
        assert names.faction(f) == faction_name(entry_name(rules.doc, "factions", f), f)
        assert not names.faction(f).startswith("The ")
    assert names.faction("gemwardens") == "Gemwardens"
