"""Game fingerprints: one SHA-256 over the rows of many seeded games, to prove that a change
(a refactor, a speed-up) left every game exactly as it was.

    python -m engine.core.fingerprint                     # every shipped game, 64 games each
    python -m engine.core.fingerprint underhaven --games 256 --options

The games cover every player count and map of the game, random and greedy bots in alternating
seats, and the rules variants a game lists in `Game.extra["fingerprint_sets"]` (e.g. its
modules switched on).  `--options` also hashes the legal options offered at every decision
(slower; catches a change in what is offered even where the bots happen to choose the same).
"""

from __future__ import annotations

import argparse
import hashlib
import json

from .play import play_game
from .protocol import Seat
from .rng import bot_rng, game_seed

FINGERPRINT_SEED = 20261201


def _configs(game):
    """(sets, rules, n_players, map) combinations the fingerprint cycles through."""
    out = []
    for sets in game.extra.get("fingerprint_sets", [()]):
        rules = game.load_rules(sets=tuple(sets)).model
        for n in game.player_counts:
            for m in game.maps(rules):
                out.append((tuple(sets), rules, n, m))
    return out


def _seats(game, rules, n: int, i: int) -> list[Seat]:
    factions = game.factions(rules)
    k = len(factions)
    picked = [factions[(i * 3 + s) % k] for s in range(n)] if k >= n else factions[:n]
    return [Seat(f, ("random", "greedy")[(i + s) % 2]) for s, f in enumerate(picked)]


def _options_digest(game, rules, seats, seed, m) -> str:
    from ..bots import make_bot

    h = hashlib.sha256()
    state = game.new_game(rules, seats, seed, map=m, log=False)
    bots = [make_bot(s.bot, game, bot_rng(seed, i)) for i, s in enumerate(seats)]
    while not state.is_over():
        seat = state.to_move()
        h.update(repr(state.legal_actions()).encode())
        state.apply(bots[seat].choose(game.observe(state, seat), seat))
    return h.hexdigest()


def fingerprint(game, n_games: int = 64, options: bool = False) -> str:
    h = hashlib.sha256()
    configs = _configs(game)
    for i in range(n_games):
        sets, rules, n, m = configs[i % len(configs)]
        seats = _seats(game, rules, n, i)
        seed = game_seed(FINGERPRINT_SEED, i)
        rec = play_game(game, rules, seats, seed, map=m)
        row = {k: v for k, v in rec.game.items() if k != "wall_ms"}
        # the moves as logged before `offered` was (what was offered is `--options`' part):
        # a fingerprint taken before that column still proves the same play
        moves = {k: v for k, v in rec.moves.items() if k != "offered"}
        h.update(json.dumps([list(sets), row, rec.players, moves, rec.scores],
                            sort_keys=True, default=str).encode())
        if options:
            h.update(_options_digest(game, rules, seats, seed, m).encode())
    return h.hexdigest()


def main(argv=None):
    from .registry import builtin_games, get_game

    ap = argparse.ArgumentParser(prog="python -m engine.core.fingerprint")
    ap.add_argument("games", nargs="*", help="game ids (default: every shipped game)")
    ap.add_argument("--games", dest="n_games", type=int, default=64)
    ap.add_argument("--options", action="store_true", help="also hash every decision's options")
    args = ap.parse_args(argv)
    for gid in args.games or sorted(builtin_games()):
        print(f"{gid:<20} {args.n_games:>5} games  {fingerprint(get_game(gid), args.n_games, args.options)}")


if __name__ == "__main__":
    main()
