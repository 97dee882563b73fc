"""Batch planning: which games a run plays, with which seats, seeds and chunks.

Everything the user gave is validated here, before the database is touched: the game, the
rules (variants, --set overrides), the map, the factions, the bots and the player count.

Seats.  Bots stay fixed to seats as given.  Which factions sit together, and where, follows a
seeded balanced design (`pipelines.run.seating`): over every cycle of tables each faction meets
each other faction equally often, sits right after each other faction equally often (the
neighbours a turn passes between) and sits in every seat equally often, the factions assigned
to the design by a permutation drawn from the run seed.  `factions` is every faction of the
game ("rotate", the name kept for the CLI) or an explicit list (one per seat, seats rotated).
Runs planned before the design (config without `seating`) keep the old alphabetical rotation
(game i, seat s gets `factions[(i + s) % k]`) so that they resume with the same games.
Maps.  Without --map, game i is on map i mod (number of maps): with the tables of every cycle
in a seeded order, map and table are independent.
Seeds.  Game i's seed is `engine.core.rng.game_seed(run_seed, i)`: independent of workers,
chunk sizes and backends.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from engine.bots import BOTS, canonical_spec
from engine.core.errors import DelveError, SetupError
from engine.core.protocol import Game, Seat
from engine.core.registry import get_game
from engine.core.rng import game_seed
from engine.core.rules import LoadedRules, canonical_json, validate

from . import seating as seating_design


@dataclass(frozen=True)
class GameSpec:
    index: int
    seed: int
    seats: tuple[Seat, ...]
    map: str | None


@dataclass(frozen=True)
class SpecMaker:
    """Game i's spec, a pure function of the run's seed, seating and maps."""
    factions: tuple[str, ...]
    n_players: int
    bots: tuple[str, ...]
    maps: tuple[str, ...]
    map: str | None
    seating: str
    design: seating_design.Design | None
    seed: int

    def __call__(self, i: int) -> GameSpec:
        if self.design is not None:
            table = self.design.seating(i)
        else:
            table = seat_factions(list(self.factions), i, self.n_players)
        seats = tuple(Seat(f, b) for f, b in zip(table, self.bots))
        mp = self.map or (rotated_map(list(self.maps), list(self.factions), i)
                          if self.seating == "rotate" else self.maps[i % len(self.maps)])
        return GameSpec(i, game_seed(self.seed, i), seats, mp)


class Specs(SequenceABC):
    """The games of a plan, made on demand (a million planned games cost nothing until they
    are played): a read-only sequence of `GameSpec` for indices first .. first + n - 1."""

    def __init__(self, make: SpecMaker, first: int, n: int):
        self.make, self.first, self.n = make, first, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.make(self.first + j) for j in range(*k.indices(self.n))]
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError(k)
        return self.make(self.first + k)

    def __iter__(self):
        for j in range(self.n):
            yield self.make(self.first + j)

    def __eq__(self, other) -> bool:
        return isinstance(other, SequenceABC) and list(self) == list(other)


@dataclass
class Plan:
    game: Game
    rules: LoadedRules
    run_seed: int
    n_players: int
    bots: tuple[str, ...]
    factions: tuple[str, ...]          # the factions the design seats
    map: str | None
    variants: tuple[str, ...]
    sets: tuple[str, ...]
    specs: Sequence[GameSpec]        # Specs (lazy) or a list (a subset: resume, pairing)
    rules_payload: str = ""            # JSON the workers validate to rebuild the rules
    game_modules: tuple[str, ...] = field(default_factory=tuple)
    seating: str = seating_design.VERSION   # "balanced-2"; "balanced-1" or "rotate" for older runs
    design: seating_design.Design | None = None

    @property
    def n_games(self) -> int:
        return len(self.specs)

    @property
    def variant_name(self) -> str:
        """The variant files' names ("base" without any), and the --set changes after a "+"
        (audit N10: a run with only --set changes is not named like the base game)."""
        name = ",".join(Path(v).stem for v in self.variants) or "base"
        if self.sets:
            name = f"{name} + {'; '.join(self.sets)}"
            if len(name) > 80:
                name = name[:79] + "…"
        return name

    def chunks(self, chunk_size: int) -> list[list[GameSpec]]:
        return [self.specs[i:i + chunk_size] for i in range(0, len(self.specs), chunk_size)]


def default_chunk_size(n_games: int, jobs: int) -> int:
    return max(1, min(50, n_games // (max(1, jobs) * 4)))


def parse_list(text: str) -> list[str]:
    return [p.strip() for p in str(text).split(",")]


def parse_bots(spec: str, n_players: int) -> tuple[str, ...]:
    names = parse_list(spec)
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise DelveError(f"--bots '{spec}' names {len(names)} bots for {n_players} players: expected "
                         f"one bot for every seat, or a single bot for all (one of {', '.join(BOTS)})")
    out = []
    for name in names:
        try:  # a search bot's spec is recorded with its budget (mcts -> mcts:400)
            out.append(canonical_spec(name))
        except DelveError as exc:
            raise DelveError(f"{exc} in --bots '{spec}' (one bot for all seats, or a comma "
                             f"list with one per seat)") from None
    return tuple(out)


def game_modules(game: Game) -> tuple[str, ...]:
    """Modules a worker imports so that `game` is registered there too."""
    mods = []
    for obj in (game.new_game, type(game)):
        mod = getattr(obj, "__module__", None)
        if mod and mod not in ("builtins", "engine.core.protocol") and mod not in mods:
            mods.append(mod)
    return tuple(mods)


def import_game(game_id: str, modules: Sequence[str] = ()) -> Game:
    for mod in modules:
        importlib.import_module(mod)
    return get_game(game_id)


def rules_payload(game: Game, rules: LoadedRules) -> str:
    """The effective rules as canonical JSON, checked to rebuild the same model."""
    text = canonical_json(rules.model)
    import json
    again = validate(game.rules_model, json.loads(text))
    if canonical_json(again) != text:  # pragma: no cover - a rules model that does not round-trip
        raise RuntimeError(f"{game.id}: the rules model does not survive a JSON round trip")
    return text


def seat_factions(factions: Sequence[str], game_index: int, n_players: int) -> list[str]:
    """The old alphabetical rotation (kept for runs planned before the balanced design)."""
    k = len(factions)
    return [factions[(game_index + s) % k] for s in range(n_players)]


def make_plan(game_id: str, *, n_games: int, n_players: int, bots: str = "random", seed: int = 0,
              variants: Sequence[str] = (), sets: Sequence[str] = (), map: str | None = None,
              factions: str = "rotate", first_index: int = 0,
              rules: LoadedRules | None = None, seating: str | None = None) -> Plan:
    """Validate everything and plan the batch.  `rules` (already loaded, e.g. a stored run's
    rules when resuming) replaces loading the rules files with `variants` and `sets`.
    `seating`: the design version (None: the current one, `seating.VERSION`)."""
    seating = seating or seating_design.VERSION
    if n_games < 1:
        raise DelveError(f"--games {n_games}: expected a positive number of games")
    if seed < 0:
        raise DelveError(f"--seed {seed}: expected a non-negative integer")
    game = get_game(game_id)
    if rules is None:
        for v in variants:
            if not Path(v).is_file():
                raise DelveError(f"Variant file '{v}' (--variant) does not exist: expected a TOML "
                                 f"patch such as data/variants/{game_id}/<name>.toml")
        rules = game.load_rules(variants=tuple(str(v) for v in variants), sets=tuple(sets))
    model = rules.model
    if n_players not in game.player_counts:
        raise SetupError(f"--players {n_players}: {game.title} seats "
                         f"{', '.join(map_str(game.player_counts))} players")
    maps = list(game.maps(model))
    if map is not None and map not in maps:
        raise SetupError(f"Unknown map '{map}' (--map) for {game_id}: expected one of {', '.join(maps)}")
    all_factions = list(game.factions(model))
    if factions is None or factions == "rotate":
        flist = all_factions
    else:
        flist = parse_list(factions)
        for f in flist:
            if f not in all_factions:
                raise SetupError(f"Unknown faction '{f}' in --factions '{factions}' for {game_id}: "
                                 f"expected 'rotate' or a comma list of {', '.join(all_factions)}")
        if len(flist) != n_players:
            raise SetupError(f"--factions '{factions}' names {len(flist)} factions for {n_players} "
                             f"players: expected exactly one per seat (they rotate over seats)")
    if not flist:
        raise SetupError(f"{game_id}: the rules define no factions to seat")
    bot_names = parse_bots(bots, n_players)
    design = None
    if seating == "rotate":
        distinct = [seat_factions(flist, i, n_players) for i in range(len(flist))]
    elif seating in seating_design.VERSIONS:
        design = seating_design.make_design(flist, n_players, seed, seating)
        distinct = sorted({t for t in design.tables})
    else:
        raise DelveError(f"seating design '{seating}' (runs.config or --seating): expected one of "
                         f"{', '.join(seating_design.VERSIONS)} or 'rotate'")
    # Every distinct seating the design produces must be accepted by the game.
    for table in distinct:
        game.check_setup(model, n_players, map, list(table))
    specs = Specs(SpecMaker(tuple(flist), n_players, tuple(bot_names), tuple(maps), map,
                            seating, design, seed), first_index, n_games)
    return Plan(game=game, rules=rules, run_seed=seed, n_players=n_players, bots=bot_names,
                factions=tuple(flist), map=map, variants=tuple(str(v) for v in variants),
                sets=tuple(sets), specs=specs, rules_payload=rules_payload(game, rules),
                game_modules=game_modules(game), seating=seating, design=design)


def rotated_map(maps: list[str], factions: list[str], index: int) -> str:
    """The old rotation's maps (runs planned before the balanced design): blocks of one full
    faction rotation on the same map."""
    return maps[(index // max(1, len(factions))) % len(maps)]


def stored_rules(game: Game, rules_json: str) -> LoadedRules:
    """A stored run's effective rules (runs.rules) as LoadedRules."""
    import json
    doc = json.loads(rules_json)
    return LoadedRules(model=validate(game.rules_model, doc), doc=doc, base_doc=doc,
                       sources=["runs.rules"])


def map_str(values) -> list[str]:
    return [str(v) for v in values]


def plan_from_run(row: dict) -> Plan:
    """The plan of a stored run (its `runs` row): the same games, seeds, seats and maps, with
    the run's stored effective rules (so resuming or reproducing never reloads the files)."""
    import json
    cfg = json.loads(row["config"] or "{}")
    game = import_game(row["game"], cfg.get("game_modules", ()))
    plan = make_plan(game.id, n_games=int(row["n_games"]), n_players=int(cfg["players"]),
                     bots=cfg["bots"], seed=int(row["seed"]), map=cfg.get("map"),
                     factions=cfg.get("factions", "rotate"),
                     rules=stored_rules(game, row["rules"]), seating=cfg.get("seating", "rotate"))
    plan.variants = tuple(cfg.get("variants", ()))
    plan.sets = tuple(cfg.get("sets", ()))
    return plan
