"""Action "Use Equipment" and the anomaly tiles and cards (assumed vocabulary, RULES.md)."""

import pytest

from cc_helpers import N, S, cell, kinds, lay
from engine.games.cave_colony import cards as C


def _give(s, seat, card_id):
    k, i = s.st.cards.index[card_id]
    s.equip[seat] += (i,)
    s.eq_uses[seat] += (0,)
    s.deck[C.EQUIPMENT].remove(i)
    s.known[C.EQUIPMENT].pop()
    s.refresh_mods(seat)
    return len(s.equip[seat]) - 1


def test_use_equipment_costs_one_energy_once_a_turn_and_reveals_it(at_actions):
    """"Use Equipment" is 1 energy; assumed: each card once a turn, shown when used."""
    s = at_actions(energy=3)
    seat = s.cur
    slot = _give(s, seat, "eq_stim_pack")           # energy +2
    assert ("use", slot) in s.legal_actions()
    s.apply(("use", slot))
    assert s.energy == 4 and s.eq_up[seat] == 1
    assert ("use", slot) not in s.legal_actions()


def test_charges_limit_uses_per_worker(at_actions):
    s = at_actions(energy=3)
    seat = s.cur
    slot = _give(s, seat, "eq_spare_tank")          # oxygen +3, 1 charge
    s.oxy_supply += s.oxy[seat] - 1
    s.oxy[seat] = 1
    s.apply(("use", slot))
    assert s.oxy[seat] == 4
    s.eq_turn = 0                                    # even on a later turn
    assert ("use", slot) not in s.legal_actions()


def test_dash_in_line_of_sight_and_magnet_within_walls(at_actions):
    """Ranges on equipment: the Grappling Hook moves up to 3 tiles in line of sight, the Gem
    Magnet collects a gem up to 2 tiles away following walls."""
    s = at_actions(energy=3)
    seat = s.cur
    a = lay(s, cell(s, 2, 2), "four_way", "NESW")
    b = lay(s, cell(s, 3, 2), "straight", "EW")
    c = lay(s, cell(s, 4, 2), "curved", "WS")
    d = lay(s, cell(s, 4, 3), "four_way", "NESW")
    s.pos[seat] = a
    hook = _give(s, seat, "eq_grappling_hook")
    magnet = _give(s, seat, "eq_gem_magnet")
    dashes = {x[2] for x in kinds(s.legal_actions(), "use") if x[1] == hook}
    assert dashes == {b, c}                        # the corner ends the line of sight
    s.cgem[c * 5 + 1] = 1
    s.cgem[d * 5 + 1] = 1
    pulls = {x[2] for x in kinds(s.legal_actions(), "use") if x[1] == magnet}
    assert pulls == {c}                            # d is 3 tiles away along the walls
    s.apply(("use", magnet, c, 1))
    assert s.carry[seat * 5 + 1] == 1 and s.cgem[c * 5 + 1] == 0


def test_recall_brings_the_worker_home(at_actions):
    s = at_actions(energy=2)
    seat = s.cur
    s.pos[seat] = lay(s, cell(s, 2, 2), "four_way", "NESW")
    slot = _give(s, seat, "eq_recall_beacon")
    s.oxy_supply += s.oxy[seat] - 1
    s.oxy[seat] = 1
    s.apply(("use", slot))
    assert s.pos[seat] == s.home(seat) and s.oxy[seat] == s.max_oxygen(seat)


def test_an_anomaly_tile_draws_an_anomaly_card(at_actions):
    """Assumed: moving onto an anomaly tile (discovered or not, `anomaly.draw_on = "enter"`)
    draws the top anomaly card, resolved at once as one forced decision, then it goes to the
    bottom of the deck face up."""
    s = at_actions(energy=4)
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    lay(s, cell(s, 4, 1), "anomaly_cross", "NESW")
    s.pos[seat] = here
    air = s.st.cards.index["anom_air_pocket"][1]   # oxygen +1
    s.deck[C.ANOMALY].remove(air)
    s.deck[C.ANOMALY].append(air)
    s.oxy_supply += s.oxy[seat] - 1
    s.oxy[seat] = 1
    s.apply(("move", N))
    assert s.legal_actions() == [("anomaly", air)]
    s.apply(("anomaly", air))
    assert s.oxy[seat] == 2 and s.deck[C.ANOMALY][0] == air and s.known[C.ANOMALY][0] == 0b1111
    s.apply(("move", S))
    assert s.stack[-1][0] == "act"                 # leaving draws nothing
    s.apply(("move", N))
    assert s.stack[-1][0] == "anomaly"             # entering again draws again


def test_anomaly_effects(at_actions):
    """The effect vocabulary: gems placed, gems dropped, the end of the turn, an event-die
    roll with two outcomes."""
    from engine.games.cave_colony.anomaly import resolve
    s = at_actions(energy=4)
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[seat] = here
    eff = {c.id: c.effect for c in s.rules.anomaly_cards}
    resolve(s, seat, eff["anom_blue_seam"])
    assert s.cgem[here * 5 + 3] == 1 and s.gem_supply[3] == 9
    s.carry[seat * 5 + 4] = 2
    resolve(s, seat, eff["anom_rockslide"])
    assert s.carry[seat * 5 + 4] == 1 and s.cgem[here * 5 + 4] == 1
    outcomes = set()
    for seed in range(30):
        t = s.clone()
        t.chance().seed(seed)   # its own stream (a clone shares the original's until one draws)
        resolve(t, seat, eff["anom_echoing_cavern"])   # 3+: energy +2, else -2
        outcomes.add(t.energy)
    assert outcomes == {6, 2}
    resolve(s, seat, eff["anom_cave_in"])
    assert not s.stack and s.agenda[-1] == ("end_turn", seat)   # the turn is over
    s._advance()
    assert s.cur != seat


def test_anomaly_on_discovery_only_switch(at_actions):
    s = at_actions(energy=4, sets=("anomaly.draw_on=discover",))
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    lay(s, cell(s, 4, 1), "anomaly_cross", "NESW")
    s.pos[seat] = here
    s.apply(("move", N))
    assert s.stack[-1][0] == "act"


def test_equipment_never_changes_the_maximum_oxygen(game, tmp_path):
    """RB:109 "5 is the default unless changed by Traits or Colony Cards", RB:121 "A Worker has 5
    Maximum Oxygen unless altered by Traits or Colony Cards": no shipped equipment card changes
    it (turn-3 audit D6: the Rebreather and the Air Bladder did), a variant that tries is
    refused naming the field, and the default maximum is 5."""
    from engine.core.errors import RulesError
    rules = game.load_rules().model
    assert rules.worker.max_oxygen == 5
    assert all(e.mods.max_oxygen == 0 for e in rules.equipment)
    f = tmp_path / "v.toml"
    f.write_text('[[equipment]]\nid = "eq_rebreather"\nmods = { max_oxygen = 1 }\n')
    with pytest.raises(RulesError, match="equipment"):
        game.load_rules(variants=(str(f),))
