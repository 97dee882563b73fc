"""Game Setup, Player Board Setup, The Buildings (counts), Advanced Game Options (module
coupling) and the readings of the rulebook's contradictions.  Audit items D14, D15, D16, N4
and §4."""

import pytest

from engine.core.errors import RulesError, SetupError
from engine.core.protocol import Seat

from uh_helpers import explore, only, put

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")


def _to_keep(game, rules, seed=3, n=2):
    s = game.new_game(rules, [Seat(f) for f in FACTIONS[:n]], seed)
    assert s.stack[-1][0] == "keep"
    return s


def test_starting_worker_can_be_a_consultant(game, rules):
    """D14. Player Board Setup I: "if any more were gained with the setup card, add them
    there as well. Note! Gained starting worker can be an additional Consultant.\""""
    s = _to_keep(game, rules)
    seat = s.stack[-1][1]
    p = s.players[seat]
    s.dealt[seat] = ("sc21", "sc01", "sc02")          # a worker card kept
    s.apply(("return", "sc02"))
    assert s.stack[-1] == ("unit", seat, 1, -1)
    assert set(s.legal_actions()) == {("worker",), ("consultant",)}
    s.apply(("consultant",))
    assert p.consultants == 2 and p.workers == []
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    assert len(p.workers) == 3                         # the three of setup I only


def test_three_trapezoids_per_player(game, rules):
    """D15 / §4. Game Setup 6: "3 Trapezoid & starting tunnel tiles" (Game Components: "4
    Trapezoid tiles"; `readings.trapezoids` switches)."""
    s = _to_keep(game, rules)
    assert all(len(p.trapezoids) == 3 for p in s.players)
    four = game.load_rules(sets=["readings.trapezoids=4"]).model
    s4 = _to_keep(game, four)
    assert all(len(p.trapezoids) == 4 for p in s4.players)


def test_building_copies(rules):
    """D16. "The 7 building types - 22 buildings, 4 of each type, except Mines & Farms that
    have 6"; water and magma "(only 3 of each)"."""
    for b in rules.buildings:
        if b.starting or b.count == 0:
            continue
        want = {"greenery": 6, "mine": 6, "water": 3, "magma": 3}.get(b.terrains[0], 4)
        assert b.count == want, b.id


def test_energy_brings_the_advanced_buildings(game):
    """N4. Energy: "Add all buildings & Starting Cards with the advanced symbol"; Advanced
    Buildings: "(Mandatory if Energy is used)": Energy without them is a setup error naming
    the option; the advanced starting cards come with Energy by themselves."""
    r = game.load_rules(sets=["modules.energy=true"]).model
    with pytest.raises(SetupError, match="modules.advanced_buildings"):
        game.check_setup(r, 4, None, None)
    ok = game.load_rules(sets=["modules.energy=true", "modules.advanced_buildings=true"]).model
    game.check_setup(ok, 4, None, None)
    s = game.new_game(ok, [Seat(f) for f in FACTIONS], 2)
    dealt = {c for d in s.dealt for c in d} | set(s.start_card_deck)
    assert {c.id for c in ok.start_cards if c.advanced} <= dealt


def test_raw_start_needs_the_corp_board_locations(game):
    """N4. Corp Board Locations: "The loan action opens up to a stronger start ... Needed for
    Raw Start" (Raw Start only says "recommended along with the Coward's Loan space")."""
    r = game.load_rules(sets=["modules.raw_start=true"]).model
    with pytest.raises(SetupError, match="modules.corp_locations"):
        game.check_setup(r, 4, None, None)
    loose = game.load_rules(sets=["modules.raw_start=true",
                                  "readings.raw_start_needs_corp_locations=false"]).model
    game.check_setup(loose, 4, None, None)


def test_completion_reputation_zero_to_six(game):
    """§4. "When buildings get completed (0 - 6 reputation for each)" (Scoring) or "0 - 8
    reputation points" (Start of Your Turn 3): a building above the reading is a rules error
    naming it."""
    with pytest.raises(RulesError, match="water_turbine"):
        game.load_rules(sets=["buildings.water_turbine.rep=7"])
    game.load_rules(sets=["buildings.water_turbine.rep=8", "readings.completion_rep_max=8"])


def test_irrigation_system_workforce_switch(game, make_state):
    """§4. Irrigation System: "1 worker + red & blue Specialists" (table) or "It requires 2
    workers" (Building Example): its `workers` in buildings.toml.  With 2, one worker on the
    site needs a consultant or professional to fly in."""
    r = game.load_rules(sets=["buildings.irrigation_system.workers=2"]).model
    s = make_state(rules_=r)
    p = s.players[0]
    explore(s, 2, ("water", "mine", "greenery", "tech"))
    p.workers[0] = 8
    p.res, p.pt, p.morale = [5, 5, 5], 3, 1
    p.turn_colours = {"red", "blue"}
    p.cons_free, p.pros_free = 0, 0
    only(s, ("build", 0))
    assert not any(a[0] == "b" and a[1] == "irrigation_system" for a in s.legal_actions())
    p.cons_free = 1
    assert ("b", "irrigation_system", 8) in s.legal_actions()


def test_residential_upgrade_price_switch(game, make_state):
    """§4. "Players can trade in Power Tokens for Residential building upgrades" or "upgrade
    their buildings at NO COST" (the default): `readings.upgrade_pt`."""
    r = game.load_rules(sets=["modules.corp_locations=true", "readings.upgrade_pt=2"]).model
    s = make_state(rules_=r)
    p = s.players[0]
    explore(s, 2, ("residential", "mine", "water", "tech"))
    put(s, 8, "small_building", 0)
    p.workers = p.workers[:3]
    p.pt = 1
    only(s, ("corp", 0))
    assert ("space", "upgrade") not in s.legal_actions()
    p.pt = 2
    s.apply(("space", "upgrade"))
    s.apply(("upgrade", 8, "large_building"))
    assert p.pt == 0 and s.bld[8] == "large_building"


def _face(card):
    """What a card shows: its rows (each row's two orders in either order) and its support."""
    def order(o):
        return (o.kind, tuple(sorted(o.gain.model_dump().items())))
    return (tuple(tuple(sorted(map(order, row))) for row in card.rows), order(card.support))


def test_no_two_activation_cards_are_the_same(rules):
    """Audit turn 3 ND1.  "a unique set of activation cards" (RB:110); "No two activation
    cards are the same" (RB:119); "No two cards in the deck are the same" (RB:482): the 16
    starting cards and the 24 market cards all differ (before: the four card 1s were one card,
    and the Deltas' and Threecees' hands were identical)."""
    cards = [c for corp in rules.corporations.values() for c in corp.cards]
    cards += list(rules.market_cards)
    faces = [_face(c) for c in cards]
    assert len(cards) == 40
    assert len(set(faces)) == len(faces)


def test_first_cards_share_the_free_move_but_the_actions_differ(rules):
    """ND1.  "It is suggested to use the card shown in the rulebook as your 1st card ... this
    card gives you a free movement. All players have this bonus, but the actions differ"
    (RB:436); "All starting cards also have the MOVE action" (RB:463).  The Deltas' card 1 is
    the rulebook's example card (Gain 3 Food or Build / Harvest or Mine / Trade or Build)."""
    firsts = [corp.cards[0] for corp in rules.corporations.values()]
    assert all(c.support.kind == "move" for c in firsts)
    assert len({_face(c)[0] for c in firsts}) == 4
    ex = rules.corporations["deltas"].cards[0]
    assert [[o.kind for o in row] for row in ex.rows] == \
        [["gain", "build"], ["harvest", "mine"], ["trade", "build"]]
    assert ex.rows[0][0].gain.food == 3 and ex.source == "rulebook"
    for corp in rules.corporations.values():
        for c in corp.cards:
            assert c.support.kind == "move" or any(o.kind == "move" for r in c.rows for o in r)
            assert c.source == ("rulebook" if c.id == "deltas_1" else "assumed")


def test_starting_hands_are_of_comparable_strength(rules):
    """ND1, the assumed design (corporations.toml header): every hand holds the same orders
    in all, and its right-side supports give 3 Money, 3 Food and 3 Material, "All players get
    the same, but in various combinations" (RB:461-462)."""
    from collections import Counter

    def orders(corp):
        return Counter(o.kind for c in corp.cards for r in c.rows for o in r)

    def gained(corp, where):
        tot = Counter()
        for c in corp.cards:
            for o in (c.support,) if where == "support" else [o for r in c.rows for o in r]:
                if o.kind == "gain":
                    tot.update({k: v for k, v in o.gain.model_dump().items() if v})
        return tot

    corps = list(rules.corporations.values())
    assert all(orders(c) == orders(corps[0]) for c in corps)
    assert all(gained(c, "support") == Counter(money=3, food=3, material=3) for c in corps)
    assert len({tuple(sorted(_face(c2)[1] for c2 in c.cards)) for c in corps}) == 4
    for c in corps:                      # row gains: 3 of each basic resource and one 2 + 1
        gains = sorted(sorted(v for v in o.gain.model_dump().values() if v)
                       for card in c.cards for r in card.rows for o in r if o.kind == "gain")
        assert gains == [[1, 2], [3], [3], [3]]
        assert sum(gained(c, "rows").values()) == 12
