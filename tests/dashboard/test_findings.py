"""Issue 18, findings in plain words: the sentences the Factions page and the report print,
checked against known counts (a run with two clear imbalances, and one where nothing is
significant)."""

from __future__ import annotations

import polars as pl
import pytest

from dashboard.findings import findings, games_needed, played_by, sentences
from dashboard.queries.filters import _with_rates


def _rates(wins: dict[str, int], games: int, p: float = 0.25) -> pl.DataFrame:
    frame = pl.DataFrame({"faction": list(wins), "games": [games] * len(wins),
                          "wins": list(wins.values()), "fair_share": [p] * len(wins)})
    return _with_rates(frame).with_columns(pl.col("rate").alias("win_rate"))


def _seats(wins: list[int], games: int, p: float = 0.25) -> pl.DataFrame:
    frame = pl.DataFrame({"kind": ["turn order"] * len(wins), "position": list(range(len(wins))),
                          "games": [games] * len(wins), "wins": wins,
                          "fair_share": [p] * len(wins)})
    return _with_rates(frame)


LABELS = {"ironclads": "Ironclads", "gildtails": "Gildtails", "nightbarons": "Nightbarons",
          "gemwardens": "Gemwardens"}


def test_clear_imbalances_come_first_with_interval_games_and_verdict():
    rates = _rates({"ironclads": 630, "gildtails": 110, "nightbarons": 380, "gemwardens": 380},
                   1500)
    seats = _seats([405, 360, 370, 365], 1500)
    out = findings(rates, seats, n_games=1500, labels=LABELS)
    text = [f.text for f in out]
    # the largest significant gap first (Gildtails 7% is 18 points off, Ironclads 42% 17)
    assert text[0] == ("Gildtails win 7% [6%, 9%] of 4-player games against a fair 25% "
                       "(1,500 games with Gildtails): too weak.")
    assert text[1] == ("Ironclads win 42% [40%, 45%] of 4-player games against a fair 25% "
                       "(1,500 games with Ironclads): too strong.")
    assert [f.significant for f in out[:2]] == [True, True]
    # the others are shown within the margin (issue 29: equivalence, Holm over the factions),
    # never merely "fair"
    calm = next(f for f in out if f.kind == "balanced")
    assert calm.text == ("Balanced within ±3 points of the fair 25%: Nightbarons 25% [23%, 28%], "
                         "Gemwardens 25% [23%, 28%] (equivalence test, Holm over the 4 factions; "
                         "1,500 games).")
    assert "fair." not in " ".join(text) and not any(f.kind == "no_evidence" for f in out)
    first = next(f for f in out if f.kind == "first_player")
    assert first.text.startswith("The first player wins 27% [25%, 29%] against a fair 25% "
                                 "(1,500 games): no evidence of an advantage")
    assert not first.significant


def test_a_run_where_nothing_is_significant_says_so_and_how_many_games_would_tell():
    rates = _rates({"a": 55, "b": 48, "c": 50, "d": 47}, 200)
    seats = _seats([52, 50, 49, 49], 200)
    assert not rates["significant"].any()
    text = sentences(rates, seats, n_games=200)
    # neither difference nor equivalence shown: "not yet known", quoting the simultaneous
    # (Bonferroni Clopper-Pearson) intervals that agree with the marks (audit N8), and the games
    # that settle it planned from the ±3-point margin at 80% power (audit N3): Cohen's h of
    # 28% against 25% is 0.0679; TOST at 0.05/4 per side with 90% power per side needs
    # (2.24 + 1.28)^2 / h^2 = 2,684 player-games = games here: 2,485 more, about 2,500
    assert text[0] == ("No faction is shown balanced within ±3 points of the fair 25%, nor too "
                       "strong or too weak, yet: A 28% [20%, 36%], B 24% [17%, 32%], C 25% "
                       "[18%, 33%], D 24% [16%, 32%] (simultaneous 95% intervals over the 4 "
                       "factions; 200 games). About 2,500 more games would settle them (80% "
                       "power if a faction is fair or off by the margin; planned from the "
                       "margin, not from the gaps seen).")
    assert "too strong." not in " ".join(text) and "too weak." not in " ".join(text)
    assert any("first player wins 26% [20%, 32%]" in t and "no evidence" in t for t in text)


def test_games_needed_has_80_percent_power():
    # 27.5% against 25% with 200 player-games of 200 games (audit N3):
    # (1.96 sqrt(.25 * .75) + 0.84 sqrt(.275 * .725))^2 / 0.025^2 = 2,399 -> about 2,400
    n = games_needed(0.275, 0.25, 200, 200)
    assert n == 2400
    # the exact binomial test at that size rejects 25% with at least 80% power when p = 27.5%
    from scipy import stats
    crit_hi = stats.binom.isf(0.025, n, 0.25)
    assert stats.binom.sf(crit_hi, n, 0.275) >= 0.78   # 0.788: the normal approximation's 80%
    # a faction on half of the seats needs twice the games
    assert games_needed(0.275, 0.25, 100, 200) == 4800
    # over 4 Holm-corrected rows the level is Bonferroni's 0.05 / 4: more games
    assert games_needed(0.275, 0.25, 200, 200, tests=4) == 3400
    # planned from a margin, the gap seen does not matter
    assert games_needed(0.30, 0.25, 200, 200, margin=0.03) == games_needed(0.26, 0.25, 200, 200, margin=0.03)


def test_a_significant_first_player_advantage_is_reported():
    seats = _seats([600, 420, 420, 360], 1800)
    rates = _rates({"a": 450, "b": 450, "c": 450, "d": 450}, 1800)
    text = sentences(rates, seats, n_games=1800, n_players=4)
    assert text[0].startswith("The first player wins 33% [31%, 36%] against a fair 25% "
                              "(1,800 games): an advantage of moving first")


@pytest.mark.parametrize("frame", [pl.DataFrame(schema={"faction": pl.Utf8})])
def test_no_data_no_sentence(frame):
    assert sentences(None, None, n_games=0) == []


def _cats(rows: list[tuple[str, str, int, float, float]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["faction", "category", "n", "mean", "var"], orient="row")


def test_where_the_points_come_from_names_the_faction_a_category_serves_least():
    """Issue 18: "Gildtails' calling brings 4 of their 66 points, the least of any faction"."""
    cats = _cats([("gildtails", "calling", 400, 4.0, 9.0), ("gildtails", "buildings", 400, 62.0, 100.0),
                  ("ironclads", "calling", 400, 12.0, 16.0), ("ironclads", "buildings", 400, 60.0, 100.0),
                  ("nightbarons", "calling", 400, 9.0, 16.0), ("nightbarons", "buildings", 400, 61.0, 100.0)])
    labels = {**LABELS, "calling": "Faction calling"}
    rates = _rates({"ironclads": 100, "gildtails": 100, "nightbarons": 100}, 400, 1 / 3)
    out = [f for f in findings(rates, n_games=400, labels=labels, categories=cats)
           if f.kind == "categories"]
    assert len(out) == 1 and out[0].significant
    # 4 +- 1.96 * 3 / 20 = [3.7, 4.3]; totals 4 + 62 = 66 and 12 + 60 = 72
    assert out[0].text == ("Gildtails' faction calling brings 4.0 [3.7, 4.3] of their 66 points "
                           "per game, the least of any faction; it brings Ironclads the most, 12.0 "
                           "[11.6, 12.4] of their 72 points per game (400 and 400 player-games).")


def test_a_least_that_is_not_clear_is_not_a_finding():
    """Issue 31 (M6): "... the least in these games, but not clearly below Red's 3.0" said
    nothing conclusive; such a sentence is left out."""
    cats = _cats([("gildtails", "calling", 30, 8.0, 36.0), ("ironclads", "calling", 30, 9.0, 36.0),
                  ("gildtails", "buildings", 30, 50.0, 100.0), ("ironclads", "buildings", 30, 50.5, 100.0)])
    assert sentences(None, n_games=30, categories=cats, labels=LABELS) == []


def test_a_category_a_faction_never_scores_is_said_plainly():
    """Glimmerdeep's Forgeburrowers: "a unique calling that does not reward VP at the end of the
    game" (Appendix A), so their calling row is 0 in every game: the finding says they brought
    none and points at the rules, instead of "0.0 [0.0, 0.0] ... the least of any faction"."""
    cats = _cats([("forgeburrowers", "calling", 300, 0.0, 0.0), ("forgeburrowers", "buildings", 300, 70.0, 100.0),
                  ("gemwardens", "calling", 300, 17.5, 4.0), ("gemwardens", "buildings", 300, 60.0, 100.0)])
    out = sentences(None, n_games=300, categories=cats, labels={**LABELS, "calling": "Faction calling"})
    assert len(out) == 1
    assert out[0].startswith("Forgeburrowers' faction calling brought no points in any of their 300 "
                             "player-games (of their 70 points per game): it may be a category their "
                             "rules never score")
    assert "0.0 [0.0, 0.0]" not in out[0] and "it brings Gemwardens the most, 17.5" in out[0]


@pytest.mark.parametrize("bots,bot,clause", [
    (["greedy"], None, " played by greedy bots"),
    (["mcts:400"], None, " played by mcts:400 bots"),
    (["greedy", "random"], None, " played by greedy and random bots"),
    (["greedy", "random"], "random", " played by random bots"),   # the page's bot filter
    (None, None, ""), ([], None, ""),
])
def test_played_by_names_the_bots_a_verdict_rests_on(bots, bot, clause):
    assert played_by(bots, bot) == clause


def test_a_verdict_says_who_played_the_games():
    """DESIGN.md, Statistics: "Balance is reported per bot skill tier, because measured balance
    moves with the players' skill": a faction's verdict, and the absence of one, name the bots
    whose play they measured."""
    rates = _rates({"ironclads": 630, "gildtails": 110, "nightbarons": 380, "gemwardens": 380},
                   1500)
    text = sentences(rates, n_games=1500, labels=LABELS, bots=["greedy"])
    assert text[0] == ("Gildtails win 7% [6%, 9%] of 4-player games played by greedy bots "
                       "against a fair 25% (1,500 games with Gildtails): too weak.")
    quiet = sentences(_rates({"a": 55, "b": 48, "c": 50, "d": 47}, 200), n_games=200,
                      bots=["greedy"])
    assert quiet[0].startswith("No faction is shown balanced within ±3 points of the fair "
                               "25%, nor too strong or too weak, yet in games played by greedy "
                               "bots: ")


def test_a_first_player_rate_with_a_bot_per_seat_says_it_mixes_seat_and_skill():
    """`--bots greedy,random,random,random` seats a bot per position: when greedy sits first,
    'the first player wins 100%' measures the bot as much as the seat, and the sentence says
    so (seen in the browser on a 40-game run)."""
    rates = _rates({"a": 10, "b": 10, "c": 10, "d": 10}, 40)
    seats = _seats([40, 0, 0, 0], 40)
    mixed = sentences(rates, seats, n_games=40, bots=["greedy", "random"])
    first = next(t for t in mixed if t.startswith("The first player"))
    assert first.endswith("an advantage of moving first (the seats are played by different "
                          "bots, greedy, random: this mixes the seat with the bots' skill).")
    alone = sentences(rates, seats, n_games=40, bots=["greedy"])
    assert not any("different bots" in t for t in alone)


def test_a_verdict_rests_on_the_factions_own_games():
    """Issue 31 (M5): with 8 factions at 4-player tables a faction sits in about half the run's
    games; its verdict names its own count, not the run's ("Gildtails win 8% ... (1,500 games)"
    where Gildtails played 748)."""
    rates = _rates({"ironclads": 330, "gildtails": 60}, 748)
    text = sentences(rates, n_games=1500, labels=LABELS)
    verdicts = [t for t in text if t.endswith(("too weak.", "too strong."))]
    assert any(t.endswith("(748 games with Gildtails): too weak.") for t in verdicts)
    assert any(t.endswith("(748 games with Ironclads): too strong.") for t in verdicts)
    assert not any("1,500" in t for t in verdicts)


def test_turn_order_that_repeats_the_seats_is_shown_once():
    """Stats audit N10: in Glimmerdeep the start is always seat 0, so the turn-order table
    duplicated the seat table."""
    import polars as pl
    from dashboard.findings import turn_order_is_seat
    rows = [("seat", 0, 10, 4.0), ("seat", 1, 10, 6.0)]
    same = pl.DataFrame(rows + [("turn order", p, g, w) for _, p, g, w in rows],
                        schema=["kind", "position", "games", "wins"], orient="row")
    assert turn_order_is_seat(same)
    other = pl.DataFrame(rows + [("turn order", 0, 10, 6.0), ("turn order", 1, 10, 4.0)],
                         schema=["kind", "position", "games", "wins"], orient="row")
    assert not turn_order_is_seat(other)
    assert not turn_order_is_seat(pl.DataFrame(rows, schema=["kind", "position", "games", "wins"],
                                               orient="row"))
