"""Rulebook "Fighting"."""

import random

import pytest

from cc_helpers import cell, kinds, lay
from engine.games.cave_colony import cards as C


def _meet(s):
    """The current worker and the next seat's worker on one tile."""
    seat = s.cur
    other = (seat + 1) % s.n
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[seat] = s.pos[other] = here
    return seat, other, here


def _rolls(s, attacker, defender):
    """The two event-die rolls the state's chance stream will give next."""
    rng = random.Random()
    rng.setstate(s.rng.getstate())
    faces = s.st.event_faces
    return faces[rng.randrange(len(faces))], faces[rng.randrange(len(faces))]


def test_fight_on_a_shared_tile_with_energy_added_to_the_attack(at_actions):
    """"a Worker on their turn must be standing on a tile another Worker is on. They may spend
    any amount of Energy (0 to Total Energy available) to Fight that Worker. The amount of
    energy spent is ADDED to the roll Value of the attacker"."""
    s = at_actions(energy=3)
    seat, other, here = _meet(s)
    assert ("fight", other) in s.legal_actions()
    s.apply(("fight", other))
    assert s.legal_actions() == [("attack", k) for k in range(4)]
    a, d = _rolls(s, seat, other)
    s.apply(("attack", 2))
    assert s.energy == 1
    frame = s.stack[-1]
    assert frame[0] == "steal" and frame[3] == a + 2 and frame[4] == d
    assert frame[1] == (seat if a + 2 > d else other)


def test_ties_go_to_the_defender(at_actions):
    """"In the event of a tie, the Defender wins"."""
    for seed in range(40):
        s = at_actions(energy=0, seed=seed % 5 + 1)
        s.rng.seed(seed)
        seat, other, _ = _meet(s)
        a, d = _rolls(s, seat, other)
        if a != d:
            continue
        s.apply(("fight", other))
        s.apply(("attack", 0))
        assert s.stack[-1][1] == other               # the defender chooses what to steal
        return
    raise AssertionError("no tie in 40 seeds")


def test_the_winner_steals_one_resource_or_one_oxygen(at_actions):
    """"the Winner gets to steal 1 Resource or 1 Oxygen from the Loser"."""
    s = at_actions(energy=6)
    seat, other, _ = _meet(s)
    s.carry[other * 5 + 4] = 2
    s.gem_supply[4] -= 2
    s.mods[seat] = tuple(9 if i == C.ATTACK else 0 for i in range(len(C.MOD_FIELDS)))
    s.apply(("fight", other))
    s.apply(("attack", 0))                           # +9: the attacker wins
    assert s.stack[-1][1] == seat
    assert set(s.legal_actions()) == {("steal", 4), ("steal", "oxygen")}
    s.apply(("steal", 4))
    assert s.carry[seat * 5 + 4] == 1 and s.carry[other * 5 + 4] == 1
    assert s.stack[-1][0] == "act"


def test_each_worker_only_once_per_turn(at_actions):
    """"You can only fight each Worker once per turn"."""
    s = at_actions(energy=3)
    seat, other, _ = _meet(s)
    s.apply(("fight", other))
    s.apply(("attack", 0))
    s.apply(s.legal_actions()[0])
    assert ("fight", other) not in s.legal_actions()
    third = (seat + 2) % s.n
    s.pos[third] = s.pos[seat]
    assert ("fight", third) in s.legal_actions()


def test_steal_nothing_when_the_loser_has_nothing(at_actions):
    s = at_actions(energy=0)
    seat, other, _ = _meet(s)
    s.oxy_supply += s.oxy[other]
    s.oxy[other] = 0
    s.mods[seat] = tuple(9 if i == C.ATTACK else 0 for i in range(len(C.MOD_FIELDS)))
    s.apply(("fight", other))
    s.apply(("attack", 0))
    assert s.legal_actions() == [("steal", "nothing")]


@pytest.mark.parametrize("sets, at_attack, after_steal", [
    ((), 0, 1),                                        # "one" (default): the single oxygen
    (("fights.loss.oxygen=steal",), 0, 0),
    (("fights.loss.oxygen=extra",), 1, 1),
])
def test_the_fight_costs_the_loser_one_oxygen(at_actions, sets, at_attack, after_steal):
    """RB:137: "A Fight is an altercation between two workers and results in the loss of a
    single Oxygen" beside "the Winner gets to steal 1 Resource or 1 Oxygen from the Loser".
    Default reading "one" (turn-3 audit D4: on 097fdb9 a fight whose winner took a gem cost the
    loser no oxygen): the winner takes a gem, and the loser's oxygen goes to the supply."""
    s = at_actions(energy=0, sets=sets)
    seat, other, _ = _meet(s)
    s.carry[other * 5 + 2] = 1
    s.gem_supply[2] -= 1
    s.mods[seat] = tuple(9 if i == C.ATTACK else 0 for i in range(len(C.MOD_FIELDS)))
    before, supply = s.oxy[other], s.oxy_supply
    s.apply(("fight", other))
    s.apply(("attack", 0))                       # +9: the attacker wins
    assert s.oxy[other] == before - at_attack and s.oxy_supply == supply + at_attack
    s.apply(("steal", 2))                        # the winner takes the gem, not the oxygen
    assert s.carry[seat * 5 + 2] == 1
    assert s.oxy[other] == before - after_steal and s.oxy_supply == supply + after_steal
    assert s.oxy_supply + sum(s.colony_oxy) + sum(s.oxy) == s.rules.supply.oxygen


@pytest.mark.parametrize("old, reading", [(True, "extra"), (False, "steal")])
def test_a_variant_file_with_the_older_switch_still_loads(game, tmp_path, old, reading):
    f = tmp_path / "old.toml"
    f.write_text(f"[fights.loss]\nloser_loses_oxygen = {str(old).lower()}\n")
    assert game.load_rules(variants=(str(f),)).model.fights.loss.oxygen == reading


def test_a_stolen_oxygen_is_the_single_loss(at_actions):
    """RB:137 under the default reading: when the winner steals the oxygen, that is the loss;
    the loser loses one oxygen, not two."""
    s = at_actions(energy=0)
    seat, other, _ = _meet(s)
    s.mods[seat] = tuple(9 if i == C.ATTACK else 0 for i in range(len(C.MOD_FIELDS)))
    s.oxy[seat] = 2
    before = s.oxy[other]
    s.apply(("fight", other))
    s.apply(("attack", 0))
    s.apply(("steal", "oxygen"))
    assert s.oxy[other] == before - 1 and s.oxy[seat] == 3
