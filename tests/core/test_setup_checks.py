"""The setup checks the games share (engine/core/setup_checks.py): errors name the option and
what was expected, for every registered game."""

from __future__ import annotations

import pytest

from engine.core.errors import SetupError
from engine.core.registry import builtin_games

GAMES = sorted(builtin_games())


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_rejects_a_bad_count_map_faction_and_a_repeated_faction(game_id):
    game = builtin_games()[game_id]
    rules = game.load_rules().model
    known = game.factions(rules)
    n = max(game.player_counts)
    game.check_setup(rules, n, None, known[:n])                       # a good setup passes
    with pytest.raises(SetupError, match=rf"--players {n + 1}: .* seats "):
        game.check_setup(rules, n + 1, None, None)
    with pytest.raises(SetupError, match=r"--map nowhere: unknown map; expected "):
        game.check_setup(rules, n, "nowhere", None)
    with pytest.raises(SetupError, match=r"--factions: unknown .* 'nobody'; expected one of "):
        game.check_setup(rules, 2, None, ["nobody", known[0]])
    with pytest.raises(SetupError, match=r"--factions: each player needs a different "):
        game.check_setup(rules, 2, None, [known[0], known[0]])
