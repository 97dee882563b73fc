"""`delve bench`, section 1: where a random decision's time goes, choosing it (the game's
`sample_legal`) against the rest (`apply_legal`), per decision kind (issue 13 section 4: what
the ratio to catanatron is made of, and its floor)."""

from __future__ import annotations

import itertools

import pytest

from engine.core.play import play_game
from pipelines.bench.split import decision_split, format_split
from pipelines.run.plan import make_plan


@pytest.mark.parametrize("game_id", ["glimmerdeep", "underhaven"])
def test_the_split_plays_the_games_the_play_loop_plays(game_id):
    """The same random games as `play_game` (the same bots' streams, so the same draws): the
    decisions of each game are play_game's steps, and every decision is counted once under
    its kind."""
    split = decision_split(game_id, games=3, players=4, seed=5, passes=1)
    plan = make_plan(game_id, n_games=3, n_players=4, bots="random", seed=5)
    steps = [play_game(plan.game, plan.rules.model, list(s.seats), s.seed, map=s.map).game["steps"]
             for s in plan.specs]
    assert split.steps == steps and split.decisions == sum(steps)
    assert sum(k.decisions for k in split.kinds.values()) == split.decisions
    assert split.choose_s == pytest.approx(sum(k.choose_s for k in split.kinds.values()))
    assert min(split.setup_s, split.choose_s, split.rest_s) > 0


def test_the_times_are_the_clock_between_the_parts():
    """Each part is the clock's advance around it: with a clock that ticks one second per
    reading, every decision's choosing and the rest take exactly one second each."""
    ticks = itertools.count()
    split = decision_split("underhaven", games=1, players=2, seed=1, passes=1,
                           clock=lambda: float(next(ticks)))
    assert split.choose_s == split.rest_s == split.decisions
    assert split.setup_s == 1.0


def test_a_game_that_is_not_a_decision_stack_has_no_split():
    assert decision_split("toy", games=2, players=3, seed=0) is None


def test_the_report_names_the_floor_and_the_dearest_kinds():
    split = decision_split("glimmerdeep", games=2, players=4, seed=0, passes=1)
    text = format_split(split, top=2)
    assert "choosing it (sample_legal)" in text and "no decision costs less" in text
    dearest = max(split.kinds, key=lambda k: split.kinds[k].choose_s)
    assert dearest in text and "other kinds" in text


def test_the_pipeline_runs_take_a_bots_spec(tmp_path):
    """`delve bench --pipeline-bots greedy`: the writer's share in a designer's usual run (the
    pipeline section plays those bots); a bad spec is refused before anything runs."""
    from click.testing import CliRunner

    from delve.cli import main
    from pipelines.bench.engine import report
    lines: list[str] = []
    report(["toy"], games=2, players=3, seed=0, pipeline_games=4, long_games=0, peer=None,
           peer_seconds=1.0, pipeline_bots="greedy", echo=lines.append)
    assert "== toy: pipeline, greedy bots" in "\n".join(lines)
    res = CliRunner().invoke(main, ["bench", "--game", "toy", "--pipeline-bots", "nonsense"])
    assert res.exit_code == 2 and "--pipeline-bots" in res.output and "nonsense" in res.output
