"""Dashboard page-render benchmark on a 100,000-game, 4-player database.

    delve bench-dashboard [--games 100000] [--db PATH] [--repeat 3]   (or `make bench-dashboard`)

Builds (once; reused when the file already holds the same size) a synthetic database with
the contract's tables and realistic volumes — per game 4 players, about 185 moves (40% on
one of Glimmerdeep's map cells) and 30 score events over 6 categories, factions rotated over
seats — entirely inside DuckDB with deterministic hashes. Then renders every dashboard page
with Streamlit's AppTest against it, in one session as a browser would (after a warm-up that
renders every page once: imports and Streamlit's start-up work, once per server process),
each page's first view from a link naming only the run: cold (caches cleared, so every query
runs) and warm (cached: a page revisited, or a filter combination already seen, while the run
is unchanged), and times each query helper alone. Prints medians over ``--repeat`` rounds,
the ratio to the 1-second budget and the machine's load average; it measures, it asserts
nothing.
"""

from __future__ import annotations

import logging
import os
import statistics
import time
from contextlib import contextmanager
from pathlib import Path

import click
import duckdb

BENCH_RUN = "bench-100k"
FACTIONS = ("deepdelvers", "dustwhiskers", "forgeburrowers", "gemwardens", "gildtails",
            "ironclads", "nightbarons", "shellwrights")
CATEGORIES = ("buildings", "calling", "map_objective", "resources", "traits", "vp_track")
ACTIONS_ON_CELLS = ("excavate", "construct", "excavate_space")
ACTIONS_OFF = ("activate", "pass", "done", "trait", "choose_building")
STEPS = 185
EVENTS = 30
PAGES = ("runs", "factions", "scoring", "map", "replay", "report")


def build_db(path: Path, games: int, extra_runs: int = 0, extra_games: int = 0) -> Path:
    """Write the synthetic database (deterministic: hashes of the row coordinates): the bench
    run of ``games`` games, then ``extra_runs`` other runs of ``extra_games`` games each (a
    season of runs in one file), each with its aggregates built as `delve aggregate` does."""
    from engine.core.registry import get_game
    from pipelines.store import SCHEMA, Store

    if path.exists():
        path.unlink()
    Store(path).ensure_schema()
    game = get_game("glimmerdeep")
    rules = game.load_rules().model
    cells = list(game.map_cells(rules))
    maps = sorted({c.map for c in cells})
    con = duckdb.connect(str(path))
    try:
        con.execute("SET preserve_insertion_order = false")
        con.executemany("INSERT INTO map_cells (game, map, cell, x, y, kind) VALUES ('glimmerdeep', ?, ?, ?, ?, ?)",
                        [(c.map, c.cell, c.x, c.y, c.kind) for c in cells])
        con.execute("CREATE TEMP TABLE f AS SELECT unnest(?) AS faction, "
                    "generate_subscripts(?, 1) - 1 AS i", [list(FACTIONS), list(FACTIONS)])
        runs = [(BENCH_RUN, games, 0)] + [(f"bench-other-{k:03d}", extra_games, k + 1)
                                          for k in range(extra_runs)]
        for run_id, n, salt in runs:
            _write_run(con, run_id, n, salt, maps)
    finally:
        con.close()
    assert set(SCHEMA) >= {"runs", "games", "players", "moves", "score_events", "map_cells"}
    return path


def _write_run(con, run_id: str, games: int, salt: int, maps: list[str]) -> None:
    """One synthetic run's rows (the same hashes for every run; ``salt`` orders their creation
    times), checkpointed, then its aggregates (pipelines.store.aggregates.rebuild, as `delve
    aggregate` does, in this connection's threads)."""
    from pipelines.store import aggregates

    con.execute(
        "INSERT INTO runs (run_id, created_at, game, label, variant, rules_hash, rules, "
        "config, seed, n_games, status, engine_version, n_players, bots, games_done, wall_s) "
        "VALUES (?, TIMESTAMP '2026-01-01 00:00:00' + to_seconds(?), 'glimmerdeep', ?, "
        "'base', 'bench', '{}', '{}', 0, ?, 'done', 'bench', 4, 'greedy', ?, 3600.0)",
        [run_id, salt, f"bench {games:,}", games, games])
    con.execute(
        f"""INSERT INTO score_events (run_id, game_id, step, round, seat, category, points)
        SELECT $run, g, (hash(g, e, 1) % {STEPS} + 1)::INT AS step,
               ((hash(g, e, 1) % {STEPS}) // 37 + 1)::INT AS round,
               (hash(g, e, 2) % 4)::INT AS seat,
               $cats[(hash(g, e, 3) % {len(CATEGORIES)} + 1)::INT] AS category,
               (hash(g, e, 4) % 8 + 1 + CASE WHEN (g + hash(g, e, 2) % 4) % 8 = 0 THEN 1 ELSE 0 END)::INT
        FROM range({games}) AS t(g), range({EVENTS}) AS u(e)""",
        {"run": run_id, "cats": list(CATEGORIES)})
    con.execute(
        f"""INSERT INTO players (run_id, game_id, seat, faction, bot, score, rank, won)
        WITH s AS (SELECT game_id, seat, sum(points) AS score FROM score_events
                   WHERE run_id = $run GROUP BY ALL),
        seats AS (SELECT g, seat FROM range({games}) AS t(g), range(4) AS u(seat)),
        scored AS (
            SELECT seats.g, seats.seat, coalesce(s.score, 0)::INT AS score,
                   row_number() OVER (PARTITION BY seats.g ORDER BY coalesce(s.score, 0) DESC,
                                      seats.seat) AS rank
            FROM seats LEFT JOIN s ON s.game_id = seats.g AND s.seat = seats.seat)
        SELECT $run, g, seat, f.faction, CASE WHEN seat = 0 THEN 'greedy' ELSE 'random' END,
               score, rank::INT, rank = 1
        FROM scored JOIN f ON f.i = (g + seat) % 8""", {"run": run_id})
    con.execute(
        f"""INSERT INTO games (run_id, game_id, seed, n_players, map, rounds, steps, first_seat,
                           winner_seat, ended_by, wall_ms)
        SELECT $run, g, hash(g)::UBIGINT, 4, $maps[((g // 32) % {len(maps)} + 1)::INT], 5,
               {STEPS}, (g % 4)::INT, p.seat, 'rounds', 20.0
        FROM range({games}) AS t(g) JOIN players AS p
             ON p.run_id = $run AND p.game_id = g AND p.won""",
        {"run": run_id, "maps": maps})
    con.execute(
        f"""INSERT INTO moves (run_id, game_id, step, round, phase, seat, action, detail, cell)
        SELECT $run, g, s::INT, ((s - 1) // 37 + 1)::INT,
               'phase', ((s + g) % 4)::INT,
               CASE WHEN hash(g, s) % 10 < 4 THEN $on[(hash(g, s, 1) % 3 + 1)::INT]
                    ELSE $off[(hash(g, s, 1) % 5 + 1)::INT] END,
               '', CASE WHEN hash(g, s) % 10 < 4 THEN (hash(g, s, 2) % 81)::INT END
        FROM range({games}) AS t(g), range(1, {STEPS + 1}) AS u(s)""",
        {"run": run_id, "on": list(ACTIONS_ON_CELLS), "off": list(ACTIONS_OFF)})
    con.execute("CHECKPOINT")
    con.begin()
    aggregates.rebuild(con, run_id)
    con.commit()
    con.execute("CHECKPOINT")


def ensure_db(path: Path, games: int, extra_runs: int = 0, extra_games: int = 0
              ) -> tuple[Path, float]:
    """Reuse the file when it already holds ``games`` games of the bench run (and the other
    runs asked for) with their aggregates; else build it."""
    if path.is_file():
        try:
            con = duckdb.connect(str(path), read_only=True)
            try:
                n = con.execute("SELECT count(*) FROM games WHERE run_id = ?", [BENCH_RUN]).fetchone()[0]
                runs = con.execute("SELECT count(*) FROM runs").fetchone()[0]
                aggregated = con.execute("SELECT count(*) FROM agg_runs").fetchone()[0]
            finally:
                con.close()
            if n == games and runs == 1 + extra_runs and aggregated == runs:
                return path, 0.0
        except duckdb.Error:
            pass
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    build_db(path, games, extra_runs, extra_games)
    return path, time.perf_counter() - started


@contextmanager
def raw_tables(raw: bool):
    """With ``raw``, the pages read the raw tables even where a run has its aggregates
    (``DELVE_AGGREGATES=0``, dashboard.queries.core.aggregated): the before of issue 16."""
    before = os.environ.get("DELVE_AGGREGATES")
    if raw:
        os.environ["DELVE_AGGREGATES"] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("DELVE_AGGREGATES", None)
        else:
            os.environ["DELVE_AGGREGATES"] = before


@contextmanager
def _bare_mode():
    """Calling the cached query helpers outside a Streamlit server (\"bare mode\") makes
    Streamlit warn once per cache that it falls back to an in-memory cache (and, for widgets,
    that there is no script context). Those two modules' warnings are about bare mode only;
    silence exactly them while the helpers are timed, then restore the levels. (Setting them
    once at start-up does not last: every AppTest run re-applies Streamlit's log level.)"""
    from streamlit import logger as st_logger

    from dashboard.report.html import BARE_MODE_LOGGERS

    loggers = [st_logger.get_logger(name) for name in BARE_MODE_LOGGERS]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


def query_timings(db: str, repeat: int = 1) -> list[tuple[str, float]]:
    """Each query helper alone, uncached (the DuckDB part of a cold render): the median of
    ``repeat`` calls, each on a fresh read-only connection."""
    import streamlit as st

    from dashboard import queries as q

    calls = [
        ("runs_overview", lambda: q.runs_overview(db)),
        ("faction_rates", lambda: q.faction_rates(db, BENCH_RUN)),
        ("score_quantiles", lambda: q.score_quantiles(db, BENCH_RUN)),
        ("seat_rates", lambda: q.seat_rates(db, BENCH_RUN)),
        ("faction_matrix", lambda: q.faction_matrix(db, BENCH_RUN)),
        ("strength_model", lambda: q.strength_model(db, BENCH_RUN)),
        ("category_by_faction", lambda: q.category_by_faction(db, BENCH_RUN)),
        ("points_by_round", lambda: q.points_by_round(db, BENCH_RUN)),
        ("winners_vs_losers", lambda: q.winners_vs_losers(db, BENCH_RUN)),
        ("cell_counts (one map)", lambda: q.cell_counts(db, BENCH_RUN, "bioluminescent")),
        ("  moves only (1st view)", lambda: q.cell_counts(db, BENCH_RUN, "bioluminescent",
                                                          points=False)),
        ("filter_options", lambda: q.filter_options(db, BENCH_RUN)),
        ("game_list", lambda: q.game_list(db, BENCH_RUN)),
        ("game_log", lambda: q.game_log(db, BENCH_RUN, 0)),
    ]
    seconds: dict[str, list[float]] = {name: [] for name, _ in calls}
    with _bare_mode():
        for _ in range(repeat):
            for name, fn in calls:
                st.cache_data.clear()
                started = time.perf_counter()
                fn()
                seconds[name].append(time.perf_counter() - started)
    return [(name, statistics.median(secs)) for name, secs in seconds.items()]


def _app_test():
    """One AppTest session for the whole benchmark, like one browser session on a server: the
    component scan Streamlit does once per server (about 0.2 s) is not charged to every page."""
    from streamlit.testing.v1 import AppTest

    from engine.core.rules import REPO_ROOT

    with _bare_mode():  # the session is made outside a script run
        at = AppTest.from_file(str(REPO_ROOT / "dashboard" / "app.py"), default_timeout=600)
    at.query_params["run"] = BENCH_RUN
    return at


def _render(at, page: str) -> float:
    """Seconds to render ``page`` in the session ``at`` (the script run, queries, figures):
    its first view, from a link that names only the run (the choices an earlier page wrote to
    the URL, such as the Factions page's focus faction, are dropped)."""
    for param in list(at.query_params):
        if param != "run":
            del at.query_params[param]
    at.switch_page(f"app_pages/{page}.py")
    started = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"page {page} raised: {at.exception[0].value}")
    return elapsed


def bench_pages(db: Path, repeat: int = 1
                ) -> tuple[list[tuple[str, float, float, float]], float]:
    """((page, cold seconds, fastest cold seconds, warm seconds) for every page, warm-up
    seconds).

    The warm-up renders every page once first: what a server process does once in its life
    (imports — scipy alone takes about a second —, Streamlit's component scan, compiling the
    page scripts). Then, ``repeat`` times over all the pages, each page is rendered cold (caches
    cleared, a fresh DuckDB instance, so every query runs) and warm (cached: a page revisited
    while the run is unchanged); cold and warm are medians over the repeats (a shared machine
    is noisy), next to the fastest cold render."""
    import streamlit as st

    before = os.environ.get("DELVE_DB")
    os.environ["DELVE_DB"] = str(db)
    prefetch_before = os.environ.get("DELVE_PREFETCH")
    os.environ["DELVE_PREFETCH"] = "0"  # cold means cold: no background warm-up
    try:
        at = _app_test()
        started = time.perf_counter()
        for page in PAGES:
            _render(at, page)
        warm_up = time.perf_counter() - started
        cold: dict[str, list[float]] = {page: [] for page in PAGES}
        warm: dict[str, list[float]] = {page: [] for page in PAGES}
        for _ in range(repeat):
            for page in PAGES:
                with _bare_mode():  # cleared between script runs, outside one
                    st.cache_data.clear()
                cold[page].append(_render(at, page))
                warm[page].append(_render(at, page))
        return [(page, statistics.median(cold[page]), min(cold[page]),
                 statistics.median(warm[page])) for page in PAGES], warm_up
    finally:
        for name, value in (("DELVE_DB", before), ("DELVE_PREFETCH", prefetch_before)):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _aggregates():
    from pipelines.store.aggregates import AGGREGATES
    return AGGREGATES


def table_counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # constant names
               for t in ("runs", "games", "players", "moves", "score_events")}
        out["aggregate rows"] = sum(
            con.execute(f"SELECT count(*) FROM {a.table}").fetchone()[0] for a in _aggregates())
        return out
    finally:
        con.close()
