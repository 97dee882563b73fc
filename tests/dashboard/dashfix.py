"""Fixtures for the dashboard tests.

``fixture_db``: a small synthetic Delve database in tmp_path. The tables follow the public
contract in DESIGN.md ("The database contract"). The rows are made up but consistent: every
player's score is the sum of their score events, and the winner of each game has the highest
score.

``sim_db``: a real database, simulated once per session with the ``delve`` CLI (40 Glimmerdeep
games, a second small run labelled with an XSS string, and a small run of every other
registered game), for the page, report and end-to-end tests.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest
import streamlit as st

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "dashboard" / "app.py"

DONE_RUN = "run-0001"
DONE_LABEL = "fixture-baseline"
RUNNING_RUN = "run-0002"
RUNNING_LABEL = "fixture-cheaper-gems"

SCHEMA = """
CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, created_at TIMESTAMP, game VARCHAR,
    label VARCHAR, variant VARCHAR, rules_hash VARCHAR, rules JSON, config JSON,
    seed BIGINT, n_games INTEGER, status VARCHAR, engine_version VARCHAR);
CREATE TABLE games (run_id VARCHAR, game_id INTEGER, seed UBIGINT, n_players INTEGER,
    map VARCHAR, rounds INTEGER, steps INTEGER, first_seat INTEGER, winner_seat INTEGER,
    ended_by VARCHAR, wall_ms DOUBLE);
CREATE TABLE players (run_id VARCHAR, game_id INTEGER, seat INTEGER, faction VARCHAR,
    bot VARCHAR, score INTEGER, rank INTEGER, won BOOLEAN);
CREATE TABLE moves (run_id VARCHAR, game_id INTEGER, step INTEGER, round INTEGER,
    phase VARCHAR, seat INTEGER, action VARCHAR, detail VARCHAR, cell VARCHAR);
CREATE TABLE score_events (run_id VARCHAR, game_id INTEGER, step INTEGER, round INTEGER,
    seat INTEGER, category VARCHAR, points INTEGER);
CREATE TABLE map_cells (game VARCHAR, map VARCHAR, cell VARCHAR, x INTEGER, y INTEGER,
    kind VARCHAR);
"""

FACTIONS = ["dwarves", "goblins", "kobolds"]
CATEGORIES = ["gems", "excavation", "endgame"]
# The faction that wins game g (g % 4): dwarves win half the games, the others a quarter.
WINNING_FACTION = [0, 1, 0, 2]


def _faction_of(game_id: int, seat: int) -> int:
    return (seat + game_id) % 3  # factions rotated over seats


def _score_events(game_id: int, seat: int) -> list[tuple[str, int]]:
    """Deterministic made-up breakdown; the winning faction gets 10 extra gem points."""
    bonus = 10 if _faction_of(game_id, seat) == WINNING_FACTION[game_id % 4] else 0
    return [
        ("gems", 4 + seat + bonus),
        ("excavation", 2 + (game_id % 2)),
        ("endgame", 5 - seat),
    ]


def build_fixture_db(path: Path) -> Path:
    """Write the synthetic database: one finished run of 4 games, one run still running."""
    con = duckdb.connect(str(path))
    try:
        con.execute(SCHEMA)
        created = dt.datetime(2024, 5, 1, 12, 0, 0)
        for run_id, label, variant, n_games, stored, status, minutes in [
            (DONE_RUN, DONE_LABEL, None, 4, 4, "done", 0),
            (RUNNING_RUN, RUNNING_LABEL, "cheaper_gems", 10, 2, "running", 30),
        ]:
            con.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [run_id, created + dt.timedelta(minutes=minutes), "glimmerdeep", label,
                 variant, f"hash-{run_id}", json.dumps({"rounds": 4}),
                 json.dumps({"bots": "greedy", "players": 3}), 7, n_games, status, "0.1.0"],
            )
            for game_id in range(stored):
                scores = {}
                for seat in range(3):
                    events = _score_events(game_id, seat)
                    scores[seat] = sum(p for _, p in events)
                    for step, (category, points) in enumerate(events):
                        con.execute(
                            "INSERT INTO score_events VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [run_id, game_id, step * 3 + seat, step + 1, seat, category, points],
                        )
                    con.execute(
                        "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [run_id, game_id, seat, 1, "dig", seat, "excavate", "{}", f"c{seat}"],
                    )
                order = sorted(scores, key=lambda s: (-scores[s], s))
                winner = order[0]
                for seat in range(3):
                    faction = FACTIONS[_faction_of(game_id, seat)]
                    con.execute(
                        "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [run_id, game_id, seat, faction, "greedy", scores[seat],
                         order.index(seat) + 1, seat == winner],
                    )
                con.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [run_id, game_id, 1000 + game_id, 3, "standard", 4, 12, game_id % 3,
                     winner, "rounds", 1.5],
                )
        for i in range(3):
            con.execute(
                "INSERT INTO map_cells VALUES (?, ?, ?, ?, ?, ?)",
                ["glimmerdeep", "standard", f"c{i}", i, 0, "rock"],
            )
    finally:
        con.close()
    return path


@pytest.fixture(scope="session")
def fixture_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_db(tmp_path_factory.mktemp("delve_db") / "delve.duckdb")


@pytest.fixture
def fixture_db(tmp_path: Path, fixture_db_template: Path) -> Path:
    """A private copy of the fixture database for one test (tests may lock or alter it)."""
    target = tmp_path / "delve.duckdb"
    target.write_bytes(fixture_db_template.read_bytes())
    return target


@pytest.fixture
def empty_db(tmp_path: Path) -> Path:
    """A DuckDB file with the contract tables but no rows."""
    path = tmp_path / "empty.duckdb"
    con = duckdb.connect(str(path))
    con.execute(SCHEMA)
    con.close()
    return path


@pytest.fixture(autouse=True)
def _clear_streamlit_caches(monkeypatch: pytest.MonkeyPatch):
    """Cached query results must not leak from one test's database into another's; no
    background prefetch either (test_dashboard_prefetch turns it on)."""
    monkeypatch.setenv("DELVE_PREFETCH", "0")
    st.cache_data.clear()
    yield
    st.cache_data.clear()


# --- a small real run: simulated once per session with the delve CLI ----------------------

SIM_GAMES = 40
SECOND_GAMES = 12
XSS = "</script><script>alert(1)</script>"


def _delve(*args: str) -> str:
    return _delve_each([list(args)])


# `delve` commands one after the other in one process (each `delve simulate` process spends
# about 3 s starting, most of it imports), as the command line parses them.
_EACH = ("import json, sys\n"
         "from delve.cli import main\n"
         "for args in json.loads(sys.argv[1]):\n"
         "    main(args, prog_name='delve', standalone_mode=False)\n")


def _delve_each(commands: list[list[str]]) -> str:
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-c", _EACH, json.dumps(commands)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        said = "; ".join(" ".join(args) for args in commands)
        raise RuntimeError(f"{said} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def registered_games() -> list[str]:
    """The games the end-to-end tests cover: every game shipped in ``engine/games`` gets a run
    in sim_db (test-only games that other tests register in this process are left out: a
    fresh `delve` process would not know them)."""
    from engine.core.registry import all_games

    return sorted(gid for gid, game in all_games().items()
                  if getattr(game.new_game, "__module__", "").startswith("engine.games."))


@pytest.fixture(scope="session")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real database: `delve simulate glimmerdeep --games 40 --players 4 --bots
    greedy,random,random,random`, a second small Glimmerdeep run labelled with an XSS string
    (for comparisons and escaping), and a small run of every other registered game.
    Read-only for the tests (copy it to change it)."""
    from engine.core.registry import all_games

    db = tmp_path_factory.mktemp("sim") / "sim.duckdb"
    commands = [
        ["simulate", "glimmerdeep", "--games", str(SIM_GAMES), "--players", "4", "--bots",
         "greedy,random,random,random", "--db", str(db), "--label", "baseline", "--no-progress"],
        ["simulate", "glimmerdeep", "--games", str(SECOND_GAMES), "--players", "4", "--bots",
         "greedy,random,random,random", "--seed", "1", "--db", str(db), "--label", XSS,
         "--no-progress"]]
    for gid in registered_games():
        game = all_games()[gid]
        if gid == "glimmerdeep":
            continue
        players = 4 if 4 in game.player_counts else max(game.player_counts)
        bots = ",".join(["greedy"] + ["random"] * (players - 1))
        commands.append(["simulate", gid, "--games", "12", "--players", str(players), "--bots",
                         bots, "--db", str(db), "--label", f"{gid}-e2e", "--no-progress"])
    _delve_each(commands)
    return db


def sim_runs(db: Path) -> dict[str, str]:
    """label -> run_id of the runs in a simulated database."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return dict(con.execute("SELECT label, run_id FROM runs").fetchall())
    finally:
        con.close()


@pytest.fixture
def sim_db_copy(sim_db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "sim-copy.duckdb"
    target.write_bytes(sim_db.read_bytes())
    return target
