"""Seeds come from (run seed, game index) via SeedSequence; bots have their own streams."""

from engine.core.rng import bot_rng, chance_rng, game_seed


def test_game_seed_depends_only_on_run_seed_and_index():
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(1000)}) == 1000
    assert game_seed(1, 0) != game_seed(2, 0)


def test_streams_are_independent():
    s = game_seed(7, 3)
    a = [chance_rng(s).random() for _ in range(3)]
    b = [bot_rng(s, 0).random(), bot_rng(s, 1).random()]
    assert a[0] == a[1] == a[2]
    assert len({a[0], *b}) == 3


def test_draw_index_is_randrange():
    """`draw_index(rng, n)` (the random bots' draw) makes exactly `rng.randrange(n)`'s draw:
    the same values and the stream left at the same position, for small and large n
    (including powers of two, where rejection sampling changes the number of bits drawn)."""
    import random

    from engine.core.rng import draw_index
    a, b = random.Random(13), random.Random(13)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 125, 128, 1000, 2**20 + 1] * 40:
        assert draw_index(a, n) == b.randrange(n)
    assert a.getstate() == b.getstate()
