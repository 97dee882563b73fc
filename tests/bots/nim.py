"""Nim, test-only: a tiny game whose right answer is known (Bouton 1901).

Heaps of stones; a decision takes 1 to all stones from one heap; who takes the last stone
wins.  A position is lost for the player to move exactly when the XOR of the heaps is 0.
The heuristic is deliberately naive (stones taken so far), so the greedy bot grabs the
largest heap and a search bot has to look ahead to win.
"""

from __future__ import annotations

from engine.core.protocol import Game, SeatResult


class NimState:
    def __init__(self, heaps, n=2):
        self.heaps = list(heaps)
        self.n = n
        self.turn = 0
        self.taken = [0] * n
        self.step = 0
        self.round = 1
        self.phase = "take"
        self.winner = None

    def to_move(self):
        return self.turn

    def legal_actions(self):
        return [(h, k) for h, size in enumerate(self.heaps) for k in range(1, size + 1)]

    def apply_legal(self, a, legal):
        if a not in legal:
            raise ValueError(a)
        h, k = a
        self.heaps[h] -= k
        self.taken[self.turn] += k
        self.step += 1
        if not any(self.heaps):
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.n

    def apply(self, a):
        self.apply_legal(a, self.legal_actions())

    def is_over(self):
        return self.winner is not None

    def result(self):
        return [SeatResult(s, int(s == self.winner), {}, 1 if s == self.winner else 2,
                           s == self.winner) for s in range(self.n)]

    def clone(self):
        c = NimState.__new__(NimState)
        c.__dict__.update(self.__dict__)
        c.heaps = self.heaps.copy()
        c.taken = self.taken.copy()
        return c


def _evaluate(state, seat):
    return 0.1 * state.taken[seat]


NIM = Game(id="nim", title="Nim (test only)", player_counts=(2,), score_categories=(),
           rules_model=None, new_game=None, observe=lambda s, seat: s.clone(),
           factions=None, maps=None, map_cells=None, check_setup=None, evaluate=_evaluate)


def nim_sum(heaps) -> int:
    x = 0
    for h in heaps:
        x ^= h
    return x
