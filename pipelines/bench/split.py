"""Where a random decision's time goes (`delve bench`, section 1): choosing it against the rest.

A random game's decision costs two things: *choosing* it (the game's `sample_legal(rng)`: what
the legal options are, counted or listed, and the one drawn) and *the rest* (`apply_legal`:
the move's effects, the move log, the agenda up to the next decision).  This plays random
games exactly as the play loop's random fast path does (the same bots, the same draws, so
the same games as `play_game`), timing the two around each decision, per decision kind (the
frame on top of the decision stack), and the setting up of each game apart.

The figure that matters is what the rest costs alone: however cheap choosing became, a decision
cannot cost less than that, so its ratio to a peer's cost per action is the floor of the peer
ratio (PERFORMANCE.md, "The floors").  Wall time (`time.perf_counter`, about 0.1 µs a call)
around each part: run it on a quiet machine; the shares hold better than the microseconds."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.bots import seat_bots

from pipelines.run.plan import make_plan


@dataclass
class KindTime:
    decisions: int = 0
    choose_s: float = 0.0


@dataclass
class DecisionSplit:
    game: str
    games: int
    decisions: int = 0
    setup_s: float = 0.0      # new_game, per game
    choose_s: float = 0.0     # sample_legal, every decision
    rest_s: float = 0.0       # apply_legal: effects, move log, the agenda to the next decision
    kinds: dict[str, KindTime] = field(default_factory=dict)
    steps: list[int] = field(default_factory=list)   # each game's decisions, in plan order

    def us(self, seconds: float) -> float:
        """Seconds spread over the decisions, in µs per decision."""
        return seconds * 1e6 / max(1, self.decisions)

    @property
    def total_s(self) -> float:
        return self.setup_s + self.choose_s + self.rest_s


def supported(state) -> bool:
    """A decision-stack state (engine.core.frames.FrameMachine: `stack`, `over`,
    `sample_legal`, `apply_legal`), which every shipped game is."""
    return all(hasattr(state, a) for a in ("stack", "over", "sample_legal", "apply_legal"))


def decision_split(game_id: str, *, games: int, players: int, seed: int,
                   clock=time.perf_counter, passes: int = 2) -> DecisionSplit | None:
    """Play `games` random games with the move log on (in memory) and split their time; None
    for a game whose states are not decision stacks.  The games are played `passes` times and
    the last pass is kept, so that the tables a game builds on first use (maps, shape
    placements, remembered answers) are not counted as any game's cost, as in the peer
    comparison's later rounds."""
    plan = make_plan(game_id, n_games=games, n_players=players, bots="random", seed=seed)
    out = None
    for _ in range(max(1, passes)):
        out = _play(plan, clock)
        if out is None:
            return None
    return out


def _play(plan, clock) -> DecisionSplit | None:
    model, game = plan.rules.model, plan.game
    out = DecisionSplit(game.id, len(plan.specs))
    kinds = out.kinds
    for spec in plan.specs:
        t0 = clock()
        state = game.new_game(model, list(spec.seats), spec.seed, map=spec.map, log=True)
        # the random bots' own streams, as play_game makes them (the same draws, the same game)
        rngs = [bot.rng for bot in seat_bots(game, spec.seats, spec.seed)]
        out.setup_s += clock() - t0
        if not supported(state):
            return None
        sample, apply_legal, stack = state.sample_legal, state.apply_legal, state.stack
        while not state.over:
            frame = stack[-1]
            t0 = clock()
            action = sample(rngs[frame[1]])
            t1 = clock()
            apply_legal(action, (action,))
            t2 = clock()
            k = kinds.get(frame[0])
            if k is None:
                k = kinds[frame[0]] = KindTime()
            k.decisions += 1
            k.choose_s += t1 - t0
            out.rest_s += t2 - t1
        out.decisions += state.step
        out.steps.append(state.step)
    out.choose_s = sum(k.choose_s for k in kinds.values())
    return out


def format_split(s: DecisionSplit, top: int = 8) -> str:
    """The split as lines: per decision, choosing (by kind, dearest first) and the rest."""
    us = s.us
    lines = [f"  {s.decisions} decisions of {s.games} random games (move log on, in memory, "
             f"wall time): {us(s.total_s):.1f} us per decision =",
             f"    choosing it (sample_legal)                  {us(s.choose_s):7.1f} us "
             f"({s.choose_s / s.total_s:.0%})",
             f"    the rest (apply_legal: effects, move log,   {us(s.rest_s):7.1f} us "
             f"({s.rest_s / s.total_s:.0%})  <- no decision costs less, however it is chosen",
             f"      the agenda to the next decision)",
             f"    setting up the games (new_game)             {us(s.setup_s):7.1f} us "
             f"({s.setup_s / s.total_s:.0%})",
             f"  choosing, by decision kind (share of the decisions, us each, us per decision):"]
    ranked = sorted(s.kinds.items(), key=lambda kv: -kv[1].choose_s)
    for name, k in ranked[:top]:
        lines.append(f"    {name:<24} {k.decisions / max(1, s.decisions):6.1%} "
                     f"{k.choose_s * 1e6 / max(1, k.decisions):8.1f} us each "
                     f"{us(k.choose_s):7.1f} us per decision")
    if len(ranked) > top:
        rest = sum(k.choose_s for _, k in ranked[top:])
        lines.append(f"    ({len(ranked) - top} other kinds)              "
                     f"{us(rest):7.1f} us per decision")
    return "\n".join(lines)
