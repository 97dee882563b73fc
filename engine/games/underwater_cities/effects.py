"""Resolving an effect: the vocabulary of parts (rules.Part) as mechanisms.

An effect (a slot's, a card's, an action card's) is a tuple of parts resolved in any order
(rulebook "Timing": "The parts of an effect can be resolved in any order"), each used wholly,
in part or not at all ("It is legal to use only part of an action or card effect").  Plain
gains are taken at once (taking them first never hurts); when two or more other parts are
usable, which comes next is a decision ("part", i); a part that is the only usable one runs
without asking.  Each part is then its own small decisions (a site, a payment, a card...).
"""

from __future__ import annotations

from . import building, upgrades
from .network import count_of, holds, net
from .payment import affordable, pay
from .state import UWCState
from .triggers import TARGET_KINDS, fire


def push_effect(s, seat: int, parts, src: str) -> None:
    """Start resolving `parts` for `seat`; `src` says where they come from ("slot", "card",
    "action", ...), for the triggers that care (a slot giving steelplast)."""
    p = s.players[seat]
    rest = []
    for part in parts:
        if part.kind == "gain" and part.when is None:
            do_gain(s, p, part, src)
        else:
            rest.append(part)
    if rest:
        s.stack.append(("parts", seat, tuple(rest), src))


def gain_times(s, p, part) -> int:
    if not holds(s, p, part.when):
        return 0
    if part.per is None:
        return 1
    k = count_of(s, p, part.per)
    return min(k, part.max) if part.max else k


def do_gain(s, p, part, src: str, category: str = "other") -> None:
    k = gain_times(s, p, part)
    if k <= 0:
        return
    g = part.gain
    s.gain(p, g, category, k)
    if src == "slot" and p.abilities and any(g.vec()):
        fire(s, p, "on_slot_gain", gained=g.vec())


def usable(s, p, part, depth: int = 0) -> bool:
    """Whether at least part of `part` can be used now (rulebook: "you are not allowed to
    choose an action slot without using at least part of its effect")."""
    if part.when is not None and not holds(s, p, part.when):
        return False
    k = part.kind
    if k == "gain":
        return gain_times(s, p, part) > 0
    if k == "build":
        return building.any_option(s, p, part)
    if k == "upgrade":
        return bool(upgrades.options(s, p, part))
    if k == "action_card":
        from .cards import usable_actions
        return bool(usable_actions(s, p, depth))
    if k == "special":
        return bool(s.sface or s.sdeck)
    if k == "trade":
        return affordable(p, part.cost.vec())
    if k == "pick":
        return True
    if k == "either":
        return any(effect_usable(s, p, opt, depth) for opt in part.options)
    if k == "refresh":
        return bool(p.used)
    if k == "slot_action":
        return bool(slot_action_options(s, p, part, depth))
    if k == "symbiosis":
        return bool(symbiosis_options(s, p, part))
    if k == "produce":
        return bool(produce_options(s, p, part))
    raise ValueError(k)


def effect_usable(s, p, parts, depth: int = 0) -> bool:
    return any(usable(s, p, part, depth) for part in parts)


# ---------------------------------------------------------------------------- parts
def _l_parts(s, frame):
    p = s.players[frame[1]]
    return [("part", i) for i, part in enumerate(frame[2]) if usable(s, p, part)]


def _a_parts(s, frame, action):
    _k, seat, parts, src = frame
    i = action[1]
    rest = parts[:i] + parts[i + 1:]
    if rest:
        s.stack.append(("parts", seat, rest, src))
    start_part(s, seat, parts[i], src)


def start_part(s, seat: int, part, src: str) -> None:
    k = part.kind
    p = s.players[seat]
    if k == "gain":
        do_gain(s, p, part, src)
    elif k == "build":
        building.push_build(s, seat, part, src)
    elif k == "upgrade":
        s.stack.append(("upgrade", seat, part, part.count, src))
    elif k == "action_card":
        s.stack.append(("use_action", seat, part.count, src))
    elif k == "special":
        s.stack.append(("special", seat))
    elif k == "trade":
        s.stack.append(("trade", seat, part, part.count, src))
    elif k == "pick":
        s.stack.append(("pick", seat, part, part.count, 0, src))
    elif k == "either":
        s.stack.append(("either", seat, part, src))
    elif k == "refresh":
        s.stack.append(("refresh", seat))
    elif k == "slot_action":
        s.stack.append(("slot_action", seat, part))
    elif k == "symbiosis":
        s.stack.append(("symbiosis", seat, part))
    elif k == "produce":
        s.stack.append(("produce", seat, part))


# trade: pay X to get Y, up to `count` times ("pay X to get Y, once unless stated")
def _l_trade(s, frame):
    p = s.players[frame[1]]
    return ([("trade",)] if affordable(p, frame[2].cost.vec()) else []) + [("stop",)]


def _a_trade(s, frame, action):
    if action[0] == "stop":
        return
    _k, seat, part, left, src = frame
    p = s.players[seat]
    pay(p, part.cost.vec())
    s.gain(p, part.gain, "other")
    if left > 1:
        s.stack.append(("trade", seat, part, left - 1, src))


# pick: `count` different gains of a list ("gain 2 resources of different types")
def _l_pick(s, frame):
    taken = frame[4]
    return [("pick", i) for i in range(len(frame[2].gains)) if not taken >> i & 1] \
        + [("stop",)]


def _a_pick(s, frame, action):
    if action[0] == "stop":      # partial use: fewer picks than allowed
        return
    _k, seat, part, left, taken, src = frame
    i = action[1]
    p = s.players[seat]
    g = part.gains[i]
    s.gain(p, g, "other")
    if src == "slot" and p.abilities and any(g.vec()):
        fire(s, p, "on_slot_gain", gained=g.vec())
    if left > 1:
        s.stack.append(("pick", seat, part, left - 1, taken | 1 << i, src))


# either: one of several effects
def _l_either(s, frame):
    p = s.players[frame[1]]
    return [("option", i) for i, opt in enumerate(frame[2].options) if effect_usable(s, p, opt)]


def _a_either(s, frame, action):
    push_effect(s, frame[1], frame[2].options[action[1]], frame[3])


# refresh: make a used action card available again
def _l_refresh(s, frame):
    p = s.players[frame[1]]
    ids = s.st.card_id
    return sorted({("refresh", ids[i]) for i in p.used}) + [("skip",)]


def _a_refresh(s, frame, action):
    if action[0] == "skip":
        return
    p = s.players[frame[1]]
    ids = s.st.card_id
    p.used = p.used - {min(i for i in p.used if ids[i] == action[1])}


# slot_action: perform the action of a coloured slot without placing a tile or playing a card
def slot_action_options(s, p, part, depth: int = 0) -> list[int]:
    if depth > 1:
        return []
    price = part.cost.vec() if part.cost is not None else (0, 0, 0, 0, 0)
    if not affordable(p, price):
        return []
    out = []
    others = part.slots == "free_or_others"
    saved = p.res.copy()
    pay(p, price)
    try:
        for i, slot in enumerate(s.st.slots):
            occ = s.occ[i]
            if (not occ or (others and p.seat not in occ)) \
                    and effect_usable(s, p, slot.effect, depth + 1):
                out.append(i)
    finally:
        p.res[:] = saved
    return out


def _l_slot_action(s, frame):
    p = s.players[frame[1]]
    ids = s.st.slots
    return [("slot", ids[i].id) for i in slot_action_options(s, p, frame[2])] + [("skip",)]


def _a_slot_action(s, frame, action):
    if action[0] == "skip":
        return
    _k, seat, part = frame
    p = s.players[seat]
    if part.cost is not None:
        pay(p, part.cost.vec())
    slot = next(sl for sl in s.st.slots if sl.id == action[1])
    push_effect(s, seat, slot.effect, "slot")


# symbiosis: turn a nonsymbiotic city into a symbiotic one (rulebook "Upgrading Structures":
# "There is a card that will let you turn a nonsymbiotic city into a symbiotic city")
def symbiosis_options(s, p, part) -> list[int]:
    if s.supply[2] <= 0:
        return []
    if part.cost is not None and not affordable(p, part.cost.vec()):
        return []
    from .network import bits
    return list(bits(p.cmask & ~p.smask))


def _l_symbiosis(s, frame):
    p = s.players[frame[1]]
    return [("convert", c) for c in symbiosis_options(s, p, frame[2])] + [("skip",)]


def _a_symbiosis(s, frame, action):
    if action[0] == "skip":
        return
    p = s.players[frame[1]]
    part = frame[2]
    if part.cost is not None:
        pay(p, part.cost.vec())
    p.smask |= 1 << action[1]
    p.net = None
    s.supply[2] -= 1
    s.supply[1] += 1


# produce: gain the Production output of one connected structure once (`upgraded`: only an
# upgraded one, "Trial Run")
def produce_options(s, p, part) -> list[tuple[str, int]]:
    from .network import BUILDINGS, bits
    g = s.geo
    kinds = TARGET_KINDS[part.what]
    n = net(g, p)
    out = []
    if "tunnel" in kinds:
        near = 0
        for c in bits(p.cmask):
            near |= g.city_tun[c]
        out += [("tunnel", t) for t in bits(near & (p.tun_up if part.upgraded else p.tun))]
    for c in bits(n.conn):
        for b in g.city_bsites[c]:
            code = p.bld[b]
            if code and BUILDINGS[code - 1] in kinds and (not part.upgraded or p.bup >> b & 1):
                out.append((BUILDINGS[code - 1], b))
    return sorted(out, key=lambda o: (o[0] != "tunnel", o[1]))


def _l_produce(s, frame):
    p = s.players[frame[1]]
    return [("produce", k, site) for k, site in produce_options(s, p, frame[2])] + [("skip",)]


def _a_produce(s, frame, action):
    if action[0] == "skip":
        return
    p = s.players[frame[1]]
    _, kind, site = action
    out = getattr(s.rules.production, kind)
    up = (p.tun_up if kind == "tunnel" else p.bup) >> site & 1
    s.gain(p, out.base, "other")
    if up:
        s.gain(p, out.upgraded, "other")


UWCState.LEGAL.update(parts=_l_parts, trade=_l_trade, pick=_l_pick, either=_l_either,
                      refresh=_l_refresh, slot_action=_l_slot_action, symbiosis=_l_symbiosis,
                      produce=_l_produce)
UWCState.APPLY.update(parts=_a_parts, trade=_a_trade, pick=_a_pick, either=_a_either,
                      refresh=_a_refresh, slot_action=_a_slot_action, symbiosis=_a_symbiosis,
                      produce=_a_produce)
