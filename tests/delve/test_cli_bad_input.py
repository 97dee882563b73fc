"""Issue section 6, bad input: every user-input failure prints one paragraph naming the file,
field or argument and what was expected, exits 2, shows no traceback and writes nothing to the
database (a pre-existing database keeps its bytes; a new one is not created)."""

from __future__ import annotations

import pytest

from pipeline_helpers import file_digest


@pytest.fixture(scope="module")
def existing_db(tmp_path_factory):
    from click.testing import CliRunner

    from delve.cli import main
    db = tmp_path_factory.mktemp("db") / "delve.duckdb"
    res = CliRunner().invoke(main, ["simulate", "toy", "--games", "2", "--players", "2",
                                    "--db", str(db), "--no-progress"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return db


def _variant(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def check_refused(cli, db, args, *culprits):
    before = file_digest(db) if db.exists() else None
    res = cli("simulate", *args, "--db", db, "--no-progress")
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert "Traceback" not in res.output
    assert err and "\n\n" not in err, "one paragraph"
    for c in culprits:
        assert c in err, (c, err)
    assert (file_digest(db) if db.exists() else None) == before, "the database changed"
    assert res.stdout == ""
    return err


TOY = ("toy", "--games", 3)


def test_unknown_game(cli, existing_db):
    check_refused(cli, existing_db, ("nosuchgame", "--games", 2), "Unknown game 'nosuchgame'", "toy")


def test_unknown_map(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--map", "moon"), "--map", "moon",
                  "small", "large")


def test_unknown_faction(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--factions", "moles,otters"),
                  "otters", "--factions")


def test_faction_list_of_the_wrong_length(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 3, "--factions", "moles,voles"),
                  "--factions", "3 players")


@pytest.mark.parametrize("args, culprit", [
    (("--players", 5), "--players 5"),                        # not a player count of the game
    (("--players", 4, "--map", "small"), "at most 3"),        # the map cannot seat them
    (("--players", 4, "--map", "large"), "different faction"),  # 3 factions cannot fill 4 seats
])
def test_player_count_that_cannot_be_seated(cli, existing_db, args, culprit):
    check_refused(cli, existing_db, (*TOY, *args), culprit)


def test_unknown_set_path(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--set", "costs.digg=2"),
                  "--set costs.digg=2", "unknown path", "dig")


def test_negative_cost_via_set(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--set", "costs.build=-1"),
                  "--set costs.build=-1", "costs.build", "greater than or equal to 0")


def test_variant_with_a_toml_syntax_error_names_the_line(cli, existing_db, tmp_path):
    v = _variant(tmp_path, "broken.toml", "# a what-if\n[game]\nrounds = = 5\n")
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--variant", v), str(v),
                  "TOML syntax error", "line 3")


def test_variant_with_an_unknown_key(cli, existing_db, tmp_path):
    v = _variant(tmp_path, "typo.toml", "[game]\nrouns = 5\n")
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--variant", v), str(v), "game.rouns",
                  "unknown key")


def test_variant_with_a_wrong_type(cli, existing_db, tmp_path):
    v = _variant(tmp_path, "wrongtype.toml", '[game]\nrounds = "five"\n')
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--variant", v), str(v), "game.rounds",
                  "integer", '"five"')


def test_wrong_type_via_set(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--set", "game.rounds=many"),
                  "game.rounds", "integer")


def test_missing_variant_file(cli, existing_db, tmp_path):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--variant", tmp_path / "nope.toml"),
                  "nope.toml", "does not exist")


def test_unknown_bot(cli, existing_db):
    check_refused(cli, existing_db, (*TOY, "--players", 2, "--bots", "greedy,genius"), "genius",
                  "--bots")


def test_bad_option_value(cli, existing_db):
    check_refused(cli, existing_db, ("toy", "--games", 0, "--players", 2), "--games")


@pytest.mark.parametrize("case", ["parent_is_a_file", "is_a_directory", "not_a_database"])
def test_database_path_that_is_not_writable(cli, tmp_path, case):
    if case == "parent_is_a_file":
        (tmp_path / "plain").write_text("x")
        db = tmp_path / "plain" / "delve.duckdb"
    elif case == "is_a_directory":
        db = tmp_path / "adir"
        db.mkdir()
    else:
        db = tmp_path / "notes.duckdb"
        db.write_text("not a database, just some notes of mine\n" * 4)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    res = cli("simulate", *TOY, "--players", 2, "--db", db, "--no-progress")
    assert res.exit_code == 2 and str(db) in res.stderr and "--db" in res.stderr
    assert "Traceback" not in res.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_read_only_directory(cli, tmp_path):
    """A directory nobody may create files in (chmod 500 for a normal user; for root, who
    may write anywhere, the kernel's read-only /sys)."""
    import os
    if os.geteuid() == 0:
        target = __import__("pathlib").Path("/sys/delve-test/d.duckdb")
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        target = ro / "d.duckdb"
    res = cli("simulate", *TOY, "--players", 2, "--db", target, "--no-progress")
    assert res.exit_code == 2 and "not writable" in res.stderr and str(target) in res.stderr
    assert "Traceback" not in res.output
    assert not target.exists()


def test_bad_input_to_other_commands(cli, existing_db, tmp_path):
    res = cli("rules", "nosuchgame")
    assert res.exit_code == 2 and "nosuchgame" in res.stderr
    res = cli("rules", "toy", "--set", "costs.dig=-3")
    assert res.exit_code == 2 and "costs.dig" in res.stderr
    res = cli("replay", "--db", existing_db, "no-such-run", 0)
    assert res.exit_code == 2 and "no-such-run" in res.stderr
    res = cli("replay", "--db", tmp_path / "missing.duckdb", "latest", 0)
    assert res.exit_code == 2 and "missing.duckdb" in res.stderr
    assert not (tmp_path / "missing.duckdb").exists()


# -- the same checks on Glimmerdeep's real rules ------------------------------------------------

from pipeline_helpers import glimmerdeep_ready  # noqa: E402

GD = ("glimmerdeep", "--games", 2)

GLIMMERDEEP_CASES = {
    "unknown map": ((*GD, "--players", 2, "--map", "moon"), ("moon", "bioluminescent")),
    "unknown faction": ((*GD, "--players", 2, "--factions", "ironclads,otters"),
                        ("otters", "--factions")),
    "five players": ((*GD, "--players", 5), ("--players 5",)),
    "one faction for two seats": ((*GD, "--players", 2, "--factions", "ironclads,ironclads"),
                                  ("--factions", "different faction")),
    "unknown --set path": ((*GD, "--players", 2, "--set", "game.roundz=3"),
                           ("--set game.roundz=3", "unknown path")),
    "negative cost": ((*GD, "--players", 2, "--set", "workshops.w01.cost.iron=-1"),
                      ("workshops.0.cost.iron", "greater than or equal to 0")),
    "wrong type": ((*GD, "--players", 2, "--set", "game.rounds=\"five\""),
                   ("game.rounds", "integer")),
}


@pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep is not registered yet")
@pytest.mark.parametrize("case", sorted(GLIMMERDEEP_CASES))
def test_glimmerdeep_bad_input(cli, existing_db, case):
    args, culprits = GLIMMERDEEP_CASES[case]
    check_refused(cli, existing_db, args, *culprits)


@pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep is not registered yet")
@pytest.mark.parametrize("text, culprits", [
    ("[game]\nrounds = 4\nexcavations_per_round = = 3\n", ("TOML syntax error", "line 3")),
    ("[market]\nslotz = 4\n", ("market.slotz", "unknown key")),
    ("[game]\nrounds = 4.5\n", ("game.rounds", "integer")),
    ("[[workshops]]\nid = \"w01\"\ncost = { iron = -2 }\n", ("workshops.0.cost.iron",)),
])
def test_glimmerdeep_bad_variant_file(cli, existing_db, tmp_path, text, culprits):
    v = _variant(tmp_path, "whatif.toml", text)
    check_refused(cli, existing_db, (*GD, "--players", 2, "--variant", v), str(v), *culprits)
