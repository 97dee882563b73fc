"""`delve bench`, search section: what a search bot's time goes to, per game.

- clone µs: `state.clone()` of states met in random games (the median over them), and the
  lookahead clone `state.clone(log=False)` that the search copies (no log, no chance stream);
- apply µs: one random-playout step's `apply_legal` (legal list given), and the
  `legal_actions()` that precedes it, separately (medians over random games, log off);
- MCTS iterations/s and forward-model calls/s: the MCTS bot searching from states of a random
  game with a fixed budget, determinisation included;
- one four-player game at each ladder rung, played as the ladder plays it (the rung in seat 0,
  the rung below in the others), seconds on one core.
Figures are from one run on a shared machine: compare them within a run.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Callable

from engine.bots.mcts import MCTSBot
from engine.bots import bot_params
from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import bot_rng, game_seed


def _step(state, action, legal) -> None:
    fast = getattr(state, "apply_legal", None)
    fast(action, legal) if fast is not None else state.apply(action)


def _states(game, rules, players: int, seed: int, every: int = 7, games: int = 2):
    """States met along random games (log off), every `every` decisions."""
    f = game.factions(rules)
    out = []
    for g in range(games):
        s = game.new_game(rules, [Seat(f[i % len(f)], "random") for i in range(players)],
                          game_seed(seed, g), log=False)
        rng = random.Random(g)
        while not s.is_over():
            if s.step % every == 0:
                out.append(s.clone())
            legal = s.legal_actions()
            _step(s, legal[rng.randrange(len(legal))], legal)
    return out


def _lookahead_clone(state):
    """A copy as a search makes it: without log (and chance stream) where the game offers it."""
    try:
        return state.clone(log=False)
    except TypeError:
        return state.clone()


def lookahead_clone_us(game_id: str, players: int = 4, seed: int = 0) -> float:
    """`clone(log=False)` µs, the median: the copies the search and the greedy lookahead make
    (no log, no chance stream), beside `clone_apply_us`'s full `clone()`."""
    game = get_game(game_id)
    rules = game.load_rules().model
    ts = []
    for s in _states(game, rules, players, seed):
        t0 = time.perf_counter()
        for _ in range(20):
            _lookahead_clone(s)
        ts.append((time.perf_counter() - t0) / 20)
    return statistics.median(ts) * 1e6


def clone_apply_us(game_id: str, players: int = 4, seed: int = 0) -> tuple[float, float, float]:
    """(clone µs, apply µs, legal_actions µs), medians."""
    game = get_game(game_id)
    rules = game.load_rules().model
    states = _states(game, rules, players, seed)
    clone_t = []
    for s in states:
        t0 = time.perf_counter()
        for _ in range(20):
            s.clone()
        clone_t.append((time.perf_counter() - t0) / 20)
    apply_t, legal_t = [], []
    rng = random.Random(seed)
    for s in states:
        s = s.clone()
        for _ in range(10):
            if s.is_over():
                break
            t0 = time.perf_counter()
            legal = s.legal_actions()
            t1 = time.perf_counter()
            _step(s, legal[rng.randrange(len(legal))], legal)
            t2 = time.perf_counter()
            legal_t.append(t1 - t0)
            apply_t.append(t2 - t1)
    return (statistics.median(clone_t) * 1e6, statistics.median(apply_t) * 1e6,
            statistics.median(legal_t) * 1e6)


def mcts_rate(game_id: str, budget: int, players: int = 4, seed: int = 0,
              decisions: int = 12) -> tuple[float, float]:
    """(iterations/s, forward-model calls/s) of the tuned MCTS bot at `budget`."""
    game = get_game(game_id)
    rules = game.load_rules().model
    states = _states(game, rules, players, seed, every=11, games=1)
    pick = states[:: max(1, len(states) // decisions)][:decisions]
    bot = MCTSBot(game, bot_rng(seed, 0), bot_params(f"mcts:{budget}", game_id))
    t0 = time.perf_counter()
    for s in pick:
        seat = s.to_move()
        obs = game.observe(s, seat)
        legal = obs.legal_actions()
        if len(legal) > 1:
            bot.search(obs, seat, legal)
    wall = time.perf_counter() - t0
    return bot.total_iterations / wall, bot.total_fm_calls / wall


def rung_game_s(game_id: str, spec: str, below: str, players: int = 4,
                seed: int = 0) -> tuple[float, float]:
    """(wall s, CPU s) of one game, `spec` in seat 0 against `below`: the CPU seconds are the
    one-core figure a loaded machine cannot lower (the game runs in this one thread)."""
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    seats = [Seat(f[i % len(f)], spec if i == 0 else below) for i in range(players)]
    t0, c0 = time.perf_counter(), time.thread_time()
    play_game(game, rules, seats, game_seed(seed, 0), log=True)
    return time.perf_counter() - t0, time.thread_time() - c0


#: A tier run (issue 27): four Glimmerdeep seating cycles of 56 games, on 2 workers.
TIER_GAMES, TIER_WORKERS, TIER_GOAL_MIN = 224, 2, 30.0


def strong_tier_game_s(game_id: str, players: int = 4, seed: int = 0) -> tuple[str, float, float]:
    """(rung, wall s, CPU s) of one game with every seat at the game's strongest validated rung
    (`[ladder] strongest` in data/bots/<game>.toml)."""
    from engine.bots.params import strongest_rung
    rung = strongest_rung(game_id)
    return (rung, *rung_game_s(game_id, rung, rung, players, seed))


def tier_run_words(rung: str, cpu_s: float, players: int) -> str:
    """One game's CPU seconds at the strong tier as games per hour on 2 workers and the minutes
    of a 224-game tier run, against the 30-minute goal (pure: the bench and tests)."""
    per_hour = TIER_WORKERS * 3600.0 / cpu_s if cpu_s > 0 else float("inf")
    minutes = TIER_GAMES * cpu_s / TIER_WORKERS / 60.0
    verdict = "within" if minutes <= TIER_GOAL_MIN else f"{minutes / TIER_GOAL_MIN:.1f}x over"
    return (f"strong tier, every seat {rung} ({players} players): one game {cpu_s:.1f} s CPU, "
            f"about {per_hour:,.0f} games/hour on {TIER_WORKERS} workers; a {TIER_GAMES}-game tier "
            f"run about {minutes:.0f} min ({verdict} the {TIER_GOAL_MIN:.0f}-minute goal)")


def report_search(game_ids: list[str], *, players: int, seed: int, budget: int, rungs: int,
                  echo: Callable[[str], None] = print) -> None:
    from pipelines.ladder.ladder import ladder_rungs
    for gid in game_ids:
        game = get_game(gid)
        p = players if players in game.player_counts else max(game.player_counts)
        echo(f"== {gid}: search (one core, {p} players)")
        c, a, legal = clone_apply_us(gid, p, seed)
        look = lookahead_clone_us(gid, p, seed)
        echo(f"  clone {c:8.1f} us   apply {a:8.1f} us   legal_actions {legal:8.1f} us  "
             f"(medians over random games, log off)")
        echo(f"  lookahead clone (clone(log=False), what search copies) {look:8.1f} us")
        it_s, fm_s = mcts_rate(gid, budget, p, seed)
        echo(f"  mcts:{budget}: {it_s:8.0f} iterations/s, {fm_s:8.0f} forward-model calls/s "
             f"(determinisation, tree, rollouts, leaf heuristic)")
        names = ladder_rungs(budget, rungs)
        for k in range(1, len(names)):
            secs, cpu = rung_game_s(gid, names[k], names[k - 1], p, seed)
            echo(f"  one game, {names[k]} in seat 0 against {names[k - 1]}: {secs:7.2f} s "
                 f"({cpu:.2f} s CPU)")
        rung, _secs, cpu = strong_tier_game_s(gid, p, seed)
        echo("  " + tier_run_words(rung, cpu, p))
        echo("")
