"""Play one game with bots and return its rows (the unit of work of the pipeline)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .frames import FrameMachine
from .offers import offered
from .protocol import Game, Seat


def _plain_frames(state) -> bool:
    """Whether `state` keeps the decision stack's `over` and `stack` as FrameMachine does
    (who moves = the top frame's seat), so the random games' loop may read them directly."""
    cls = type(state)
    return cls.is_over is FrameMachine.is_over and cls.to_move is FrameMachine.to_move


@dataclass
class GameRecord:
    game: dict            # one row of `games` (without run_id / game_id)
    players: list[dict]   # rows of `players`
    moves: dict           # columns of `moves`
    scores: dict          # columns of `score_events`


class InjectedFault(RuntimeError):
    """Raised by a game chosen in the rules' test-only `testing.raise_in_games`."""


def play_game(game: Game, rules, seats: list[Seat], seed: int, *, map: str | None = None,
              log: bool = True, max_steps: int = 100_000,
              game_index: int | None = None, watch=None) -> GameRecord:
    """Play one game.  `game_index` (the game's index in its run) only matters to the
    test-only fault injection of the rules (`testing.raise_in_games`, off by default).
    `watch(state)`, when given, is called before every decision and must not change the state
    (the leaf fit samples states with it: pipelines.ladder.leaf_fit)."""
    from ..bots import seat_bots

    t0 = time.perf_counter()
    fault = getattr(rules, "testing", None)
    fail_at = fault.after_steps if fault is not None and game_index in fault.raise_in_games \
        else max_steps + 1
    state = game.new_game(rules, seats, seed, map=map, log=log)
    start_seat = state.first_seat   # the starting player, before any move (first_seat moves on)
    bots = seat_bots(game, seats, seed)
    offers: dict[int, str] = {}     # move row -> what its decision offered (listed decisions)
    one_per_kind = tuple(game.extra.get("offer_one_per_kind", ()))
    observe = game.observe
    # Optional protocol speed-up: `apply_legal(action, actions)` = `apply(action)` given the
    # list `legal_actions()` just returned for this decision.
    apply_legal = getattr(state, "apply_legal", None)
    # Optional protocol speed-up: `sample_legal(rng)` = `legal[rng.randrange(len(legal))]` for
    # `legal = legal_actions()` (the same draw, the same action), without listing every option.
    # A bot declaring `uniform` picks exactly that way from its `rng` (the random bot).
    sample = getattr(state, "sample_legal", None) if apply_legal is not None else None
    # How each seat's bot is driven, settled once per seat (not asked again at every decision):
    # "sample" (the game draws for a uniform bot), "legal" (the bot needs only its seat's legal
    # decisions), "decide" (the bot returns its action and the legal list), "choose".
    modes = ["sample" if sample is not None and getattr(bot, "uniform", False)
             else "legal" if getattr(bot, "legal_only", False)
             else "decide" if hasattr(bot, "decide") else "choose" for bot in bots]
    if watch is None and fail_at > max_steps and modes and all(m == "sample" for m in modes) \
            and _plain_frames(state):
        # Every seat a uniform random bot: the same draws and moves as the loop below, with
        # nothing to dispatch per decision (the random games' hot path).
        rngs = [bot.rng for bot in bots]
        while not state.over:
            action = sample(rngs[state.stack[-1][1]])
            apply_legal(action, (action,))
            if state.step > max_steps:
                raise RuntimeError(f"{game.id}: game with seed {seed} exceeded {max_steps} steps")
    while not state.is_over():
        seat = state.to_move()
        if watch is not None:
            watch(state)
        bot = bots[seat]
        mode = modes[seat]
        if mode == "sample":
            action = sample(bot.rng)
            apply_legal(action, (action,))  # drawn from the legal list: checked against it
        elif mode == "legal":  # needs only its seat's legal decisions
            actions = state.legal_actions()
            if log:   # what the decision offers, for the move row it is about to log
                offers[state.log.n_moves()] = offered(state, actions, one_per_kind)
            if apply_legal is not None:  # the game checks legality against this same list
                apply_legal(bot.pick(actions), actions)
            else:
                state.apply(bot.pick(actions))
        elif mode == "decide":  # the action and the legal list it was chosen from
            action, actions = bot.decide(observe(state, seat), seat)
            if log:   # what the decision offers, for the move row it is about to log
                offers[state.log.n_moves()] = offered(state, actions, one_per_kind)
            if apply_legal is not None:  # the seat's view lists the seat's own legal decisions
                apply_legal(action, actions)
            else:
                state.apply(action)
        else:
            state.apply(bot.choose(observe(state, seat), seat))
        if state.step >= fail_at:
            if state.step > max_steps:
                raise RuntimeError(f"{game.id}: game with seed {seed} exceeded {max_steps} steps")
            raise InjectedFault(f"{game.id}: game {game_index} (seed {seed}) raised on purpose "
                                f"after {state.step} steps (rules testing.raise_in_games)")
    results = state.result()
    wall_ms = (time.perf_counter() - t0) * 1000.0
    winners = [r.seat for r in results if r.won]
    row = {
        "seed": seed, "n_players": len(seats), "map": state.map_id, "rounds": state.round,
        "steps": state.step, "first_seat": state.first_seat,
        "winner_seat": winners[0] if len(winners) == 1 else (winners[0] if winners else None),
        "ended_by": state.ended_by, "wall_ms": wall_ms, "start_seat": start_seat,
    }
    # A second, seat-level asymmetry a game may declare (e.g. Underhaven's special abilities).
    abilities = getattr(state, "seat_abilities", None)
    players = [{"seat": r.seat, "faction": seats[r.seat].faction, "bot": seats[r.seat].bot,
                "score": r.score, "rank": r.rank, "won": r.won,
                "ability": abilities[r.seat] if abilities else None} for r in results]
    # The cards a seat held during the game, if the game declares them: per seat a list of
    # (kind, card id) (the cave colony's traits and equipment), stored as space-separated ids.
    held = getattr(state, "held_cards", None)
    if held is not None:
        for p in players:
            p["held_cards"] = " ".join(c for _kind, c in held[p["seat"]])
    moves = state.log.moves()
    # What each listed decision offered (engine/core/offers.py), by move row: the first row
    # logged after the decision is its move.
    n = len(moves["step"])
    column = [None] * n
    for i, keys in offers.items():
        if i < n:
            column[i] = keys
    moves = dict(moves, offered=column)
    return GameRecord(row, players, moves, state.log.scores())
