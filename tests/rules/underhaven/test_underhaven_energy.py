"""Advanced Game Options: Energy and the advanced buildings that pay and produce it.  Audit
items N1, N2."""

import pytest

from engine.games.underhaven.orders import do_order

from uh_helpers import explore, only, put, take, whole


@pytest.fixture
def energy_state(game, make_state):
    return make_state(rules_=game.load_rules(
        sets=["modules.advanced_buildings=true", "modules.energy=true"]).model)


def _molds(s, energy):
    p = s.players[0]
    explore(s, 2, ("magma", "greenery", "greenery", "tech"))
    put(s, 8, "construction_molds", 0)
    p.workers[:2] = [9, 10]
    p.res, p.pt, p.energy = [5, 5, 5], 3, energy
    s.stack, s.agenda = [], []
    build = next(o for row in s.st.cards[p.hand[0]].rows for o in row if o.kind == "build")
    do_order(s, p, build)
    return p


def test_construction_molds_pay_one_energy_and_give_two(energy_state):
    """N1. Energy: "Example: a building costs 1 Energy to activate, you can only Build x 2 if
    you have Energy. Upon activation, you also gain 2 Energy, so you will have 1 in surplus.\""""
    s = energy_state
    p = _molds(s, energy=1)
    assert [f[0] for f in s.stack] == ["build", "build"] and p.energy == 2


def test_construction_molds_without_energy_build_once(energy_state):
    """N1. "Some buildings require energy to be activated; no energy means no activation":
    without energy the Build order is a single build."""
    s = energy_state
    p = _molds(s, energy=0)
    assert s.stack == [("build", 0)] and p.energy == 0


def test_lava_crawler_needs_energy(energy_state):
    """N1. The Lava Crawler's crawl (an energy-operated building here, assumed) needs 1 energy,
    paid once in a Move."""
    s = energy_state
    p = s.players[0]
    explore(s, 2, ("magma", "tech", "mine", "mine"))
    explore(s, 9, ("water", "water", "magma", "water"))
    put(s, 9, "lava_crawler", 0)
    p.workers[0] = 8
    p.mv_left, p.mv_stopped, p.mv_jet, p.mv_crawl, p.energy = 6, (), False, False, 0
    only(s, ("move", 0))
    assert ("jump", 0, 38) not in whole(s)
    s.players[0].energy = 1
    take(s, ("jump", 0, 38))
    p = s.players[0]                 # (listing the parts shared the record: a copy now)
    assert p.energy == 0 and p.workers[0] == 38
    assert ("jump", 0, 8) in whole(s)        # paid for this Move already


def test_energy_traded_for_power_tokens(energy_state):
    """N2. The Resources: "Energy (advanced): ... Can be traded in for PT" (1 energy for 1 PT,
    assumed rate)."""
    s = energy_state
    p = s.players[0]
    p.energy, pt = 2, p.pt
    only(s, ("trade", 0, 1))
    s.apply(("space", "energy_for_pt"))
    assert p.energy == 1 and p.pt == pt + 1
