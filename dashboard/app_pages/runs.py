"""Runs overview: every run in the database, and a small summary of the selected one.

The selected run lives in the URL (``?run=RUN_ID``) so a view can be shared as a link.
"""

from __future__ import annotations

import streamlit as st

from dashboard import charts, queries, ui

RUN_PARAM = "run"

db = ui.db_path()
st.title("Runs")

runs = ui.load(queries.runs_overview, str(db))
if runs is None:
    st.stop()
if runs.is_empty():
    ui.show_no_runs(db)
    st.stop()

# Tables sit in keyed containers: AppTest and the browser test find them by key.
st.container(key="runs_table").dataframe(
    runs,
    hide_index=True,
    column_config={
        "run_id": st.column_config.TextColumn("run"),
        "created_at": st.column_config.DatetimeColumn("created", format="YYYY-MM-DD HH:mm:ss"),
        "n_games": st.column_config.NumberColumn("games planned"),
        "games_stored": st.column_config.NumberColumn("games stored"),
        "rules_hash": st.column_config.TextColumn("rules hash"),
    },
)

run_ids: list[str] = runs["run_id"].to_list()
by_id = {row["run_id"]: row for row in runs.iter_rows(named=True)}


def _describe(run_id: str) -> str:
    row = by_id[run_id]
    name = row["label"] or run_id
    return f"{name} · {row['game']} · {row['status']} · {run_id}"


wanted = st.query_params.get(RUN_PARAM)
index = run_ids.index(wanted) if wanted in run_ids else 0
if wanted is not None and wanted not in run_ids:
    st.warning(f"Run `{wanted}` from the link is not in this database; showing the newest run.")
run_id = st.selectbox("Run", run_ids, index=index, format_func=_describe, key="run_select")
if st.query_params.get(RUN_PARAM) != run_id:
    st.query_params[RUN_PARAM] = run_id

run = by_id[run_id]
st.subheader(run["label"] or run_id)
planned, stored = run["n_games"] or 0, run["games_stored"]
cols = st.columns(4)
cols[0].metric("game", run["game"] or "—")
cols[1].metric("variant", run["variant"] or "base")
cols[2].metric("status", run["status"] or "—")
cols[3].metric("games stored", f"{stored} / {planned}")
if run["status"] == "running" and planned:
    st.progress(min(stored / planned, 1.0), text=f"{stored} of {planned} games stored")

factions = ui.load(queries.faction_summary, str(db), run_id)
if factions is None:
    st.stop()

st.markdown("#### Factions")
left, right = st.columns([5, 4])
left.container(key="faction_table").dataframe(
    factions,
    hide_index=True,
    column_config={
        "games": st.column_config.NumberColumn("player-games"),
        "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
        "fair_share": st.column_config.NumberColumn("fair share", format="percent"),
        "mean_score": st.column_config.NumberColumn("mean score", format="%.1f"),
        "sd_score": st.column_config.NumberColumn("sd score", format="%.1f"),
    },
)
right.plotly_chart(charts.faction_win_rate_bar(factions), key="faction_chart")

categories = ui.load(queries.points_by_category, str(db), run_id)
if categories is None:
    st.stop()

st.markdown("#### Score points by category")
left, right = st.columns([1, 1])
left.container(key="category_table").dataframe(
    categories,
    hide_index=True,
    column_config={
        "points_per_player_game": st.column_config.NumberColumn("per player-game", format="%.2f"),
        "share": st.column_config.NumberColumn("share", format="percent"),
    },
)
right.plotly_chart(charts.category_points_bar(categories), key="category_chart")
