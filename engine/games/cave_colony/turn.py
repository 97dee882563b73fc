"""Rulebook "Turn Order": a turn, clockwise, one player at a time.

- With no colony card that is not completed: draw 2, keep 1 (colony_cards.py).
- With no active worker: recruit, which takes the whole turn (recruiting.py).
- Otherwise: 1. spend 1 oxygen onto the colony tile (a worker that cannot pay dies and the
  player recruits: oxygen.py); 2. roll the Energy Die; 3. actions up to the roll plus the
  worker's extra energy (actions.py); 4. end the turn, pass the dice to the left.

A round is one turn of every player from the first player on; a game that reaches the rules'
turn limit without a winner stops there (ended_by = "turn_limit").
"""

from __future__ import annotations

from . import cards as C
from .state import task


@task("start_game")
def start_game(s, t) -> None:
    s.round = 1
    s.then(("turn", s.first_seat))


@task("turn")
def start_turn(s, t) -> None:
    seat = t[1]
    s.cur = seat
    s.energy = 0
    s.free = 0
    s.fought = 0
    s.eq_turn = 0
    s.actions = 0
    s.offered = ()
    if s.card[seat] < 0 and s.deck[C.COLONY]:
        s.phase = "colony"
        s.then(("draw_colony", seat), ("worker", seat))
    else:
        s.then(("worker", seat))


@task("worker")
def worker_turn(s, t) -> None:
    seat = t[1]
    if not s.alive[seat]:
        s.then(("recruit", seat), ("end_turn", seat))
        return
    if s.oxy[seat] <= 0:                           # "no Oxygen to spend" (RB:121, RB:143)
        s.phase = "oxygen"
        s.stack.append(("die", seat))              # oxygen.py: the worker dies
        return
    # 1. "Spend 1 Oxygen by placing it on your Colony Tile" (an upkeep above 1, from a trait,
    # takes what the worker has: it dies only once it has none, RB:143)
    k = min(s.upkeep(seat), s.oxy[seat])
    s.oxy[seat] -= k
    s.colony_oxy[seat] += k
    if s.rules.colony.refill and s.pos[seat] == s.home(seat):
        s.refill(seat)
    # 2. "Roll the Energy Die"; extra energy: the silver crystals (and negative traits)
    roll = s.roll(s.st.energy_faces)
    neg = min(0, s.mods[seat][C.ENERGY])
    extra = 0 if s.once else s.ecrys[seat]
    s.energy = max(0, roll + extra + neg)
    s.free = s.mcrys[seat]
    s.last_roll = roll
    s.phase = "actions"
    s.stack.append(("act", seat))


@task("end_turn")
def end_turn(s, t) -> None:
    """4. "End your turn and pass the dice to your left"."""
    if s.over:
        return
    seat = t[1]
    if len(t) == 2:     # however the turn ended (its end, an anomaly, a death, a recruit):
        # first the off-turn trade window (trading.py), then the dice pass on
        s.then(("trade_window", seat, 1), ("end_turn", seat, "traded"))
        return
    s.energy = 0
    s.free = 0
    nxt = seat
    for _ in range(s.n):
        nxt = (nxt + 1) % s.n
        if nxt == s.first_seat:
            if s.round >= s.rules.game.turn_limit:
                end_game(s, "turn_limit")
                return
            s.round += 1
        if nxt not in s.finish:                   # play-out: finished colonies sit out
            break
    s.then(("turn", nxt))


def end_game(s, how: str) -> None:
    """The game is over: by a win ("win") or at the turn limit ("turn_limit", no winner)."""
    s.over = True
    s.ended_by = how
    s.stack.clear()
    s.agenda.clear()
    s.phase = "end"
