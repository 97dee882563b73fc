"""Rulebook "Setup" and "Turn Order"; the turn limit of a game that cannot end."""

import random

import pytest

from engine.core.errors import SetupError
from engine.core.protocol import Seat
from engine.games.cave_colony import cards as C


def test_components_of_the_setup(game, rules):
    """"30 Four-Way Tiles, 13 Three-Way, 9 Curved, 9 Straight, 5 Dead-End, 6 Anomaly, 20 Gem
    Tiles (4 White, 4 Yellow, 4 Green, 4 Blue, 4 Purple)"; 36 cards of each of the five kinds;
    10 gems of each of 5 colours, 30 oxygen, 10 energy and 10 movement crystals."""
    s = game.new_game(rules, [Seat(c) for c in ("red", "green")], 4)
    by_kind = {}
    for t in rules.tiles:
        by_kind[t.kind] = by_kind.get(t.kind, 0) + t.count
    assert by_kind == {"four_way": 30, "three_way": 13, "curved": 9, "straight": 9,
                       "dead_end": 5, "anomaly": 6, "gem": 20}
    gem_tiles = {}
    for t in rules.tiles:
        if t.kind == "gem":
            gem_tiles[t.gem] = gem_tiles.get(t.gem, 0) + t.count
    assert gem_tiles == {c: 4 for c in ("white", "yellow", "green", "blue", "purple")}
    assert sum(s.bag) == 92
    assert [len(getattr(rules, d)) for d in C.DECKS] == [36] * 5
    assert s.gem_supply == [10] * 5
    assert s.oxy_supply + sum(s.oxy) + sum(s.colony_oxy) == 30
    assert s.ecrys_supply + sum(s.ecrys) == 10 and s.mcrys_supply + sum(s.mcrys) == 10


def test_colony_tiles_in_a_square_at_the_centre_with_the_workers_on_them(game, rules):
    """"place them in the centre of the Play Zone in a square; Place the 4 Worker Pieces on
    their respective Colony Tiles"; seats are colonies (faction = colony colour)."""
    s = game.new_game(rules, [Seat(c) for c in ("blue", "red", "yellow")], 4)
    centre = {44, 45, 54, 55}
    assert {c for c, t in enumerate(s.tile) if t >= 0} == centre
    assert {s.st.tile_ids[s.tile[c]] for c in centre} == {f"colony_{c}" for c in
                                                          ("red", "green", "blue", "yellow")}
    for seat, colour in enumerate(("blue", "red", "yellow")):
        assert s.st.tile_ids[s.tile[s.pos[seat]]] == f"colony_{colour}"
    assert game.factions(rules) == ["blue", "green", "red", "yellow"]


def test_the_first_player_is_set_once_and_play_is_clockwise(game, rules):
    """"Determine who is going first by rolling a die ... Play will proceed in clockwise"."""
    firsts = set()
    for seed in range(20):
        s = game.new_game(rules, [Seat(c) for c in ("red", "green", "blue", "yellow")], seed)
        first = s.first_seat
        firsts.add(first)
        rng = random.Random(seed)
        order = []
        while not s.is_over() and len(order) < 8:
            a = s.legal_actions()
            if s.phase != "setup" and (not order or order[-1] != s.cur):
                order.append(s.cur)
            s.apply(a[rng.randrange(len(a))])
            assert s.first_seat == first
        assert order[:8] == [(first + i) % 4 for i in range(8)]
    assert firsts == {0, 1, 2, 3}


def test_a_game_that_cannot_end_stops_at_the_turn_limit(game):
    """A game that cannot end (here: no gem tiles, no anomalies) stops after `game.turn_limit`
    rounds with ended_by = "turn_limit" and has no winner: "After Completing 5 Colony Cards, you
    are the winner" (RB:145) is the only way to win (audit turn 3, D1: 097fdb9 crowned one)."""
    sets = ["game.turn_limit=6"] + [f"tiles.gem_{c}_{k}.count=0" for c in
                                    ("white", "yellow", "green", "blue", "purple")
                                    for k in ("cross", "tee", "bend")]
    rules = game.load_rules(sets=sets).model
    s = game.new_game(rules, [Seat(c) for c in ("red", "green", "blue")], 2)
    rng = random.Random(2)
    while not s.is_over():
        a = s.legal_actions()
        s.apply(a[rng.randrange(len(a))])
    assert s.ended_by == "turn_limit" and s.round == 6
    assert not any(r.won for r in s.result())


@pytest.mark.parametrize("n", [1, 5])
def test_two_to_four_players(game, rules, n):
    with pytest.raises(SetupError, match="--players"):
        game.new_game(rules, [Seat("red")] * n, 1)


def test_map_cells_are_the_play_zone_grid(game, rules):
    cells = game.map_cells(rules)
    assert len(cells) == 100 and {c.map for c in cells} == {"cave"}
    kinds = {c.kind for c in cells}
    assert {"colony_red", "inner_ring", "outer_ring", "ring_2", "ring_3"} <= kinds
    assert sum(c.kind == "inner_ring" for c in cells) == 12


def test_labels_name_every_logged_action_and_phase(game, rules):
    from engine.core.play import play_game
    rec = play_game(game, rules, [Seat(c, "greedy") for c in ("red", "green")], 3)
    logged = set(rec.moves["action"]) | set(rec.moves["phase"]) | set(rec.scores["category"])
    assert logged <= set(game.labels)
    assert all(c is not None for c in rec.moves["cell"])
