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
