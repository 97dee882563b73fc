"""Issue 12 / audit P1: who sits with whom.  The old `factions rotate` seated only 8 fixed,
alphabetical tables (4 Glimmerdeep pairs never met at 4 players, 20 of 28 at 2 players); the
balanced design seats every pair and every seat equally often per cycle."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pipelines.run.plan import make_plan
from pipelines.run.seating import balance, base_design, make_design


def _counts(plan):
    tables = [[s.faction for s in spec.seats] for spec in plan.specs]
    pairs = Counter(q for t in tables for q in combinations(sorted(t), 2))
    seats = Counter((f, s) for t in tables for s, f in enumerate(t))
    return tables, pairs, seats


@pytest.mark.parametrize("game,players", [("glimmerdeep", 2), ("glimmerdeep", 3), ("glimmerdeep", 4),
                                          ("underhaven", 2), ("underhaven", 3), ("underhaven", 4)])
def test_every_pair_meets_and_counts_are_within_ten_percent_after_one_cycle(game, players):
    probe = make_plan(game, n_games=1, n_players=players, seed=11)
    cycle = probe.design.cycle
    plan = make_plan(game, n_games=cycle, n_players=players, seed=11)
    tables, pairs, seats = _counts(plan)
    factions = sorted(plan.factions)
    every_pair = list(combinations(factions, 2))
    assert all(pairs[q] > 0 for q in every_pair), [q for q in every_pair if not pairs[q]]
    pair_counts = [pairs[q] for q in every_pair]
    mean = sum(pair_counts) / len(pair_counts)
    assert max(abs(c - mean) for c in pair_counts) <= 0.1 * mean
    seat_counts = [seats[(f, s)] for f in factions for s in range(players)]
    mean = sum(seat_counts) / len(seat_counts)
    assert max(abs(c - mean) for c in seat_counts) <= 0.1 * mean
    b = balance(tables, factions)
    assert b.pairs_never == 0 and b.pair_min == min(pair_counts) and b.seat_max == max(seat_counts)


def test_glimmerdeep_four_players_uses_a_true_bibd_not_eight_fixed_tables():
    """Audit P1: '8 distinct tables, 37-38 games each'.  AG(3,2): 14 tables, each pair 3 times."""
    tables, kind = base_design(8, 4)
    assert "balanced incomplete block design" in kind
    assert len({frozenset(t) for t in tables}) == 14
    plan = make_plan("glimmerdeep", n_games=300, n_players=4, seed=5)
    _, pairs, _ = _counts(plan)
    assert len({frozenset(s.faction for s in sp.seats) for sp in plan.specs}) == 14
    assert min(pairs.values()) >= 40 and len(pairs) == 28     # no pair that never meets


def test_two_player_matchups_are_not_aliased_with_seat():
    """Audit P1: at 2 players each matchup was always played from the same seat."""
    plan = make_plan("glimmerdeep", n_games=56, n_players=2, seed=3)
    ordered = Counter(tuple(s.faction for s in sp.seats) for sp in plan.specs)
    assert len(ordered) == 56 and set(ordered.values()) == {1}   # every matchup, both ways


def test_renaming_factions_only_renames_the_design():
    """A faction's opponents no longer depend on the alphabet: the design is on labels."""
    d1 = make_design(["a", "b", "c", "d", "e", "f", "g", "h"], 4, 9)
    d2 = make_design(["z", "b", "c", "d", "e", "f", "g", "h"], 4, 9)
    rename = {"a": "z"}
    assert [tuple(rename.get(f, f) for f in d1.seating(i)) for i in range(60)] == \
        [d2.seating(i) for i in range(60)]


def test_seating_depends_on_the_seed_and_index_only():
    a = make_plan("glimmerdeep", n_games=120, n_players=4, seed=21)
    b = make_plan("glimmerdeep", n_games=70, n_players=4, seed=21, first_index=50)
    assert [sp.seats for sp in a.specs[50:]] == [sp.seats for sp in b.specs]
    c = make_plan("glimmerdeep", n_games=120, n_players=4, seed=22)
    assert [sp.seats for sp in a.specs] != [sp.seats for sp in c.specs]


def test_an_old_run_keeps_its_rotation_when_resumed():
    old = make_plan("glimmerdeep", n_games=16, n_players=4, seed=1, seating="rotate")
    flist = sorted(old.factions) if list(old.factions) == sorted(old.factions) else list(old.factions)
    assert [s.faction for s in old.specs[1].seats] == [flist[(1 + s) % 8] for s in range(4)]


# -- issue 29 (audit N6): neighbours balanced, prefixes near balanced, old runs kept ----------------

GAMES_PLAYERS = [(g, p) for g in ("glimmerdeep", "underhaven", "underwater_cities", "cave_colony")
                 for p in (3, 4)]


@pytest.mark.parametrize("game,players", GAMES_PLAYERS)
def test_every_faction_sits_right_after_every_other_equally_often_per_cycle(game, players):
    """Audit N6: with one cyclic order per table a faction always had the same neighbours (at 4
    players and 4 factions every game had the same cyclic order).  Over one cycle of
    "balanced-2" every faction sits right after (plays before) every other equally often, and
    pairs and seats stay exactly balanced."""
    probe = make_plan(game, n_games=1, n_players=players, seed=11)
    assert probe.seating == "balanced-2"
    plan = make_plan(game, n_games=probe.design.cycle, n_players=players, seed=11)
    tables, pairs, seats = _counts(plan)
    after = Counter((t[s], t[(s + 1) % players]) for t in tables for s in range(players))
    factions = plan.factions
    ordered = [(a, b) for a in factions for b in factions if a != b]
    assert len({after[q] for q in ordered}) == 1 and after[ordered[0]] > 0, after
    assert len({pairs[q] for q in combinations(sorted(factions), 2)}) == 1
    assert len({seats[(f, s)] for f in factions for s in range(players)}) == 1
    b = balance(tables, factions)
    assert b.next_min == b.next_max == after[ordered[0]]


def test_four_factions_at_four_seats_take_every_cyclic_order():
    """At P = k = 4 the six cyclic orders of the four factions (the audit's Williams fix), in a
    cycle of 12 games whose seats are balanced too (each order twice, rotated)."""
    plan = make_plan("underhaven", n_games=12, n_players=4, seed=3)
    assert plan.design.cycle == 12

    def cyclic(t):
        i = t.index(min(t))
        return t[i:] + t[:i]
    orders = Counter(cyclic(tuple(s.faction for s in sp.seats)) for sp in plan.specs)
    assert len(orders) == 6 and set(orders.values()) == {2}


def test_a_run_stopped_inside_a_cycle_stays_near_balanced():
    """Audit N6: a default 100-game Glimmerdeep run (56-game cycles) had pairs 19-24 and faction
    games 47-54 with the cycle's tables shuffled; each cycle is now played in an order whose
    prefixes stay near balanced."""
    plan = make_plan("glimmerdeep", n_games=100, n_players=4, seed=8)
    tables, pairs, seats = _counts(plan)
    games = Counter(f for t in tables for f in t)
    assert max(pairs.values()) - min(pairs.values()) <= 2, pairs
    assert max(games.values()) - min(games.values()) <= 2, games
    old = make_plan("glimmerdeep", n_games=100, n_players=4, seed=8, seating="balanced-1")
    _, old_pairs, _ = _counts(old)
    assert max(old_pairs.values()) - min(old_pairs.values()) > 2       # what the audit saw


def test_a_balanced_1_run_keeps_its_seats():
    """A run planned before the neighbour design (config seating = "balanced-1") is re-planned,
    resumed and paired with the seats it was played with (recorded from the code of commit
    7ccf29b, the last before "balanced-2")."""
    plan = make_plan("glimmerdeep", n_games=3, n_players=4, seed=5, seating="balanced-1")
    assert [tuple(s.faction for s in sp.seats) for sp in plan.specs] == [
        ("gildtails", "gemwardens", "nightbarons", "deepdelvers"),
        ("gemwardens", "nightbarons", "deepdelvers", "gildtails"),
        ("gemwardens", "shellwrights", "deepdelvers", "forgeburrowers")]
    plan = make_plan("underhaven", n_games=3, n_players=4, seed=5, seating="balanced-1")
    assert [tuple(s.faction for s in sp.seats) for sp in plan.specs] == [
        ("deltas", "enigmas", "tectonics", "threecees"),
        ("enigmas", "tectonics", "threecees", "deltas"),
        ("threecees", "deltas", "enigmas", "tectonics")]
    with pytest.raises(Exception, match="balanced-2"):
        make_plan("underhaven", n_games=3, n_players=4, seed=5, seating="balanced-9")


def test_the_cli_offers_every_design_version_and_defaults_to_the_current_one():
    """`--seating` lists `seating.VERSIONS` (the CLI keeps its own list so that `delve --help`
    imports nothing heavy) and a plan without one gets `seating.VERSION`."""
    import click

    from delve.cli.base import seating_option
    from pipelines.run.seating import VERSION, VERSIONS

    @click.command()
    @seating_option
    def cmd(seating):
        pass
    opt = next(p for p in cmd.params if p.name == "seating")
    assert set(opt.type.choices) == set(VERSIONS) and opt.default == VERSION
    assert make_plan("underhaven", n_games=1, n_players=4, seed=1, seating=None).seating == VERSION


# The stored designs (data/seating/balanced-2.json): the search's own result, read instead of
# searched again in every `delve simulate` process.

@pytest.mark.parametrize("k,p", [(4, 3), (4, 4), (8, 3), (8, 4), (5, 4), (6, 4), (10, 4)])
def test_a_stored_design_is_the_one_the_search_finds(k, p):
    """The shipped games' 4 and 8 factions at 3 and 4 seats, and a few more: a change to the
    search that changes a design must write the file again (`python -m pipelines.run.seating
    --write`), or resumed runs would be seated otherwise than they were planned."""
    from pipelines.run.seating import neighbour_design, search_neighbour_design, stored_designs
    assert (k, p) in stored_designs()
    assert stored_designs()[(k, p)] == search_neighbour_design.__wrapped__(k, p)
    assert neighbour_design(k, p) == stored_designs()[(k, p)]


def test_every_stored_design_is_balanced_as_its_kind_says():
    """Every design of 3-10 factions at 3..k seats: tables of p distinct labels; every pair
    together and every faction in every seat equally often; where its kind says so, every
    faction right after every other equally often."""
    from pipelines.run.seating import stored_designs
    designs = stored_designs()
    assert set(designs) == {(k, p) for k in range(3, 11) for p in range(3, k + 1)}
    for (k, p), (tables, kind) in designs.items():
        assert all(len(set(t)) == p and set(t) <= set(range(k)) for t in tables), (k, p)
        pairs = Counter(q for t in tables for q in combinations(sorted(t), 2))
        assert len(pairs) == k * (k - 1) // 2 and len(set(pairs.values())) == 1, (k, p)
        seats = Counter((f, s) for t in tables for s, f in enumerate(t))
        assert len(seats) == k * p and len(set(seats.values())) == 1, (k, p, kind)
        if "right after every other equally often" in kind:
            after = Counter((t[s], t[(s + 1) % p]) for t in tables for s in range(p))
            assert len(after) == k * (k - 1) and len(set(after.values())) == 1, (k, p)
