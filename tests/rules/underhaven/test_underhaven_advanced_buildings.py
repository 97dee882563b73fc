"""Advanced Buildings (Construction Molds' merged payment, The Low Light Pub) and the market
activation cards that give reputation when played ("Reputation gained through the game")."""

import random

import pytest

from engine.games.underhaven import invariants, scoring
from engine.games.underhaven.orders import do_order
from uh_helpers import explore, only, put


@pytest.fixture
def adv_state(game, make_state):
    return make_state(rules_=game.load_rules(sets=["modules.advanced_buildings=true"]).model)


def _molds_turn(s):
    """Seat 0 owns finished Construction Molds (N of octagon 2), workers on the two greenery
    spaces (E, S), no resources on its tracks, the large farm's specialists already used this
    turn ("Requires workers & Specialists as normal") and morale 1."""
    p = s.players[0]
    explore(s, 2, ("magma", "greenery", "greenery", "tech"))
    put(s, 8, "construction_molds", 0)
    p.workers[:2] = [9, 10]
    p.res, p.pt, p.morale = [0, 0, 0], 3, 1
    p.turn_colours = {"red", "yellow"}
    s.stack, s.agenda = [], []
    build = next(o for row in s.st.cards[p.hand[0]].rows for o in row if o.kind == "build")
    do_order(s, p, build)
    return p


def test_advanced_buildings_construction_molds_two_buildings_for_three_power_tokens(adv_state):
    """Advanced Buildings, Construction Molds: "build 2 times, with 1 activation. Since PT has
    endless value, players only pay 3 PT (1 for each resource) to build 2 buildings."  Two
    Large Farms (3 Material / 5 Money / 3 Food each) plus the Molds' 2 Money: 12 Money, 6 Food,
    6 Material, one power token each.  Paid one after the other they would need 4."""
    s = adv_state
    p = _molds_turn(s)
    assert [f[0] for f in s.stack] == ["build", "build"]
    s.apply(("b", "large_farm", 9))
    assert (p.res, p.pt) == ([0, 0, 0], 3)           # nothing paid yet
    assert s.bld[9] == "large_farm" and s.stack[-1] == ("build", 0, 2, "second")
    assert ("b", "large_farm", 10) in s.legal_actions()
    s.apply(("b", "large_farm", 10))
    assert (p.res, p.pt, p.owed) == ([0, 0, 0], 0, None)
    assert s.bld[9] == s.bld[10] == "large_farm" and p.unfinished[-2:] == [9, 10]


def test_advanced_buildings_construction_molds_second_build_only_if_merged_payment_fits(adv_state):
    """"Only options that can be completed are offered": the tracks (5 Money, 3 Food, 3
    Material, no power token) pay one Large Farm, but nothing more once the second build is
    added to the same payment (a Small Farm alone would still fit the tracks untouched)."""
    s = adv_state
    p = _molds_turn(s)
    p.res, p.pt = [5, 3, 3], 0
    s.apply(("b", "large_farm", 9))
    assert s.legal_actions() == [("none",)]
    s.apply(("none",))
    assert (p.res, p.pt) == ([0, 0, 0], 0)


def test_advanced_buildings_construction_molds_one_build_pays_alone(adv_state):
    """Building only once with the Molds: the first building is paid on its own (5 Money, 3
    Food, 3 Material each from a token, change back) and the Molds' 2 Money is not due; no
    first build: no second one."""
    s = adv_state
    p = _molds_turn(s)
    s.apply(("b", "large_farm", 9))
    s.apply(("none",))
    assert (p.res, p.pt, p.owed) == ([1, 3, 3], 0, None)
    s2 = adv_state.clone()
    s2.stack, s2.agenda = [], []
    q = s2.writable_player(0)   # the clone's own record (clones share them until written)
    do_order(s2, q, next(o for row in s2.st.cards[q.hand[0]].rows for o in row if o.kind == "build"))
    q.workers = []
    s2.apply(("none",))
    assert not s2.stack


def test_advanced_buildings_low_light_pub_in_the_data(game, rules, adv_state):
    """The Low Light Pub is the advanced Social building ("an advanced Social building that
    allows players to connect their buildings to other players' building network of the same
    type"); "the price is 3 PT"."""
    bd = adv_state.st.b["low_light_pub"]
    assert bd.terrains == ("social",) and bd.activation == "consultant" and bd.deal_pt == 3
    assert bd.advanced and bd.source == "assumed"
    from engine.games.underhaven.setup import MAP_ID, Static
    assert "low_light_pub" not in Static(rules, (2, MAP_ID)).b          # only with the module


def _pub_board(s):
    """Octagon 2: the Pub (N, seat 1), seat 1's small mine (E), seat 0's small mine (S),
    seat 1's tech building (W) touching seat 0's mine."""
    p, q = s.players[0], s.players[1]
    explore(s, 2, ("social", "mine", "mine", "tech"))
    put(s, 8, "low_light_pub", 1)
    put(s, 9, "small_mine", 1)
    put(s, 10, "small_mine", 0)
    put(s, 11, "lava_crawler", 1)
    p.mv_left, p.mv_stopped, p.mv_jet = 6, (), False
    p.cons_free = 1
    p.bought = []
    only(s, ("move", 0))
    return p, q


def test_advanced_buildings_low_light_pub_deal_cube_for_three_power_tokens(adv_state):
    """The Low Light Pub: "place their cube on a building they don't own (e.g., for a terrain
    multiplication bonus). Fly there ... If no agreement is reached after 2 offers, the price
    is 3 PT. Not possible to deny."  Every building the player does not own is offered; the
    price goes to the owner of the building, who has no decision to make."""
    s = adv_state
    p, q = _pub_board(s)
    p.pt, q.pt = 4, 0
    rep = q.rep
    s.apply(("fly", 8))
    assert q.rep == rep + 2                        # the Social building rule for the owner
    assert s.stack[-1] == ("pub", 0, 8)
    rivals = [sp for sp, o in enumerate(s.owner) if o == 1]
    assert {8, 9, 11} <= set(rivals)
    assert s.legal_actions() == [("deal", sp) for sp in rivals] + [("none",)]
    s.apply(("deal", 9))
    assert (p.pt, q.pt, p.cubes) == (1, 3, [9])
    assert s.stack[-1][:2] == ("move", 0)          # cannot be denied: no decision for seat 1


def test_advanced_buildings_low_light_pub_cube_counts_for_the_terrain_cluster(adv_state):
    """"Check for all of your connected buildings OF THE SAME TYPE ... Multiply with the
    number of connections": the cube makes the rival's mine count in the player's mine
    cluster ((2 + 2) x 2); a cube on the rival's tech building joins no network of the
    player's and counts for nothing; the owner keeps its buildings (its scoring is
    unchanged)."""
    s = adv_state
    p, q = _pub_board(s)
    before = scoring.end_breakdown(s, 0)["end_clusters"]
    owner_before = scoring.end_breakdown(s, 1)
    p.cubes = [11]
    assert scoring.end_breakdown(s, 0)["end_clusters"] == before
    p.cubes = [11, 9]
    assert scoring.end_breakdown(s, 0)["end_clusters"] == before + (2 + 2) * 2
    assert scoring.end_breakdown(s, 1) == owner_before


def test_advanced_buildings_low_light_pub_needs_the_price(adv_state):
    """Without 3 power tokens there is no deal to make: landing is an ordinary Social landing."""
    s = adv_state
    p, _q = _pub_board(s)
    p.pt = 2
    s.apply(("fly", 8))
    assert s.stack[-1][0] == "move" and p.cubes == []


def test_advanced_buildings_low_light_pub_deal_with_the_pt_trade_ability(adv_state):
    """"You can lose any 3 resources in exchange for 1 PT once per round" (RB:292, no timing
    given) is offered at the Low Light Pub's deal, a power-token payment in the player's own
    turn, as at the other payment decisions (re-audit turn 4; old code: with 2 power tokens
    the deal was not offered at all).  With 2 power tokens and 3 trade goods the deal
    decision opens; the trade pays the third token; the deal is made; once per round."""
    s = adv_state
    p, q = _pub_board(s)
    p.ability, p.pt, p.tg, q.pt = "pt_trade", 2, 3, 0
    p.used.discard("pt_trade")
    s.apply(("fly", 8))
    assert s.stack[-1] == ("pub", 0, 8)
    assert s.legal_actions() == [("none",), ("pt_trade",)]
    s.apply(("pt_trade",))
    s.apply(("lose", "tg", "tg", "tg"))
    assert p.pt == 3 and p.tg == 0 and s.stack[-1] == ("pub", 0, 8)
    acts = s.legal_actions()
    assert ("deal", 9) in acts and ("pt_trade",) not in acts      # once per round
    s.apply(("deal", 9))
    assert (p.pt, q.pt, p.cubes) == (0, 3, [9])
    assert s.stack[-1][:2] == ("move", 0)


def test_advanced_buildings_low_light_pub_pt_trade_needs_three_resources(adv_state):
    """Without 3 resources to lose, 2 power tokens still make no deal (the ability cannot pay
    the third)."""
    s = adv_state
    p, _q = _pub_board(s)
    p.ability, p.pt, p.tg, p.res, p.energy = "pt_trade", 2, 0, [1, 1, 0], 0
    p.used.discard("pt_trade")
    s.apply(("fly", 8))
    assert s.stack[-1][0] == "move" and p.cubes == []


def test_reputation_from_activation_cards_when_played(make_state):
    """Scoring, "Reputation gained through the game ... From Activation cards (advanced
    cards)": a market card with reputation gives it when played, logged as `cards`."""
    s = make_state()
    p = s.players[0]
    card = next(c for c in s.rules.market_cards if c.play_rep > 0)
    plain = next(c for c in s.rules.market_cards if c.play_rep == 0)
    p.hand = [card.id, plain.id]
    rep = p.rep
    only(s, ("card", 0))
    s.apply(("card", card.id))
    assert p.rep == rep + card.play_rep
    assert s.log.breakdown(0)["cards"] == card.play_rep
    assert p.rep == sum(s.log.breakdown(0).values())
    only(s, ("card", 0))
    s.apply(("card", plain.id))
    assert p.rep == rep + card.play_rep


def test_reputation_from_activation_cards_only_on_advanced_cards(rules):
    """Only the advanced (market) cards give reputation when played; the data is assumed."""
    assert any(c.play_rep for c in rules.market_cards)
    assert all(c.source == "assumed" for c in rules.market_cards if c.play_rep)
    assert not any(c.play_rep for corp in rules.corporations.values() for c in corp.cards)


def test_advanced_buildings_random_games_keep_the_invariants(game):
    """Random legal games with the advanced buildings (and energy, which needs them) stay
    consistent: score events sum to each player's reputation."""
    from engine.core.protocol import Seat
    rules = game.load_rules(sets=["modules.advanced_buildings=true", "modules.energy=true"]).model
    for seed in range(3):
        rng = random.Random(seed)
        s = game.new_game(rules, [Seat(f, "random") for f in ("deltas", "threecees", "tectonics")], seed)
        n = 0
        while not s.is_over() and n < 20000:
            s.apply(rng.choice(s.legal_actions()))
            n += 1
        assert s.is_over() and invariants(s) == []
        assert [r.score for r in s.result()] == [p.rep for p in s.players]


def test_advanced_buildings_greedy_values_the_pub_deal_and_the_molds_debt(adv_state):
    """Bots play the new decisions: at the Pub the greedy values the deal that joins its mine
    cluster above no deal; a first Molds build not yet paid counts as owed."""
    from engine.games.underhaven import bots
    s = adv_state
    p, _q = _pub_board(s)
    p.pt = 4
    s.apply(("fly", 8))
    acts = s.legal_actions()
    vals = bots.action_values(s, 0, acts)
    assert acts[vals.index(max(vals))] == ("deal", 9)
    before = bots.evaluate(s, 0)
    p.owed = (5, 3, 3, 0, 1)
    assert bots.evaluate(s, 0) < before


def test_advanced_buildings_greedy_values_the_pt_trade_at_the_pub_by_the_deal_it_opens(adv_state):
    """RB:292's exchange offered at the Pub's deal (2 power tokens, 3 trade goods): greedy
    values it by the best option once the third token is paid (the deal joining its mine
    cluster), not by the exchange alone, and ranks it above no deal (issue 27)."""
    from engine.games.underhaven import bots
    s = adv_state
    p, q = _pub_board(s)
    p.ability, p.pt, p.tg, q.pt = "pt_trade", 2, 3, 0
    p.used.discard("pt_trade")
    s.apply(("fly", 8))
    acts = s.legal_actions()
    assert acts == [("none",), ("pt_trade",)]
    vals = dict(zip(acts, bots.action_values(s, 0, acts)))
    after = s.clone(log=False)
    after.apply(("pt_trade",))
    lose = after.legal_actions()      # the three resources the bot gives: the best evaluation
    after.apply(max(lose, key=lambda a: bots._after(after, 0, a, lose)))
    deal = after.clone(log=False)
    deal.apply(("deal", 9))
    assert vals[("pt_trade",)] == pytest.approx(bots.evaluate(deal, 0))
    assert vals[("pt_trade",)] > vals[("none",)]
