"""`make soak`: long runs of random games of every registered game, checking the protocol and
the game's invariants after every step (issue 6, fault test 7).

    python -m pipelines.bench.soak --games 10000 --jobs 2        # every registered game
    python -m pipelines.bench.soak --game glimmerdeep --games 500

The same check (`check_game`) drives the hypothesis property test of the default test run
(tests/pipelines/test_faults_property.py), which draws the step sequences themselves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Callable, Sequence

from engine.core.errors import IllegalAction
from engine.core.protocol import Seat
from engine.core.registry import all_games, builtin_games
from engine.core.rng import game_seed


class InvariantBroken(AssertionError):
    pass


def check_game(game, rules, seats: Sequence[Seat], map_id: str | None, seed: int,
               choose: Callable[[int, list], int], max_steps: int = 100_000,
               ended: Counter | None = None) -> int:
    """Play one game, choosing with `choose(step, legal_actions) -> index`; after every step
    check the protocol and `game.invariants`; at the end check the scores.  Raises
    InvariantBroken naming the step; returns the number of steps (and counts how the game
    ended, `state.ended_by`, in `ended` if given)."""
    state = game.new_game(rules, list(seats), seed, map=map_id)
    n = len(seats)
    max_rounds = game.max_rounds(rules) if game.max_rounds else None

    def fail(msg):
        raise InvariantBroken(f"{game.id} seed {seed} map {map_id} step {state.step}: {msg}")

    while not state.is_over():
        seat = state.to_move()
        if not 0 <= seat < n:
            fail(f"to_move() = {seat} is not a seat")
        actions = state.legal_actions()
        if not actions:
            fail("a live state offers no decision")
        if len(set(actions)) != len(actions):
            fail("legal_actions() repeats a decision")
        state.apply(actions[choose(state.step, actions) % len(actions)])
        bad = game.invariants(state) if game.invariants else []
        if bad:
            fail("; ".join(bad))
        if max_rounds is not None and state.round > max_rounds:
            fail(f"round {state.round} > {max_rounds}")
        if state.step > max_steps:
            fail(f"more than {max_steps} steps")
    if state.legal_actions() != []:
        fail("a finished game still offers decisions")
    try:
        state.apply(("pass",))
        fail("a finished game accepted a decision")
    except IllegalAction:
        pass
    totals = state.log.totals(n)
    results = state.result()
    for r in results:
        if not r.score == totals[r.seat] == sum(r.breakdown.values()):
            fail(f"seat {r.seat}: score {r.score}, score events {totals[r.seat]}, "
                 f"breakdown {sum(r.breakdown.values())}")
        if not set(r.breakdown) <= set(game.score_categories):
            fail(f"seat {r.seat}: unknown score categories {set(r.breakdown)}")
    ended_by = getattr(state, "ended_by", None)
    if n > 1 and not any(r.won for r in results) and ended_by != "turn_limit":
        fail("nobody won")               # only a turn limit the rulebook does not score may
    if ended_by == "turn_limit" and any(r.won for r in results):
        fail("a game stopped by the turn limit has a winner")
    if ended is not None:
        ended[getattr(state, "ended_by", None) or "(none)"] += 1
    return state.step


def random_setup(game, rules, index: int, run_seed: int):
    """Game `index` of a soak: player count, factions, map and seed from the index."""
    rng = random.Random(game_seed(run_seed, index))
    n = rng.choice(list(game.player_counts))
    factions = list(game.factions(rules))
    rng.shuffle(factions)
    map_id = rng.choice(list(game.maps(rules)))
    return [Seat(f, "random") for f in factions[:n]], map_id, game_seed(run_seed, index)


def soak_chunk(game_id: str, first: int, count: int, run_seed: int) -> tuple[int, int, Counter]:
    game = all_games()[game_id]
    rules = game.load_rules().model
    steps = 0
    ended: Counter = Counter()
    for i in range(first, first + count):
        seats, map_id, seed = random_setup(game, rules, i, run_seed)
        rng = random.Random(seed ^ 0x5EED)
        steps += check_game(game, rules, seats, map_id, seed,
                            lambda step, actions: rng.randrange(len(actions)), ended=ended)
    return count, steps, ended


def soak(game_id: str, games: int, jobs: int = 1, run_seed: int = 20261129,
         chunk: int = 100) -> tuple[int, int, float, Counter]:
    """(games, steps, wall seconds, games per `ended_by`)."""
    from joblib import Parallel, delayed
    t0 = time.perf_counter()
    parts = [(f, min(chunk, games - f)) for f in range(0, games, chunk)]
    done = Parallel(n_jobs=jobs, return_as="generator_unordered")(
        delayed(soak_chunk)(game_id, f, c, run_seed) for f, c in parts)
    n = steps = 0
    ended: Counter = Counter()
    for c, s, e in done:
        n += c
        steps += s
        ended += e
    return n, steps, time.perf_counter() - t0, ended


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipelines.bench.soak", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="a registered game (default: all)")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261129)
    args = ap.parse_args(argv)
    games = args.game or sorted(builtin_games())
    for gid in games:
        n, steps, wall, ended = soak(gid, args.games, args.jobs, args.seed)
        how = ", ".join(f"{k} {v / n:.1%}" for k, v in ended.most_common())
        print(f"{gid}: {n} random games, {steps} steps, invariants held after every step "
              f"({wall:.0f}s, {n / wall:.0f} games/s); ended by: {how}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
