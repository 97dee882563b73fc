"""Issue 16: `delve bench` reports how fast the CLI answers, simulate's first game included."""

from __future__ import annotations

from pipelines.bench.startup import startup_times


def test_startup_times_time_help_games_and_a_one_game_simulate():
    rows = startup_times("glimmerdeep", 2)
    assert [r[0] for r in rows][:3] == ["delve --help", "delve games",
                                        "delve games (first call: empty cache)"]
    assert "simulate glimmerdeep --games 1" in rows[3][0]
    assert all(wall > 0 and cpu > 0 for _, wall, cpu in rows)
    # the simulate did more than answer --help; the cached listing less than the first call
    assert rows[3][2] > rows[0][2]
    assert rows[1][2] < rows[2][2]
