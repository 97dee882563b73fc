"""Golden games: recorded (seed, seats, map, actions, final scores), replayed by the tests so
that any rules change that alters play is visible.

    python -m engine.core.golden record glimmerdeep [--count N]   # rewrites data/golden/<game>/
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .play import play_game  # noqa: F401  (re-exported for callers)
from .protocol import Seat
from .rng import bot_rng, game_seed
from .rules import DATA_DIR


def _enc(action):
    return [_enc(a) for a in action] if isinstance(action, tuple) else action


def _dec(action):
    return tuple(_dec(a) for a in action) if isinstance(action, list) else action


def record_game(game, rules, seats: list[Seat], seed: int, map_id: str | None) -> dict:
    from ..bots import make_bot

    state = game.new_game(rules, seats, seed, map=map_id)
    bots = [make_bot(s.bot, game, bot_rng(seed, i)) for i, s in enumerate(seats)]
    actions = []
    while not state.is_over():
        seat = state.to_move()
        a = bots[seat].choose(game.observe(state, seat), seat)
        actions.append(_enc(a))
        state.apply(a)
    return {"game": game.id, "seed": seed, "map": state.map_id,
            "seats": [[s.faction, s.bot] for s in seats], "actions": actions,
            "scores": [r.score for r in state.result()]}


def replay(game, rules, record: dict):
    seats = [Seat(f, b) for f, b in record["seats"]]
    state = game.new_game(rules, seats, record["seed"], map=record["map"])
    for a in record["actions"]:
        state.apply(_dec(a))
    return state


def golden_dir(game_id: str) -> Path:
    return DATA_DIR / "golden" / game_id


def record_all(game_id: str, count: int = 6) -> Path:
    from .registry import get_game

    game = get_game(game_id)
    rules = game.load_rules().model
    factions = game.factions(rules)
    maps = game.maps(rules)
    out = golden_dir(game_id)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    with path.open("w") as fh:
        for i in range(count):
            n = game.player_counts[i % len(game.player_counts)]
            seats = [Seat(factions[(i + s) % len(factions)], ("greedy", "random")[(i + s) % 2])
                     for s in range(n)]
            rec = record_game(game, rules, seats, game_seed(20261129, i), maps[i % len(maps)])
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m engine.core.golden")
    ap.add_argument("command", choices=["record"])
    ap.add_argument("game")
    ap.add_argument("--count", type=int, default=6)
    args = ap.parse_args(argv)
    print(record_all(args.game, args.count))


if __name__ == "__main__":
    main()
