"""Helpers shared by the Underhaven rule tests."""


def explore(s, o, terrains):
    """Turn octagon `o` face up with the given N, E, S, W terrains."""
    s.explored[o] = True
    for d, t in enumerate(terrains):
        s.terr[4 * o + d] = t


def put(s, sp, bid, seat, done=True):
    s.bld[sp] = bid
    s.owner[sp] = seat
    s.done[sp] = done


def only(s, frame):
    """Make `frame` the only pending decision (nothing scheduled after it)."""
    s.stack = [frame]
    s.agenda = []
    return s


def magnifier_move(s):
    """Seat 0 at the start of a Move (6 moves) with workers 0 and 1 on spaces 0 and 1 of its
    starting octagon and a consultant free to fly; seat 1 owns a finished Jet Pack Magnifier
    on space 8 (octagon 2 explored).  Returns seat 0's player."""
    p = s.players[0]
    explore(s, 2, ("social", "mine", "water", "tech"))
    put(s, 8, "jetpack_magnifier", 1)
    p.workers[:2] = [0, 1]
    p.mv_left, p.mv_stopped, p.mv_jet, p.mv_crawl = 6, (), False, False
    p.cons_free, p.cons_landed = 1, []
    only(s, ("move", 0))
    return p


def example_91_board(game, rules, make_state):
    """The board of the rulebook's End Game Scoring example (RB:816-818), seat 0's: a connected
    cluster of mines 2 + 3 + 5 with a +3 Mine card, a single magma building with a +3 magma
    card, the single starting building with the +5 starting-icon card, 2 unlocked specialists,
    majorities in 4 octagons, 6 resources.  Returns (state, seat 0's player)."""
    mine = next(c.id for c in rules.market_cards if c.bonus_terrain == "mine")
    magma = next(c.id for c in rules.market_cards if c.bonus_terrain == "magma")
    start = next(c for c in rules.market_cards if c.bonus_terrain == "starting")
    assert start.bonus == 5            # the starting-building icon card (N5), not a faked one
    r = game.load_rules(sets=[f"market_cards.{mine}.bonus=3", f"market_cards.{magma}.bonus=3",
                              "buildings.large_mine.rep=3"]).model
    s = make_state(rules_=r)
    p = s.players[0]
    for sp in range(len(s.owner)):
        s.bld[sp], s.owner[sp] = None, -1
    explore(s, 2, ("mine", "mine", "water", "tech"))
    explore(s, 3, ("tech", "tech", "water", "mine"))
    explore(s, 7, ("magma", "water", "water", "water"))
    explore(s, 9, ("greenery", "water", "water", "water"))
    put(s, 8, "small_mine", 0)        # rep 2
    put(s, 15, "large_mine", 0)       # rep 3 (these rules)
    put(s, 9, "crystal_mine", 0)      # rep 5: touches N of its octagon and W of octagon 3
    put(s, 28, "goods_smelter", 0)    # a single magma building
    put(s, 36, "start_farm", 0)       # the single starting building, 0 rep
    p.bought = [mine, magma, start.id]
    p.perm = ["red", "blue"]
    p.res, p.pt, p.tg, p.energy = [2, 1, 0], 2, 1, 0
    return s, p


def whole(s) -> list[tuple]:
    """The pending decision's options with every move asked in parts (a tile's kind, then
    where; a jump's worker, octagon, space: decisions.FOLLOW_UPS) walked to its last part,
    whose action names the whole move ("tile", kind, gap, r) or ("jump", w, space)."""
    from engine.games.underhaven.decisions import follow_up
    out = []
    for a in s.legal_actions():
        nxt = s.clone(log=False)
        nxt.apply(a)
        if follow_up(nxt) and not nxt.is_over():
            out += whole(nxt)
        else:
            out.append(a)
    return out


def take(s, final) -> None:
    """Apply the whole move `final` (an option of `whole(s)`) through its parts."""
    from engine.games.underhaven.decisions import follow_up
    while True:
        acts = s.legal_actions()
        if final in acts:
            s.apply(final)
            return
        for a in acts:
            nxt = s.clone(log=False)
            nxt.apply(a)
            if follow_up(nxt) and final in whole(nxt):
                s.apply(a)
                break
        else:
            raise AssertionError(f"{final!r} is not a move of this decision")
