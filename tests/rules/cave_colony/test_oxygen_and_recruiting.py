"""Rulebook "Oxygen", "Dying" and "Recruiting a Worker"."""

from cc_helpers import cell, lay, plain_worker
from engine.games.cave_colony import cards as C


def _to_turn_of(s, seat):
    while not (s.stack and s.stack[-1][1] == seat and s.stack[-1][0] in ("act", "die")):
        s.apply(("end",) if ("end",) in s.legal_actions() else s.legal_actions()[0])


def test_one_oxygen_is_spent_onto_the_colony_tile_each_turn(at_actions):
    """"1. Spend 1 Oxygen by placing it on your Colony Tile"."""
    s = at_actions()
    seat = s.cur
    nxt = (seat + 1) % s.n
    s.pos[nxt] = lay(s, cell(s, 4, 2), "four_way", "NESW")   # away from its colony
    oxy, stock = s.oxy[nxt], s.colony_oxy[nxt]
    _to_turn_of(s, nxt)
    assert s.oxy[nxt] == oxy - 1 and s.colony_oxy[nxt] == stock + 1


def test_the_colony_restores_oxygen(at_actions):
    """"Colony: ... This is a place where the Worker can gain all Oxygen back"."""
    s = at_actions(energy=2)
    seat = s.cur
    home = s.home(seat)
    out = s.st.zone.nbr[home][0] if s.st.zone.xy[home][1] == 4 else s.st.zone.nbr[home][2]
    d = 0 if s.st.zone.xy[home][1] == 4 else 2
    lay(s, out, "four_way", "NESW")
    s.pos[seat] = out
    s.oxy_supply += s.oxy[seat] - 1
    s.oxy[seat] = 1
    s.apply(("move", 2 - d))
    assert s.pos[seat] == home and s.oxy[seat] == s.max_oxygen(seat)


def test_a_worker_without_oxygen_dies(at_actions):
    """"If a Worker starts their turn with no Oxygen to spend, they are considered dead. If
    the Worker had collected any Resources, place the Resources on the tile the Worker died on.
    Move the Worker Piece back to the Colony and discard all Traits and Equipment. Then go
    through the process of Recruiting a new Worker. After Recruiting, your turn is over"."""
    s = at_actions(plain=False)
    seat = s.cur
    nxt = (seat + 1) % s.n
    where = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[nxt] = where
    s.oxy_supply += s.oxy[nxt]
    s.oxy[nxt] = 0
    s.carry[nxt * 5 + 2] = 2
    s.gem_supply[2] -= 2
    old = (s.traits[nxt], s.equip[nxt])
    assert old[0] and old[1]
    _to_turn_of(s, nxt)
    assert s.stack[-1] == ("die", nxt) and s.legal_actions() == [("die",)]
    assert s.describe(("die",))[2] == where            # logged on the cell of death
    s.apply(("die",))
    assert s.cgem[where * 5 + 2] == 2 and not any(s.carry[nxt * 5: nxt * 5 + 5])
    assert s.pos[nxt] == s.home(nxt) and not s.alive[nxt]
    for kind, card in old[0]:
        assert card in s.deck[kind][:3]               # discarded to the bottom, face up
    assert s.known[C.EQUIPMENT][0] == 0b1111
    # the recruit: traits, equipment, then the turn is over
    while s.stack and s.stack[-1][1] == nxt:
        s.apply(s.legal_actions()[0])
    assert s.alive[nxt] and s.oxy[nxt] == s.max_oxygen(nxt)
    assert s.cur != nxt
    assert [k for k, _ in s.traits[nxt]] == [C.POSITIVE, C.NEGATIVE]
    assert len(s.equip[nxt]) == 1
    held = s.held_cards[nxt]
    assert len(held) == len(set(held)) >= 4 and held[0][0] == "positive_trait"


def test_traits_kept_unseen(make_state):
    """"Draw 2 Traits from the top of the deck and place them face down in front of you without
    looking at them; Look at one of the cards; Choose whether you want to keep the card you
    looked at or the one that you didn't, placing your choice face up in front of you; Place
    the other at the bottom of the deck"."""
    s = make_state()
    seat = s.stack[-1][1]
    s.alive[seat] = False
    plain_worker(s, seat)
    s.then(("recruit", seat))
    s.stack.clear()
    s._advance()
    frame = s.stack[-1]
    assert frame[0] == "trait_pick" and frame[2] == C.POSITIVE
    assert s.legal_actions() == [("trait", "seen"), ("trait", "unseen")]
    seen, unseen = frame[3], frame[4]
    s.apply(("trait", "unseen"))
    assert s.traits[seat] == ((C.POSITIVE, unseen),)
    assert s.deck[C.POSITIVE][0] == seen and s.known[C.POSITIVE][0] == 1 << seat
    frame = s.stack[-1]
    assert frame[2] == C.NEGATIVE
    s.apply(("trait", "seen"))
    assert s.deck[C.NEGATIVE][0] == frame[4] and s.known[C.NEGATIVE][0] == 0   # nobody saw it


def test_recruit_equipment_two_keep_one_and_crystals_for_boosts(first_turn):
    """"Draw two Equipment Cards and look at them. Pick one and place it face down ... Collect
    Oxygen ... equal to the max ... Collect Energy (silver crystal) if you have any boosts to
    your Energy; Collect Movement (gold crystal) if you have any boosts to your Movement"
    (RB:107-113), in the first turn, after the colony card (RB:73-75)."""
    s = first_turn()
    seat = s.first_seat
    s.apply(s.legal_actions()[0])                           # keep a colony card
    assert s.stack[-1][0] == "trait_pick" and not s.alive[seat]
    dynamo = s.st.cards.index["pos_dynamo"][1]              # energy +2
    s.stack[-1] = s.stack[-1][:3] + (dynamo, s.stack[-1][4])
    s.deck[C.POSITIVE].remove(dynamo)
    s.apply(("trait", "seen"))
    s.apply(("trait", "seen"))
    frame = s.stack[-1]
    assert frame[0] == "equip_pick" and len(frame[2]) == 2
    keep, other = frame[2]
    s.apply(("equip", keep))
    assert s.equip[seat] == (keep,) and s.deck[C.EQUIPMENT][0] == other
    assert s.alive[seat] and s.oxy[seat] == s.max_oxygen(seat)
    assert s.ecrys[seat] == max(0, s.mods[seat][C.ENERGY]) >= 1


def test_the_recruit_needs_more_traits_with_a_colony_reward(make_state):
    """"Do this for each Trait that your Worker Requires (At least 1 Positive and 1 Negative)":
    a completed Academy (reward positive_traits +1) makes recruits take two positive traits."""
    s = make_state()
    seat = s.stack[-1][1]
    s.alive[seat] = False
    plain_worker(s, seat)
    academy = s.st.cards.index["col_academy"][1]
    s.colony_mods[seat] = s.st.cards.colony_reward[academy]
    s.then(("recruit", seat))
    s.stack.clear()
    s._advance()
    kinds = []
    while s.stack and s.stack[-1][0] == "trait_pick":
        kinds.append(s.stack[-1][2])
        s.apply(("trait", "seen"))
    assert kinds == [C.POSITIVE, C.POSITIVE, C.NEGATIVE]


def test_the_first_turn_draws_the_colony_card_then_recruits_and_ends(first_turn):
    """RB:41-51 recruits nobody at setup; the turn (RB:73-75): "If you do not have a Colony Card
    ... draw 2 ... Pick one card to keep", then "If you do not have an Active Worker, you must
    Recruit a Worker. Recruiting a Worker takes up a whole turn" (turn-3 audit D7: 097fdb9
    recruited every first worker at setup, before any colony card).  Played as a whole round."""
    s = first_turn()
    assert not any(s.alive) and s.round == 1
    for i in range(s.n):
        seat = (s.first_seat + i) % s.n
        assert s.cur == seat and s.stack[-1][0] == "colony_pick"
        s.apply(s.legal_actions()[0])                          # keep one of the two
        assert s.card[seat] >= 0 and not s.alive[seat]
        while s.cur == seat and not s.alive[seat]:
            assert s.stack[-1][0] in ("trait_pick", "equip_pick")   # only the recruit's choices
            s.apply(s.legal_actions()[0])
        assert s.alive[seat] and s.pos[seat] == s.home(seat)
        assert len(s.traits[seat]) == 2 and len(s.equip[seat]) == 1
        assert s.oxy[seat] == s.max_oxygen(seat)
        assert s.colony_oxy[seat] == 0                         # no oxygen spent: no actions
        assert s.cur != seat                                    # "takes up a whole turn"
    assert s.round == 2 and s.cur == s.first_seat and s.stack[-1][0] == "act"


def test_a_worker_dies_only_with_no_oxygen_to_spend(at_actions):
    """RB:121 "If a Worker doesn't have Oxygen to spend at the beginning of the turn, they are
    then considered dead"; RB:143 "starts their turn with no Oxygen".  A worker whose upkeep is
    2 (a Heavy Breather) and holds 1 oxygen spends it and lives (turn-3 audit D8: 097fdb9 killed
    it); with 0 it dies."""
    s = at_actions()
    seat = s.cur
    nxt = (seat + 1) % s.n
    s.pos[nxt] = lay(s, cell(s, 4, 2), "four_way", "NESW")    # away from its colony
    m = list(s.mods[nxt])
    m[C.MOD_FIELDS.index("upkeep")] = 1                        # upkeep 1 + 1
    s.mods[nxt] = tuple(m)
    assert s.upkeep(nxt) == 2
    s.oxy_supply += s.oxy[nxt] - 1
    s.oxy[nxt] = 1
    before = s.colony_oxy[nxt]
    _to_turn_of(s, nxt)
    assert s.stack[-1] == ("act", nxt) and s.alive[nxt]
    assert s.oxy[nxt] == 0 and s.colony_oxy[nxt] == before + 1
    _to_turn_of(s, seat)
    _to_turn_of(s, nxt)
    assert s.stack[-1] == ("die", nxt)
