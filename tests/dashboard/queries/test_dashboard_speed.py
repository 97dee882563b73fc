"""What makes the pages fast (issue 4: every page under 1 s on 100,000 games) changes no figure.

The faster SQL is checked against the plain formulation it replaced, on a real simulated
database; a cached helper is computed once however its arguments are spelled; the map's
first view counts moves without joining the score events; a page's queries started beside it
run once and leave their errors to the page.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from dashfix import DONE_RUN, sim_runs

from dashboard import queries


def _frame(db: Path, sql: str, params: dict) -> pl.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).pl()
    finally:
        con.close()


def _same(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Equal to the last bit, whatever the row order of an unordered result."""
    return a.schema == b.schema and a.sort(a.columns).equals(b.sort(b.columns))


def _glimmerdeep_runs(db: Path) -> list[str]:
    return [r for label, r in sim_runs(db).items() if "glimmerdeep" in r]


# --- the plain formulations the faster SQL replaced -----------------------------------------

PLAIN_FILTERED = """
WITH fg AS (
    SELECT g.* FROM games AS g
    WHERE g.run_id = $run
      AND ($np::INTEGER IS NULL OR g.n_players = $np::INTEGER)
      AND ($map::VARCHAR IS NULL OR g.map = $map::VARCHAR)
), fp AS (
    SELECT p.*, fg.n_players, fg.first_seat, fg.map,
           ((p.seat - fg.first_seat + fg.n_players) % fg.n_players)::INTEGER AS turn_position
    FROM players AS p JOIN fg ON fg.run_id = p.run_id AND fg.game_id = p.game_id
    WHERE ($bot::VARCHAR IS NULL OR p.bot = $bot::VARCHAR)
)
"""

# issue 12: a tied win counts 1/k (P13), turn order from the starting player (P5), and the
# matrix is head to head (P2); the plain formulations below say the same thing the slow way.
PLAIN_SEATS = PLAIN_FILTERED + """
, fc AS (
    SELECT fp.*, CASE WHEN fp.won THEN 840 // (SELECT count(*) FROM players q WHERE q.run_id = fp.run_id
                 AND q.game_id = fp.game_id AND q.won) ELSE 0 END AS credit840,
           ((fp.seat - g.start_seat + fp.n_players) % fp.n_players)::INTEGER AS start_position
    FROM fp JOIN games g ON g.run_id = fp.run_id AND g.game_id = fp.game_id
)
SELECT 'seat' AS kind, seat::INTEGER AS position, count(*)::BIGINT AS games,
       (sum(credit840) / 840)::DOUBLE AS wins,
       (sum(840 // n_players) / (840 * count(*)))::DOUBLE AS fair_share, avg(score)::DOUBLE AS mean_score
FROM fc GROUP BY seat
UNION ALL
SELECT 'turn order' AS kind, start_position AS position, count(*)::BIGINT AS games,
       (sum(credit840) / 840)::DOUBLE AS wins,
       (sum(840 // n_players) / (840 * count(*)))::DOUBLE AS fair_share, avg(score)::DOUBLE AS mean_score
FROM fc GROUP BY start_position
ORDER BY kind, position
"""

PLAIN_MATRIX = PLAIN_FILTERED + """
SELECT a.faction::VARCHAR AS faction, b.faction::VARCHAR AS opponent,
       count(*)::BIGINT AS games,
       sum(CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5 ELSE 0.0 END)::DOUBLE AS wins,
       0.5::DOUBLE AS fair_share
FROM fp AS a
JOIN players AS b ON b.run_id = a.run_id AND b.game_id = a.game_id AND b.seat <> a.seat
GROUP BY a.faction, b.faction
ORDER BY a.faction, b.faction
"""

PLAIN_CELLS = PLAIN_FILTERED + """
, sel AS (
    SELECT fp.game_id, fp.seat FROM fp
    WHERE ($faction::VARCHAR IS NULL OR fp.faction = $faction::VARCHAR)
      AND ($won::BOOLEAN IS NULL OR fp.won = $won::BOOLEAN)
), mv AS (
    SELECT m.game_id, m.step, m.cell, m.action FROM moves AS m
    JOIN sel ON sel.game_id = m.game_id AND sel.seat = m.seat
    WHERE m.run_id = $run AND m.cell IS NOT NULL
), ev AS (
    SELECT s.game_id, s.step, sum(s.points) AS points FROM score_events AS s
    SEMI JOIN fg ON fg.game_id = s.game_id
    WHERE s.run_id = $run GROUP BY s.game_id, s.step
), pts AS (
    SELECT mv.cell, mv.action, sum(ev.points) AS points
    FROM ev JOIN mv ON mv.game_id = ev.game_id AND mv.step = ev.step
    GROUP BY mv.cell, mv.action
), cnt AS (SELECT cell, action, count(*) AS moves FROM mv GROUP BY cell, action)
SELECT cnt.cell, cnt.action::VARCHAR AS action, cnt.moves::BIGINT AS moves,
       coalesce(pts.points, 0)::BIGINT AS points,
       (SELECT count(*) FROM fg)::BIGINT AS games,
       (SELECT count(*) FROM sel)::BIGINT AS player_games
FROM cnt LEFT JOIN pts ON pts.cell = cnt.cell AND pts.action = cnt.action
ORDER BY cnt.cell, action
"""


def _filters(db: Path, run: str) -> list[dict]:
    options = queries.filter_options(str(db), run)
    return [{"np": None, "map": None, "bot": None},
            {"np": options["n_players"][0], "map": options["maps"][0], "bot": None},
            {"np": None, "map": None, "bot": options["bots"][0]}]


def test_seat_and_matrix_sql_equal_their_plain_formulation(sim_db: Path):
    """One GROUPING SETS pass instead of two scans, integer-only join keys: same numbers."""
    for run in _glimmerdeep_runs(sim_db):
        for f in _filters(sim_db, run):
            params = {"run": run, **f}
            assert _frame(sim_db, queries.factions._SEAT_RATES_SQL, params).equals(
                _frame(sim_db, PLAIN_SEATS, params))
            assert _frame(sim_db, queries.factions._HEAD_TO_HEAD_SQL, params).equals(
                _frame(sim_db, PLAIN_MATRIX, params))


def test_map_cell_sql_equals_its_plain_formulation(sim_db: Path):
    """Score events joined as they are (not summed per step first), moves cut to the games
    or players first: the same moves and points per cell, for every player selection."""
    drawn = 0
    for run in _glimmerdeep_runs(sim_db):
        options = queries.filter_options(str(sim_db), run)
        for map_id in options["maps"][:2]:
            for faction, won, bot in [(None, None, None), (options["factions"][0], None, None),
                                      (None, True, None), (None, False, options["bots"][0])]:
                params = {"run": run, "np": None, "map": map_id, "bot": bot,
                          "faction": faction, "won": won}
                plain = _frame(sim_db, PLAIN_CELLS, params)
                drawn += not plain.is_empty()
                got = queries.cell_action_counts(str(sim_db), run, map_id, faction, won, None, bot)
                assert got.equals(plain)
                moves = queries.cell_action_counts(str(sim_db), run, map_id, faction, won, None,
                                                   bot, points=False)
                assert moves.equals(plain.drop("points"))
    assert drawn >= 8  # most selections have moves: the comparison is not between empties


def test_every_player_and_player_selection_sql_agree_without_a_selection(sim_db: Path):
    run = _glimmerdeep_runs(sim_db)[0]
    map_id = queries.filter_options(str(sim_db), run)["maps"][0]
    params = {"run": run, "np": None, "map": map_id, "bot": None, "faction": None, "won": None}
    for points in (True, False):
        assert _frame(sim_db, queries.map._CELL_COUNTS_SQL[True, points], params).equals(
            _frame(sim_db, queries.map._CELL_COUNTS_SQL[False, points], params))


def test_scoring_sql_of_the_filtered_games_equals_the_sql_of_all_games(sim_db: Path):
    """Cutting the score events to the filtered games before the grouping changes nothing."""
    for run in _glimmerdeep_runs(sim_db):
        for f in _filters(sim_db, run):
            params = {"run": run, **f, "total": queries.TOTAL_SCORE}
            assert _same(_frame(sim_db, queries.scoring._SCORING_SQL, params),
                         _frame(sim_db, queries.scoring._SCORING_OF_GAMES_SQL, params))


def test_map_cell_counts_without_points_are_the_moves_with_points(sim_db: Path):
    run = _glimmerdeep_runs(sim_db)[0]
    map_id = queries.filter_options(str(sim_db), run)["maps"][0]
    full = queries.cell_counts(str(sim_db), run, map_id, action="excavate")
    moves = queries.cell_counts(str(sim_db), run, map_id, action="excavate", points=False)
    assert not full.is_empty() and moves.equals(full.drop("points"))


# --- one computation per meaning, and queries beside the page ---------------------------------

@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = queries.core.read_frame

    def counting(db, sql, params=(), **kwargs):
        if sql not in (queries.core._TABLES_SQL, queries.core._AGGREGATED_SQL):
            seen.append(sql)  # the analyses' queries (not the check for a run's aggregates)
        return real(db, sql, params, **kwargs)
    monkeypatch.setattr(queries.core, "read_frame", counting)
    return seen


def test_a_cached_helper_is_computed_once_however_its_arguments_are_spelled(
        fixture_db: Path, reads: list[str]):
    db = str(fixture_db)
    first = queries.faction_rates(db, DONE_RUN)
    assert len(reads) == 1
    assert queries.faction_rates(db, DONE_RUN, None, None, None, "").equals(first)
    assert queries.faction_rates(db, DONE_RUN, bot=None, n_players=None).equals(first)
    assert queries.faction_rates(db, run_id=DONE_RUN, version="").equals(first)
    assert len(reads) == 1
    queries.faction_rates(db, DONE_RUN, version="other")  # another meaning: computed
    assert len(reads) == 2


def test_the_map_page_spellings_share_one_cell_query(sim_db: Path, reads: list[str]):
    """The action list (keywords) and the first heatmap (through cell_counts) are one query."""
    db, run = str(sim_db), _glimmerdeep_runs(sim_db)[0]
    map_id = queries.filter_options(db, run)["maps"][0]
    reads.clear()
    queries.cell_action_counts(db, run, map_id, n_players=None, bot=None, version="v",
                               points=False)
    queries.cell_counts(db, run, map_id, faction=None, action=None, n_players=None, bot=None,
                        points=False, won=None, version="v")
    assert len(reads) == 1 and "score_events" not in reads[0]


def test_a_query_started_beside_the_page_runs_once(fixture_db: Path, reads: list[str]):
    db = str(fixture_db)
    queries.start(db, queries.faction_matrix, DONE_RUN).result(timeout=60)
    assert len(reads) == 1
    with queries.batch(db):
        queries.faction_matrix(db, DONE_RUN)  # the page's call: served from the cache
    assert len(reads) == 1


def test_a_failed_background_query_is_left_to_the_page_to_report(tmp_path: Path):
    db = str(tmp_path / "missing.duckdb")
    assert queries.start(db, queries.faction_rates, DONE_RUN).result(timeout=60) is None
    with pytest.raises(queries.DatabaseMissing):
        queries.faction_rates(db, DONE_RUN)
    assert not Path(db).exists()
