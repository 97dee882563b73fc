"""Rulebook "Turn Order" steps 2-3, "Actions" and "Energy": actions up to the roll of the
Energy Die plus the worker's extra energy; every action 1 energy unless a trait changes it;
out of energy, nothing that costs energy."""

from cc_helpers import N, cell, kinds, lay, plain_worker
from engine.games.cave_colony import cards as C


def _mods(s, seat, **kw):
    m = list(s.mods[seat])
    for k, v in kw.items():
        m[C.MOD_FIELDS.index(k)] = v
    s.mods[seat] = tuple(m)


def test_energy_is_the_roll_plus_energy_crystals(make_state, next_turn, game):
    """"perform actions up to the amount rolled on the Energy Die plus any extra Energy
    available to your worker": with 2 energy crystals the turn starts with roll + 2."""
    s = make_state()
    seat = s.stack[-1][1]
    plain_worker(s, seat)
    s.ecrys[seat] = 2
    s.ecrys_supply -= 2
    next_turn(s, seat)
    assert s.energy == s.last_roll + 2
    assert s.last_roll in s.rules.dice.energy


def test_a_negative_energy_trait_lowers_the_roll(make_state, next_turn):
    s = make_state()
    seat = s.stack[-1][1]
    plain_worker(s, seat)
    _mods(s, seat, energy=-1)
    next_turn(s, seat)
    assert s.energy == max(0, s.last_roll - 1)


def test_each_action_costs_one_energy_until_none_is_left(at_actions):
    """"Every bullet below is something that requires 1 Energy to do" and "Once a Worker is
    out of Energy, they can no longer do anything that turn that requires Energy"."""
    s = at_actions(energy=2)
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    lay(s, cell(s, 4, 1), "four_way", "NESW")
    s.pos[seat] = here
    s.cgem[here * 5 + 1] = 2
    s.gem_supply[1] -= 2
    s.apply(("collect", 1))
    assert s.energy == 1
    s.apply(("move", N))
    assert s.energy == 0
    left = s.legal_actions()
    assert not kinds(left, "move") and not kinds(left, "collect") and ("end",) in left


def test_a_trait_changes_an_action_cost(at_actions):
    """"collect that Gem at the cost of 1 Energy (this cost can be changed by Traits)"."""
    s = at_actions(energy=1)
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[seat] = here
    s.cgem[here * 5 + 2] = 3
    _mods(s, seat, collect_cost=-1)
    s.apply(("collect", 2))
    s.apply(("collect", 2))
    assert s.energy == 1 and s.carry[seat * 5 + 2] == 2
    _mods(s, seat, collect_cost=1, move_cost=-1)
    assert not kinds(s.legal_actions(), "collect")       # costs 2 now
    assert s.cost(seat, C.MOVE_COST) == 1                # a move never costs less than 1


def test_movement_crystals_are_free_moves(make_state, next_turn):
    """"Collect Movement (gold crystal) if you have any boosts to your Movement" (assumed: a
    free move each turn per crystal)."""
    s = make_state()
    seat = s.stack[-1][1]
    plain_worker(s, seat)
    s.mcrys[seat] = 1
    s.mcrys_supply -= 1
    next_turn(s, seat)
    e = s.energy
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    lay(s, cell(s, 4, 1), "four_way", "NESW")
    s.pos[seat] = here
    s.apply(("move", N))
    assert s.energy == e and s.free == 0
    s.apply(("move", 2))
    assert s.energy == e - 1


def test_once_boosts_spend_each_crystal_once(make_state, next_turn):
    """Switch `crystals.boosts = "once"`: a crystal is one energy, spent when the roll is used
    up, then back in the supply."""
    s = make_state(sets=("crystals.boosts=once",))
    seat = s.stack[-1][1]
    plain_worker(s, seat)
    s.ecrys[seat] = 1
    s.ecrys_supply -= 1
    next_turn(s, seat)
    s.energy = 0
    assert s.available() == 1
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    lay(s, cell(s, 4, 1), "four_way", "NESW")
    s.pos[seat] = here
    supply = s.ecrys_supply
    s.apply(("move", N))
    assert s.ecrys[seat] == 0 and s.ecrys_supply == supply + 1 and s.available() == 0


def test_the_action_guard_ends_endless_turns(at_actions):
    """Assumed guard `game.max_actions_per_turn`: after that many actions only ("end",)."""
    s = at_actions(energy=0)
    s.actions = s.rules.game.max_actions_per_turn
    assert s.legal_actions() == [("end",)]


def test_worked_example_rolled_five_moved_one_tile(make_state, next_turn):
    """Rulebook "Energy", the note: "For example if you rolled a 5 and you moved one tile, you
    would turn the die to show 4 face up instead of 5 to signify that you have spent that 1
    energy"."""
    for seed in range(1, 40):
        s = make_state(seed=seed)
        seat = s.stack[-1][1]
        plain_worker(s, seat)
        next_turn(s, seat)
        if s.last_roll != 5:
            continue
        assert s.energy == 5
        s.pos[seat] = lay(s, cell(s, 4, 2), "four_way", "NESW")
        lay(s, cell(s, 4, 1), "four_way", "NESW")
        s.apply(("move", N))
        assert s.energy == 4
        return
    raise AssertionError("no roll of 5 in 39 seeds")
