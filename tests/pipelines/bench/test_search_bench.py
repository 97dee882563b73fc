"""`delve bench --search-only`: clone/apply µs, MCTS iterations/s and a game per rung, printed
for the games asked (small budget here; the figures themselves are benchmarks)."""

from __future__ import annotations

import re


def test_search_section_reports_every_figure(cli):
    res = cli("bench", "--game", "toy", "--players", 2, "--search-only", "--search-budget", 5,
              "--search-rungs", 1)
    assert res.exit_code == 0, res.output
    out = res.output
    assert re.search(r"clone\s+[\d.]+ us\s+apply\s+[\d.]+ us", out)
    assert re.search(r"lookahead clone .* [\d.]+ us", out)
    assert re.search(r"mcts:5:\s+\d+ iterations/s", out)
    assert "one game, greedy in seat 0 against random" in out
    assert "one game, mcts:5 in seat 0 against greedy" in out
    assert re.search(r"one game, mcts:5 in seat 0 against greedy:\s+[\d.]+ s \([\d.]+ s CPU\)", out)
    assert re.search(r"strong tier, every seat greedy \(2 players\): one game [\d.]+ s CPU", out)


def test_the_strong_tier_is_timed_at_each_game_s_strongest_validated_rung():
    """Issue 27: `delve bench` gives one game's seconds with every seat at the strongest
    validated rung (data/bots/<game>.toml [ladder]) and what a 224-game tier run costs."""
    from engine.bots import bot_params
    from engine.bots.params import strongest_rung
    from pipelines.bench.search import strong_tier_game_s, tier_run_words
    assert strongest_rung("glimmerdeep") == "mcts:400"
    # ladder 05a709e9 (budgets at real cost): 53.7% [49.0%, 58.4%] of 432, +16.9 points over
    # mcts:300 with the same leaf
    assert strongest_rung("underwater_cities") == "mcts:1200/leaf=game/depth=0"
    p = bot_params(strongest_rung("underwater_cities"), "underwater_cities")   # a spec bots read
    assert (p.budget, p.leaf, p.depth) == (1200, "game", 0)
    assert strongest_rung("toy") == "greedy"                   # no data/bots file: the default
    rung, wall, cpu = strong_tier_game_s("toy", players=2)     # greedy: quick to time
    assert rung == "greedy" and wall > 0 and cpu > 0
    words = tier_run_words("mcts:400", 20.0, 4)
    assert "360 games/hour on 2 workers" in words and "about 37 min" in words
    assert "1.2x over the 30-minute goal" in words
    assert "within the 30-minute goal" in tier_run_words("greedy", 2.0, 4)


def test_a_bad_ladder_table_is_refused_naming_the_field(tmp_path):
    from engine.bots.params import BotsFile
    from engine.core.errors import RulesError
    from engine.core.rules import validate
    import pytest
    with pytest.raises(RulesError) as exc:
        validate(BotsFile, {"ladder": {"strongest": "mcts:400", "strength": 3}})
    assert "ladder" in str(exc.value)
