"""Storing, listing and removing imported playtests (the `playtests` tables of the contract).

An import is one write transaction through the store's single writer: all of a file's games
or none.  Its id is made from the file's content (after validation), so importing the same
table again finds it and writes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import DelveError

from .validate import Playtest


@dataclass(frozen=True)
class Imported:
    playtest_id: str
    new: bool            # False: the same table was imported before, nothing was written
    games: int
    seats: int


def playtest_id(p: Playtest) -> str:
    return f"pt-{p.game}-{p.content_hash[:10]}"


def import_playtest(db: str | Path, p: Playtest, *, label: str | None = None) -> Imported:
    from pipelines.store import Store
    pid = playtest_id(p)
    store = Store(db)
    seats = sum(len(g.seats) for g in p.games)
    with store.write() as con:
        if con.execute("SELECT count(*) FROM playtests WHERE playtest_id = ?", [pid]).fetchone()[0]:
            return Imported(pid, False, len(p.games), seats)
        now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
        games, players, events = [], [], []
        for gid, g in enumerate(p.games):
            games.append((pid, gid, p.game, label or Path(p.file).stem, Path(p.file).name,
                          p.content_hash, now, g.key, g.date, g.event or None, g.game_number,
                          g.n_players, g.map, g.variant or "base", g.rules_hash, g.rounds,
                          g.winner_seat, g.tie))
            for s in g.seats:
                players.append((pid, gid, s.seat, s.faction, s.player, s.score,
                                s.rank if s.rank is not None else _rank(g, s),
                                s.won in ("yes", "tie"), s.notes or None))
                events.extend((pid, gid, None, None, s.seat, c, v) for c, v in sorted(s.points.items()))
        con.executemany("INSERT INTO playtests VALUES (" + ", ".join("?" * 18) + ")", games)
        con.executemany("INSERT INTO playtest_players VALUES (" + ", ".join("?" * 9) + ")", players)
        if events:
            con.executemany("INSERT INTO playtest_score_events VALUES (?, ?, ?, ?, ?, ?, ?)", events)
    return Imported(pid, True, len(p.games), seats)


def _rank(g, seat) -> int:
    """The rank a row leaves blank: winners first, then by score (equal scores share)."""
    if seat.won in ("yes", "tie"):
        return 1
    others = [s for s in g.seats if s.won not in ("yes", "tie")]
    better = sum(1 for s in others if s.score > seat.score)
    return 1 + (len(g.seats) - len(others)) + better


def list_playtests(db: str | Path, game: str | None = None) -> list[dict]:
    """One row per imported file: id, game, label, file, when, games, seats, player counts."""
    from pipelines.store import connect_read
    if not Path(db).exists():
        return []
    with connect_read(db) as con:
        if not con.execute("SELECT count(*) FROM information_schema.tables "
                           "WHERE table_name = 'playtests'").fetchone()[0]:
            return []
        cur = con.execute(
            "SELECT t.playtest_id, any_value(t.game) AS game, any_value(t.label) AS label, "
            "any_value(t.source_file) AS source_file, min(t.imported_at) AS imported_at, "
            "count(*)::INTEGER AS games, sum(t.n_players)::INTEGER AS seats, "
            "string_agg(DISTINCT t.n_players::VARCHAR, ',' ORDER BY t.n_players::VARCHAR) AS players, "
            "string_agg(DISTINCT t.variant, ',' ORDER BY t.variant) AS variants, "
            "min(t.played_on) AS first_played, max(t.played_on) AS last_played "
            "FROM playtests t WHERE $game IS NULL OR t.game = $game "
            "GROUP BY t.playtest_id ORDER BY imported_at, t.playtest_id", {"game": game})
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]


def remove_playtest(db: str | Path, pid: str) -> int:
    """Remove one import (its id or a unique prefix); the number of games removed."""
    from pipelines.store import Store
    known = [r["playtest_id"] for r in list_playtests(db)]
    match = [k for k in known if k == pid] or [k for k in known if k.startswith(pid)]
    if len(match) != 1:
        hint = f"; the imports are: {', '.join(known)}" if known else "; there are none (delve playtests list)"
        raise DelveError(f"Playtest '{pid}' (ID): {'no import has that id' if not match else 'more than one import starts so'}{hint}")
    with Store(db).write() as con:
        n = con.execute("SELECT count(*) FROM playtests WHERE playtest_id = ?", match).fetchone()[0]
        for table in ("playtest_score_events", "playtest_players", "playtests"):
            con.execute(f"DELETE FROM {table} WHERE playtest_id = ?", match)
    return int(n)
