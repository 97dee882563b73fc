"""Small Streamlit helpers the pages share: the database path and friendly data errors.

Pages only lay out; they call :func:`load` around every query helper so that a missing,
empty, foreign or busy database becomes a plain-words message, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import streamlit as st

from dashboard import settings
from dashboard.queries import background
from dashboard.queries import core as qcore
from dashboard.queries import factions as qf
from dashboard.queries import map as qm
from dashboard.queries import replay as qr
from dashboard.queries import runs as qruns
from dashboard.queries import scoring as qs

T = TypeVar("T")

#: While the database stays busy, rerun the page automatically this many times.
BUSY_AUTO_RETRIES = 5
BUSY_RETRY_PAUSE_S = 1.0
_BUSY_COUNT_KEY = "_delve_busy_retries"

BUSY_MESSAGE = (
    "The database is busy: a simulation is writing to it right now. Retrying in a moment…"
)


def rate_columns(**labels: str) -> dict[str, Any]:
    """The column formats every win-rate table shares (player-games, rate, its interval,
    fair share, mean/sd score; p-values are shown as text by
    `dashboard.table_words.show`); `labels` renames a column (e.g. games="seats holding
    it", or rate="win rate" for a table whose rate column is called `rate`)."""
    pct, cc = "percent", st.column_config
    cols = {"games": cc.NumberColumn(labels.pop("games", "player-games")),
            "win_rate": cc.NumberColumn("win rate", format=pct),
            "rate": cc.NumberColumn("win rate", format=pct),
            "low": cc.NumberColumn("95% low", format=pct),
            "high": cc.NumberColumn("95% high", format=pct),
            "low_sim": cc.NumberColumn("simultaneous low", format=pct),
            "high_sim": cc.NumberColumn("simultaneous high", format=pct),
            "fair_share": cc.NumberColumn("fair share", format=pct),
            "significant": cc.CheckboxColumn("differs"),
            "mean_score": cc.NumberColumn("mean score", format="%.1f"),
            "sd_score": cc.NumberColumn("sd score", format="%.1f")}
    if labels:
        raise TypeError(f"rate_columns: unknown column(s) {sorted(labels)}")
    return cols


def db_path() -> Path:
    """The database this dashboard reads (``-- --db PATH``, ``DELVE_DB`` or the default)."""
    return settings.resolve_db_path()


def how_to_fill(db: Path) -> str:
    return (
        "Run `make demo` to simulate a default batch and open the dashboard, or simulate "
        f"a batch yourself:\n\n```\ndelve simulate glimmerdeep --games 200 --players 4 "
        f"--bots greedy --seed 1 --db {db}\n```"
    )


def show_no_database(db: Path) -> None:
    st.info(f"There is no Delve database at `{db}` yet.\n\n" + how_to_fill(db), icon="🗂️")


def show_no_runs(db: Path) -> None:
    st.info(f"The database `{db}` holds no runs yet.\n\n" + how_to_fill(db), icon="🗂️")


#: What the slower query helpers compute, as their spinners say it (others: their name).
COMPUTING = {
    "faction_rates": "win rates per faction with their 95% intervals",
    "score_quantiles": "the final-score distributions",
    "seat_rates": "win rates by seat and by turn order",
    "faction_matrix": "the faction-against-faction matrix",
    "strength_model": "the strength model (Luce's winner choice with seat terms)",
    "scoring_stats": "points per score category",
    "category_by_faction": "points by category and faction",
    "points_by_round": "points by round",
    "winners_vs_losers": "what separates winners from losers",
    "cell_action_counts": "moves and points per map cell",
    "cell_counts": "moves per map cell",
    "games_count": "the games matching the filters",
    "runs_overview": "the runs and their progress",
    "game_log": "the game's log",
}


def computing(fn: Callable[..., Any]) -> str:
    """What a query helper computes, for its spinner."""
    name = getattr(fn, "__name__", "results")
    return COMPUTING.get(name, name.replace("_", " "))


def load(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Call a query helper; on a data problem show a friendly message and return None.  A
    call that takes longer than half a second shows a spinner saying what it computes
    (st.spinner appears only after 0.5 s, so a cached answer shows none)."""
    db = db_path()
    try:
        with st.spinner(f"Computing {computing(fn)}…"):
            result = fn(*args, **kwargs)
    except qcore.DatabaseMissing:
        show_no_database(db)
        return None
    except qcore.DatabaseBusy:
        _show_busy()
        return None
    except qcore.DatabaseUnreadable:
        st.error(
            f"`{db}` exists but is not a DuckDB database this dashboard can read. "
            "Point it at another file with `-- --db PATH` or the `DELVE_DB` variable."
        )
        return None
    except qcore.SchemaMismatch as exc:
        st.error(
            f"`{db}` does not hold the Delve tables this page needs. "
            "Was it written by `delve simulate`?"
        )
        with st.expander("Details"):
            st.code(str(exc.__cause__ or exc), language=None)
        return None
    except duckdb.Error as exc:  # the last resort: still no raw traceback
        st.error(f"DuckDB could not read `{db}`.")
        with st.expander("Details"):
            st.code(f"{type(exc).__name__}: {exc}", language=None)
        return None
    st.session_state[_BUSY_COUNT_KEY] = 0
    return result


def _show_busy() -> None:
    st.warning(BUSY_MESSAGE, icon="⏳")
    tries = int(st.session_state.get(_BUSY_COUNT_KEY, 0))
    if tries < BUSY_AUTO_RETRIES:
        st.session_state[_BUSY_COUNT_KEY] = tries + 1
        time.sleep(BUSY_RETRY_PAUSE_S)
        st.rerun()
    st.button("Retry now", key="busy_retry")


# --- page state in the URL -----------------------------------------------------------------
#
# Every choice that shapes a view (run, filters, faction, map, game...) is mirrored in
# ``st.query_params`` so the address bar is a shareable link to exactly this view.

ALL = "(all)"


def url_choice(label: str, options: list[Any], param: str, *, key: str,
               format_func: Callable[[Any], str] = str, default: Any = None,
               container: Any = None, help: str | None = None) -> Any:
    """A selectbox whose value lives in the URL parameter ``param``.

    The initial choice comes from the URL when it names an option (compared as text), else
    ``default`` (else the first option). The chosen value is written back to the URL; a value
    of ``default`` is written too, so a link always reproduces the view.
    """
    where = container if container is not None else st
    if not options:
        return None
    wanted = st.query_params.get(param)
    texts = [str(o) for o in options]
    if wanted is not None and wanted in texts:
        index = texts.index(wanted)
    elif default is not None and default in options:
        index = options.index(default)
    else:
        index = 0
    value = where.selectbox(label, options, index=index, format_func=format_func, key=key,
                            help=help)
    if st.query_params.get(param) != str(value):
        st.query_params[param] = str(value)
    return value


def select_run(*, key: str = "run_select", param: str = "run", label: str = "Run",
               exclude: str | None = None, game: str | None = None,
               container: Any = None) -> dict[str, Any] | None:
    """The run picker shared by the pages: newest run by default, the choice in the URL.

    Shows the empty-database messages and returns None (the caller stops) when there is no
    run; ``exclude``/``game`` narrow the list (e.g. the second run of a comparison).
    """
    db = db_path()
    runs = load(qruns.runs_overview, str(db))
    if runs is None:
        return None
    if runs.is_empty():
        show_no_runs(db)
        return None
    rows = [r for r in runs.iter_rows(named=True)
            if r["run_id"] != exclude and (game is None or r["game"] == game)]
    if not rows:
        return None
    by_id = {r["run_id"]: r for r in rows}
    wanted = st.query_params.get(param)
    if wanted is not None and wanted not in by_id and param == "run":
        st.warning(f"Run `{wanted}` from the link is not in this database; showing the newest run.")
    run_id = url_choice(label, list(by_id), param, key=key, container=container,
                        format_func=lambda r: describe_run(by_id[r]))
    if param == "run":
        prefetch(by_id[run_id])
    return by_id[run_id]


def describe_run(row: dict[str, Any]) -> str:
    from dashboard.labels import game_title
    name = row.get("label") or row["run_id"]
    return f"{name} · {game_title(row.get('game'))} · {row.get('status')} · {row['run_id']}"


def data_version(run: dict[str, Any]) -> str:
    """What changes when a run's data does: the analyses' cache key (qcore.ANALYSIS_TTL_S).
    A running run's also says whether its pages read the aggregates, which lag its games by
    up to one catch-up while it is live, or the raw rows (its writer died with games pending,
    issue 31), so an analysis cached while it was live is not served once it is stalled."""
    version = f"{run.get('games_stored', 0)}:{run.get('status')}"
    if run.get("status") == "running" and "run_id" in run:
        with contextlib.suppress(Exception):
            version += ":agg" if qcore.aggregated(str(db_path()), run["run_id"]) else ":raw"
    return version


def select_filters(run: dict[str, Any], *, key_prefix: str = "") -> dict[str, Any] | None:
    """Player count, map and bot filters for a run, side by side, each mirrored in the URL.

    Returns the keyword arguments of the query helpers (``n_players``, ``map_id``, ``bot``,
    with None meaning "all", and the run's data ``version``); None when the run cannot be read.
    """
    run_id = run["run_id"]
    options = load(qruns.filter_options, str(db_path()), run_id, data_version(run))
    if options is None:
        return None
    cols = st.columns(3)
    chosen: dict[str, Any] = {}
    from dashboard.labels import run_names
    names = run_names(str(db_path()), run)
    for col, (name, param, values, arg) in zip(cols, [
        ("Players", "players", options["n_players"], "n_players"),
        ("Map", "map", options["maps"], "map_id"),
        ("Bot", "bot", options["bots"], "bot"),
    ], strict=True):
        value = url_choice(name, [ALL, *values], param, key=f"{key_prefix}filter_{param}",
                           container=col, format_func=lambda v: names.get(str(v)) or str(v).replace("_", " "))
        chosen[arg] = None if value == ALL else value
    chosen["version"] = data_version(run)
    return chosen


def undecided_note(db: str, run_id: str, filters: dict[str, Any], what: str = "Win rates") -> dict:
    """How this page counts games without a winner (a turn limit the rulebook does not score):
    their share with its 95% interval, and that `what` is over the decided games.  Returns the
    counts (queries.factions.undecided_share)."""
    from dashboard.findings import undecided_sentence
    info = load(qf.undecided_share, db, run_id, **filters) or {}
    if info.get("undecided"):
        st.warning(undecided_sentence(info, what), icon=":material/hourglass_empty:")
    elif info.get("games"):
        st.caption(f"Every game had a winner: {what.lower()} are over all {info['games']:,} "
                   f"games.")
    return info


def undecided_table(frame: Any, key: str) -> None:
    """A table of games without a winner (per bot or per tier): counts, share, 95% interval."""
    st.container(key=key).dataframe(
        frame, hide_index=True,
        column_config={
            "undecided": "without a winner",
            "share": st.column_config.NumberColumn("share", format="percent"),
            "low": st.column_config.NumberColumn("95% low", format="percent"),
            "high": st.column_config.NumberColumn("95% high", format="percent"),
        })


def margin_input(run: dict[str, Any]) -> float:
    """The smallest imbalance that matters (win-rate points), from the URL (`?margin=3`), else
    the game's (`data/balance/margins.toml`); a field beside the findings changes it."""
    from pipelines.stats.verdicts import margin_for
    default = 100 * margin_for(run.get("game"))
    try:
        wanted = float(st.query_params.get("margin", default))
    except ValueError:
        wanted = default
    wanted = min(max(wanted, 0.5), 25.0)
    points = st.number_input("Margin: the smallest imbalance that matters (win-rate points)",
                             min_value=0.5, max_value=25.0, value=wanted, step=0.5,
                             key="margin", help="A faction is 'balanced' when its win rate is "
                             "shown within this many points of the fair share (an equivalence "
                             "test); the game's default is in data/balance/margins.toml.")
    if points != default:
        st.query_params["margin"] = f"{points:g}"
    elif "margin" in st.query_params:
        del st.query_params["margin"]
    return points / 100.0


def show_findings(rates: Any, seats: Any, n_games: int, run: dict[str, Any],
                  filters: dict[str, Any], categories: Any = None,
                  undecided: dict | None = None, margin: float | None = None) -> None:
    """The Factions page's "Findings" block: the statistics below in plain words
    (dashboard.findings), most important first."""
    from dashboard.findings import sentences
    from dashboard.labels import game_labels
    from pipelines.stats.verdicts import run_alpha
    n_players = filters.get("n_players")
    # the bots that played the run (select_filters loaded the same options: a cache hit)
    options = load(qruns.filter_options, str(db_path()), run["run_id"], data_version(run))
    show_check_findings(run)
    by_map = map_heterogeneity(run, filters, (options or {}).get("maps") or [])
    st.markdown("#### Findings")
    with st.container(key="findings", border=True):
        st.markdown("\n".join(f"- {s}" for s in sentences(
            rates, seats, n_games=n_games, n_players=n_players, labels=game_labels(run),
            categories=categories, bots=(options or {}).get("bots"),
            bot=filters.get("bot"), undecided=undecided, margin=margin,
            alpha=run_alpha(run.get("config")), by_map=by_map)))
        st.caption("\"Too strong\" or \"too weak\": the exact binomial test rejects the fair "
                   "share after Holm's correction over the factions; \"balanced within ±m\": "
                   "the equivalence test (two one-sided exact tests, Holm) shows the win rate "
                   "within the margin; otherwise \"not yet known\", with the games that would "
                   "settle it at 80% power.  A verdict is about play by the bots named: measured "
                   "balance moves with the players' skill (compare tiers: `delve simulate "
                   "--tiers`).")


def map_heterogeneity(run: dict[str, Any], filters: dict[str, Any], maps: list[str]):
    """Each faction's win rate on each of the run's maps and whether it depends on the map
    (pipelines.stats.heterogeneity), with the page's player-count and bot filters; None with
    one map or a map filter."""
    if len(maps) < 2 or filters.get("map_id"):
        return None
    from pipelines.stats.heterogeneity import map_heterogeneity as test
    rest = {k: v for k, v in filters.items() if k != "map_id"}
    per = {m: load(qf.faction_rates, str(db_path()), run["run_id"], map_id=m, **rest)
           for m in maps}
    if any(v is None for v in per.values()):
        return None
    return test(per)


def show_map_table(run: dict[str, Any], filters: dict[str, Any]) -> None:
    """The faction x map table behind the map findings, in an expander."""
    options = load(qruns.filter_options, str(db_path()), run["run_id"], data_version(run))
    het = map_heterogeneity(run, filters, (options or {}).get("maps") or [])
    if het is None or not het.height:
        return
    from pipelines.stats.heterogeneity import map_table
    with st.expander("Win rate by map: does a faction's strength depend on the map?"):
        from dashboard import table_words
        from dashboard.labels import run_names
        table_words.show(st.container(key="faction_map_table"), map_table(het),
                         names=run_names(str(db_path()), run))
        st.caption("Each cell: the faction's win rate on that map with its 95% Wilson interval "
                   "and its player-games; p: chi-square test that the rate is the same on every "
                   "map, Holm-corrected over the factions.")


def show_check_findings(run: dict[str, Any]) -> None:
    """What the design checks found in the run (pipelines.lab.play_checks), before the
    findings: a degenerate rule or data entry matters before any faction's win rate."""
    if run.get("status") != "done":
        return
    from dashboard.queries import whatif as wq
    from pipelines.lab.play_checks import check_sentences
    lead = load(wq.lead_checks, str(db_path()), run["run_id"])
    if lead is None or isinstance(lead, str):
        return
    findings, checked, total = lead
    found = check_sentences(findings)
    st.markdown("#### What the checks found")
    with st.container(key="check_findings", border=True):
        if found:
            st.markdown("\n".join(f"- {s}" for s in found))
        else:
            st.markdown("- No design check flags this run: no saturated score, dead or forced "
                        "option, runaway leader, early decision, turn limit, score out of its "
                        "reference range or dominant source of points.")
        part = (f" Checked on the first {checked:,} of the run's {total:,} games (the Checks "
                "page and `delve checks` check them all)." if checked < total else "")
        st.caption("Each check, its 95% interval and its threshold (data/checks/checks.toml): "
                   "the Checks page." + part)


def rests_on(games: int, player_games: int | None = None, what: str = "") -> None:
    """The caption every result carries: how many games it rests on."""
    text = f"Based on **{games:,}** game{'s' if games != 1 else ''}"
    if player_games is not None:
        text += f" (**{player_games:,}** player-games)"
    if what:
        text += f" — {what}"
    st.caption(text + ".")
    if games == 1:
        st.info("This run has a single game: the intervals are very wide. Simulate more games "
                "to compare factions.", icon="ℹ️")


def run_progress(stored: int, planned: int | None, created_at: Any, now: Any,
                 wall_s: float | None = None, status: str | None = None
                 ) -> tuple[float | None, float | None]:
    """(games per second, seconds left) of a run: a finished run's rate is over its stored wall
    time; a running run's is over the time since it was created (both UTC). None when unknown."""
    if status != "running" and wall_s:
        return stored / wall_s, 0.0
    if created_at is None or now is None:
        return None, None
    elapsed = (now - created_at).total_seconds()
    if elapsed <= 0 or stored <= 0:
        return None, None
    rate = stored / elapsed
    left = max((planned or stored) - stored, 0) / rate if status == "running" else 0.0
    return rate, left


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


# --- prefetch -------------------------------------------------------------------------------
#
# The analyses of a run are cached by its data version (qcore.ANALYSIS_TTL_S), so every page
# is fast once its queries have run. When a page selects a run, a background thread runs the
# default (unfiltered) analyses of every page once in the prefetch lane of the dashboard's one
# background mechanism (dashboard.queries.background: page queries go first), so the designer's
# next page is already in the cache. DELVE_PREFETCH=0 turns it off (the page benchmark measures
# cold renders with it off).

_prefetched: set[tuple[str, str, str]] = set()
_prefetch_lock = threading.Lock()


def prefetch(run: dict[str, Any]) -> None:
    """Warm the cache with the run's unfiltered analyses, once per data version, off-thread."""
    if os.environ.get("DELVE_PREFETCH", "1") == "0":
        return
    db, run_id, version = str(db_path()), run["run_id"], data_version(run)
    with _prefetch_lock:
        if (db, run_id, version) in _prefetched:
            return
        _prefetched.add((db, run_id, version))
    background.submit(background.PREFETCH, _prefetch, db, run_id, version)


def _prefetch(db: str, run_id: str, version: str) -> None:
    every = {"n_players": None, "map_id": None, "bot": None, "version": version}
    try:  # the same arguments as the pages pass, so the cache keys match
        options = qruns.filter_options(db, run_id, version)
        for fn in (qruns.games_count, qf.faction_rates, qf.score_quantiles,
                   qf.seat_rates, qf.faction_matrix, qs.scoring_stats,
                   qs.points_by_round):
            fn(db, run_id, **every)
        qf.strength_model(db, run_id, None, None, version=version)
        if options["maps"]:
            qm.cell_action_counts(db, run_id, options["maps"][0], n_players=None,
                                       bot=None, version=version, points=False)
        qr.game_list(db, run_id, version=version)
    except Exception:  # noqa: BLE001 - a warm-up only; the page itself reports problems
        pass


def filtered_run(title: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The head every analysis page shares: title, run picker and filters.  Returns (db, run,
    filters) or stops the page (no run, unreadable data) after showing why."""
    db = str(db_path())
    st.title(title)
    run = select_run()
    if run is None:
        st.stop()
    filters = select_filters(run)
    if filters is None:
        st.stop()
    return db, run, filters


def games_or_stop(db: str, run_id: str, filters: dict[str, Any]) -> int:
    """The number of games matching the filters, or stop the page with a message if none."""
    n_games = load(qruns.games_count, db, run_id, **filters)
    if n_games is None:
        st.stop()
    if n_games == 0:
        st.info("No games of this run match the filters yet (a running run stores its games as "
                "they finish).", icon="🔎")
        st.stop()
    return n_games
