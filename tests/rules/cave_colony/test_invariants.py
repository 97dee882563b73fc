"""The invariants (invariants.py, checked after every step by the conformance tests and the
soak) catch what they promise, also right after the same state was checked clean: the costly
parts are memoised on the state fields they read, so a change to any of them is seen."""

import random


def _played(game, rules, steps=300, seed=3):
    from engine.core.protocol import Seat
    s = game.new_game(rules, [Seat(f, "random") for f in game.factions(rules)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        a = s.legal_actions()
        s.apply(a[rng.randrange(len(a))])
    return s


def test_a_broken_state_is_caught_after_a_clean_check(game, rules):
    s = _played(game, rules)
    assert game.invariants(s) == []
    breaks = {
        "gem": lambda x: x.cgem.__setitem__(x.pos[0] * 5 + 1, x.cgem[x.pos[0] * 5 + 1] + 1),
        "oxygen": lambda x: setattr(x, "oxy_supply", x.oxy_supply - 1),
        "tiles": lambda x: x.bag.__setitem__(0, x.bag[0] + 1),
        "open sides": lambda x: x.mask.__setitem__(x.colony_cell[0], 0),
        "cards": lambda x: x.deck[1].append(x.deck[1][0]) or x.known[1].append(0),
        "knowledge": lambda x: x.known[2].append(0),
        "colony": lambda x: setattr(x, "card", [x.deck[0][0]] + x.card[1:]),
    }
    for what, corrupt in breaks.items():
        bad = s.clone()
        assert game.invariants(bad) == []             # the same state again: a memo hit
        corrupt(bad)
        assert game.invariants(bad), f"a broken {what} went unnoticed"
        assert game.invariants(s) == []              # the original is still clean
