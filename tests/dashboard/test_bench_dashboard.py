"""The page-render benchmark's synthetic database keeps the contract's invariants (timings are
measured by `delve bench-dashboard`, never asserted)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from dashboard import bench as bench


def test_synthetic_database_follows_the_contract(tmp_path: Path, capfd):
    db = bench.build_db(tmp_path / "bench.duckdb", 120)
    con = duckdb.connect(str(db), read_only=True)
    try:
        counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("games", "players", "moves", "score_events")}
        assert counts == {"games": 120, "players": 480, "moves": 120 * bench.STEPS,
                          "score_events": 120 * bench.EVENTS}
        # every player's score is the sum of their score events; one winner, the top score
        assert con.execute("""
            SELECT count(*) FROM players p LEFT JOIN (
                SELECT game_id, seat, sum(points) AS s FROM score_events GROUP BY ALL) e
              ON e.game_id = p.game_id AND e.seat = p.seat
            WHERE coalesce(e.s, 0) <> p.score""").fetchone()[0] == 0
        assert con.execute("""SELECT count(*) FROM (SELECT game_id, sum(won::INT) w,
            max(score) m, max(CASE WHEN won THEN score END) ws FROM players GROUP BY game_id)
            WHERE w <> 1 OR m <> ws""").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM moves m ANTI JOIN map_cells c "
                           "ON c.cell = m.cell WHERE m.cell IS NOT NULL").fetchone()[0] == 0
    finally:
        con.close()
    assert bench.ensure_db(db, 120) == (db, 0.0)      # reused, not rebuilt
    capfd.readouterr()
    rows, warm_up = bench.bench_pages(db, repeat=2)
    assert warm_up > 0
    assert [r[0] for r in rows] == list(bench.PAGES)
    assert all(fastest <= cold for _, cold, fastest, _ in rows)
    timed = bench.query_timings(str(db))
    assert [name for name, _ in timed][:2] == ["runs_overview", "faction_rates"]
    # the helpers run outside a Streamlit server: no bare-mode warnings in the output
    out, err = capfd.readouterr()
    assert "No runtime found" not in out + err and "ScriptRunContext" not in out + err


def test_a_database_of_many_runs_has_every_runs_aggregates_and_raw_mode(tmp_path: Path):
    """`--extra-runs`: other runs in the same file, each aggregated as `delve aggregate` does
    (verified against the raw rows); `--raw` makes the pages read the raw tables."""
    import os

    from dashboard.queries import core
    from pipelines.store import aggregates

    db = bench.build_db(tmp_path / "many.duckdb", 60, extra_runs=2, extra_games=20)
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = [r[0] for r in con.execute("SELECT run_id FROM runs ORDER BY created_at").fetchall()]
        assert runs[0] == bench.BENCH_RUN and len(runs) == 3
        for run in runs:
            assert aggregates.is_maintained(con, run) and aggregates.verify(con, run) == []
        assert con.execute("SELECT count(*) FROM games WHERE run_id = ?", [runs[1]]).fetchone()[0] == 20
    finally:
        con.close()
    assert bench.ensure_db(db, 60, 2, 20) == (db, 0.0)   # reused
    core.aggregated.clear()
    with bench.raw_tables(True):
        assert os.environ["DELVE_AGGREGATES"] == "0"
        assert not core.aggregated(str(db), bench.BENCH_RUN)
    core.aggregated.clear()
    assert core.aggregated(str(db), bench.BENCH_RUN)
