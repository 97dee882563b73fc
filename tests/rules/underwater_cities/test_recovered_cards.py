"""Designed cards whose text the facts sheet recovers (research/underwater_cities_facts.md
sections 6 and 7) play that text (audit turn 3 D10-D12; D8 and D9 are in test_cards.py and
test_permanents.py, D13 is the RB:118 example in test_examples.py)."""

from uwc_helpers import building, city, hand, res, site, tunnel


def _card(rules, cid):
    return next(c for deck in (rules.era1, rules.era2, rules.era3, rules.specials)
                for c in deck if c.id == cid)


def _to_card(s, seat, cid, slot):
    """Seat 0 plays `cid` on the matching `slot`, card first."""
    hand(s, seat, [cid])
    s.apply(("play", cid))
    s.apply(("slot", slot))
    s.apply(("card_first",))


def test_trial_run_produces_one_upgraded_structure(make_state):
    """Facts section 7 [H] "Trial Run": "gain the normal output of 1 upgraded structure at a
    connected city once" (the card produced any two structures, upgraded or not)."""
    s = make_state(n=3)
    s.era = 2
    city(s, 0, "c10")
    tunnel(s, 0, "t8")
    building(s, 0, "c11b1", "farm")                  # not upgraded: not offered
    building(s, 0, "c10b1", "lab", up=True)          # 1 science + 1 steelplast
    res(s, 0, kelp=1)
    _to_card(s, 0, "e2_trial_run", "g_farms")        # green; the slot builds farms
    assert s.stack[-1][0] == "produce"
    assert s.legal_actions() == [("produce", "lab", site(s, "c10b1")), ("skip",)]
    s.apply(("produce", "lab", site(s, "c10b1")))
    p = s.players[0]
    assert p.res[2:4] == [1, 1]
    assert s.stack[-1][0] != "produce"               # once


def test_retrofit_upgrades_a_desalination_plant_for_science_or_steelplast(make_state):
    """Facts section 6: "Pay 1 science or 1 steelplast to upgrade a desalination plant" (the
    card upgraded two plants at 1 credit each)."""
    s = make_state(n=3)
    building(s, 0, "c11b1", "desal")
    building(s, 0, "c11b2", "desal")
    res(s, 0, credits=1, steelplast=1)               # the card's cost, then the steelplast
    _to_card(s, 0, "sp_retrofit", "r_tunnels")       # red; the slot builds tunnels
    s.apply(("pay",))
    assert s.stack[-1][0] == "upgrade"               # only the steelplast option is usable
    s.apply(("upgrade", "desal", site(s, "c11b1")))
    p = s.players[0]
    assert p.bup >> site(s, "c11b1") & 1 and not p.bup >> site(s, "c11b2") & 1
    assert p.res[:4] == [0, 0, 0, 0]


def test_special_end_scoring_texts(rules):
    """Facts section 6 [L], the end-scoring texts: "hand in exactly 15 credits for 13
    points", "up to 14 steelplast at 1 point each", "3 points per 2 kelp, at most 5 times"
    (the data had 12 -> 10, 12 and 4)."""
    got = {cid: [(p.cost.vec(), p.gain.points, p.count) for p in _card(rules, cid).effect]
           for cid in ("sp_exact_budget", "sp_steel_reserve", "sp_kelp_futures")}
    assert got == {"sp_exact_budget": [((15, 0, 0, 0, 0), 13, 1)],
                   "sp_steel_reserve": [((0, 0, 1, 0, 0), 1, 14)],
                   "sp_kelp_futures": [((0, 2, 0, 0, 0), 3, 5)]}


def test_recovered_texts_are_marked_as_such(rules):
    """Entries the facts sheet fixes say so (`source = "rulebook"`, audit turn 3 D7)."""
    fixed = ("e1_farm_program", "e1_construction_crew", "e1_black_market_contacts",
             "e1_lab_network", "e1_field_trial", "e2_trial_run", "sp_annex_permit",
             "sp_contract_work", "sp_side_deal", "sp_metro_investor", "sp_retrofit")
    assert {cid: _card(rules, cid).source for cid in fixed} == dict.fromkeys(fixed, "rulebook")
    brown = {m.id: m.source for m in rules.metropolises if m.colour == "brown"}
    assert set(brown.values()) == {"rulebook"} and len(brown) == 5
