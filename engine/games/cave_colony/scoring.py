"""Score: every completed colony card is one score event (category "colony", 1 point, logged
with the card: colony_cards.complete), so the winner has 5 ("After Completing 5 Colony Cards,
you are the winner and the game is over").

Ranks: the colonies that completed 5 cards first (in the order they did, with the play-out
switch), then the others by (documented tie-break, RULES.md "Ranking"):
  1. completed colony cards, more first;
  2. gems on the unfinished colony card, more first;
  3. gems the worker carries, more first;
  4. a roll-off at the end of the game (one shuffle of the seats from the game's chance
     stream: no seat is favoured).
The last key differs for every seat, so ranks never tie: exactly one winner.  A game stopped
by the turn limit is won by the seat ranked first.
"""

from __future__ import annotations

from engine.core.protocol import SeatResult

from .state import NC

CATEGORIES = ("colony",)


def standing(s, seat: int) -> tuple[int, ...]:
    finished = s.n - s.finish.index(seat) if seat in s.finish else 0
    on_card = sum(s.oncard[seat * NC: seat * NC + NC])
    carried = sum(s.carry[seat * NC: seat * NC + NC])
    roll = s.rolloff.index(seat) if s.rolloff else 0
    return (finished, len(s.done[seat]), on_card, carried, roll)


def result(s) -> list[SeatResult]:
    keys = [standing(s, i) for i in range(s.n)]
    out = []
    for i in range(s.n):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        score = len(s.done[i])
        out.append(SeatResult(seat=i, score=score, breakdown={"colony": score} if score else {},
                              rank=rank, won=s.over and rank == 1, tiebreak=keys[i][2:]))
    return out
