"""Scoring: End Game Scoring steps 1-6 and the rulebook's example (91 reputation)."""

from engine.games.underhaven import scoring
from engine.games.underhaven.scoring import (cluster_value, majorities, resources_rep,
                                             specialists_rep, trapezoid_end)

from uh_helpers import example_91_board, explore, put


def test_step1_unlocked_specialists_four_each_at_most_twelve():
    assert specialists_rep(2, 4, 12) == 8
    assert specialists_rep(3, 4, 12) == 12
    assert specialists_rep(4, 4, 12) == 12


def test_step2_octagon_majority_three_each_nothing_on_ties():
    counts = [[2, 1, 0], [1, 1, 0], [0, 0, 3], [0, 0, 0]]
    assert majorities(counts) == [1, 0, 1]


def test_step3_cluster_sum_times_connections_at_most_four():
    """"Sum their reputation ... add any numbers from your bought activation cards ... Add
    any Trapezoid tiles ... Multiply with the number of connections" (max 4 count)."""
    assert cluster_value([2, 3, 5], 3, 0, 4) == 39
    assert cluster_value([2, 3, 5, 4, 1], 0, 0, 4) == (5 + 4 + 3 + 2) * 4
    assert cluster_value([4], 3, 0, 4) == 0          # a single building is no cluster
    assert cluster_value([2, 2], 0, 2, 4) == 12


def test_step5_trapezoid_bonus_per_unlocked_specialist():
    """"Gain any built Trapezoid tile reputation BONUS (if any) e.g. +4 rep for each extra
    Specialist you have unlocked.\""""
    assert trapezoid_end("per_specialist", 4, 2, 0, 0) == 8
    assert trapezoid_end("none", 0, 2, 3, 4) == 0


def test_step6_one_reputation_per_five_resources():
    assert resources_rep(6, 5) == 1
    assert resources_rep(4, 5) == 0


def test_scoring_example_91():
    """Scoring example: "Atli has gained 23 reputation ... 2 Specialists ... 8 rep ...
    majority in 4 Octagons, giving him 12 ... Mine buildings 2 + 3 + 5 = 10 ... Mine
    activation card for 3 ... 13 * 3 = 39 ... single Magma building & +3 ... single +5 bonus
    ... 8 rep ... 6 total resources, giving him 1 rep.  23 + 8 + 12 + 39 + 8 + 1 = 91\""""
    total = (23 + specialists_rep(2, 4, 12) + 3 * majorities([[1, 0]] * 4)[0]
             + cluster_value([2, 3, 5], 3, 0, 4) + (3 + 5) + resources_rep(6, 5))
    assert total == 91


def test_end_breakdown_on_a_board(make_state):
    """The same steps read from a game: a connected mine cluster with a matching card, a
    single magma building with its card bonus, majorities and resources."""
    s = make_state()
    p = s.players[0]
    for sp, o in enumerate(s.owner):   # clear the starting buildings
        if o >= 0:
            s.bld[sp], s.owner[sp] = None, -1
    explore(s, 2, ("mine", "mine", "magma", "water"))
    explore(s, 3, ("mine", "tech", "tech", "mine"))
    put(s, 8, "small_mine", 0)          # N of octagon 2  (rep 2)
    put(s, 9, "crystal_mine", 0)        # E of octagon 2  (rep 5), touches W of octagon 3
    put(s, 15, "large_mine", 0)         # W of octagon 3  (rep 4)
    put(s, 10, "goods_smelter", 0)      # S of octagon 2, magma, no magma neighbour owned
    cards = s.st.cards
    mine_card = next(c for c in s.rules.market_cards if c.bonus_terrain == "mine")
    magma_card = next(c for c in s.rules.market_cards if c.bonus_terrain == "magma")
    p.bought = [mine_card.id, magma_card.id]
    p.perm = ["red", "blue"]
    p.res, p.pt, p.tg, p.energy = [1, 2, 0], 2, 1, 0
    b = scoring.end_breakdown(s, 0)
    assert b["end_clusters"] == (2 + 5 + 4 + cards[mine_card.id].bonus) * 3
    assert b["end_singles"] == cards[magma_card.id].bonus
    assert b["end_specialists"] == 8
    assert b["end_majorities"] == 3 * 2
    assert b["end_resources"] == 1


def test_scoring_example_91_on_a_board(game, rules, make_state):
    """The rulebook's scoring example rebuilt on a board and scored by the game: 23 during
    play; 2 unlocked specialists (8); majority in 4 octagons (12); a connected cluster of
    mines 2 + 3 + 5 with a +3 Mine card, times 3 (39); a single magma building with a +3
    magma card and a single starting building (0 rep) with a +5 card (8); 6 resources (1)."""
    s, p = example_91_board(game, rules, make_state)
    b = scoring.end_breakdown(s, 0)
    assert (b["end_specialists"], b["end_majorities"], b["end_clusters"], b["end_singles"],
            b["end_resources"]) == (8, 12, 39, 8, 1)
    assert 23 + sum(b.values()) == 91


def test_starting_building_icon_card(make_state):
    """N5. Scoring step 4, the example: "a single +5 bonus for his single starting bonus
    building (0 rep)": a card with the starting-building icon scores for a single starting
    building (here the one printed on the starting octagon), not for another single
    building."""
    s = make_state()
    p = s.players[0]
    card = next(c for c in s.rules.market_cards if c.bonus_terrain == "starting")
    starts = [x for x in range(len(s.bld)) if s.owner[x] == 0]
    assert len(starts) == 1 and s.bld[starts[0]] in s.st.starting_ids
    before = scoring.end_breakdown(s, 0)["end_singles"]
    p.bought = [card.id]
    assert scoring.end_breakdown(s, 0)["end_singles"] == before + card.bonus
    s.bld[starts[0]] = "small_farm"           # not a starting building
    assert scoring.end_breakdown(s, 0)["end_singles"] == before
