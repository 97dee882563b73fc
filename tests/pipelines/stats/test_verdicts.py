"""Issue 29: the faction verdicts (balanced within ±margin / too strong / too weak / not yet
known) and the run that grows until they are settled.  Calibration, kept small for `make test`:
under each verdict's null its false rate is at most its level, and at the advised size the
verdict reaches about its power.  Games are simulated as multinomial winners among 4 factions
that sit at every table (a game has one winner), as in a 4-faction, 4-player run."""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import binom_tost

from pipelines.run.settle import judge
from pipelines.stats import rate_table
from pipelines.stats.verdicts import (BALANCED, STRONG, UNKNOWN, WEAK, margin_for,
                                      player_games_to_settle, tost_p, verdict_columns)

M = 0.03


def _verdicts(wins, n, *, margin=M, alpha=0.05):
    fair = [0.25] * len(wins)
    t = rate_table(wins, [n] * len(wins), fair, alpha=alpha)
    return verdict_columns(wins, [n] * len(wins), fair, t["rate"], t["significant"],
                           margin=margin, alpha=alpha, total_games=n)["verdict"]


def test_tost_is_statsmodels_binom_tost():
    assert tost_p(260, 1000, 0.25, 0.03) == pytest.approx(binom_tost(260, 1000, 0.22, 0.28)[0])
    assert margin_for("glimmerdeep") == 0.03 and margin_for("no such game") == 0.03


def test_the_four_verdicts():
    assert _verdicts([1250, 1250, 1250, 1250], 5000) == [BALANCED] * 4
    assert _verdicts([2000, 1000, 1000, 1000], 5000) == [STRONG, WEAK, WEAK, WEAK]
    assert _verdicts([30, 22, 25, 23], 100) == [UNKNOWN] * 4
    # a real but small imbalance (26% of 20,000) is balanced within ±3: it matters less than
    # the margin, which is what the designer said matters
    assert _verdicts([5200, 4950, 4950, 4900], 20000)[0] == BALANCED


def test_not_yet_known_says_how_many_games_would_settle_it():
    cols = verdict_columns([30, 22, 25, 23], [100] * 4, [0.25] * 4, [0.3, 0.22, 0.25, 0.23],
                           [False] * 4, margin=M, total_games=100)
    need = player_games_to_settle(0.25, M, 4)
    assert cols["settle_games"] == [math.ceil(need)] * 4
    assert cols["more_games"] == [math.ceil(need) - 100] * 4
    # a faction on half the tables needs twice the games
    one = player_games_to_settle(0.25, M, 1)      # one faction: no correction over factions
    half = verdict_columns([15], [50], [0.25], [0.3], [False], margin=M, total_games=100)
    assert half["settle_games"][0] == pytest.approx(math.ceil(one / 0.5), abs=1)


def _sim(rng, probs, n, reps):
    return rng.multinomial(n, probs, size=reps)


def test_calibration_difference_marks_under_the_null():
    """Four fair factions: a 'too strong' or 'too weak' verdict on any of them in at most 5% of
    runs (Holm over the factions; 250 runs of 800 games)."""
    rng = np.random.default_rng(29)
    runs = _sim(rng, [0.25] * 4, 800, 250)
    false = sum(any(v in (STRONG, WEAK) for v in _verdicts(list(r), 800)) for r in runs)
    assert false / 250 <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 250), false


def test_calibration_balanced_is_rarely_said_of_a_faction_just_outside_the_margin():
    """One faction at 28% (exactly at the ±3 margin), the rest sharing the remainder: it is
    called balanced in at most 5% of runs, even at the size planned to show balance."""
    rng = np.random.default_rng(30)
    n = math.ceil(player_games_to_settle(0.25, M, 4))
    probs = [0.28, 0.24, 0.24, 0.24]
    runs = _sim(rng, probs, n, 300)
    false = sum(_verdicts(list(r), n)[0] == BALANCED for r in runs)
    assert false / 300 <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 300), false


def test_calibration_the_advised_size_has_its_power():
    """At the advised size a fair faction is shown balanced, and a faction 3 points off is shown
    too strong, in about 80% of runs (at least 75% of 300)."""
    rng = np.random.default_rng(31)
    n = math.ceil(player_games_to_settle(0.25, M, 4))
    fair = _sim(rng, [0.25] * 4, n, 300)
    shown = sum(_verdicts(list(r), n)[0] == BALANCED for r in fair)
    strong = _sim(rng, [0.28, 0.24, 0.24, 0.24], n, 300)
    found = sum(_verdicts(list(r), n)[0] == STRONG for r in strong)
    assert shown / 300 >= 0.75, shown
    assert found / 300 >= 0.75, found


def test_calibration_growing_until_settled_keeps_its_error():
    """The stopping rule (Bonferroni over the planned looks, Holm over the factions): with four
    fair factions no faction is ever called too strong or too weak in at least 95% of grown
    runs, and every grown run that stops calls every faction balanced."""
    rng = np.random.default_rng(32)
    batch, max_games = 800, 8000
    looks = max_games // batch
    alpha = 0.05 / looks
    wrong = stopped = 0
    for _ in range(60):
        wins = np.zeros(4)
        for k in range(1, looks + 1):
            wins += rng.multinomial(batch, [0.25] * 4)
            v = judge({f: (wins[i], k * batch) for i, f in enumerate("abcd")}, k * batch, 4,
                      margin=M, alpha=alpha)
            if any(x[0] in (STRONG, WEAK) for x in v.values()):
                wrong += 1
                break
            if all(x[0] == BALANCED for x in v.values()):
                stopped += 1
                break
    assert wrong / 60 <= 0.05, wrong
    assert stopped >= 50, stopped


def test_until_settled_end_to_end(tmp_path):
    """`delve simulate --until-settled` on Underwater Cities: four identical boards are reported
    balanced within the margin by a run that stops by itself; a board made clearly stronger is
    reported too strong (random bots, a ±10-point margin to keep the test short; the ±3-point
    run is in the README)."""
    from delve.cli import main
    repo = __import__("pathlib").Path(__file__).resolve().parents[3]
    db = tmp_path / "s.duckdb"
    out = {}
    for name in ("identical_boards", "strong_reef"):
        res = CliRunner().invoke(main, [
            "simulate", "underwater_cities", "--variant",
            str(repo / "data" / "variants" / "underwater_cities" / f"{name}.toml"),
            "--until-settled", "--margin", "10", "--games", "100", "--max-games", "2000",
            "--bots", "random", "--db", str(db), "--no-progress", "--no-log-moves"],
            catch_exceptions=False)
        assert res.exit_code == 0, res.output
        assert ": settled" in res.output, res.output
        out[name] = {ln.split()[0]: ln for ln in res.output.splitlines()
                     if ln.split() and ln.split()[0] in ("reef", "trench", "vent", "embassy")}
    assert all("balanced" in ln for ln in out["identical_boards"].values()), out
    assert "too strong" in out["strong_reef"]["reef"]
    # the grown run is judged at its looks' level on the pages too
    from pipelines.stats.verdicts import run_alpha
    import duckdb
    with duckdb.connect(str(db), read_only=True) as con:
        cfg = con.execute("SELECT config FROM runs ORDER BY created_at LIMIT 1").fetchone()[0]
    # batches of 100 games rounded up to whole seating cycles (12 games at four seats, four
    # factions): L = ceil(2000 / 108) = 19 planned looks, each at 5% / L
    from pipelines.run.plan import make_plan
    cycle = make_plan("underwater_cities", n_games=1, n_players=4).design.cycle
    batch = cycle * math.ceil(100 / cycle)
    assert run_alpha(cfg) == pytest.approx(0.05 / math.ceil(2000 / batch))
