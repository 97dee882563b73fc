"""Rulebook "Upgrading Structures" and "Timing"."""

from engine.games.underwater_cities.rules import Part
from uwc_helpers import building, claim, only, res, site, tunnel


def test_upgrade_costs_one_science_and_never_twice(make_state):
    """"Whether upgrading a tunnel, a farm, a desalination plant, or a laboratory, the usual
    cost is 1 science ... It is not possible to upgrade any structure that is already
    upgraded.\""""
    s = make_state()
    building(s, 0, "c11b1", "farm")
    tunnel(s, 0, "t8")
    res(s, 0, science=2)
    only(s, ("upgrade", 0, Part(kind="upgrade", count=3), 3, "slot"))
    assert set(s.legal_actions()) == {("upgrade", "farm", site(s, "c11b1")),
                                      ("upgrade", "tunnel", site(s, "t8")), ("stop",)}
    s.apply(("upgrade", "farm", site(s, "c11b1")))
    assert s.players[0].res[3] == 1
    assert ("upgrade", "farm", site(s, "c11b1")) not in s.legal_actions()
    s.apply(("upgrade", "tunnel", site(s, "t8")))
    assert s.players[0].res[3] == 0 and s.stack == []    # nothing left to pay with


def test_cities_are_not_structures(make_state):
    """"Buildings and tunnels are called structures in this game ... structures can be
    upgraded.\""""
    s = make_state()
    res(s, 0, science=3)
    only(s, ("upgrade", 0, Part(kind="upgrade"), 1, "slot"))
    assert s.stack == [] or s.legal_actions() == [("stop",)]


def test_build_then_upgrade_the_structure_just_built(make_state):
    """Timing: "you may build any structure for its usual price and then to upgrade it
    immediately by paying 1 science.\""""
    s = make_state()
    res(s, 0, credits=1, science=1)
    only(s, ("build", 0, Part(kind="build", what="structure", upgrade=True), 1, "slot"))
    s.apply(("build", "desal", site(s, "c11b2")))     # no bonus on the embassy board
    assert s.legal_actions() == [("upgrade",), ("skip",)]
    s.apply(("upgrade",))
    p = s.players[0]
    assert p.bup >> site(s, "c11b2") & 1 and p.res == [0, 0, 0, 0, 0]


def test_a_card_price_for_upgrades_is_a_payment_choice(make_state):
    """"the card effects offer you special cost opportunities": a permanent card's price
    (here 1 credit for a farm) besides the usual science."""
    s = make_state()
    claim(s, 0, "e1_cheap_upgrades")
    building(s, 0, "c11b1", "farm")
    res(s, 0, credits=1, science=1)
    only(s, ("upgrade", 0, Part(kind="upgrade"), 1, "slot"))
    s.apply(("upgrade", "farm", site(s, "c11b1")))
    assert set(s.legal_actions()) == {("pay", 0, 0, 0, 1, 0), ("pay", 1, 0, 0, 0, 0)}
    s.apply(("pay", 1, 0, 0, 0, 0))
    assert s.players[0].res == [0, 0, 0, 1, 0]


def _parts(parts):
    for part in parts:
        yield part
        for opt in part.options:
            yield from _parts(opt)


def test_one_card_turns_a_city_symbiotic(rules):
    """RB:309 "There is a card that will let you turn a nonsymbiotic city into a symbiotic
    city, but this is an exception" (facts sheet section 7: "(one card)"): exactly one card
    of the era decks and the Special cards has a symbiosis effect, one conversion, one copy
    (audit turn 3 D5; the data had three cards and up to four conversions)."""
    cards = [c for deck in (rules.era1, rules.era2, rules.era3, rules.specials) for c in deck]
    with_it = [(c.id, c.copies, sum(p.kind == "symbiosis" for p in _parts(c.effect)))
               for c in cards if any(p.kind == "symbiosis" for p in _parts(c.effect))]
    assert with_it == [("e2_symbiosis_trial", 1, 1)]
