"""Rulebook "Trading", as the documented fixed-rate rule (RULES.md "Trading"), off by default."""

from cc_helpers import cell, kinds, lay

BLUE, GREEN = 3, 2


def _meet(s):
    seat = s.cur
    other = (seat + 1) % s.n
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[seat] = s.pos[other] = here
    s.carry[seat * 5 + BLUE] = 1
    s.carry[other * 5 + GREEN] = 1
    s.gem_supply[BLUE] -= 1
    s.gem_supply[GREEN] -= 1
    return seat, other


def test_trading_is_on_by_default_and_a_switch(at_actions):
    """RB:141 is a rule of the game: trading is on by default (turn-3 audit D5: 097fdb9 had it
    off), and `trading.enabled = false` turns it off."""
    s = at_actions()
    _meet(s)
    assert kinds(s.legal_actions(), "offer")
    s = at_actions(sets=("trading.enabled=false",))
    _meet(s)
    assert not kinds(s.legal_actions(), "offer")


def test_a_fixed_rate_offer_the_other_worker_accepts_or_declines(at_actions):
    """"you may trade Resources/Equipment with another worker who rests on the same tile": one
    gem for one gem of another colour; the other seat answers; the trade is logged."""
    s = at_actions(sets=("trading.enabled=true",))
    seat, other = _meet(s)
    offers = kinds(s.legal_actions(), "offer")
    assert ("offer", other, BLUE, GREEN) in offers
    s.apply(("offer", other, BLUE, GREEN))
    assert s.to_move() == other and s.legal_actions() == [("accept",), ("decline",)]
    s.apply(("accept",))
    assert s.carry[seat * 5 + GREEN] == 1 and s.carry[other * 5 + BLUE] == 1
    assert s.to_move() == seat
    assert ("offer", other, GREEN, BLUE) not in s.legal_actions()     # one offer a turn each
    assert s.log.m_action[-2:] == ["offer", "accept"]
    assert "give=blue get=green" in s.log.m_detail[-2]


def test_greedy_accepts_only_when_its_heuristic_gains(at_actions, game):
    from engine.games.cave_colony.bots import action_values
    s = at_actions(sets=("trading.enabled=true",))
    seat, other = _meet(s)
    still = s.st.cards.index["col_water_still"][1]    # blue
    s.card[other] = still
    s.card[seat] = s.st.cards.index["col_moss_bed"][1]  # green
    s.apply(("offer", other, BLUE, GREEN))
    acc, dec = action_values(game.observe(s, other), other, [("accept",), ("decline",)])
    assert acc > dec          # a blue it needs for a green it has spare
    s2 = at_actions(sets=("trading.enabled=true",))
    seat, other = _meet(s2)
    s2.card[other] = s2.st.cards.index["col_moss_bed"][1]   # needs the green it would give
    s2.card[seat] = still
    s2.apply(("offer", other, BLUE, GREEN))
    acc, dec = action_values(game.observe(s2, other), other, [("accept",), ("decline",)])
    assert dec > acc
