"""Games without a winner (issue 26, the cave game's D1): a game stopped by the turn limit has
winner NULL and no seat with `won` (DESIGN.md), and every page that shows win rates computes
them over the decided games and shows the undecided share with its interval: the queries, the
findings, the Factions, Scoring and Runs pages, the report, `delve.api` and the CLI summary."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from test_dashboard_pages import _page

from dashboard import queries
from dashboard.findings import sentences
from delve.cli import main

# 8 greedy 2-player games with the turn limit cut to 32 rounds: some end by a win, some at it
SIM = ("simulate", "cave_colony", "--games", "8", "--players", "2", "--bots", "greedy",
       "--seed", "3", "--set", "game.turn_limit=32", "--no-progress")


@pytest.fixture(scope="module")
def cave(tmp_path_factory) -> tuple[Path, str, str]:
    db = tmp_path_factory.mktemp("undecided") / "u.duckdb"
    res = CliRunner().invoke(main, [*SIM, "--db", str(db)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return db, res.stdout.splitlines()[0], res.stdout


def _counts(db: Path) -> tuple[int, int]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT count(*), count(*) FILTER (WHERE winner_seat IS NULL) "
                           "FROM games").fetchone()


def test_turn_limit_games_have_no_winner_in_the_tables(cave):
    db, _run, _out = cave
    games, undecided = _counts(db)
    assert games == 8 and 0 < undecided < 8          # the fixture has both kinds
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT g.ended_by, count(*) FILTER (WHERE p.won) FROM games g "
                           "JOIN players p USING (run_id, game_id) GROUP BY g.game_id, "
                           "g.ended_by").fetchall()
    assert all((won == 0) == (ended == "turn_limit") for ended, won in rows)


def test_win_rates_are_over_the_decided_games_with_the_undecided_share(cave):
    db, run, _out = cave
    _games, k = _counts(db)
    rates = queries.faction_rates(str(db), run, version="t")
    assert rates["games"].sum() == (8 - k) * 2 and rates["wins"].sum() == pytest.approx(8 - k)
    assert rates["fair_share"].to_list() == pytest.approx([0.5] * rates.height)
    info = queries.undecided_share(str(db), run, version="t")
    assert (info["games"], info["undecided"], info["decided"]) == (8, k, 8 - k)
    assert info["share"] == k / 8 and info["low"] < k / 8 < info["high"]
    seats = queries.seat_rates(str(db), run, version="t")
    assert seats.filter(seats["kind"] == "seat")["games"].to_list() == [8 - k, 8 - k]
    _terms, fitted = queries.strength_model(str(db), run, version="t")
    assert fitted == 8 - k                        # no finishing order without a winner
    by_bot = queries.undecided_by_bot(str(db), run, version="t")
    assert by_bot["bot"].to_list() == ["all bots", "greedy"]
    assert by_bot["undecided"].to_list() == [k, k] and by_bot["games"].to_list() == [8, 8]


def test_the_findings_lead_with_the_undecided_games(cave):
    db, run, _out = cave
    _games, k = _counts(db)
    text = sentences(queries.faction_rates(str(db), run, version="t"),
                     queries.seat_rates(str(db), run, version="t"), n_games=8,
                     undecided=queries.undecided_share(str(db), run, version="t"))
    assert text[0].startswith(f"{k} of 8 games ({round(100 * k / 8)}% [")
    assert f"over the {8 - k} decided game" in text[0]
    assert not any("(8 games)" in t for t in text[1:])   # verdicts rest on the decided games


def test_cli_summary_api_and_report_say_so(cave, tmp_path):
    db, run, out = cave
    _games, k = _counts(db)
    assert f"{k} of 8 games ({round(100 * k / 8)}% [" in out and "95% interval" in out
    from delve import api
    r = api.open_db(db).run(run)
    assert r.undecided()["undecided"] == k
    assert r.findings()[0].startswith(f"{k} of 8 games")
    from dashboard.report.html import build_report
    html = build_report(db, run)
    assert "ended at the turn limit without a winner" in html
    assert f"Based on {8 - k} decided games" in html


@pytest.mark.parametrize("page", ["factions", "scoring"])
def test_pages_show_the_undecided_share(cave, monkeypatch, page):
    db, run, _out = cave
    at = _page(db, monkeypatch, page, run=run)
    assert not at.exception
    _games, k = _counts(db)
    warned = " ".join(str(w.value) for w in at.warning)
    assert f"{k} of 8 games" in warned and "without a winner" in warned


def test_runs_page_shows_the_undecided_share_per_bot(cave, monkeypatch):
    db, run, _out = cave
    at = _page(db, monkeypatch, "runs", run=run)
    assert not at.exception
    table = at.get_by_key("undecided_table").dataframe[0].value
    assert table["bot"].tolist() == ["all bots", "greedy"]
    _games, k = _counts(db)
    assert table["undecided"].tolist() == [k, k]
