"""A tiny test-only game that follows engine.core.protocol, used by the pipeline tests.

Each round every seat takes one decision: dig an unclaimed cell (gains coins by the cell's
kind and 1 point), build (pays `costs.build` coins, 3 points) or pass.  At the end each seat
scores its faction bonus and a point per two coins.  Cell kinds and the first seat come from
the game's chance stream.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from engine.core.errors import SetupError
from engine.core.events import EventLog
from engine.core.protocol import Game, MapCell, SeatResult
from engine.core.registry import register
from engine.core.rng import chance_rng
from engine.core.rules import FaultInjection, RulesModel, load_rules

RULES_DIR = Path(__file__).resolve().parent / "toy_rules"
KINDS = ("dirt", "iron", "gold")
GAIN = {"dirt": 0, "iron": 1, "gold": 2}


class ToyCfg(RulesModel):
    rounds: int = Field(ge=1)


class ToyCosts(RulesModel):
    dig: int = Field(ge=0)
    build: int = Field(ge=0)


class ToyFaction(RulesModel):
    id: str
    bonus: int = Field(ge=0)


class ToyMap(RulesModel):
    id: str
    width: int = Field(ge=1)
    height: int = Field(ge=1)
    max_players: int = Field(ge=1)


class ToyRules(RulesModel):
    game: ToyCfg
    costs: ToyCosts
    factions: tuple[ToyFaction, ...]
    maps: tuple[ToyMap, ...]
    testing: FaultInjection = FaultInjection()   # test-only fault injection, off by default


class ToyState:
    def __init__(self, rules, seats, seed, map_id, log):
        self.rules = rules
        self.seats = list(seats)
        self.n = len(seats)
        self.map_id = map_id
        m = next(m for m in rules.maps if m.id == map_id)
        rng = chance_rng(seed)
        self.kinds = [KINDS[rng.randrange(3)] for _ in range(m.width * m.height)]
        self.claimed = [None] * len(self.kinds)
        self.coins = [0] * self.n
        self.first_seat = rng.randrange(self.n)
        self.turn = 0
        self.round = 1
        self.step = 0
        self.phase = "dig"
        self.ended_by = None
        self.log = EventLog(log)
        self._over = False

    def to_move(self):
        return (self.first_seat + self.turn) % self.n

    def legal_actions(self):
        if self._over:
            return []
        seat = self.to_move()
        acts = [("dig", c) for c, who in enumerate(self.claimed) if who is None
                and self.coins[seat] >= self.rules.costs.dig - 1]
        if self.coins[seat] >= self.rules.costs.build:
            acts.append(("build",))
        acts.append(("pass",))
        return acts

    def describe(self, action):
        if action[0] == "dig":
            return "dig", self.kinds[action[1]], action[1]
        return action[0], "", None

    def apply(self, action):
        from engine.core.errors import IllegalAction
        if action not in self.legal_actions():
            raise IllegalAction(str(action))
        seat = self.to_move()
        name, detail, cell = self.describe(action)
        self.step += 1
        self.log.move(self.step, self.round, self.phase, seat, name, detail, cell)
        if name == "dig":
            self.claimed[cell] = seat
            self.coins[seat] += GAIN[self.kinds[cell]]
            self.log.score(self.step, self.round, seat, "dig", 1)
        elif name == "build":
            self.coins[seat] -= self.rules.costs.build
            self.log.score(self.step, self.round, seat, "build", 3)
        self.turn += 1
        if self.turn == self.n:
            self.turn = 0
            if self.round == self.rules.game.rounds:
                self._finish("rounds")
            else:
                self.round += 1

    def _finish(self, why):
        self._over = True
        self.ended_by = why
        bonus = {f.id: f.bonus for f in self.rules.factions}
        for s, seat in enumerate(self.seats):
            self.log.score(self.step, self.round, s, "faction", bonus[seat.faction])
            self.log.score(self.step, self.round, s, "coins", self.coins[s] // 2)

    def is_over(self):
        return self._over

    def result(self):
        totals = self.log.totals(self.n)
        out = []
        for s in range(self.n):
            rank = 1 + sum(1 for t in totals if t > totals[s])
            out.append(SeatResult(s, totals[s], self.log.breakdown(s), rank, rank == 1))
        return out

    def clone(self):
        new = ToyState.__new__(ToyState)
        new.__dict__.update(self.__dict__)
        new.claimed = list(self.claimed)
        new.coins = list(self.coins)
        new.seats = list(self.seats)
        new.log = self.log.copy()
        return new


def _maps(rules):
    return [m.id for m in rules.maps]


def _factions(rules):
    return [f.id for f in rules.factions]


def _check_setup(rules, n_players, map=None, factions=None):
    if n_players not in GAME.player_counts:
        raise SetupError(f"toy: {n_players} players cannot be seated; expected one of {GAME.player_counts}")
    if map is not None:
        if map not in _maps(rules):
            raise SetupError(f"toy: unknown map '{map}'; expected one of {', '.join(_maps(rules))}")
        m = next(m for m in rules.maps if m.id == map)
        if n_players > m.max_players:
            raise SetupError(f"toy: map '{map}' seats at most {m.max_players} players, not {n_players}")
    if factions is not None:
        for f in factions:
            if f not in _factions(rules):
                raise SetupError(f"toy: unknown faction '{f}'; expected one of {', '.join(_factions(rules))}")
        if len(set(factions)) != len(factions):
            raise SetupError(f"toy: each seat needs a different faction, got {', '.join(factions)}")


def _new_game(rules, seats, seed, *, map=None, log=True):
    _check_setup(rules, len(seats), map, [s.faction for s in seats])
    if map is None:
        fits = [m.id for m in rules.maps if m.max_players >= len(seats)]
        map = fits[seed % len(fits)]
    return ToyState(rules, seats, seed, map, log)


def _map_cells(rules):
    return [MapCell(m.id, y * m.width + x, x, y, "ground")
            for m in rules.maps for y in range(m.height) for x in range(m.width)]


def _evaluate(state, seat):
    return state.log.totals(state.n)[seat] + 0.3 * state.coins[seat]


class ToyGame(Game):
    def load_rules(self, variants=(), sets=()):
        return load_rules(self.id, self.rules_model, variants=variants, sets=sets, rules_dir=RULES_DIR)


GAME = ToyGame(
    id="toy", title="Toy (tests only)", player_counts=(2, 3, 4),
    score_categories=("dig", "build", "faction", "coins"), rules_model=ToyRules,
    new_game=_new_game, observe=lambda state, seat: state.clone(), factions=_factions,
    maps=_maps, map_cells=_map_cells, check_setup=_check_setup, evaluate=_evaluate,
    max_rounds=lambda rules: rules.game.rounds,
)
register(GAME)
