"""`python -m pipelines.ladder.paired`: candidates on the same duplicate deals."""

from __future__ import annotations

import pytest

from pipelines.ladder.paired import main, play, read_csvs, summary


def test_every_candidate_plays_the_same_deals_and_the_difference_is_paired():
    rows = play("cave_colony", ["greedy", "random"], "greedy", 2, 3, [0, 1])
    assert [r["game"] for r in rows["greedy"]] == [0, 1] == [r["game"] for r in rows["random"]]
    assert [r["seat"] for r in rows["greedy"]] == [0, 1]      # the seat rotates by game
    again = play("cave_colony", ["greedy"], "greedy", 2, 3, [0, 1])["greedy"]
    assert [(r["won"], r["rounds"]) for r in again] == \
        [(r["won"], r["rounds"]) for r in rows["greedy"]]      # a deal is its seed
    lines: list[str] = []
    summary(rows, echo=lines.append)
    assert lines[0].startswith("greedy") and "turn limit" in lines[0]
    assert lines[-1].startswith("paired random - greedy (2 deals)")


def test_compare_pairs_csv_files_of_the_same_deals(tmp_path, capsys):
    """Before and after (say two commits): each run writes --csv, --compare pairs them."""
    before, after, other = tmp_path / "before.csv", tmp_path / "after.csv", tmp_path / "o.csv"
    main(["cave_colony", "greedy", "--vs", "greedy", "--players", "2", "--games", "2",
          "--seed", "3", "--csv", str(before)])
    main(["cave_colony", "random", "--vs", "greedy", "--players", "2", "--games", "2",
          "--seed", "3", "--csv", str(after)])
    capsys.readouterr()
    rows = read_csvs([str(before), str(after)])
    assert list(rows) == ["greedy (before.csv)", "random (after.csv)"]
    again = play("cave_colony", ["greedy"], "greedy", 2, 3, [0, 1])["greedy"]
    assert [(r["deal_seed"], r["won"], r["rank"]) for r in rows["greedy (before.csv)"]] == \
        [(r["deal_seed"], r["won"], r["rank"]) for r in again]    # the rows read back
    main(["--compare", str(before), str(after)])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 deals, paired by deal with the first:"
    assert out[-1].startswith("paired random (after.csv) - greedy (before.csv) (2 deals)")
    main(["cave_colony", "greedy", "--vs", "greedy", "--players", "2", "--games", "2",
          "--seed", "4", "--csv", str(other)])
    with pytest.raises(SystemExit):
        main(["--compare", str(before), str(other)])   # other deals: refused
    assert "not those of" in capsys.readouterr().err
