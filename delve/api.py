"""Delve from a notebook: run batches, read their tables, compare runs, draw the dashboard's figures.

    from delve import api
    db = api.open_db("data/notebook.duckdb")
    base = api.simulate("glimmerdeep", games=300, players=4, bots="greedy", seed=1, jobs=2, db=db)
    base.faction_rates()                 # win rate per faction with its 95% interval (polars)
    base.findings()                      # the Factions page's findings, as sentences
    cheap = base.paired(sets=["game.rounds=4"], label="four rounds")   # same games, new rules
    api.compare(base, cheap).table       # B - A per faction and seat, intervals, Holm p
    base.figure("faction_win_rates")     # any dashboard figure (the same Plotly builders)
    db.import_playtests("glimmerdeep", "my_playtests.csv")   # games people played
    db.playtest_findings("glimmerdeep")  # which bot tier plays like them, do verdicts agree

The surface is this module's `__all__`: `simulate`, `open_db`, `compare`, `FIGURES`, and the
`Database` and `Run` handles.  Where it lives: the API draws figures, so it sits above the
dashboard's chart builders, in the `delve` package beside the CLI (the top layer), and uses
only public names of the layers below (pipelines.run, pipelines.store, pipelines.lab,
dashboard.queries, dashboard.charts, dashboard.findings).

A notebook never locks a simulation out.  DuckDB lets no process write a file that another
process holds open, even read-only, so nothing here keeps a connection: every call opens the
database read-only, reads, and closes it (`pipelines.store.connect_read`); frames are
materialised in memory and a `relation` lives on an in-memory DuckDB of its own.  A
simulation that still finds the file held (e.g. by a DuckDB connection opened by hand) waits
without stalling and keeps its finished games safe (`pipelines.store.staging`).

Progress: `simulate(progress=True)` shows tqdm's notebook bar inside Jupyter (tqdm.auto).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import polars as pl

__all__ = ["Database", "FIGURES", "Run", "TABLES", "compare", "open_db", "simulate"]

#: The contract tables a run's rows are in (`Run.table`); `runs` is the run's own row.
TABLES = ("runs", "games", "players", "moves", "score_events", "map_cells")


def _quiet() -> None:
    from dashboard.report.html import _quiet_streamlit
    _quiet_streamlit()


class Database:
    """A Delve database file.  Holds its path only, never a connection."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"Database('{self.path}')"

    def sql(self, query: str, params: Sequence | dict = ()) -> pl.DataFrame:
        """Any read-only query, as a polars frame (the file is open only while it runs)."""
        from pipelines.store import connect_read
        with connect_read(self.path) as con:
            return con.execute(query, params).pl()

    def runs(self) -> pl.DataFrame:
        """Every run, newest first: id, game, label, variant, rules hash, games, status."""
        return self.sql("SELECT run_id, created_at, game, label, variant, rules_hash, n_players, "
                        "n_games, games_done, status, paired_with FROM runs "
                        "ORDER BY created_at DESC")

    def run(self, run: str = "latest") -> "Run":
        """A run by id, unique prefix of one, or 'latest'."""
        from pipelines.store import resolve_run
        return Run(self, resolve_run(self.path, run)["run_id"])

    # -- playtests (games people played; pipelines/playtests) -------------------------------
    def import_playtests(self, game: str, file: str | os.PathLike, label: str | None = None) -> str:
        """Check a playtest table (.csv or .xlsx) and store it; its id (the same table twice is
        stored once).  A bad row raises a DelveError naming the file, row and column."""
        from pipelines.playtests import load_file
        from pipelines.playtests.store import import_playtest
        return import_playtest(self.path, load_file(game, file), label=label).playtest_id

    def playtests(self, game: str | None = None) -> pl.DataFrame:
        """The imported playtest files: id, game, label, games, player counts, rules."""
        from pipelines.playtests.store import list_playtests
        return pl.DataFrame(list_playtests(self.path, game))

    def playtest_comparison(self, game: str, players: int | None = None):
        """The playtests of `game` (the player count most of them have, or `players`) beside
        every bot tier on the same rules and player count: `.rates`, `.scores`, `.categories`,
        `.agreement` (polars frames), `.closest_scores`; `playtest_findings` words it."""
        from engine.core.errors import DelveError
        from pipelines.playtests.compare import compare
        from pipelines.playtests.data import Slice, default_slice, load_slice, with_maps
        s = default_slice(self.path, game)
        if s is None:
            raise DelveError(f"No playtests of {game} in '{self.path}': import_playtests first")
        if players is not None:
            s = with_maps(self.path, Slice(game, s.rules_hash, players))
        return compare(load_slice(self.path, s))

    def player_count_heterogeneity(self, game: str, runs: Sequence[str] | None = None):
        """Whether each faction's strength depends on the player count (issue 29): over
        `runs` (default: every finished run of `game` on the rules of its latest run, one per
        player count, the latest of each), its win rate against the fair share 1/P at each
        count, a likelihood-ratio test and Holm over the factions (None with one count)."""
        from pipelines.stats.heterogeneity import player_count_heterogeneity
        if runs is None:
            latest = self.sql("SELECT rules_hash FROM runs WHERE game = ? AND status = 'done' "
                              "ORDER BY created_at DESC LIMIT 1", [game])
            if latest.is_empty():
                return None
            rows = self.sql("SELECT run_id, n_players FROM runs WHERE game = ? AND status = 'done' "
                            "AND rules_hash = ? ORDER BY created_at", [game, latest["rules_hash"][0]])
            by_count = {int(k): r for r, k in rows.iter_rows() if k is not None}
        else:
            by_count = {int(self.run(r).info()["n_players"]): r for r in runs}
        if len(by_count) < 2:
            return None
        return player_count_heterogeneity({k: self.run(r).faction_rates() for k, r in by_count.items()})

    def playtest_findings(self, game: str, players: int | None = None) -> list[str]:
        """The Playtests page's findings, as sentences."""
        from pipelines.playtests.words import sentences
        return sentences(self.playtest_comparison(game, players), _labels(game) or {})


def open_db(path: str | os.PathLike = "data/delve.duckdb") -> Database:
    return Database(path)


def _db(db: Database | str | os.PathLike | None) -> Database:
    if isinstance(db, Database):
        return db
    return Database(db if db is not None else "data/delve.duckdb")


@dataclass(frozen=True)
class Figure:
    """A dashboard figure: what to query (a `dashboard.queries` helper) and how to draw it."""

    query: Callable[..., Any]
    draw: Callable[[Any], Any]
    doc: str


def _figures() -> dict[str, Figure]:
    from dashboard import charts, queries as q
    return {
        "faction_win_rates": Figure(q.faction_rates, charts.faction_win_rates,
                                    "Factions: win rate per faction against the fair share"),
        "score_boxes": Figure(q.score_quantiles, charts.score_boxes, "Factions: final scores"),
        "seat_win_rates": Figure(q.seat_rates, charts.seat_win_rates,
                                 "Factions: win rate by seat and by turn order"),
        "faction_matrix": Figure(q.faction_matrix, charts.faction_matrix,
                                 "Factions: faction against faction"),
        "strength_forest": Figure(lambda db, rid, n_players=None, map_id=None, bot=None:
                                  q.strength_model(db, rid, n_players, map_id)[0],
                                  charts.strength_forest, "Factions: the strength model"),
        "category_stacked": Figure(q.category_by_faction, charts.category_stacked,
                                   "Scoring: points by category and faction"),
        "category_boxes": Figure(q.category_by_faction, charts.category_boxes,
                                 "Scoring: distribution of points per category"),
        "round_curves": Figure(q.points_by_round, charts.round_curves,
                               "Scoring: cumulative points by round"),
        "winners_losers": Figure(q.winners_vs_losers, charts.winners_losers,
                                 "Scoring: what separates winners from losers"),
    }


class _Figures(dict):
    def __missing__(self, key):  # built on first use: `import delve.api` stays light
        self.update(_figures())
        if key not in self:
            raise KeyError(f"Unknown figure '{key}': expected one of {', '.join(sorted(self))}")
        return self[key]

    def names(self) -> list[str]:
        if not self:
            self.update(_figures())
        return sorted(self)


#: The figures `Run.figure(name)` draws (the dashboard's builders); `FIGURES.names()` lists them.
FIGURES = _Figures()


class Run:
    """A run in a database: its tables as polars frames, its statistics, its figures."""

    def __init__(self, db: Database, run_id: str):
        self.db = db
        self.run_id = run_id

    def __repr__(self) -> str:
        return f"Run('{self.run_id}', db='{self.db.path}')"

    # -- the contract tables ---------------------------------------------------------------
    def info(self) -> dict:
        """The run's row (game, rules hash, variant, seed, status, games done...)."""
        return self.db.sql("SELECT * FROM runs WHERE run_id = ?", [self.run_id]).row(0, named=True)

    def table(self, name: str) -> pl.DataFrame:
        """One contract table's rows of this run (`map_cells`: the cells of the run's game)."""
        if name not in TABLES:
            raise ValueError(f"Unknown table '{name}': expected one of {', '.join(TABLES)}")
        if name == "map_cells":
            return self.db.sql("SELECT * FROM map_cells WHERE game = (SELECT game FROM runs "
                               "WHERE run_id = ?) ORDER BY map, cell", [self.run_id])
        order = {"runs": "", "games": " ORDER BY game_id", "players": " ORDER BY game_id, seat",
                 "moves": " ORDER BY game_id, step", "score_events": " ORDER BY game_id, step, seat"}
        return self.db.sql(f"SELECT * FROM {name} WHERE run_id = ?{order[name]}", [self.run_id])

    def relation(self, name: str):
        """The table as a DuckDB relation on an in-memory database of its own (the file is
        not held): `run.relation('players').aggregate('faction, avg(won::INT)')`."""
        import duckdb
        con = duckdb.connect()
        con.register(name, self.table(name).to_arrow())
        return con.table(name)

    # -- statistics (the dashboard's queries) -----------------------------------------------
    def _filters(self, n_players, map_id, bot) -> dict:
        info = self.info()
        return {"n_players": n_players, "map_id": map_id, "bot": bot,
                "version": f"{info.get('games_done')}:{info.get('status')}"}

    def games(self, n_players: int | None = None, map_id: str | None = None,
              bot: str | None = None) -> int:
        _quiet()
        from dashboard import queries
        return queries.games_count(str(self.db.path), self.run_id,
                                   **self._filters(n_players, map_id, bot))

    def faction_rates(self, n_players: int | None = None, map_id: str | None = None,
                      bot: str | None = None) -> pl.DataFrame:
        """Per faction: player-games, wins, win rate with its 95% Wilson interval, the fair
        share, binomial and Holm p-values, `significant` (the Factions page's table).  Over the
        decided games: a game without a winner is left out (`undecided` counts them)."""
        _quiet()
        from dashboard import queries
        return queries.faction_rates(str(self.db.path), self.run_id,
                                     **self._filters(n_players, map_id, bot))

    def seat_rates(self, n_players: int | None = None, map_id: str | None = None,
                   bot: str | None = None) -> pl.DataFrame:
        _quiet()
        from dashboard import queries
        return queries.seat_rates(str(self.db.path), self.run_id,
                                  **self._filters(n_players, map_id, bot))

    def undecided(self, n_players: int | None = None, map_id: str | None = None,
                  bot: str | None = None) -> dict:
        """The games that ended without a winner (a turn limit the rulebook does not score):
        {games, undecided, decided, share, low, high} with the share's 95% Wilson interval.
        Win rates (`faction_rates`, `seat_rates`, `findings`) are over the decided games."""
        _quiet()
        from dashboard import queries
        return queries.undecided_share(str(self.db.path), self.run_id,
                                       **self._filters(n_players, map_id, bot))

    def findings(self, n_players: int | None = None, map_id: str | None = None,
                 bot: str | None = None, margin: float | None = None) -> list[str]:
        """The Factions page's findings in plain words, most important first; `margin`: the
        smallest imbalance that matters (0.03 = ±3 points; default the game's,
        data/balance/margins.toml)."""
        _quiet()
        from dashboard import queries
        from dashboard.findings import sentences
        from pipelines.stats.verdicts import margin_for, run_alpha
        info = self.info()
        played = queries.filter_options(str(self.db.path), self.run_id,
                                        self._filters(n_players, map_id, bot)["version"])
        return sentences(self.faction_rates(n_players, map_id, bot),
                         self.seat_rates(n_players, map_id, bot),
                         n_games=self.games(n_players, map_id, bot),
                         n_players=n_players or info.get("n_players"),
                         labels=_labels(info.get("game")),
                         bots=played["bots"], bot=bot,
                         undecided=self.undecided(n_players, map_id, bot),
                         margin=margin if margin is not None else margin_for(info.get("game")),
                         alpha=run_alpha(info.get("config")),
                         by_map=self.map_heterogeneity(n_players, bot) if map_id is None else None)

    def map_heterogeneity(self, n_players: int | None = None, bot: str | None = None):
        """Whether each faction's win rate depends on the map: its rate on each map, the
        chi-square test of homogeneity and Holm over the factions (None with one map)."""
        from dashboard import queries
        from pipelines.stats.heterogeneity import map_heterogeneity
        f = self._filters(n_players, None, bot)
        maps = queries.filter_options(str(self.db.path), self.run_id, f["version"])["maps"]
        if len(maps) < 2:
            return None
        return map_heterogeneity({m: self.faction_rates(n_players, m, bot) for m in maps})

    def verdicts(self, n_players: int | None = None, map_id: str | None = None,
                 bot: str | None = None, margin: float | None = None) -> pl.DataFrame:
        """Each faction's verdict: balanced within ±margin, too strong, too weak or not yet
        known, with the equivalence test's Holm p and the games that would settle it."""
        from pipelines.stats.verdicts import margin_for, run_alpha, with_verdicts
        info = self.info()
        undecided = self.undecided(n_players, map_id, bot)
        decided = int(undecided["games"]) - int(undecided["undecided"])
        return with_verdicts(self.faction_rates(n_players, map_id, bot),
                             margin=margin if margin is not None else margin_for(info.get("game")),
                             alpha=run_alpha(info.get("config")), total_games=decided)

    def checks(self, tiers: bool = False) -> pl.DataFrame:
        """The design checks of this run (`delve checks`), one row per check: check, tier,
        subject, flagged, evidence, value, low, high (the 95% interval), threshold, certain.
        `tiers=True`: the play checks of every finished run of the same game, rules and player
        count, per skill tier (the Checks page's "per skill tier")."""
        from dataclasses import asdict
        if tiers:
            from pipelines.lab.play_checks import tier_checks
            found = tier_checks(str(self.db.path), self.run_id)[0]
        else:
            from pipelines.lab.design_checks import run_checks
            found = run_checks(str(self.db.path), self.run_id).findings
        return pl.DataFrame([asdict(f) for f in found], infer_schema_length=None)

    def check_findings(self) -> list[str]:
        """What the checks found, in plain words, the surest first (the Factions page's lead)."""
        from pipelines.lab.design_checks import run_checks
        from pipelines.lab.play_checks import check_sentences
        return [s.replace("**", "") for s in
                check_sentences(run_checks(str(self.db.path), self.run_id).findings, limit=50)]

    def figure(self, name: str, n_players: int | None = None, map_id: str | None = None,
               bot: str | None = None):
        """A dashboard figure of this run (a plotly Figure): see `FIGURES.names()`."""
        _quiet()
        fig = FIGURES[name]
        f = self._filters(n_players, map_id, bot)
        if name == "strength_forest":
            frame = fig.query(str(self.db.path), self.run_id, n_players, map_id)
        else:
            frame = fig.query(str(self.db.path), self.run_id, **f)
        from dashboard.labels import relabel
        return fig.draw(relabel(frame, _game_of(self)))  # the game's names for its categories

    # -- what-if ---------------------------------------------------------------------------
    def paired(self, *, variants: Sequence[str] = (), sets: Sequence[str] = (),
               label: str = "", variant_name: str | None = None, jobs: int = 1,
               progress: bool = True) -> "Run":
        """Replay this run's exact games (seeds, seats, maps) under changed rules: a paired
        run, compared with `compare(self, other)`."""
        import json

        from pipelines.run.pairing import paired_plan, start_run
        from pipelines.store import Store
        plan, base = paired_plan(self.db.path, self.run_id, variants=variants, sets=sets)
        cfg = json.loads(base["config"] or "{}")
        config = dict(cfg, jobs=jobs, label=label, variants=list(plan.variants),
                      sets=list(plan.sets), games=plan.n_games, paired_with=base["run_id"],
                      game_modules=list(plan.game_modules))
        summary = start_run(plan, Store(self.db.path), label=label, config=config,
                            paired_with=base["run_id"], jobs=jobs, progress=progress,
                            variant=variant_name)
        return Run(self.db, summary.run_id)


def _game_of(run: "Run") -> str | None:
    return run.info().get("game")


def _labels(game_id: str | None) -> dict[str, str] | None:
    if not game_id:
        return None
    try:
        from engine.core.registry import get_game
        return get_game(game_id).labels or None
    except Exception:  # noqa: BLE001 - a game no longer registered: ids are shown
        return None


def simulate(game: str, *, games: int = 100, players: int = 4, bots: str = "random",
             variants: Sequence[str] = (), sets: Sequence[str] = (), seed: int = 0,
             jobs: int = 1, db: Database | str | os.PathLike | None = None,
             map: str | None = None, factions: str = "rotate", label: str = "",
             progress: bool = True) -> Run:
    """Play a batch of seeded games into `db` (as `delve simulate`) and return its `Run`."""
    from pipelines.run.execute import run_plan
    from pipelines.run.plan import make_plan
    from pipelines.store import Store

    database = _db(db)
    plan = make_plan(game, n_games=games, n_players=players, bots=bots, seed=seed,
                     variants=variants, sets=sets, map=map, factions=factions)
    config = {"game": game, "games": games, "players": players, "bots": bots, "seed": seed,
              "jobs": jobs, "chunk_size": None, "variants": list(variants), "sets": list(sets),
              "map": map, "factions": factions, "label": label, "backend": "loky",
              "scheduler": None, "log_moves": True, "game_modules": list(plan.game_modules)}
    summary = run_plan(plan, Store(database.path), jobs=jobs, label=label, config=config,
                       progress=progress)
    return Run(database, summary.run_id)


def compare(a: Run, b: Run):
    """B against A (`delve compare`): a `pipelines.lab.compare.Comparison` whose `table` holds
    per faction and seat A, B, B - A with its 95% interval and Holm p (paired when B replays
    A's games); `Comparison.figure()`-like drawing: `diff_figure(comparison)`."""
    from pipelines.lab.compare import compare as do_compare
    if Path(a.db.path).resolve() != Path(b.db.path).resolve():
        raise ValueError("compare two runs of the same database")
    return do_compare(a.db.path, a.run_id, b.run_id)


def diff_figure(comparison, metric: str = "win_rate"):
    """The What-if page's forest plot of B - A per faction and seat."""
    from dashboard import charts
    return charts.diff_forest(comparison.table, metric,
                              f"{metric.replace('_', ' ')}: B - A with 95% intervals")


__all__.append("diff_figure")
