"""Issue 30: a designer's playtest table: the template, the import (CSV and .xlsx), the ten
kinds of bad file (each exits 2 naming the row and column, and writes nothing), importing
twice, list and remove."""

from __future__ import annotations

import csv
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from delve.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "playtests"
GAMES = ("glimmerdeep", "underhaven", "underwater_cities", "cave_colony")

HEADER = ["game", "game_id", "seat", "faction", "score", "points_vp_track", "points_buildings",
          "points_resources", "points_map_objective", "points_calling", "points_traits", "won"]
GOOD = [  # two Glimmerdeep games at 3 players; the categories add up to the score
    ["glimmerdeep", "G1", "0", "ironclads", "60", "20", "10", "5", "15", "10", "0", "yes"],
    ["glimmerdeep", "G1", "1", "gildtails", "50", "10", "10", "5", "15", "10", "0", "no"],
    ["glimmerdeep", "G1", "2", "gemwardens", "40", "10", "5", "5", "10", "10", "0", "no"],
    ["glimmerdeep", "G2", "0", "gildtails", "55", "", "", "", "", "", "", "no"],
    ["glimmerdeep", "G2", "1", "gemwardens", "58", "", "", "", "", "", "", "yes"],
    ["glimmerdeep", "G2", "2", "ironclads", "41", "", "", "", "", "", "", "no"],
]


def write(path: Path, rows, header=HEADER) -> Path:
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def counts(db: Path) -> tuple[int, int, int]:
    if not db.exists():
        return (0, 0, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        have = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if "playtests" not in have:
            return (0, 0, 0)
        return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("playtests", "playtest_players", "playtest_score_events"))


def edit(rows, i, col, value):
    rows = [list(r) for r in rows]
    rows[i][HEADER.index(col)] = value
    return rows


# (kind, rows, header, the expected row, the expected column, a phrase of the message)
BAD = [
    ("unknown faction", edit(GOOD, 1, "faction", "elves"), HEADER, 3, "faction", "unknown faction 'elves'"),
    ("duplicate seat", edit(GOOD, 2, "seat", "1"), HEADER, 4, "seat", "seat 1 appears twice"),
    ("two winners", edit(GOOD, 1, "won", "yes"), HEADER, 3, "won", "2 winners"),
    ("wrong player count", GOOD + [["glimmerdeep", "G2", "3", "nightbarons", "30", "", "", "", "", "", "", "no"],
                                   ["glimmerdeep", "G2", "4", "deepdelvers", "30", "", "", "", "", "", "", "no"]],
     HEADER, 5, "game_id", "has 5 players"),
    ("unknown category", GOOD, HEADER[:-2] + ["points_glory", "won"], 1, "points_glory", "no score category 'glory'"),
    ("scores do not add up", edit(GOOD, 0, "score", "61"), HEADER, 2, "score", "add up to 60"),
    ("empty file", [], None, None, None, "empty"),
    ("wrong game", edit(GOOD, 3, "game", "underhaven"), HEADER, 5, "game", "for the game 'underhaven'"),
    ("non-numeric score", edit(GOOD, 4, "score", "fifty"), HEADER, 6, "score", "'fifty' is not a number"),
    ("missing column", [r[:3] + r[4:] for r in GOOD], HEADER[:3] + HEADER[4:], 1, "faction", "'faction' is missing"),
]


@pytest.mark.parametrize("kind,rows,header,row,column,phrase", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_exits_2_names_row_and_column_and_writes_nothing(tmp_path, kind, rows, header,
                                                                     row, column, phrase):
    db = tmp_path / "pt.duckdb"
    assert run("playtests", "import", "glimmerdeep", write(tmp_path / "ok.csv", GOOD),
               "--db", db).exit_code == 0
    before = counts(db)
    path = tmp_path / "bad.csv"
    if header is None:
        path.write_text("# nothing here yet\n\n")
    else:
        write(path, rows, header)
    res = run("playtests", "import", "glimmerdeep", path, "--db", db)
    assert res.exit_code == 2, (kind, res.output)
    assert "Traceback" not in res.output
    assert f"'{path}'" in res.output and phrase in res.output, (kind, res.output)
    if row is not None:
        assert f"row {row}" in res.output, (kind, res.output)
    if column is not None:
        assert f"column '{column}'" in res.output, (kind, res.output)
    assert "Nothing was imported" in res.output
    assert counts(db) == before, kind


def test_a_bad_file_does_not_even_create_the_database(tmp_path):
    db = tmp_path / "new.duckdb"
    res = run("playtests", "import", "glimmerdeep", write(tmp_path / "bad.csv", edit(GOOD, 0, "seat", "7")),
              "--db", db)
    assert res.exit_code == 2 and "row 2, column 'seat'" in res.output and "0..2" in res.output
    assert not db.exists()


def test_import_stores_the_games_once_and_list_and_remove_manage_them(tmp_path):
    db = tmp_path / "pt.duckdb"
    src = write(tmp_path / "club.csv", GOOD)
    first = run("playtests", "import", "glimmerdeep", src, "--db", db, "--label", "club night")
    assert first.exit_code == 0, first.output
    assert counts(db) == (2, 6, 18)   # 6 category cells noted on each seat of G1
    again = run("playtests", "import", "glimmerdeep", src, "--db", db)
    assert again.exit_code == 0 and "nothing written" in again.output
    assert counts(db) == (2, 6, 18)
    with duckdb.connect(str(db), read_only=True) as con:
        g = con.execute("SELECT game_key, n_players, winner_seat, variant, label FROM playtests "
                        "ORDER BY game_id").fetchall()
        ranks = con.execute("SELECT rank FROM playtest_players WHERE game_id = 1 ORDER BY seat").fetchall()
        sums = con.execute(
            "SELECT p.score, sum(e.points) FROM playtest_players p JOIN playtest_score_events e "
            "USING (playtest_id, game_id, seat) GROUP BY ALL").fetchall()
    assert g == [("G1", 3, 0, "base", "club night"), ("G2", 3, 1, "base", "club night")]
    assert [r[0] for r in ranks] == [2, 1, 3]            # blank ranks: winner first, then score
    assert all(score == total for score, total in sums)
    listed = run("playtests", "list", "--db", db)
    pid = listed.output.splitlines()[1].split()[0]
    assert pid.startswith("pt-glimmerdeep-") and "club night" in listed.output
    bad = run("playtests", "remove", "pt-nope", "--db", db)
    assert bad.exit_code == 2 and pid in bad.output
    gone = run("playtests", "remove", pid[:18], "--db", db)
    assert gone.exit_code == 0 and "removed 2" in gone.output
    assert counts(db) == (0, 0, 0)


def test_a_shared_win_is_a_tie_on_every_tied_seat(tmp_path):
    db = tmp_path / "pt.duckdb"
    rows = edit(edit(GOOD, 3, "won", "tie"), 4, "won", "tie")
    assert run("playtests", "import", "glimmerdeep", write(tmp_path / "t.csv", rows), "--db", db).exit_code == 0
    half = edit(GOOD, 3, "won", "tie")   # a tie on one seat beside a winner
    res = run("playtests", "import", "glimmerdeep", write(tmp_path / "h.csv", half), "--db", db)
    assert res.exit_code == 2 and "row 5, column 'won'" in res.output


@pytest.mark.parametrize("game", GAMES)
def test_the_template_and_the_example_of_every_game(tmp_path, game):
    """The template names the game's factions and categories; filling none of it fails with the
    first empty cell named; the invented example imports, says so in its first line."""
    from engine.core.registry import get_game
    g = get_game(game)
    out = tmp_path / f"{game}.csv"
    res = run("playtests", "template", game, "-o", out)
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert all(f in text for f in g.factions(g.load_rules().model))
    assert all(f"points_{c}" in text for c in g.score_categories)
    blank = run("playtests", "import", game, out, "--db", tmp_path / "x.duckdb")
    assert blank.exit_code == 2 and "row " in blank.output and "column 'faction'" in blank.output
    assert run("playtests", "template", game, "-o", out).exit_code == 2   # never overwrites
    example = EXAMPLES / f"{game}.csv"
    assert example.read_text().startswith("# INVENTED EXAMPLE DATA")
    ok = run("playtests", "import", game, example, "--db", tmp_path / "x.duckdb")
    assert ok.exit_code == 0 and "imported" in ok.output, ok.output


def test_xlsx_template_and_the_same_table_as_xlsx_is_the_same_import(tmp_path):
    import openpyxl
    out = tmp_path / "t.xlsx"
    assert run("playtests", "template", "glimmerdeep", "-o", out).exit_code == 0
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["playtests", "about"]
    assert book["playtests"].data_validations.dataValidation   # the faction and won drop-downs
    xlsx = tmp_path / "club.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for r in GOOD:
        sheet.append([int(v) if v.isdigit() else (v or None) for v in r])
    book.save(xlsx)
    db = tmp_path / "pt.duckdb"
    a = run("playtests", "import", "glimmerdeep", xlsx, "--db", db)
    assert a.exit_code == 0, a.output
    b = run("playtests", "import", "glimmerdeep", write(tmp_path / "club.csv", GOOD), "--db", db)
    assert b.exit_code == 0 and "nothing written" in b.output
    bad = tmp_path / "bad.xlsx"
    sheet["D3"] = "elves"
    book.save(bad)
    res = run("playtests", "import", "glimmerdeep", bad, "--db", db)
    assert res.exit_code == 2 and "row 3, column 'faction'" in res.output


def test_variant_text_resolves_to_the_runs_rules_hash(tmp_path):
    """`variant` names a data/variants file or --set text; the stored rules hash is the one a
    simulation of the same rules writes, so the two can be compared."""
    from engine.core.registry import get_game
    g = get_game("glimmerdeep")
    want = g.load_rules(sets=("game.rounds=4",)).hash
    rows = [r + ["game.rounds=4"] for r in GOOD]
    db = tmp_path / "pt.duckdb"
    assert run("playtests", "import", "glimmerdeep", write(tmp_path / "v.csv", rows, HEADER + ["variant"]),
               "--db", db).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert {r[0] for r in con.execute("SELECT rules_hash FROM playtests").fetchall()} == {want}
    bad = [r + ["no_such_variant"] for r in GOOD]
    res = run("playtests", "import", "glimmerdeep", write(tmp_path / "b.csv", bad, HEADER + ["variant"]),
              "--db", db)
    assert res.exit_code == 2 and "column 'variant'" in res.output and "four_rounds" in res.output
