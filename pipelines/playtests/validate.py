"""Checking a playtest table against the game's rules, row by row, before anything is written.

Every problem is a PlaytestFileError naming the file, the row and the column and what was
expected: an unknown faction, a seat twice, two winners, a player count the game does not
allow, a category the game does not score, categories that do not add up to the score, a
wrong game, a score that is not a number, a missing column, an empty file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.errors import DelveError

from .table import POINTS_PREFIX, PlaytestFileError, Sheet

WON_WORDS = {"yes": "yes", "y": "yes", "true": "yes", "1": "yes", "x": "yes", "won": "yes",
             "no": "no", "n": "no", "false": "no", "0": "no", "": None, "lost": "no",
             "tie": "tie", "tied": "tie", "shared": "tie"}


@dataclass
class Seat:
    row: int
    seat: int
    faction: str
    player: str
    score: int
    rank: int | None
    won: str                       # "yes", "no" or "tie"
    points: dict[str, int]         # the categories noted (empty: none noted)
    notes: str = ""


@dataclass
class PlayedGame:
    key: str                       # the designer's game id
    rows: list[int]
    date: dt.date | None
    event: str
    game_number: int | None
    n_players: int
    map: str | None
    variant: str                   # as written ("" = base)
    rules_hash: str
    rounds: int | None
    notes: str
    seats: list[Seat] = field(default_factory=list)

    @property
    def winner_seat(self) -> int | None:
        won = [s.seat for s in self.seats if s.won == "yes"]
        return won[0] if len(won) == 1 else None

    @property
    def tie(self) -> bool:
        return any(s.won == "tie" for s in self.seats)


@dataclass
class Playtest:
    """A validated file: its games, and a content hash (the same table is imported once)."""

    game: str
    file: str
    games: list[PlayedGame]
    content_hash: str


def _int(sheet: Sheet, row: int, col: str, text: str, *, low: int | None = None,
         high: int | None = None, what: str = "a whole number") -> int:
    try:
        value = int(text.replace(" ", ""))
    except ValueError:
        try:
            f = float(text)
        except ValueError:
            f = None
        if f is None or not f.is_integer():
            raise PlaytestFileError(sheet.file, f"'{text}' is not {what}", row=row, column=col) from None
        value = int(f)
    if (low is not None and value < low) or (high is not None and value > high):
        rng = f"{low}..{high}" if high is not None else f"at least {low}"
        raise PlaytestFileError(sheet.file, f"{value} is out of range: expected {rng}", row=row, column=col)
    return value


def resolve_rules(game, text: str, sheet: Sheet, row: int):
    """The rules a played game used: `variant` is '', 'base', a variant name or file, --set
    text (`path=value`), or several joined with ';'."""
    from engine.core.rules import REPO_ROOT
    variants, sets = [], []
    for part in (p.strip() for p in text.replace(",", ";").split(";")):
        if not part or part.lower() == "base":
            continue
        if "=" in part:
            sets.append(part.removeprefix("--set").strip())
            continue
        path = Path(part)
        if not path.suffix:
            path = REPO_ROOT / "data" / "variants" / game.id / f"{part}.toml"
        if not path.is_file():
            known = sorted(p.stem for p in (REPO_ROOT / "data" / "variants" / game.id).glob("*.toml"))
            raise PlaytestFileError(sheet.file, f"no variant '{part}' for {game.id}: expected base, "
                                    f"one of {', '.join(known) or '(none)'}, a .toml file or "
                                    f"path=value", row=row, column="variant")
        variants.append(str(path))
    try:
        return game.load_rules(variants=tuple(variants), sets=tuple(sets))
    except DelveError as exc:
        raise PlaytestFileError(sheet.file, f"the rules '{text}' do not load: {exc}", row=row,
                                column="variant") from None


def validate(sheet: Sheet, game) -> Playtest:
    """The file's games, checked against `game` (a registered Game)."""
    cats = tuple(game.score_categories)
    for col in sheet.header:
        if col.startswith(POINTS_PREFIX) and col[len(POINTS_PREFIX):] not in cats:
            raise PlaytestFileError(sheet.file, f"{game.id} has no score category "
                                    f"'{col[len(POINTS_PREFIX):]}': expected points_ + one of "
                                    f"{', '.join(cats)}", row=sheet.header_row, column=col)
    point_cols = [c for c in sheet.header if c.startswith(POINTS_PREFIX)]
    by_key: dict[str, list[tuple[int, dict[str, str]]]] = {}
    for n, cells in sheet.rows:
        given = cells.get("game", "")
        if given and given.lower() != game.id:
            raise PlaytestFileError(sheet.file, f"this row is for the game '{given}', but the "
                                    f"import is for '{game.id}'", row=n, column="game")
        key = cells["game_id"]
        if not key:
            raise PlaytestFileError(sheet.file, "the game id is empty: every seat of one played "
                                    "game shares a game id (G1, G2 ...)", row=n, column="game_id")
        by_key.setdefault(key, []).append((n, cells))
    rules_cache: dict[str, object] = {}
    games = [_game(sheet, game, key, rows, point_cols, rules_cache) for key, rows in by_key.items()]
    canon = json.dumps([game.id, [_canonical(g) for g in games]], sort_keys=True, default=str)
    return Playtest(game.id, sheet.file, games, hashlib.sha256(canon.encode()).hexdigest())


def _same(sheet: Sheet, rows, col: str) -> str:
    """A per-game column: the value its rows give (blank rows take it); different values fail."""
    seen = {}
    for n, cells in rows:
        v = cells.get(col, "")
        if v:
            seen.setdefault(v, n)
    if len(seen) > 1:
        (a, ra), (b, rb) = list(seen.items())[:2]
        raise PlaytestFileError(sheet.file, f"one game's rows disagree: '{a}' (row {ra}) and "
                                f"'{b}'; every seat of a game has the same {col}", row=rb, column=col)
    return next(iter(seen), "")


def _game(sheet: Sheet, game, key: str, rows, point_cols, rules_cache) -> PlayedGame:
    first = rows[0][0]
    variant = _same(sheet, rows, "variant")
    if variant not in rules_cache:
        rules_cache[variant] = resolve_rules(game, variant, sheet, first)
    loaded = rules_cache[variant]
    rules = loaded.model
    factions = list(game.factions(rules))
    date_text = _same(sheet, rows, "date")
    try:
        date = dt.date.fromisoformat(date_text) if date_text else None
    except ValueError:
        raise PlaytestFileError(sheet.file, f"'{date_text}' is not a date: expected YYYY-MM-DD",
                                row=first, column="date") from None
    n_text = _same(sheet, rows, "n_players")
    n_players = _int(sheet, first, "n_players", n_text) if n_text else len(rows)
    counts = tuple(game.player_counts)
    if n_players not in counts:
        raise PlaytestFileError(sheet.file, f"game '{key}' has {n_players} players; {game.title} "
                                f"is played by {', '.join(map(str, counts))}", row=first,
                                column="n_players" if n_text else "game_id")
    if len(rows) != n_players:
        raise PlaytestFileError(sheet.file, f"game '{key}' has {len(rows)} rows for "
                                f"{n_players} players: expected one row per seat", row=rows[-1][0],
                                column="n_players" if n_text else "game_id")
    map_id = _same(sheet, rows, "map") or None
    if map_id is not None and map_id not in game.maps(rules):
        raise PlaytestFileError(sheet.file, f"no map '{map_id}': expected one of "
                                f"{', '.join(game.maps(rules))}", row=first, column="map")
    rounds_text = _same(sheet, rows, "rounds")
    number_text = _same(sheet, rows, "game_number")
    played = PlayedGame(key=key, rows=[n for n, _ in rows], date=date,
                        event=_same(sheet, rows, "event"),
                        game_number=_int(sheet, first, "game_number", number_text, low=0) if number_text else None,
                        n_players=n_players, map=map_id, variant=variant, rules_hash=loaded.hash,
                        rounds=_int(sheet, first, "rounds", rounds_text, low=1) if rounds_text else None,
                        notes="")
    seen_seats: dict[int, int] = {}
    for n, cells in rows:
        played.seats.append(_seat(sheet, n, cells, n_players, factions, point_cols, seen_seats))
    _check_outcome(sheet, played)
    try:
        game.check_setup(rules, n_players, map_id, [s.faction for s in played.seats])
    except DelveError as exc:
        text = str(exc).split(": ", 1)[1] if str(exc).startswith("--") else str(exc)
        raise PlaytestFileError(sheet.file, f"game '{key}' cannot be played so: {text}",
                                row=first, column="faction") from None
    played.seats.sort(key=lambda s: s.seat)
    return played


def _seat(sheet: Sheet, n: int, cells, n_players: int, factions, point_cols, seen_seats) -> Seat:
    if not cells["seat"]:
        raise PlaytestFileError(sheet.file, "the seat is empty: expected 0..P-1", row=n, column="seat")
    seat = _int(sheet, n, "seat", cells["seat"], low=0, high=n_players - 1)
    if seat in seen_seats:
        raise PlaytestFileError(sheet.file, f"seat {seat} appears twice in game "
                                f"'{cells['game_id']}' (rows {seen_seats[seat]} and {n}): each "
                                f"seat 0..{n_players - 1} once", row=n, column="seat")
    seen_seats[seat] = n
    faction = cells["faction"]
    if not faction:
        raise PlaytestFileError(sheet.file, f"the faction is empty: expected one of "
                                f"{', '.join(factions)}", row=n, column="faction")
    match = {f.lower(): f for f in factions}.get(faction.lower())
    if match is None:
        raise PlaytestFileError(sheet.file, f"unknown faction '{faction}': expected one of "
                                f"{', '.join(factions)}", row=n, column="faction")
    if not cells["score"]:
        raise PlaytestFileError(sheet.file, "the score is empty: expected the final score",
                                row=n, column="score")
    score = _int(sheet, n, "score", cells["score"], what="a number (the final score)")
    points = {}
    for col in point_cols:
        if cells.get(col, ""):
            points[col[len(POINTS_PREFIX):]] = _int(sheet, n, col, cells[col],
                                                    what="a number of points")
    if points and sum(points.values()) != score:
        raise PlaytestFileError(sheet.file, f"the categories add up to {sum(points.values())} but "
                                f"the score is {score}: leave every category blank, or note "
                                f"them all", row=n, column="score")
    won = WON_WORDS.get(cells["won"].lower(), "?")
    if won is None or won == "?":
        raise PlaytestFileError(sheet.file, f"'{cells['won']}' is not yes, no or tie", row=n,
                                column="won")
    rank_text = cells.get("rank", "")
    rank = _int(sheet, n, "rank", rank_text, low=1, high=n_players) if rank_text else None
    return Seat(row=n, seat=seat, faction=match, player=cells.get("player", "") or f"P{seat + 1}",
                score=score, rank=rank, won=won, points=points, notes=cells.get("notes", ""))


def _check_outcome(sheet: Sheet, g: PlayedGame) -> None:
    yes = [s for s in g.seats if s.won == "yes"]
    tie = [s for s in g.seats if s.won == "tie"]
    if len(yes) > 1:
        raise PlaytestFileError(sheet.file, f"game '{g.key}' has {len(yes)} winners (rows "
                                f"{', '.join(str(s.row) for s in yes)}): one winner, or 'tie' on "
                                f"every seat of a shared win", row=yes[1].row, column="won")
    if tie and (yes or len(tie) < 2):
        raise PlaytestFileError(sheet.file, f"game '{g.key}' mixes a tie with "
                                f"{'a winner' if yes else 'no other tied seat'}: a shared win is "
                                f"'tie' on two or more seats and no 'yes'", row=tie[0].row, column="won")
    for s in yes + tie:
        if s.rank is not None and s.rank != 1:
            raise PlaytestFileError(sheet.file, f"the winner's rank is {s.rank}: expected 1",
                                    row=s.row, column="rank")


def _canonical(g: PlayedGame) -> list:
    return [g.key, g.date, g.event, g.game_number, g.n_players, g.map, g.variant, g.rounds,
            [[s.seat, s.faction, s.player, s.score, s.rank, s.won, sorted(s.points.items()), s.notes]
             for s in sorted(g.seats, key=lambda s: s.seat)]]
