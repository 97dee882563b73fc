"""Seeds.  Every game's randomness comes from (run seed, game index) through SeedSequence.

No global generator is used anywhere: the game gets its own `random.Random` instance for
chance (deck shuffles) and each bot gets an independent stream, so a bot's choices can never
shift the shuffles.
"""

from __future__ import annotations

import random

import numpy as np


def game_seed(run_seed: int, game_index: int) -> int:
    """The seed of game `game_index` of a run, independent of workers and chunking."""
    ss = np.random.SeedSequence([int(run_seed), int(game_index)])
    return int(ss.generate_state(2, dtype=np.uint32).astype(np.uint64).dot([1 << 32, 1]))


def _child(seed: int, *path: int) -> random.Random:
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, *path])
    return random.Random(int.from_bytes(ss.generate_state(4, dtype=np.uint32).tobytes(), "little"))


def chance_rng(seed: int) -> random.Random:
    """The game's own chance stream (shuffles, draws)."""
    return _child(seed, 0)


def bot_rng(seed: int, seat: int) -> random.Random:
    """An independent stream for the bot in `seat`."""
    return _child(seed, 1, seat)


def draw_index(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n >= 1, the same draw from the same stream, without its argument
    checks and its inner call (two Python frames less on the random bots' hot path).
    `randrange(n)` is exactly `_randbelow(n)` for a positive int in CPython, which draws
    `n.bit_length()` bits until the value is below `n`, as here (tests/core/test_rng.py
    checks the values and the stream's position)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
