"""Every page of every game opens without an exception on one database holding runs of all
four games at 2, 3 and 4 players (issue 31), through streamlit.testing.v1.AppTest; the cave
game's run has games without a winner (a turn limit cut short), so the pages that show win
rates show their share."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from dashfix import APP
from streamlit.testing.v1 import AppTest

from delve.cli import main

PAGES = ("runs", "factions", "scoring", "map", "replay", "whatif", "checks", "report", "playtests")
RUNS = {  # game: (players, extra arguments)
    "glimmerdeep": (4, ()),
    "underhaven": (3, ()),
    "underwater_cities": (2, ()),
    "cave_colony": (2, ("--bots", "greedy", "--set", "game.turn_limit=30")),
}


def build_mixed_db(db: Path, games: int, seed: int) -> dict[str, str]:
    """A run of each game (`RUNS`) in one database; the run ids by game."""
    runs = {}
    for game, (players, extra) in RUNS.items():
        res = CliRunner().invoke(main, ["simulate", game, "--games", str(games), "--players",
                                        str(players), "--seed", str(seed), "--db", str(db),
                                        "--no-progress", *extra], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        runs[game] = res.stdout.splitlines()[0]
    return runs


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    db = tmp_path_factory.mktemp("mixed") / "mixed.duckdb"
    return db, build_mixed_db(db, games=6, seed=2)


def _open(db: Path, page: str, run: str, monkeypatch) -> AppTest:
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params["run"] = run
    at.query_params["base"] = run
    if page != "runs":
        at.switch_page(f"app_pages/{page}.py")
    return at.run()


@pytest.mark.parametrize("game", list(RUNS))
def test_every_page_opens_for_every_game(mixed, game, monkeypatch):
    db, runs = mixed
    for page in PAGES:
        at = _open(db, page, runs[game], monkeypatch)
        assert not at.exception, (game, page, [e.value for e in at.exception])
        errors = [str(e.value) for e in at.error]
        assert not errors, (game, page, errors)


def test_the_cave_games_without_a_winner_are_shown(mixed, monkeypatch):
    db, runs = mixed
    at = _open(db, "factions", runs["cave_colony"], monkeypatch)
    warned = " ".join(str(w.value) for w in at.warning)
    assert "without a winner" in warned


@pytest.mark.parametrize("game", list(RUNS))
def test_replay_speaks_the_games_words(mixed, game, monkeypatch):
    """Issue 31 (M4): the replay's score table and move list use the names the Scoring page
    uses (categories, phases, actions), and a move without a cell shows a blank, not None."""
    from dashboard.labels import game_labels
    db, runs = mixed
    at = _open(db, "replay", runs[game], monkeypatch)
    assert not at.exception
    labels = game_labels(game)
    scores = at.get_by_key("replay_scores").dataframe[0].value
    named = [c for c in scores.columns if c in labels and labels[c] != c]
    assert not named, (game, named)
    moves = at.get_by_key("replay_moves").dataframe[0].value
    assert "None" not in set(moves["cell"].astype(str))
    raw = {a for a in moves["action"] if a in labels and labels[a] != a}
    assert not raw, (game, raw)
