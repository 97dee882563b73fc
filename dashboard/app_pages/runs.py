"""Runs overview: every run in the database, and a small summary of the selected one.

The selected run lives in the URL (``?run=RUN_ID``) so a view can be shared as a link.  Each
run's state is read live (pipelines/store/liveness.py): running, stalled (its writer is gone:
the page says since when and offers the resume), done or failed; the runs launched from the
pages are listed with their queue state (queued, running, done, failed, cancelled) and can be
cancelled (dashboard/jobs.py).
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import streamlit as st

from dashboard import table_words as tw
from dashboard.labels import game_title

from dashboard import charts, jobs, ui
from dashboard.labels import relabel
from dashboard.queries import factions as qf
from dashboard.queries import ladder as qladder
from dashboard.queries import runs as qruns
from dashboard.queries import tiers as qtiers
from dashboard.settings import serve_settings
from pipelines.store.liveness import Liveness, resume_hint, stalled_text, this_host

RUN_PARAM = "run"

db = ui.db_path()
st.title("Runs")

runs = ui.load(qruns.runs_overview, str(db))
if runs is None:
    st.stop()
if runs.is_empty():
    ui.show_no_runs(db)
    st.stop()

states: dict[str, Liveness] = ui.load(qruns.run_states, str(db)) or {}


def _state(run_id: str, status: str | None) -> Liveness:
    return states.get(run_id) or Liveness(status or "running")


shown = runs.with_columns(pl.Series(
    "state", [_state(r, s).state for r, s in zip(runs["run_id"], runs["status"])],
    dtype=pl.Utf8))
launch_off = serve_settings().launch_off_reason()


def _launch_resume(run_id: str) -> None:
    jobs.launch("resume", ["simulate", "--resume", run_id, "--db", str(db), "--no-progress"], db,
                {"title": f"resume {run_id}", "run_id": run_id})


@st.fragment(run_every=2.0)
def launched() -> None:
    """The queue of runs launched from the pages (this server's), with a cancel button each."""
    queue = jobs.launch_queue()
    listed = queue.jobs()
    if not listed:
        return
    st.markdown(f"#### Launched from the pages ({queue.limit} at a time)")
    rows = []
    for job in reversed(listed):
        run = job.info.get("run_id")
        if job.pid is not None and job.state != "queued":
            found = qruns.launched_run(str(db), this_host(), job.pid)
            if found:
                run = found["run_id"]
                job.info.setdefault("run_id", run)
        rows.append({"job": job.describe(), "state": job.state, "run": run or "",
                     "queued at": job.submitted, "started": job.started,
                     "finished": job.finished, "exit code": job.rc, "id": job.id})
    tw.show(st.container(key="launch_queue"), pl.DataFrame(rows), hide_index=True)
    for job in reversed(listed):
        if job.active:
            label = "Cancel" if job.state == "queued" else "Stop (keeps the games, resumable)"
            if st.button(f"{label}: {job.describe()}", key=f"cancel_{job.id}",
                         disabled=job.state == "cancelling"):
                queue.cancel(job.id)
                st.rerun(scope="fragment")


# Tables sit in keyed containers: AppTest and the browser test find them by key.
tw.show(st.container(key="runs_table"), shown,
    hide_index=True,
    column_config={
        "run_id": st.column_config.TextColumn("run"),
        "created_at": st.column_config.DatetimeColumn("created", format="YYYY-MM-DD HH:mm:ss"),
        "n_games": st.column_config.NumberColumn("games planned"),
        "games_stored": st.column_config.NumberColumn("games stored"),
        "rules_hash": st.column_config.TextColumn("rules hash"),
    },
)

launched()

run_ids: list[str] = runs["run_id"].to_list()
by_id = {row["run_id"]: row for row in runs.iter_rows(named=True)}


def _describe(run_id: str) -> str:
    row = by_id[run_id]
    name = row["label"] or run_id
    return f"{name} · {game_title(row['game'])} · {_state(run_id, row['status']).state} · {run_id}"


wanted = st.query_params.get(RUN_PARAM)
index = run_ids.index(wanted) if wanted in run_ids else 0
if wanted is not None and wanted not in run_ids:
    st.warning(f"Run `{wanted}` from the link is not in this database; showing the newest run.")
run_id = st.selectbox("Run", run_ids, index=index, format_func=_describe, key="run_select")
if st.query_params.get(RUN_PARAM) != run_id:
    st.query_params[RUN_PARAM] = run_id

run = by_id[run_id]
st.subheader(run["label"] or run_id)
ui.prefetch(run)  # the other pages' analyses of this run, warmed in the background


@st.fragment(run_every=2 if _state(run_id, run["status"]).state == "running" else None)
def live(run_id: str) -> None:
    """The run's progress and partial results; refreshes itself every 2 s while it runs."""
    fresh = (ui.load(qruns.run_states, str(db)) or {}).get(run_id)  # read live, uncached
    details = ui.load(qruns.run_details, str(db), run_id)
    if details is None:
        return
    if fresh is not None and fresh.status != (details.get("status") or "running"):
        qruns.run_details.clear()  # the cached row predates the run's stop (or resume): reread
        details = ui.load(qruns.run_details, str(db), run_id)
        if details is None:
            return
    planned, stored = details.get("n_games") or 0, details["games_stored"]
    status = details.get("status")
    state = (fresh if status == "running" else None) or Liveness(status or "running")
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)  # runs store UTC
    rate, left = ui.run_progress(stored, planned, details.get("created_at"), now,
                                 details.get("wall_s"), status)
    cols = st.columns(4)
    cols[0].metric("status", state.state if status else "—")
    cols[1].metric("games stored", f"{stored} / {planned}")
    cols[2].metric("games/s", "—" if rate is None else f"{rate:.1f}")
    cols[3].metric("time left", ui.format_duration(left) if state.state == "running" else "—")
    if state.stalled:
        st.container(key="run_stalled").warning(
            f"This run is {stalled_text(run_id, state, db)}. Its {stored} stored games are "
            f"complete; resuming plays exactly the {planned - stored} missing ones.", icon="⏸️")
        _resume_button(run_id)
    elif status == "running" and planned:
        st.progress(min(stored / planned, 1.0), text=f"{stored} of {planned} games stored")
        st.caption("Partial results below: the games stored so far (refreshing every 2 s).")
    if status == "failed" and details.get("error"):
        st.error(f"The run failed: {details['error']}. Resume with {resume_hint(run_id, db)} "
                 f"to finish it.")
        _resume_button(run_id)
    st.caption(f"game `{details.get('game') or '—'}` · variant `{details.get('variant') or 'base'}` · "
               f"rules hash `{details.get('rules_hash') or '—'}` · seed {details.get('seed')} · "
               f"engine {details.get('engine_version') or '—'}")
    tier = qtiers.run_tier(details)
    if tier:
        st.caption(f"skill tier `{tier}` (every seat plays it; the Factions page compares the "
                   f"tiers of this group)", help="delve simulate --tiers: README, 'Skill tiers'")
    summary(run_id, ui.data_version(details))
    ladder = qladder.ladder_id(details)
    if ladder:
        ladder_section(ladder, details)


def ladder_section(ladder: str, details: dict) -> None:
    """The ladder this run is a rung of: every rung tested again from its runs (the table of
    `delve ladder GAME --show ID`), with a chart of the win rates."""
    table = ui.load(qladder.ladder_table, str(db), ladder, version=ui.data_version(details))
    if table is None or table.is_empty():
        return
    st.markdown(f"#### Skill ladder `{ladder}`")
    st.caption("Each rung in one seat against the rung below it in the others (or against "
               "`--vs`), seats rotated; win rate with its 95% Wilson interval over the rung's "
               "games.  A rung is *validated* when it beats the rung below: its share above "
               "the fair share, or, against a common opponent, its paired gain over the rung "
               "before it on the same deals (Newcombe interval, exact McNemar test); the "
               "p-values are Holm-adjusted over the ladder's rungs, and a rung counts only "
               "when every rung below it is validated.  The same table: "
               f"`delve ladder {details.get('game') or 'GAME'} --show {ladder} --db {db}`.")
    validated = [s for s, ok in zip(table["spec"], table["validated"]) if ok]  # a chain
    st.markdown(f"Strongest validated rung: **{validated[-1]}**" if validated
                else "No rung is validated.")
    gain = [("" if d is None else f"{100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
            for d, lo, hi in zip(table["diff"], table["diff_low"], table["diff_high"])]
    cc = st.column_config
    tw.show(st.container(key="ladder_table"),
            table.with_columns(pl.Series("gain", gain)).select(
                "rung", "spec", "below", "games", "rate", "low", "high", "against", "gain",
                "p_holm", "validated", "undecided"),
            details, hide_index=True,
            column_config={**ui.rate_columns(games="games"), "below": cc.TextColumn("against"),
                           "against": cc.TextColumn("tested against"),
                           "gain": cc.TextColumn("paired gain, points [95%]"),
                           "validated": cc.CheckboxColumn("validated"),
                           "undecided": cc.NumberColumn(
                               "no winner", help="Games stopped by a turn limit: a loss for "
                                                 "every seat")})
    st.plotly_chart(charts.ladder_win_rates(table), key="ladder_chart")


def _resume_button(run_id: str) -> None:
    """Offer the resume (a queued launch), unless launching is off or it is already queued."""
    if launch_off:
        st.caption(launch_off)
        return
    pending = any(j.active and j.info.get("run_id") == run_id
                  for j in jobs.launch_queue().jobs())
    if st.button("Resume this run", key="resume_run", type="primary", disabled=pending,
                 help="Queue `delve simulate --resume` for this run (the Runs page lists the "
                      "queue)."):
        _launch_resume(run_id)
        st.rerun()
    if pending:
        st.caption("Its resume is in the launch queue above.")


def summary(run_id: str, version: str) -> None:
    """Win rates (with intervals) and points by category of the games stored so far."""
    factions = ui.load(qf.faction_rates, str(db), run_id, version=version)
    if factions is None:
        return
    details = ui.load(qruns.run_details, str(db), run_id)   # its game names the factions
    games = ui.load(qruns.games_count, str(db), run_id, version=version)
    if not games:
        st.markdown("#### Factions")
        st.info("No game of this run is stored yet.", icon="⏳")
        return
    undecided = ui.load(qruns.undecided_by_bot, str(db), run_id, version=version)
    if undecided is not None and undecided["undecided"].sum():
        st.markdown("#### Games without a winner")
        st.caption("Games stopped by the turn limit, which the rulebook does not score: no seat "
                   "won them.  Per bot, the games it played in; 95% Wilson intervals.  Win rates "
                   "are over the decided games.")
        ui.undecided_table(undecided, "undecided_table")
    st.markdown("#### Factions")
    decided = games - (int(undecided["undecided"][0]) if undecided is not None and undecided.height
                       else 0)
    ui.rests_on(decided, int(factions["games"].sum()), "95% Wilson intervals against the fair "
                "share, over the decided games; the Factions page has seats, matchups and the "
                "strength model")
    left, right = st.columns([5, 4])
    tw.show(
        left.container(key="faction_table"),
        factions.select("faction", "games", "wins", "win_rate", "low", "high", "fair_share",
                        "mean_score", "sd_score"),
        details,
        hide_index=True,
        column_config=ui.rate_columns(),
    )
    right.plotly_chart(charts.faction_win_rates(relabel(factions, details)), key="faction_chart")

    categories = relabel(ui.load(qruns.points_by_category, str(db), run_id), details)
    if categories is None:
        return

    st.markdown("#### Score points by category")
    left, right = st.columns([1, 1])
    tw.show(left.container(key="category_table"), categories,
        hide_index=True,
        column_config={
            "points_per_player_game": st.column_config.NumberColumn("per player-game", format="%.2f"),
            "share": st.column_config.NumberColumn("share", format="percent"),
        },
    )
    right.plotly_chart(charts.category_points_bar(categories), key="category_chart")


live(run_id)
