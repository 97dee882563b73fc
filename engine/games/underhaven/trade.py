"""Trade (rulebook "The 7 Actions": Trade) and the Corp board spaces it shares with The Corp
action ("The Corp Board - Overview"): a professional placed on a space (bumping a rival's),
the exchange done and repeated while affordable ("You can do as MANY trade actions as you
want on the SAME trade spot"), buying activation cards, the missions space."""

from __future__ import annotations

from .activate import automatic
from .tunnels import has_tile_option


def start_trade(s, p) -> None:
    """A Trade order: one space (two with a Merchant Guild); automatic trade buildings fire."""
    guild = any(s.st.b[s.bld[sp]].trade_twice for sp in s.owned(p.seat) if s.done[sp])
    automatic(s, p, "trade")
    s.stack.append(("trade", p.seat, 2 if guild else 1))


def _space_ok(s, p, sp) -> bool:
    """A trade space a free professional may take (not one where its own already stands)."""
    if sp.corp or s.occ.get(sp.id) == p.seat or p.pros_free <= 0:
        return False
    return can_trade(s, p, sp)


def first_player_space(s) -> str | None:
    """The starting-player location: the first trade space of kind "first_player"."""
    return s.st.space_of_kind.get("first_player")


def can_trade(s, p, sp) -> bool:
    k = sp.kind
    if k == "first_player":              # with any activation instead (orders.py)
        return s.rules.readings.first_player == "trade"
    if k == "tile":
        return p.pt >= sp.pay.pt and has_tile_option(s, p)
    if k == "card":                      # "a new Activation card, choose 1 from the market"
        return p.pt >= sp.pay.pt and card_on_offer(s, p)
    if k == "missions":
        if s.rules.readings.missions_space == "claim":
            return p.pt >= sp.pay.pt and any(m is not None for m in s.missions)
        return p.pt >= sp.pay.pt and bool(s.mission_deck or s.mission_discard)
    return p.pt >= sp.pay.pt and p.tg >= sp.pay.tg and p.energy >= sp.pay.energy


def card_on_offer(s, p) -> bool:
    """A card to buy: one left in the market (refilled only at the clean-up, "refill the empty
    spaces"), or, with the draw-3 ability, one in the draw pile.  An empty market is no card
    space: 2 power tokens are never paid for nothing."""
    return any(c is not None for c in s.market) or (p.ability == "card_draw3"
                                                     and bool(s.card_deck))


def _l_trade(s, frame):
    p = s.players[frame[1]]
    out = [("space", sid) for sid, sp in s.st.spaces.items() if _space_ok(s, p, sp)]
    out.append(("none",))
    return out


def place_pro(s, p, sid: str) -> None:
    """Place a professional; a rival's professional there is bumped (it gains 2 reputation
    and goes back to its board)."""
    other = s.occ.get(sid)
    if other is not None and other != p.seat:
        q = s.writable_player(other)
        s.score(q, "bumps", s.rules.game.bump_rep)
        q.pros_free += 1
    s.occ[sid] = p.seat
    p.pros_free -= 1
    if s.st.spaces[sid].star:
        s.star_round = True
        s.roll_die()


def _a_trade(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    if frame[0] == "trade" and frame[2] > 1:
        s.stack.append(("trade", p.seat, frame[2] - 1))
    sid = action[1]
    place_pro(s, p, sid)
    _do_trade(s, p, sid)


def _do_trade(s, p, sid: str) -> None:
    sp = s.st.spaces[sid]
    k = sp.kind
    s.stack.append(("again", p.seat, sid))
    if k == "first_player":
        s.next_first = p.seat
        s.stack.pop()
        return
    p.pt -= sp.pay.pt
    p.tg -= sp.pay.tg
    p.energy -= sp.pay.energy
    if k == "tile":
        s.stack.append(("tile", p.seat))
    elif k == "card":
        s.stack.append(("buy", p.seat, ()))
    elif k == "upgrade":
        s.stack.pop()                    # one upgrade per Corp action (assumed)
        s.stack.append(("upgrade", p.seat))
    elif k == "missions":
        if s.rules.readings.missions_space == "claim":
            s.stack.append(("claim_mission", p.seat))
        else:                            # "replenish Mission cards": all four replaced
            for i, mid in enumerate(s.missions):
                if mid is not None:
                    s.mission_discard.append(mid)
                    s.missions[i] = None
            s.refill_missions()
    else:
        s.gain(p, sp.get, "corp")


def _l_again(s, frame):
    p = s.players[frame[1]]
    sp = s.st.spaces[frame[2]]
    return ([("again",)] if can_trade(s, p, sp) else []) + [("done",)]


def _a_again(s, frame, action):
    if action[0] == "again":
        _do_trade(s, s.players[frame[1]], frame[2])


def _l_buy(s, frame):
    """A card from the market; with the ability "When you buy an activation card, instead of
    choosing from the market you can draw 3 from the draw pile & choose 1 to keep" also
    `draw3` (then one decision among the cards drawn)."""
    if frame[2]:
        return [("keep", c) for c in frame[2]]
    p = s.players[frame[1]]
    out = [("buy", i) for i, c in enumerate(s.market) if c is not None]
    if p.ability == "card_draw3" and s.card_deck:
        out.append(("draw3",))
    return out or [("none",)]


def _a_buy(s, frame, action):
    p = s.players[frame[1]]
    if action[0] == "none":
        return
    if action[0] == "draw3":
        n = s.ability_value("card_draw3")
        drawn = tuple(s.card_deck.pop() for _ in range(min(n, len(s.card_deck))))
        s.stack.append(("buy", p.seat, drawn))
        return
    if action[0] == "keep":
        cid = action[1]
        rest = [c for c in frame[2] if c != cid]
        s.card_deck[:0] = rest            # "Place the rest under"
        p.secret.add(cid)
    else:
        cid = s.market[action[1]]
        s.market[action[1]] = None
    p.hand.append(cid)
    p.bought.append(cid)


def _l_claim_mission(s, frame):
    """The missions space read as the Icon Key's "Pay 1 bead to claim a Mission card"
    (`readings.missions_space = "claim"`): one face-up mission becomes the player's own (only
    it can fulfil it; the face-up space is refilled at the end of the turn)."""
    return [("claim", mid) for mid in s.missions if mid is not None]


def _a_claim_mission(s, frame, action):
    p = s.players[frame[1]]
    i = s.missions.index(action[1])
    s.missions[i] = None
    p.held.append(action[1])


LEGAL = {"trade": _l_trade, "again": _l_again, "buy": _l_buy, "claim_mission": _l_claim_mission}
APPLY = {"trade": _a_trade, "corp": _a_trade, "again": _a_again, "buy": _a_buy,
         "claim_mission": _a_claim_mission}
