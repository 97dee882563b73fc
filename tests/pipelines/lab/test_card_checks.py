"""Design check "deciding card" (issue 15, "For the designers": "`delve checks` can flag a card
that decides games"): the cards a seat held (players.held_cards) whose holders win far more or
far less often than the other seats."""

from __future__ import annotations

import pytest

from pipelines.lab.design_checks import run_checks
from pipelines.store import Store


@pytest.fixture
def toy_run(cli, tmp_path):
    db = tmp_path / "cards.duckdb"
    res = cli("simulate", "toy", "--games", 160, "--players", 3, "--bots", "random",
              "--seed", 4, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    return db, res.stdout.splitlines()[0]


def _cards(rep):
    return [f for f in rep.findings if f.check == "deciding card"]


def test_runs_without_held_cards_have_no_card_check(toy_run):
    db, run = toy_run
    rep = run_checks(db, run)
    assert _cards(rep) == [] and "cards" not in rep.tables


def test_a_card_whose_holders_win_is_flagged_and_a_neutral_one_is_not(toy_run):
    db, run = toy_run
    with Store(db).write() as con:
        # eq_charm: held by the winner in 4 games of 5 and by a loser in 1 game of 8 (a card
        # that decides games); neg_coin: held by parity of game and seat, whoever wins.
        con.execute(
            """UPDATE players SET held_cards = 'pos_plain '
                 || CASE WHEN (won AND game_id % 5 <> 0) OR (NOT won AND (game_id + seat) % 8 = 0)
                         THEN 'eq_charm' ELSE 'eq_dud' END
                 || CASE WHEN (game_id + seat) % 2 = 0 THEN ' neg_coin' ELSE ' neg_other' END
               WHERE run_id = ?""", [run])
    rep = run_checks(db, run)
    flagged = {f.subject: f for f in _cards(rep) if f.flagged}
    assert "eq_charm" in flagged, [f.evidence for f in _cards(rep)]
    assert "neg_coin" not in flagged and "pos_plain" not in flagged
    assert "Holm p" in flagged["eq_charm"].evidence and "more than" in flagged["eq_charm"].evidence
    table = rep.tables["cards"]
    charm = table.filter(table["card"] == "eq_charm").row(0, named=True)
    assert charm["deciding"] and charm["low"] <= charm["win_rate"] <= charm["high"]
    assert charm["win_rate"] > charm["rest_win_rate"] + 0.10
    plain = table.filter(table["card"] == "pos_plain").row(0, named=True)
    assert plain["seats"] == 480 and not plain["deciding"]      # everyone holds it: no test
