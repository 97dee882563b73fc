"""`delve bench --peer`: the ratio is taken in CPU time, interleaved with the peer (issue 13
section 4: "a random decision with logging at most one third of catanatron's cost per action,
side by side").  catanatron itself is a benchmark extra, not installed by `make test`."""

from __future__ import annotations

import time

from pipelines.bench.engine import peer_rounds, random_decision_cpu_us


def test_rounds_interleave_the_peer_before_and_after_ours():
    calls: list[str] = []
    peer_values = iter([10.0, 30.0, 20.0, 20.0])

    def theirs() -> float:
        calls.append("peer")
        return next(peer_values)

    def ours() -> float:
        calls.append("ours")
        return 5.0

    rounds = peer_rounds(ours, theirs, 2)
    assert calls == ["peer", "ours", "peer", "peer", "ours", "peer"]
    assert [(r.ours_us, r.theirs_us) for r in rounds] == [(5.0, 20.0), (5.0, 20.0)]


def test_random_decision_cost_is_cpu_time_of_logged_games():
    """CPU µs per decision of random games with the move log on: positive, and a sleep in
    another thread's place (wall time passing without CPU) does not count."""
    us = random_decision_cpu_us("toy", games=3, players=3, seed=0)
    assert us > 0
    t0 = time.process_time()
    time.sleep(0.2)
    assert time.process_time() - t0 < 0.1      # the clock it uses ignores waiting


def test_peer_rounds_option_is_checked_and_reaches_the_report():
    """`--peer-rounds N`: the number of interleaved rounds; 0 is refused, naming the option."""
    from click.testing import CliRunner

    from delve.cli import main
    res = CliRunner().invoke(main, ["bench", "--game", "toy", "--peer", "catanatron",
                                   "--peer-rounds", "0"])
    assert res.exit_code == 2 and "--peer-rounds" in res.output
    assert "--peer-rounds" in CliRunner().invoke(main, ["bench", "--help"]).output
