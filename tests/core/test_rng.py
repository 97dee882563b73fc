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
