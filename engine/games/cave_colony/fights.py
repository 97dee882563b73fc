"""Rulebook "Fighting": "In order to enter a Fight, a Worker on their turn must be standing on a
tile another Worker is on. They may spend any amount of Energy (0 to Total Energy available) to
Fight that Worker. The amount of energy spent is ADDED to the roll Value of the attacker. Each
Worker then rolls the Event Die and the Winner gets to steal 1 Resource or 1 Oxygen from the
Loser. In the event of a tie, the Defender wins."  "You can only fight each Worker once per
turn."

Decisions: ("fight", seat) on the attacker's turn, ("attack", energy) how much energy it adds,
then the winner's ("steal", what): "oxygen", a gem colour, or "nothing" when the loser has
neither.  Traits and equipment add `attack` / `defend` to the rolls.  Resources are the gems a
worker carries (assumed).  "results in the loss of a single Oxygen": switch `fights.loss.oxygen`
(RULES.md "Fights"): "one" (default) the loser always loses exactly one oxygen, the stolen one
or, when the winner takes a gem or nothing, one to the supply; "steal" only what is stolen;
"extra" one to the supply before the steal, and the steal besides.
"""

from __future__ import annotations

from . import cards as C
from .state import NC, apply, legal


def fight_options(s, seat: int) -> list[tuple]:
    if not s.rules.fights.enabled:
        return []
    cell = s.pos[seat]
    return [("fight", t) for t in range(s.n)
            if t != seat and s.alive[t] and s.pos[t] == cell and not s.fought >> t & 1]


def fight(s, seat: int, target: int) -> None:
    s.fought |= 1 << target
    s.phase = "fight"
    s.stack.append(("attack", seat, target))


@legal("attack")
def attack_options(s, frame):
    return [("attack", k) for k in range(s.available() + 1)]


@apply("attack")
def attack(s, frame, a) -> None:
    _, seat, target = frame
    k = a[1]
    s.pay(k)
    faces = s.st.event_faces
    att = s.roll(faces) + k + s.mods[seat][C.ATTACK]
    dfn = s.roll(faces) + s.mods[target][C.DEFEND]
    if att > dfn:
        winner, loser = seat, target
    else:                                          # "In the event of a tie, the Defender wins"
        winner, loser = target, seat
    if s.rules.fights.loss.oxygen == "extra" and s.oxy[loser] > 0:
        s.oxy[loser] -= 1                          # "results in the loss of a single Oxygen"
        s.oxy_supply += 1
    s.stack.append(("steal", winner, loser, att, dfn))


def steal_options_for(s, loser: int) -> list[tuple]:
    out = []
    if s.rules.fights.steal_oxygen and s.oxy[loser] > 0:
        out.append(("steal", "oxygen"))
    base = loser * NC
    out.extend(("steal", c) for c in range(NC) if s.carry[base + c])
    return out or [("steal", "nothing")]


@legal("steal")
def steal_options(s, frame):
    return steal_options_for(s, frame[2])


@apply("steal")
def steal(s, frame, a) -> None:
    winner, loser = frame[1], frame[2]
    what = a[1]
    if what == "oxygen":
        s.oxy[loser] -= 1
        if s.oxy[winner] < s.max_oxygen(winner):
            s.oxy[winner] += 1
        else:                                      # no room: the crystal goes to the supply
            s.oxy_supply += 1
    else:
        if what != "nothing":
            s.carry[loser * NC + what] -= 1
            s.carry[winner * NC + what] += 1
        if s.rules.fights.loss.oxygen == "one" and s.oxy[loser] > 0:
            s.oxy[loser] -= 1                      # "results in the loss of a single Oxygen"
            s.oxy_supply += 1
    s.phase = "actions"
