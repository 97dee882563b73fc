"""The effect vocabulary (rules.Part) as mechanisms: rulebook "Action Slots and Card
Effects", "Timing", "Using Action Cards", "Upgrading Structures" (the symbiosis card) and
the card notes (trade, pick different resources, perform a slot's action, refresh)."""

import json

from engine.games.underwater_cities.effects import push_effect
from engine.games.underwater_cities.rules import Part
from uwc_helpers import building, city, claim, only, res, settle, site, tunnel


def _effect(s, seat, parts, src="card"):
    s.stack = []
    s.agenda = []
    push_effect(s, seat, tuple(Part.model_validate_json(json.dumps(p)) for p in parts), src)
    settle(s)
    return s


def test_gains_are_taken_at_once_and_parts_in_any_order(make_state):
    """Timing: "The parts of an effect can be resolved in any order."  Plain gains need no
    decision; two other usable parts are a choice of which comes first."""
    s = make_state()
    res(s, 0, credits=1, steelplast=1)
    _effect(s, 0, [{"kind": "build", "what": "tunnel"},
                   {"kind": "gain", "gain": {"kelp": 2}},
                   {"kind": "build", "what": "farm"}])
    assert s.players[0].res == [1, 2, 1, 0, 0]
    assert s.legal_actions() == [("part", 0), ("part", 1)]
    s.apply(("part", 1))                               # the farm first
    assert s.stack[-1][0] == "build" and s.stack[-1][2].what == "farm"


def test_conditional_gain_on_the_network(make_state):
    """A conditional effect "only applies if you have certain buildings" (connected)."""
    s = make_state()
    res(s, 0)
    part = {"kind": "gain", "gain": {"credits": 3}, "when": {"of": "farms", "at_least": 2}}
    _effect(s, 0, [part])
    assert s.players[0].res[0] == 0
    building(s, 0, "c11b1", "farm")
    building(s, 0, "c11b2", "farm")
    _effect(s, 0, [part])
    assert s.players[0].res[0] == 3


def test_gain_per_count_with_a_cap(make_state):
    s = make_state()
    res(s, 0)
    for t in ("t8", "t15", "t7", "t14", "t5"):
        tunnel(s, 0, t)
    _effect(s, 0, [{"kind": "gain", "gain": {"credits": 1}, "per": {"of": "tunnels", "n": 2},
                    "max": 2}])
    assert s.players[0].res[0] == 2


def test_trade_pay_to_gain_up_to_its_count(make_state):
    """"pay X to get Y, once unless stated\""""
    s = make_state()
    res(s, 0, credits=5)
    _effect(s, 0, [{"kind": "trade", "cost": {"credits": 2}, "gain": {"biomatter": 1},
                    "count": 2}])
    assert s.legal_actions() == [("trade",), ("stop",)]
    s.apply(("trade",))
    s.apply(("trade",))
    assert s.players[0].res == [1, 0, 0, 0, 2] and s.stack == []


def test_pick_different_resources(make_state):
    """Slot: "Use 1 action card and gain 2 resources of different types.\""""
    s = make_state()
    res(s, 0)
    _effect(s, 0, [{"kind": "pick", "count": 2,
                    "gains": [{"credits": 1}, {"kelp": 1}, {"biomatter": 1}]}])
    s.apply(("pick", 2))
    assert ("pick", 2) not in s.legal_actions()
    s.apply(("pick", 0))
    assert s.players[0].res == [1, 0, 0, 0, 1]


def test_pick_may_stop_short(make_state):
    """RB:182 "It is legal to use only part of an action or card effect": of "2 resources
    of different types" one may be taken (audit turn 3 D4; old code: no stop)."""
    s = make_state()
    res(s, 0)
    _effect(s, 0, [{"kind": "pick", "count": 2,
                    "gains": [{"credits": 1}, {"kelp": 1}, {"biomatter": 1}]}])
    assert ("stop",) in s.legal_actions()
    s.apply(("pick", 1))
    s.apply(("stop",))
    assert s.players[0].res == [0, 1, 0, 0, 0] and s.stack == []


def test_refresh_a_used_action_card(make_state):
    """"There are a few instant-effect cards which allow you to make an used action card
    available again.\""""
    s = make_state()
    inst = claim(s, 0, "e1_steel_press")
    s.players[0].used = frozenset({inst})
    _effect(s, 0, [{"kind": "refresh"}])
    s.apply(("refresh", "e1_steel_press"))
    assert not s.players[0].used


def test_perform_the_action_of_a_slot(make_state):
    """Special cards "use the action depicted at an action slot ... only the colored slots":
    a free slot, or (the other reading) one held only by other players."""
    s = make_state()
    s.occ[[sl.id for sl in s.st.slots].index("y_steel")] = (1,)
    res(s, 0, credits=1)
    _effect(s, 0, [{"kind": "slot_action", "slots": "free", "cost": {"credits": 1}}])
    opts = {a[1] for a in s.legal_actions() if a[0] == "slot"}
    assert "y_steel" not in opts and "y_supplies" in opts and "always" not in opts
    t = make_state()
    t.occ[[sl.id for sl in t.st.slots].index("y_steel")] = (1,)
    res(t, 0, credits=1)
    _effect(t, 0, [{"kind": "slot_action", "slots": "free_or_others", "cost": {"credits": 1}}])
    t.apply(("slot", "y_steel"))
    assert t.players[0].res == [0, 1, 2, 0, 0]
    assert t.occ[[sl.id for sl in t.st.slots].index("y_steel")] == (1,)   # no tile placed


def test_symbiosis_turns_a_city_symbiotic(make_state):
    """"There is a card that will let you turn a nonsymbiotic city into a symbiotic city.\""""
    s = make_state()
    res(s, 0, biomatter=1)
    before = list(s.supply)
    _effect(s, 0, [{"kind": "symbiosis", "cost": {"biomatter": 1}}])
    s.apply(("convert", site(s, "c11")))
    p = s.players[0]
    assert p.smask >> site(s, "c11") & 1 and p.res[4] == 0
    assert s.supply[1:] == [before[1] + 1, before[2] - 1]


def test_produce_one_structure_once(make_state):
    s = make_state()
    res(s, 0)
    building(s, 0, "c11b1", "lab", up=True)
    building(s, 0, "c10b1", "lab")                     # not connected: not offered
    city(s, 0, "c10")
    _effect(s, 0, [{"kind": "produce", "what": "building"}])
    assert [a for a in s.legal_actions() if a[0] == "produce"] == \
        [("produce", "lab", site(s, "c11b1"))]
    s.apply(("produce", "lab", site(s, "c11b1")))
    assert s.players[0].res == [0, 0, 1, 1, 0]


def test_either_offers_only_usable_options(make_state):
    s = make_state()
    res(s, 0)
    _effect(s, 0, [{"kind": "either", "options": [
        [{"kind": "build", "what": "tunnel"}], [{"kind": "gain", "gain": {"kelp": 1}}]]}])
    assert s.stack == [] and s.players[0].res[1] == 1   # the only usable option ran


def test_use_an_action_card_from_a_card(make_state):
    """"If you play this instant-effect card on a green slot, you may use one of your action
    cards\""""
    s = make_state()
    res(s, 0)
    claim(s, 0, "e1_kelp_tender")
    _effect(s, 0, [{"kind": "action_card"}])
    s.apply(("use", "e1_kelp_tender"))
    assert s.players[0].res[1] == 2
    only(s, ("use_action", 0, 1, "card"))
    assert ("use", "e1_kelp_tender") not in s.legal_actions()
