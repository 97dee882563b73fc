"""Rulebook "Trading" (RB:141), as the documented rule of fixed offers (RULES.md "Trading"), on
by default."""

from cc_helpers import cell, kinds, lay
from engine.games.cave_colony import cards as C

BLUE, GREEN = 3, 2


def _on_one_tile(s, blue, green):
    """Workers `blue` and `green` rest on one tile, carrying one gem of that colour each."""
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[blue] = s.pos[green] = here
    s.carry[blue * 5 + BLUE] = 1
    s.carry[green * 5 + GREEN] = 1
    s.gem_supply[BLUE] -= 1
    s.gem_supply[GREEN] -= 1


def _meet(s):
    """The current worker (blue) and the next one (green) on one tile."""
    seat, other = s.cur, (s.cur + 1) % s.n
    _on_one_tile(s, seat, other)
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


def test_oxygen_is_not_a_resource_to_trade_by_default(at_actions):
    """RB:141 trades "Resources/Equipment"; RB:137 sets a "Resource" apart from an "Oxygen"
    (turn-3 re-audit T1: 58% of accepted trades moved an oxygen).  `gem_for_oxygen` is a switch."""
    s = at_actions()
    seat, other = _meet(s)
    s.oxy[other] = 3
    offers = kinds(s.legal_actions(), "offer")
    assert offers and not any(5 in a[2:] for a in offers)
    s = at_actions(sets=("trading.gem_for_oxygen=true",))
    seat, other = _meet(s)
    s.oxy[seat] = 2
    assert ("offer", other, BLUE, 5) in s.legal_actions()


def test_equipment_changes_hands_for_a_gem(at_actions):
    """RB:141 "trade Resources/Equipment": the offerer's equipment card for one of the other
    worker's gems; the card changes hands face up, with its passive modifiers."""
    s = at_actions()
    seat, other = _meet(s)
    card = s.st.cards.index["eq_battery"][1]                 # energy +1 while held
    s.equip[seat], s.eq_uses[seat], s.eq_up[seat] = (card,), (0,), 0
    s.refresh_mods(seat)
    energy = C.MOD_FIELDS.index("energy")
    before = s.mods[other][energy]
    assert ("offer", other, ("eq", 0), GREEN) in s.legal_actions()
    s.apply(("offer", other, ("eq", 0), GREEN))
    assert "give=eq_battery get=green" in s.log.m_detail[-1]
    s.apply(("accept",))
    assert s.equip[seat] == () and s.equip[other][-1] == card
    assert s.eq_up[other] >> (len(s.equip[other]) - 1) & 1           # revealed
    assert s.carry[seat * 5 + GREEN] == 1 and s.carry[other * 5 + GREEN] == 0
    assert s.mods[other][energy] == before + 1 and s.mods[seat][energy] == 0
    # a gem for the other's face-up card; a face-down card is not offered for
    assert ("offer", other, BLUE, ("eq", len(s.equip[other]) - 1)) in s.legal_actions() or \
        s.offered.count(other) >= s.rules.trading.offers_per_turn


def _two_others_on_a_tile(s):
    """The two workers after the current one rest on one tile, one blue and one green gem."""
    seat = s.cur
    a, b = (seat + 1) % s.n, (seat + 2) % s.n
    _on_one_tile(s, a, b)
    return seat, a, b


def test_workers_trade_when_it_is_not_their_turn(at_actions):
    """RB:141 "even when it is not your turn": when a turn ends, two other workers resting on
    one tile may trade (a trade window, in turn order), before the dice pass on.  Turn-3
    re-audit T1: only the active worker could offer."""
    s = at_actions()
    seat, a, b = _two_others_on_a_tile(s)
    s.apply(("end",))
    assert s.stack[-1][0] == "window" and s.to_move() == a
    assert ("offer", b, BLUE, GREEN) in s.legal_actions() and ("pass",) in s.legal_actions()
    s.apply(("offer", b, BLUE, GREEN))
    assert s.to_move() == b and s.legal_actions() == [("accept",), ("decline",)]
    s.apply(("accept",))
    assert s.carry[a * 5 + GREEN] == 1 and s.carry[b * 5 + BLUE] == 1
    assert s.stack[-1][0] == "window" and s.to_move() == b    # b may offer in turn too
    s.apply(("pass",))
    assert s.cur == a                                          # then a's own turn


def test_no_window_without_off_turn_trading(at_actions):
    s = at_actions(sets=("trading.off_turn=false",))
    _two_others_on_a_tile(s)
    s.apply(("end",))
    assert s.stack[-1][0] != "window"


def test_the_trade_window_opens_however_a_turn_ends(at_actions):
    """RB:141 "At any point of time": the off-turn window opens also when an anomaly ends the
    turn (Cave-In), not only after ("end",) (final re-audit F1)."""
    s = at_actions()
    seat, a, b = _two_others_on_a_tile(s)
    s.stop_turn(seat)                     # what an anomaly that ends the turn does
    s._advance()
    assert s.stack[-1][0] == "window" and s.to_move() == a


def test_a_card_traded_mid_turn_keeps_the_turns_uses_with_their_cards(at_actions):
    """Uses "once every turn" are kept by slot; when the active worker trades a card away, the
    cards after it move down a slot and keep their use (final re-audit F2: the Energy Bar could
    be used twice in one turn)."""
    from engine.games.cave_colony.trading import _hand_over
    s = at_actions()
    seat, other = _meet(s)
    first, second = s.st.cards.index["eq_battery"][1], s.st.cards.index["eq_oxygen_tank"][1]
    s.equip[seat], s.eq_uses[seat], s.eq_up[seat] = (first, second), (1, 0), 0b10
    s.eq_turn = 0b10                      # the second card was used this turn
    _hand_over(s, seat, other, 0)         # the first changes hands, with its 1 use spent
    assert s.equip[seat] == (second,) and s.eq_turn == 0b1 and s.eq_up[seat] == 0b1
    assert s.equip[other][-1] == first and s.eq_uses[other][-1] == 1   # re-audit F3
