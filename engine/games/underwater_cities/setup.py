"""Setup (rulebook "Components", "Order of Play", "Limited and Unlimited Components").

Each player: a player board (the faction) with the starting city, the Personal Assistant
claimed, starting resources, a brown and two blue metropolis tiles on the hexagons, and an
opening hand (draw `start.opening_draw`, keep the hand limit: the discards are the first
decisions).  Round 1's play order is the seat order (seat 0 first; `start.random_order`
shuffles it instead); the Federation markers start in reverse order with the extra
resources of the third and fourth players.  The era decks are shuffled now (the same
distribution as shuffling each when its era begins); six 3-credit Special cards lie face up,
the 1-2-credit Special deck shows its top card.
"""

from __future__ import annotations


from .state import Player, UWCState, static_for


def new_state(rules, seats, seed: int, map_id: str, log: bool = True) -> UWCState:
    n = len(seats)
    st = static_for(rules, n)
    g = st.geo
    s = UWCState()
    s.rules = rules
    s.st = st
    s.geo = g
    s.n = n
    s.map_id = map_id
    s.start(seed, log)  # rng, log, round 1, setup, empty stack (FrameMachine)
    rng = s.rng
    s.era = 1
    s.turns_done = 0
    s.fed_clock = 0
    # Era decks (one per era) and the Special cards.
    s.decks = {}
    for e in (1, 2, 3):
        deck = list(st.era_insts[e])
        rng.shuffle(deck)
        s.decks[e] = deck
    s.discard = []
    s.box_known = []        # out of the game, seen by all (discards of past eras)
    s.box_hidden = []       # out of the game unseen (past eras' draw piles)
    s.sdeck = list(st.cheap_specials)
    rng.shuffle(s.sdeck)
    dear = list(st.dear_specials)
    rng.shuffle(dear)
    k = rules.supply.specials_face_up
    s.sface = sorted(dear[:k])
    s.sbox = sorted(dear[k:])
    s.occ = [() for _ in st.slots]   # per slot, the seats on it (tuples: a copy shares them)
    s.cloned = -1
    s.supply = [rules.supply.tunnels, rules.supply.white_cities, st.symbiotic_supply]
    s.turn = [-1, -1, -2, False, 0]   # seat, card, slot (-1 always, -2 none), match, tunnels
    # Government contracts (a switch, off by default): drawn face up at setup.
    s.contracts = []
    if rules.switches.contracts and rules.contracts:
        ids = list(range(len(rules.contracts)))
        rng.shuffle(ids)
        s.contracts = [[i, -1] for i in sorted(ids[:rules.switches.contracts_drawn])]
    # Play order of round 1.
    order = list(range(n))
    if rules.start.random_order:
        rng.shuffle(order)
    s.order = order
    s.first_seat = order[0]
    s.tie_order = order.copy()
    browns = list(st.brown)
    blues = list(st.blue)
    rng.shuffle(browns)
    rng.shuffle(blues)
    s.players = []
    for i, seat in enumerate(seats):
        p = Player(i, seat.faction, g.nb)
        p.cmask = 1 << g.start
        p.res = list(rules.start.resources.vec())
        p.actions = (st.assistants[i],)
        tiles = []
        for h in range(g.nh):
            pool = browns if g.hex_colour[h] == "brown" else blues
            tiles.append(pool.pop() if pool else -1)
        p.metros = tuple(tiles)
        s.players.append(p)
    for pos, seat in enumerate(order):
        p = s.players[seat]
        p.fed = rules.start.federation[pos] if pos < len(rules.start.federation) else 0
        s.fed_clock += 1
        p.fed_stamp = s.fed_clock
        extra = rules.start.extra[pos] if pos < len(rules.start.extra) else None
        if extra is not None:
            p.res = [a + b for a, b in zip(p.res, extra.vec())]
    for seat in order:
        s.draw(s.players[seat], rules.start.opening_draw)
    # The opening hands: discard down to the hand limit, in play order.
    tasks = [("discards", seat, "setup") for seat in order]
    tasks.append(("round_start",))
    s.agenda = tasks[::-1]
    s._advance()
    return s
