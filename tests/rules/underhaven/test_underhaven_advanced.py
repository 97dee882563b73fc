"""Advanced Game Options: Corp Board Locations (The Coward's Loan, Seeking new talent)."""

import pytest

from uh_helpers import explore, only, put, take, whole


@pytest.fixture
def corp_state(game, make_state):
    return make_state(rules_=game.load_rules(sets=["modules.corp_locations=true"]).model)


def _order_frame(s, seat=0):
    p = s.players[seat]
    p.slot, p.markers, p.used_slots, p.support_pending = p.hand[0], 3, (), False
    only(s, ("order", seat))
    return p


def test_cowards_loan_star_space_power_tokens_and_end_penalty(corp_state):
    """"Players can spend any of their 3 actions to take a loan ... as it is a star slot,
    roll the game cube ... Place 1 cube under the 2/3/4 space to gain the 2/3/4 Power Tokens.
    At the end of the game, players will get -6/-12/-18 reputation for each of their cubes\""""
    s = corp_state
    p = _order_frame(s)
    pt, left = p.pt, s.die_left
    assert {("loan", 0), ("loan", 1), ("loan", 2)} <= set(s.legal_actions())
    s.apply(("loan", 1))
    assert p.pt == pt + 3 and p.markers == 2 and s.die_left == left - 1 and p.loans == [1]
    from engine.games.underhaven.scoring import end_breakdown
    assert end_breakdown(s, 0)["loans"] == -12


def test_cowards_loan_repayment_costs_actions(corp_state):
    """"To repay, players need to repay the PT + spend ANY 1 action to repay the 2 PT, 2
    actions for the 3 PT & skip a turn for the 4 PT.\""""
    s = corp_state
    p = _order_frame(s)
    p.loans, p.pt = [0, 2], 10
    s.loan_cubes = [1, 0, 1]
    assert {("repay", 0), ("repay", 2)} <= set(s.legal_actions())
    s.apply(("repay", 0))
    assert p.pt == 8 and p.markers == 2 and p.loans == [2]
    assert ("repay", 2) not in s.legal_actions()        # needs the whole turn


def test_residential_upgrade_small_to_large_gains_three_workers(corp_state):
    """"Seeking new talent ... Upgrade from a small building to a large building. Gain 3
    workers & switch the small building with a large one\""""
    s = corp_state
    p = s.players[0]
    explore(s, 2, ("residential", "mine", "water", "tech"))
    put(s, 8, "small_building", 0)
    p.workers = p.workers[:3]
    only(s, ("corp", 0))
    s.apply(("space", "upgrade"))
    assert s.legal_actions() == [("upgrade", 8, "large_building")]
    s.apply(("upgrade", 8, "large_building"))
    assert s.bld[8] == "large_building" and len(p.workers) == 6 and p.workers[3:] == [8, 8, 8]


@pytest.fixture
def adv_state(game, make_state):
    return make_state(rules_=game.load_rules(sets=["modules.advanced_buildings=true"]).model)


def test_construction_molds_build_twice_for_two_money(adv_state):
    """Advanced Buildings, Construction Molds: "Build x2, -2 Money ... build 2 times, with 1
    activation\""""
    s = adv_state
    p = s.players[0]
    explore(s, 2, ("magma", "greenery", "greenery", "tech"))
    put(s, 8, "construction_molds", 0)
    p.workers[:2] = [9, 10]
    p.res, p.pt = [5, 5, 5], 1
    from engine.games.underhaven.orders import do_order
    s.stack, s.agenda = [], []
    do_order(s, p, s.st.cards[p.hand[0]].rows[0][1])      # the example card: Build
    assert [f[0] for f in s.stack] == ["build", "build"]
    s.apply(("b", "small_farm", 9))                         # paid with the second build
    assert s.stack[-1] == ("build", 0, 2, "second") and p.res == [5, 5, 5]
    s.apply(("b", "small_farm", 10))   # 2 + 2 Money + the molds' 2 = 6 > 5: one token, whole
    assert p.res == [5, 3, 3] and p.pt == 0 and s.bld[9] == s.bld[10] == "small_farm"


def test_lava_crawler_moves_between_magma_spaces(adv_state):
    """Lava Crawler: "enables players to move workers anywhere on the board between 2
    explored magma spaces, counts as 1 move action\""""
    s = adv_state
    p = s.players[0]
    explore(s, 2, ("magma", "tech", "mine", "mine"))
    explore(s, 9, ("water", "water", "magma", "water"))
    put(s, 9, "lava_crawler", 0)
    p.workers[0] = 8
    p.mv_left, p.mv_stopped, p.mv_jet = 6, (), False
    only(s, ("move", 0))
    assert ("jump", 0, 4 * 9 + 2) in whole(s)
    take(s, ("jump", 0, 4 * 9 + 2))
    p = s.players[0]                 # (listing the parts shared the record: a copy now)
    assert p.workers[0] == 38 and p.mv_left == 5
