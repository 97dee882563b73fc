"""`python -m pipelines.ladder.paired`: candidates on the same duplicate deals."""

from __future__ import annotations

from pipelines.ladder.paired import play, summary


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
