"""Issue 12 on the Factions page: ties count 1/k (P13), turn order from the starting player
(P5), head-to-head matchups with Holm over the pairs and empty pairs explained (P2), marks
and simultaneous intervals that agree (P11), Plackett-Luce over the full order (P13)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import duckdb
import numpy as np
import pytest

from dashboard import queries
from dashboard.queries import factions as qf
from pipelines import stats
from pipelines.store.schema import SCHEMA

RUN = "r1"


def _db(tmp_path: Path, games: list[dict]) -> str:
    """games: {"start": s, "first": f, "seats": [(faction, rank, won, score)]}"""
    path = tmp_path / "i12.duckdb"
    con = duckdb.connect(str(path))
    for table in ("games", "players"):
        cols = ", ".join(f"{n} {t}" for n, t in SCHEMA[table])
        con.execute(f"CREATE TABLE {table} ({cols})")
    for gid, g in enumerate(games):
        n = len(g["seats"])
        con.execute("INSERT INTO games (run_id, game_id, seed, n_players, map, rounds, steps, "
                    "first_seat, winner_seat, ended_by, wall_ms, start_seat) VALUES "
                    "(?, ?, ?, ?, 'm', 5, 10, ?, 0, 'rounds', 1.0, ?)",
                    [RUN, gid, gid, n, g["first"], g["start"]])
        for seat, (faction, rank, won, score) in enumerate(g["seats"]):
            con.execute("INSERT INTO players (run_id, game_id, seat, faction, bot, score, rank, won) "
                        "VALUES (?, ?, ?, ?, 'greedy', ?, ?, ?)", [RUN, gid, seat, faction, score,
                                                                    rank, won])
    con.close()
    return str(path)


def test_a_tied_win_counts_one_kth_so_a_games_rates_sum_to_one(tmp_path):
    """Audit P13: 'players.won is true for every tied winner ... win rates sum to more than 1'."""
    db = _db(tmp_path, [
        {"start": 0, "first": 0, "seats": [("a", 1, True, 10), ("b", 1, True, 10), ("c", 3, False, 1)]},
        {"start": 0, "first": 0, "seats": [("a", 1, True, 12), ("b", 2, False, 9), ("c", 3, False, 1)]},
    ])
    rates = queries.faction_rates(db, RUN)
    wins = dict(zip(rates["faction"], rates["wins"]))
    assert wins == {"a": 1.5, "b": 0.5, "c": 0.0}
    assert math.isclose(sum(wins.values()), 2.0)           # one win per game
    seats = qf.seat_rates(db, RUN).filter(qf.pl.col("kind") == "seat")
    assert math.isclose(float(seats["wins"].sum()), 2.0)


def test_turn_order_counts_from_the_starting_player_not_the_last_rounds(tmp_path):
    """Audit P5: games.first_seat is the first player of the last round (3-player Glimmerdeep
    stores 1 although seat 0 starts); turn order 0 must be the starting player."""
    db = _db(tmp_path, [
        {"start": 2, "first": 1, "seats": [("a", 2, False, 5), ("b", 3, False, 4), ("c", 1, True, 9)]},
        {"start": 2, "first": 1, "seats": [("b", 2, False, 5), ("c", 3, False, 4), ("a", 1, True, 9)]},
    ])
    turn = qf.seat_rates(db, RUN).filter(qf.pl.col("kind") == "turn order").sort("position")
    assert turn["position"].to_list() == [0, 1, 2]
    assert turn["wins"].to_list() == [2.0, 0.0, 0.0]      # the starting player (seat 2) won both


def test_play_records_the_starting_player_before_any_move():
    """P5 on a real game: 3-player Glimmerdeep starts at seat 0; first_seat ends elsewhere."""
    from engine.core.play import play_game
    from engine.core.protocol import Seat
    from engine.core.registry import get_game
    game = get_game("glimmerdeep")
    rules = game.load_rules().model
    factions = list(game.factions(rules))[:3]
    rec = play_game(game, rules, [Seat(f, "random") for f in factions], 123, log=False)
    assert rec.game["start_seat"] == 0
    assert rec.game["first_seat"] != rec.game["start_seat"]


def test_head_to_head_tests_the_matchup_against_one_half_and_greys_pairs_that_never_met(tmp_path):
    """Audit P2: the matrix tested 'A's win rate with B at the table = 1/P', which restates A's
    overall strength.  Head to head: A above B in the games both played, against 1/2."""
    games = []
    for i in range(30):   # a beats b every time they meet; c and d never meet
        games.append({"start": 0, "first": 0, "seats": [("a", 1, True, 9), ("b", 2, False, 5),
                                                         ("c" if i % 2 else "d", 3, False, 1)]})
    db = _db(tmp_path, games)
    m = queries.faction_matrix(db, RUN)
    cell = {(r["faction"], r["opponent"]): r for r in m.iter_rows(named=True)}
    assert cell[("a", "b")]["rate"] == 1.0 and cell[("b", "a")]["rate"] == 0.0
    assert cell[("a", "b")]["fair_share"] == 0.5
    assert cell[("a", "b")]["significant"] and cell[("a", "b")]["p_holm"] == cell[("b", "a")]["p_holm"]
    never = cell[("c", "d")]
    assert never["games"] == 0 and never["rate"] is None or math.isnan(never["rate"])
    # Holm over the unordered pairs: 6 pairs of 4 factions, 5 of them played
    assert math.isclose(cell[("a", "b")]["p_holm"],
                        min(1.0, stats.holm([stats.rate_test(30, 30, 0.5)] + [1.0] * 4)[1][0]))
    from dashboard import charts
    fig = charts.faction_matrix(m)
    assert any(getattr(t, "name", None) == "never met" for t in fig.data)


def test_a_simultaneous_interval_that_excludes_the_share_always_carries_a_mark():
    """Audit P11: 10 of 48 cells showed an interval excluding 1/P with no mark.  The mark is the
    Holm-adjusted test; the simultaneous intervals (Bonferroni) agree with it one way."""
    rng = np.random.default_rng(4)
    n = [200] * 12
    wins = [int(rng.binomial(200, p)) for p in np.linspace(0.15, 0.35, 12)]
    t = stats.rate_table(wins, n, [0.25] * 12)
    for lo, hi, sig in zip(t["low_sim"], t["high_sim"], t["significant"]):
        if hi < 0.25 or lo > 0.25:
            assert sig
        assert hi - lo > 0
    assert sum(not s and (h < 0.25 or l > 0.25) for l, h, s in zip(t["low"], t["high"], t["significant"])) >= 1


def test_plackett_luce_uses_the_whole_order_and_is_sharper_than_the_winner_only_model():
    rng = random.Random(3)
    strength = {"a": 0.8, "b": 0.2, "c": -0.3, "d": -0.7}
    names = list(strength)
    full, winner = [], []
    for _ in range(800):
        order_f = names[:]
        rng.shuffle(order_f)
        left, ranks = list(range(4)), [0] * 4
        for place in range(1, 5):
            w = [math.exp(strength[order_f[i]]) for i in left]
            pick = rng.choices(left, weights=w)[0]
            ranks[pick] = place
            left.remove(pick)
        full.append((order_f, ["0", "1", "2", "3"], ["g"] * 4, ranks, 1))
        winner.append((order_f, ["0", "1", "2", "3"], ["g"] * 4, [int(r == 1) for r in ranks], 1))
    pl_fit = stats.plackett_luce_model(full)
    lw_fit = stats.luce_winner_model(winner)
    centred = {k: v - sum(strength.values()) / 4 for k, v in strength.items()}
    for t in pl_fit.terms:
        if t.kind == "faction":
            assert t.low <= centred[t.level] <= t.high
    width = lambda fit: np.mean([t.high - t.low for t in fit.terms if t.kind == "faction"])
    assert width(pl_fit) < 0.8 * width(lw_fit)
    assert pl_fit.n_games == 800


def test_seat_terms_say_they_include_the_bot_when_each_seat_has_its_own_bot():
    rows = [(["a", "b"], ["0", "1"], ["greedy", "random"], [1, 2], 30),
            (["b", "a"], ["0", "1"], ["greedy", "random"], [2, 1], 20)]
    fit = stats.plackett_luce_model(rows)
    assert fit.reference.get("seat_includes_bot") == "yes"


def test_winners_against_losers_is_a_within_game_contrast_over_games(tmp_path):
    """Audit P10: Welch across the seats of the same game (2-3x too wide where the game moves
    every seat).  Here a game-level effect (long games: everyone scores more) cancels out."""
    import polars as pl
    from scipy import stats as sps
    from dashboard.queries import scoring as qs
    games = []
    rng = random.Random(2)
    diffs = []
    for g in range(40):
        base = rng.choice([10, 40])                 # a short or a long game: shared by all seats
        edge = rng.randint(1, 5)
        games.append({"start": 0, "first": 0, "seats": [("a", 1, True, base + edge),
                                                         ("b", 2, False, base),
                                                         ("c", 3, False, base)]})
        diffs.append(edge)
    db = _db(tmp_path, games)
    con = duckdb.connect(db)
    cols = ", ".join(f"{n} {t}" for n, t in SCHEMA["score_events"])
    con.execute(f"CREATE TABLE score_events ({cols})")
    con.close()
    wl = qs.winners_vs_losers(db, RUN)
    total = wl.filter(pl.col("category") == qs.TOTAL_SCORE).row(0, named=True)
    d = np.array(diffs, dtype=float)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    assert total["games"] == 40
    assert total["difference"] == pytest.approx(d.mean())
    assert total["high"] - total["low"] == pytest.approx(2 * half)


def test_a_database_without_start_seat_shows_seats_and_no_turn_order(tmp_path):
    """Runs stored before games.start_seat: the seat panel stays, the turn-order rows go."""
    db = _db(tmp_path, [{"start": 0, "first": 0, "seats": [("a", 1, True, 9), ("b", 2, False, 5)]}])
    con = duckdb.connect(db)
    con.execute("ALTER TABLE games DROP COLUMN start_seat")
    con.close()
    seats = qf.seat_rates(db, RUN)
    assert set(seats["kind"]) == {"seat"} and seats.height == 2
