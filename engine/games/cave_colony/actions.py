"""Rulebook "Actions": "the different things your Worker can do on their turn. Every bullet
below is something that requires 1 Energy to do. If something is not listed below, assume that
the Energy cost is 0": move 1 tile (movement.py), use equipment (equipment.py), collect a gem,
spend a gem (gems.py).  Fights (fights.py) and trades (trading.py) cost only the energy a
fighter chooses to add.  The turn's actions are one decision each, in any order, until the
player ends the turn with ("end",) (always legal) or the `game.max_actions_per_turn` guard.
"""

from __future__ import annotations

from . import cards as C
from .equipment import use, use_options
from .fights import fight, fight_options
from .gems import collect, collect_options, spend, spend_options
from .movement import move, move_options
from .state import apply, legal
from .trading import offer, offer_options

END = ("end",)


@legal("act")
def act_options(s, frame):
    seat = frame[1]
    if s.actions >= s.rules.game.max_actions_per_turn:
        return [END]
    out = move_options(s, seat)
    out += collect_options(s, seat)
    out += spend_options(s, seat)
    out += use_options(s, seat)
    out += fight_options(s, seat)
    out += offer_options(s, seat)
    out.append(END)
    return out


@apply("act")
def act(s, frame, a) -> None:
    seat = frame[1]
    kind = a[0]
    if kind == "end":
        s.then(("end_turn", seat))
        return
    s.actions += 1
    s.stack.append(frame)          # the turn goes on after this action (and its decisions)
    if kind == "move":
        move(s, seat, a[1])
    elif kind == "collect":
        s.pay(s.cost(seat, C.COLLECT_COST))
        collect(s, seat, a[1])
    elif kind == "spend":
        s.pay(s.cost(seat, C.SPEND_COST))
        spend(s, seat, a[1])
    elif kind == "use":
        use(s, seat, a)
    elif kind == "fight":
        fight(s, seat, a[1])
    else:
        offer(s, seat, a)
