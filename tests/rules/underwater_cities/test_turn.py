"""Rulebook "Game Play", "Cards", "Action Slots and Card Effects", "The Always-available
Slot", "The Action-cloning Tile (4 Players)", "End of Turn", "Hand Limit Summary"."""

import pytest

from engine.core.errors import IllegalAction
from engine.core.protocol import Seat
from uwc_helpers import building, claim, hand, res, settle


def _slots(s):
    return {a[1] for a in s.legal_actions() if a[0] == "slot"}


def _to_slot(s, seat, cid):
    """Seat `seat` to move, `cid` its only card, played: at the slot decision."""
    hand(s, seat, [cid])
    s.apply(("play", cid))
    assert s.stack[-1][0] == "slot"
    return s


def test_matching_colour_resolves_the_card(make_state):
    """"If the color of the card you played matches the color of the slot you chose, you
    also get to perform the card's effect" - before or after the slot."""
    s = make_state()
    _to_slot(s, 0, "e1_kelp_harvest")                # red instant: 2 kelp, 1 credit
    res(s, 0, science=1, credits=1)
    building(s, 0, "c11b1", "farm")
    s.apply(("slot", "r_science"))                   # red
    assert s.legal_actions() == [("card_first",), ("slot_first",)]
    s.apply(("card_first",))
    p = s.players[0]
    assert p.res[1] == 2 and p.res[0] == 2           # the card resolved
    assert s.stack[-1][0] == "either"                # then the slot: 2 science or upgrade


def test_mismatch_only_performs_the_slot(make_state):
    """"If the color does not match, you just take the action and discard the card with no
    effect\""""
    s = make_state()
    _to_slot(s, 0, "e1_kelp_harvest")
    inst = s.turn[1]
    res(s, 0)
    s.apply(("slot", "y_steel"))                     # yellow: 2 steelplast, 1 kelp
    p = s.players[0]
    assert p.res[:3] == [0, 1, 2]
    assert inst in s.discard
    assert s.to_move() == 1                          # the turn is over


def test_occupied_slots_are_not_available(make_state):
    """"you choose a slot that no one else has chosen this round ... This makes the slot
    occupied and not available for the rest of the round.\""""
    s = make_state(n=3)
    _to_slot(s, 0, "e1_foundry_shift")
    s.apply(("slot", "y_steel"))
    _to_slot(s, 1, "e1_kelp_harvest")
    assert "y_steel" not in _slots(s)
    assert ("clone", "y_steel") not in s.legal_actions()    # no cloning tile with 3


def test_always_available_slot(make_state):
    """"One action slot is always available, even if another player has already chosen it
    this round. It has no color ... The always-available slot allows you to gain 2 cards and
    2 credits.\""""
    s = make_state()
    _to_slot(s, 0, "e1_petty_cash")
    res(s, 0)
    s.apply(("always",))
    p = s.players[0]
    assert p.res[0] == 2 and len(p.hand) == 2 + 1    # 2 cards and the end-of-turn draw
    _to_slot(s, 1, "e1_lobbyist")
    assert ("always",) in s.legal_actions()


def test_cloning_tile_shares_a_slot_of_another_player(make_state):
    """The Action-cloning Tile: "1. Pay 1 credit. 2. Take the action-cloning tile. 3. Choose
    an action slot occupied by another player ... you cannot choose a slot that is already
    occupied by your tile ... it cannot be used again for the rest of the round.\""""
    s = make_state(n=4)
    _to_slot(s, 0, "e1_foundry_shift")
    s.apply(("slot", "y_steel"))
    _to_slot(s, 1, "e1_kelp_harvest")
    res(s, 1, credits=1)
    assert ("clone", "y_steel") in s.legal_actions()
    s.apply(("clone", "y_steel"))
    p = s.players[1]
    assert p.res[0] == 0 + 0 and p.res[2] == 2       # paid 1 credit, 2 steelplast + kelp
    assert s.cloned == 1 and s.occ[[sl.id for sl in s.st.slots].index("y_steel")] == (0, 1)
    _to_slot(s, 2, "e1_research_grant")
    res(s, 2, credits=3)
    assert not any(a[0] == "clone" for a in s.legal_actions())   # used this round


def test_cloning_tile_needs_a_credit(make_state):
    s = make_state(n=4)
    _to_slot(s, 0, "e1_foundry_shift")
    s.apply(("slot", "y_steel"))
    _to_slot(s, 1, "e1_kelp_harvest")
    res(s, 1)
    assert not any(a[0] == "clone" for a in s.legal_actions())


def test_a_slot_must_be_usable_at_least_in_part(make_state):
    """"you are not allowed to choose an action slot without using at least part of its
    effect. For example, if you do not have enough resources to build 1 tunnel, you cannot
    choose the action slot that allows you to build 2 tunnels.\""""
    s = make_state()
    _to_slot(s, 0, "e1_supply_drop")
    res(s, 0, credits=5)
    assert "r_tunnels" not in _slots(s)
    res(s, 0, credits=1, steelplast=1)
    assert "r_tunnels" in _slots(s)
    res(s, 0, credits=1, biomatter=1)                # biomatter pays the steelplast
    assert "r_tunnels" in _slots(s)


def test_a_slot_the_matching_card_pays_for_can_be_chosen(make_state):
    """RB:84 "if the color matches, then you get to resolve the card before or after
    performing the action" and RB:184 "you are not allowed to choose an action slot without
    using at least part of its effect": with 2 credits and no steelplast, a red card giving
    2 steelplast (Foundry Shift), resolved first, pays for both tunnels of the red "build 2
    tunnels" slot, so the slot may be chosen; the card then resolves first without asking
    (audit turn 3 D1; old code: the slot was not offered)."""
    s = make_state(n=3)
    _to_slot(s, 0, "e1_foundry_shift")               # red instant: +2 steelplast
    res(s, 0, credits=2)
    assert "r_tunnels" in _slots(s)
    s.apply(("slot", "r_tunnels"))
    p = s.players[0]
    assert s.stack[-1][0] == "build"                 # no order decision: card first
    assert p.res[2] == 2
    for _ in range(2):
        s.apply(next(a for a in s.legal_actions() if a[0] == "build"))
    assert p.tun.bit_count() == 2                   # both paid for by the card
    assert s.to_move() == 1


def test_only_the_matching_card_can_make_a_slot_usable(make_state):
    """RB:84 / RB:184: a mismatching card is ignored, so it cannot pay for the slot."""
    s = make_state(n=3)
    _to_slot(s, 0, "e1_supply_drop")                 # yellow: +1 credit +1 kelp
    res(s, 0, credits=2)
    assert "r_tunnels" not in _slots(s)


def test_slot_after_card_switch_off_is_the_stricter_reading(game):
    """switches.slot_after_card = false: a slot is judged on the resources before the card
    (RULES.md interpretation 9, the old reading)."""
    rules = game.load_rules(sets=["switches.slot_after_card=false"]).model
    s = game.new_game(rules, [Seat(b, "random") for b in ("embassy", "reef", "trench")], 1)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    _to_slot(s, 0, "e1_foundry_shift")
    res(s, 0, credits=2)
    assert "r_tunnels" not in _slots(s)


def test_partial_use_is_allowed(make_state):
    """"It is legal to use only part of an action or card effect.\""""
    s = make_state()
    _to_slot(s, 0, "e1_supply_drop")
    res(s, 0, credits=2, steelplast=2)
    s.apply(("slot", "r_tunnels"))
    s.apply(next(a for a in s.legal_actions() if a[0] == "build"))
    assert ("stop",) in s.legal_actions()
    s.apply(("stop",))
    assert s.to_move() == 1


def test_card_then_slot_never_interleaved(make_state):
    """Timing: "You must resolve all card effects and then all actions from an action slot
    or vice versa. Resolving these 2 sets of actions simultaneously is not allowed.\""""
    s = make_state()
    _to_slot(s, 0, "e1_rapid_transit")               # green: build 2 tunnels
    res(s, 0, credits=5, steelplast=5, kelp=2)
    s.apply(("slot", "g_farms"))                      # green: build 2 farms
    s.apply(("card_first",))
    kinds = []
    while s.to_move() == 0 and s.stack:
        a = next(a for a in s.legal_actions() if a[0] == "build")
        kinds.append(a[1])
        s.apply(a)
    assert kinds == ["tunnel", "tunnel", "farm", "farm"]


def test_draw_one_card_at_the_end_of_the_turn(make_state):
    """"At the end of your turn you always draw 1 card.\""""
    s = make_state()
    hand(s, 0, ["e1_foundry_shift", "e1_petty_cash", "e1_lobbyist"])
    s.apply(("play", "e1_foundry_shift"))
    s.apply(("slot", "y_steel"))
    assert len(s.players[0].hand) == 3


def test_discard_down_to_three_at_the_start_of_the_turn(make_state):
    """"If you have more than 3 cards, you must discard down to 3 ... Officially, this
    decision is made at the beginning of your next turn.\""""
    s = make_state(n=2)
    hand(s, 0, ["e1_supply_drop"])
    s.apply(("play", "e1_supply_drop"))
    s.apply(("always",))                             # 2 cards + 1: 3 in hand
    hand(s, 1, ["e1_supply_drop"])
    s.apply(("play", "e1_supply_drop"))
    s.apply(("always",))
    hand(s, 0, ["e1_supply_drop", "e1_petty_cash", "e1_lobbyist", "e1_quick_fix",
                "e1_kelp_plot"])
    assert len(s.players[0].hand) == 5               # more than 3 between turns is fine
    s.apply(("play", "e1_supply_drop"))
    s.apply(("always",))
    hand(s, 1, ["e1_supply_drop", "e1_petty_cash", "e1_lobbyist", "e1_quick_fix",
                "e1_kelp_plot"])
    s.apply(("play", "e1_supply_drop"))
    s.apply(("always",))
    assert s.stack[-1][0] == "discard" and s.to_move() == 0
    while s.stack[-1][0] == "discard":
        s.apply(s.legal_actions()[0])
    assert len(s.players[0].hand) == 3


def test_hand_limit_plus_one(make_state):
    """"If a card increases your hand limit by one, then you must discard down to A cards"
    (A = 4)."""
    s = make_state()
    claim(s, 0, "e1_data_center")
    assert s.hand_limit(s.players[0]) == 4


def test_illegal_actions_leave_the_state_untouched(make_state):
    s = make_state()
    before = (s.step, list(s.players[0].hand))
    with pytest.raises(IllegalAction):
        s.apply(("slot", "y_steel"))
    assert (s.step, s.players[0].hand) == before


def test_three_turns_per_player_per_round(make_state):
    """"Players continue until each has taken 3 turns.\""""
    import random
    s = make_state(n=3, seed=2)
    rng = random.Random(2)
    turns = 0
    while s.round == 1:
        t = s.turns_done
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        turns += s.turns_done - t
    assert turns == 9
    settle(s)


def test_cloning_tile_only_with_four_players_and_never_on_your_own_slot(make_state):
    """The Action-cloning Tile: "available only in a 4-player game" ... "Note that you cannot
    choose a slot that is already occupied by your tile.\""""
    s = make_state(n=3)
    _to_slot(s, 0, "e1_foundry_shift")
    s.apply(("slot", "y_steel"))
    _to_slot(s, 1, "e1_kelp_harvest")
    res(s, 1, credits=3)
    assert not any(a[0] == "clone" for a in s.legal_actions())
    f = make_state(n=4)
    i = [sl.id for sl in f.st.slots].index("y_steel")
    f.occ[i] = (0,)                                  # seat 0's own tile
    _to_slot(f, 0, "e1_foundry_shift")
    res(f, 0, credits=3)
    assert ("clone", "y_steel") not in f.legal_actions()
    f.occ[i] = (1,)
    assert ("clone", "y_steel") in f.legal_actions()


def test_any_slot_occupied_by_another_player_excludes_slots_you_share(make_state):
    """Note on card effects: "any slot occupied by another player" actually means "any
    occupied slot not occupied by you" ... "a slot occupied by you and another player does
    not count as a 'slot occupied by another player'.\""""
    from engine.games.underwater_cities.effects import slot_action_options
    from engine.games.underwater_cities.rules import Part
    s = make_state(n=4)
    i = [sl.id for sl in s.st.slots].index("y_steel")
    part = Part(kind="slot_action", slots="free_or_others")
    s.occ[i] = (1,)
    assert i in slot_action_options(s, s.players[0], part)
    s.occ[i] = (1, 0)
    assert i not in slot_action_options(s, s.players[0], part)


def test_end_of_the_era_draw_three_keep_the_hand_limit(make_state):
    """End of the Era: "Remove the old era's deck and discard pile from the game. Players
    keep any cards from that era ... Each player draws 3 cards from the new era ... From this
    hand of 6 or more cards, choose 3 to keep and discard the rest. (Discarded cards from the
    new era go to the discard pile. Discarded cards from the previous era should be returned
    to that era's deck)"; Hand Limit Summary: with the card that raises it, "discard down to
    A cards ... at the beginning of each era" (A = 4)."""
    from engine.games.underwater_cities.turn import _t_era_end
    s = make_state(n=2)
    claim(s, 1, "e1_data_center")                    # hand limit 4 for seat 1
    for seat in (0, 1):
        hand(s, seat, ["e1_supply_drop", "e1_petty_cash", "e1_lobbyist"])
    old_deck = list(s.decks[1])
    s.stack, s.agenda = [], []
    _t_era_end(s, ("era_end",))
    assert s.era == 2 and s.decks[1] == [] and set(old_deck) <= set(s.box_hidden)
    assert s.discard == []
    for p in s.players:
        assert len(p.hand) == 6 and sum(s.st.era_of[i] == 2 for i in p.hand) == 3
    settle(s)
    assert s.stack[-1][0] == "discard"
    ids = s.st.card_id
    while s.stack and s.stack[-1][0] == "discard":
        p = s.players[s.stack[-1][1]]
        old = [i for i in p.hand if s.st.era_of[i] == 1]
        new = [i for i in p.hand if s.st.era_of[i] == 2]
        pick = new[0] if p.seat == 0 else old[0]     # seat 0 new-era cards, seat 1 old
        s.apply(("discard", ids[pick]))
        assert pick in (s.box_known if s.st.era_of[pick] == 1 else s.discard)
    assert len(s.players[0].hand) == 3 and len(s.players[1].hand) == 4


def _gain_units(effect):
    """What a slot of plain gains gives, in resource units: a resource, card or point is 1,
    a Federation step 1/2 (from below the track two steps pay space 4, nothing, and space 3,
    1 credit); None for a slot that does anything but gain."""
    if any(p.kind != "gain" or p.per is not None or p.when is not None for p in effect):
        return None
    return sum(sum(p.gain.vec()) + p.gain.cards + p.gain.points + p.gain.federation / 2
               for p in effect)


@pytest.mark.parametrize("side", ["three_four", "two"])
def test_yellow_slots_strongest_green_weakest(rules, side):
    """RB:88-90 "Green cards are the strongest, but ... green action slots ... are the
    weakest ... Yellow cards are the weakest, but the yellow action slots are the
    strongest": among the slots that only gain, every yellow one gives more than every
    green one, and "advance 2 on Federation" is not yellow (audit turn 3 D6: green "1
    science, 1 steelplast, 1 kelp" gave as much as yellow "2 steelplast, 1 kelp", and yellow
    "advance 2 on Federation" less than any green slot)."""
    slots = rules.sides[side].slots
    units = {c: [u for sl in slots if sl.colour == c and (u := _gain_units(sl.effect))]
             for c in ("green", "red", "yellow")}
    assert units["green"] and units["yellow"]
    assert max(units["green"]) < min(units["yellow"])
    fed2 = [sl.colour for sl in slots
            if [p.gain.federation for p in sl.effect if p.kind == "gain"] == [2]]
    assert fed2 == ["green"]


def test_a_slot_the_mismatch_trigger_pays_for_can_be_chosen(make_state):
    """RB:184 "you are not allowed to choose an action slot without using at least part of
    its effect" and RB:413 triggered effects "are resolved immediately": Black Market
    Contacts gives +1 steelplast when the card mismatches its slot (facts sheet section 7),
    paid when the slot is chosen, before the slot resolves.  With 1 credit and no
    steelplast, a green card on the red "build 2 tunnels" slot: the trigger's steelplast
    and the credit pay for one tunnel, so the slot may be chosen (re-audit N1; old code:
    not offered)."""
    s = make_state(n=3)
    claim(s, 0, "e1_black_market_contacts")
    _to_slot(s, 0, "e1_field_trial")                 # green instant
    res(s, 0, credits=1)
    assert "r_tunnels" in _slots(s)
    assert s.players[0].res == [1, 0, 0, 0, 0]       # the probe left the state untouched
    s.apply(("slot", "r_tunnels"))
    p = s.players[0]
    assert p.res[2] == 1                             # the trigger paid before the slot
    s.apply(next(a for a in s.legal_actions() if a[0] == "build"))
    assert p.tun.bit_count() == 1
    assert s.to_move() == 1                          # nothing left to pay the 2nd tunnel


def test_without_the_trigger_that_slot_is_not_offered(make_state, game):
    """The same position without Black Market Contacts, and with it under
    switches.slot_after_card = false (judged on the resources before the card and its
    triggers, RULES.md interpretation 9): "build 2 tunnels" is not offered."""
    s = make_state(n=3)
    _to_slot(s, 0, "e1_field_trial")
    res(s, 0, credits=1)
    assert "r_tunnels" not in _slots(s)
    rules = game.load_rules(sets=["switches.slot_after_card=false"]).model
    s = make_state(n=3, rules_=rules)
    claim(s, 0, "e1_black_market_contacts")
    _to_slot(s, 0, "e1_field_trial")
    res(s, 0, credits=1)
    assert "r_tunnels" not in _slots(s)
