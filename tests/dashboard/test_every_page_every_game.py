"""Every page of every game opens without an exception on one database holding runs of all
four games at 2, 3 and 4 players (issue 31), through streamlit.testing.v1.AppTest; the cave
game's run has games without a winner (a turn limit cut short), so the pages that show win
rates show their share."""

from __future__ import annotations

import re
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


# -- plain words (issue 31: "no internal id") -------------------------------------------------------

#: Ids a designer met on these pages before (the newcomer audit, turn 3): score categories,
#: column names, catalogue ids.
KNOWN_IDS = ("vp_track", "map_objective", "end_clusters", "end_majorities", "low_sim", "high_sim",
             "p_holm", "p_tost_holm", "n_a", "fair_share", "win_rate", "eq_knuckles",
             "points_per_player_game", "player_board", "trade_spaces", "share_of_games")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
#: run ids ('cave_colony-20261203-164813-ed85f3'), file paths, `code` and the --set changes a
#: designer typed ('game.turn_limit=30', which names a run made with only --set changes) name
#: no id to read
_NOT_WORDS = re.compile(r"[a-z_]+-\d{8}-\d{6}-[0-9a-f]{6}|data/[\w/.]+|\w+\.toml|`[^`]*`"
                        r"|\b[\w.]+\.\w+=[^\s;,)]+")
_LONG_FLOAT = re.compile(r"\b\d+\.\d{5,}\b")


def _plotly_strings(node, out: list[str]) -> None:
    if isinstance(node, str):
        out.append(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            if k not in ("hovertemplate", "type", "mode", "uid", "xaxis", "yaxis", "template",
                         "legendgroup", "hoverinfo", "colorscale", "line", "marker", "textfont"):
                _plotly_strings(v, out)
    elif isinstance(node, list):
        for v in node:
            _plotly_strings(v, out)


def faction_ids(game: str) -> tuple[str, ...]:
    """The game's faction ids that its names spell otherwise ('threecees' -> 'Threecees',
    'reef' -> 'Reef Colony')."""
    from dashboard.labels import _base_rules, game_labels
    names = game_labels(game)
    return tuple(f for f in _base_rules(game)[0] if names.get(f, f) != f)


def shown_ids(at: AppTest, factions: tuple[str, ...] = ()) -> list[str]:
    """What a page shows that is an internal id: a snake_case column header or word in a
    table's text cells, 'None' in a cell, a snake_case word in its texts, option lists and
    charts, an unrounded number in its texts; a faction's id (`factions`) as a cell, an
    option or a chart's label (whole: 'blue' is also a word a sentence may use)."""
    import json
    found: list[str] = []
    faction = set(factions)
    for df in at.dataframe:
        frame = df.value
        config = json.loads(df.proto.columns or "{}")
        for c in frame.columns:
            shown = (config.get(str(c)) or {}).get("label") or str(c)
            if _SNAKE.fullmatch(shown):
                found.append(f"column {shown}")
            if frame[c].dtype == object:
                for v in set(frame[c].dropna().astype(str)):
                    if v == "None" or _SNAKE.search(_NOT_WORDS.sub("", v)):
                        found.append(f"cell {shown}: {v[:60]}")
                    elif v in faction:
                        found.append(f"faction id in {shown}: {v}")
    texts = [str(getattr(e, "value", "")) for kind in
             ("markdown", "caption", "info", "warning", "success", "title", "header", "subheader",
              "code")
             for e in at.get(kind)]
    texts += [str(o) for kind in ("selectbox", "multiselect", "radio") for w in at.get(kind)
              for o in (w.options or [])[:300]]
    for chart in at.get("plotly_chart"):
        fig = json.loads(chart.proto.spec)
        _plotly_strings([fig.get("data", []), fig.get("layout", {})], texts)
    for t in texts:
        plain = _NOT_WORDS.sub("", t)
        found += [f"text {w}" for w in _SNAKE.findall(plain)]
        found += [f"number {x}" for x in _LONG_FLOAT.findall(plain)]
        if t in faction:
            found.append(f"faction id {t}")
    return found


@pytest.mark.parametrize("game", list(RUNS))
def test_every_page_speaks_plain_words(mixed, game, monkeypatch):
    """Issue 31 (done when: no internal id): no page of any game shows a snake_case id (a
    score category, a column name, a card's id, a map's id), 'None' or an unrounded number:
    tables, texts, pickers and charts, on the database holding all four games."""
    db, runs = mixed
    problems = {}
    for page in PAGES:
        at = _open(db, page, runs[game], monkeypatch)
        assert not at.exception, (game, page, [e.value for e in at.exception])
        found = shown_ids(at, faction_ids(game))
        if found:
            problems[page] = sorted(set(found))[:12]
    assert not problems, (game, problems)


def test_the_id_check_sees_the_ids_it_names():
    """The check is not blind: a raw table and a raw caption are caught."""
    import polars as pl
    from dashboard.table_words import words
    raw = pl.DataFrame({"category": ["vp_track"], "p_holm": [0.000000123], "win_rate": [1 / 3]})
    assert all(_SNAKE.fullmatch(c) for c in raw.columns if c != "category")
    shown, config = words(raw, "glimmerdeep")
    assert shown["category"].to_list() == ["Victory-point track"]
    assert shown["p_holm"].to_list() == ["< 0.001"]
    assert config["win_rate"]["type_config"]["format"] == "percent"
    labels = {c: (config.get(c) or {}).get("label", c) for c in raw.columns}
    assert not [v for v in labels.values() if _SNAKE.fullmatch(v)], labels
    assert _SNAKE.findall(_NOT_WORDS.sub("", "score of map_objective in glimmerdeep-20261203-"
                                              "164813-ed85f3")) == ["map_objective"]
    assert set(KNOWN_IDS) <= {w for k in KNOWN_IDS for w in _SNAKE.findall(k)} | {"n_a"}


def test_factions_are_shown_by_name():
    """Issue 31 (audit ux m5): a faction is shown by its rules entry's name, not its id, in a
    table; the check sees an id left in a table or a sentence."""
    import polars as pl
    from dashboard.table_words import words
    assert faction_ids("glimmerdeep") and "deepdelvers" in faction_ids("glimmerdeep")
    assert "reef" in faction_ids("underwater_cities")
    raw = pl.DataFrame({"faction": ["reef", "vent"], "opponent": ["vent", "reef"]})
    shown, _ = words(raw, "underwater_cities")
    assert shown.rows() == [("Reef Colony", "Vent Laboratories"), ("Vent Laboratories", "Reef Colony")]
