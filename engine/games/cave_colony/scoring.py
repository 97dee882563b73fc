"""Score: every completed colony card is one score event (category "colony", 1 point, logged
with the card: colony_cards.complete), so the winner has 5 ("After Completing 5 Colony Cards,
you are the winner and the game is over").

Winner: "After Completing 5 Colony Cards, you are the winner and the game is over" (RB:145)
is the only way to win.  A game stopped by the turn limit (an assumed guard, RULES.md) has no
winner: `won` is False for every seat and `games.winner_seat` is NULL (DESIGN.md).

Ranks: the colonies that completed 5 cards first (in the order they did, with the play-out
switch), then the others by their standing (RULES.md "Score and ranking"): completed colony
cards, then gems on the unfinished colony card, then gems the worker carries.  Seats level on
all three share a rank: there is no roll-off, since the rulebook has none.
"""

from __future__ import annotations

from engine.core.protocol import SeatResult

from .state import NC

CATEGORIES = ("colony",)


def standing(s, seat: int) -> tuple[int, ...]:
    finished = s.n - s.finish.index(seat) if seat in s.finish else 0
    on_card = sum(s.oncard[seat * NC: seat * NC + NC])
    carried = sum(s.carry[seat * NC: seat * NC + NC])
    return (finished, len(s.done[seat]), on_card, carried)


def result(s) -> list[SeatResult]:
    keys = [standing(s, i) for i in range(s.n)]
    winner = s.finish[0] if s.over and s.finish else None
    out = []
    for i in range(s.n):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        score = len(s.done[i])
        out.append(SeatResult(seat=i, score=score, breakdown={"colony": score} if score else {},
                              rank=rank, won=i == winner, tiebreak=keys[i][2:]))
    return out
