"""Scoring: where the points come from — by category and faction, by round, and what
separates winners from losers. Run and filters live in the URL."""

from __future__ import annotations

import streamlit as st

from dashboard import table_words as tw

from dashboard import charts, ui
from dashboard.labels import relabel
from dashboard.queries import core as qcore
from dashboard.queries import scoring as qs

db, run, filters = ui.filtered_run("Scoring")
run_id = run["run_id"]
n_games = ui.games_or_stop(db, run_id, filters)
qcore.start(db, qs.points_by_round, run_id, **filters)  # beside this thread's query

by_faction = ui.load(qs.category_by_faction, db, run_id, **filters)
if by_faction is None:
    st.stop()
if by_faction.is_empty():
    st.info("These games have no score events.", icon="🔎")
    st.stop()
by_faction = relabel(by_faction, run)  # the game's names for its categories (dashboard.labels)

undecided = ui.undecided_note(db, run_id, filters, what="Winners against losers")
if undecided.get("undecided"):
    st.caption("In the outcome curves below, the seats of the games without a winner are among "
               "those that did not win.")
st.markdown("#### Points by category and faction")
ui.rests_on(n_games, None, "means per player-game; a player who scored nothing in a category "
            "counts as 0")
st.plotly_chart(charts.category_stacked(by_faction), key="category_stacked_chart")
st.plotly_chart(charts.category_boxes(by_faction), key="category_box_chart")
wide = by_faction.pivot(on="category", index="faction", values="mean").sort("faction")
tw.show(st.container(key="category_table"), wide, hide_index=True,
    column_config={c: st.column_config.NumberColumn(c, format="%.2f")
                   for c in wide.columns if c != "faction"})

st.markdown("#### Points by round")
rounds = relabel(ui.load(qs.points_by_round, db, run_id, **filters), run)
if rounds is not None:
    left, right = st.columns(2)
    left.plotly_chart(charts.round_curves(rounds, "faction", "Cumulative points by round, per faction"),
                      key="round_faction_chart")
    right.plotly_chart(charts.round_curves(rounds, "outcome", "Cumulative points by round: winners and losers"),
                       key="round_outcome_chart")

st.markdown("#### What separates winners from losers")
wl = relabel(ui.load(qs.winners_vs_losers, db, run_id, **filters), run)
if wl is not None:
    if wl.is_empty():
        st.info("Every player of these games won or every player lost: nothing to compare.")
    else:
        n_w, n_l = int(wl["n_winners"][0]), int(wl["n_losers"][0])
        ui.rests_on(n_games, n_w + n_l, f"{n_w:,} winners against {n_l:,} losers; the "
                    "difference is taken within each game (its winners' mean minus its losers' "
                    "mean), with a 95% t interval over games (the seats of a game are not "
                    "independent), coloured where Holm's correction over the categories keeps "
                    "it. Descriptive: it conditions on who won")
        st.plotly_chart(charts.winners_losers(wl), key="winners_chart")
        tw.show(st.container(key="winners_table"), wl, hide_index=True,
            column_config={
                "winners": st.column_config.NumberColumn(format="%.2f"),
                "losers": st.column_config.NumberColumn(format="%.2f"),
                "difference": st.column_config.NumberColumn(format="%.2f"),
                "low": st.column_config.NumberColumn("95% low", format="%.2f"),
                "high": st.column_config.NumberColumn("95% high", format="%.2f"),
                "p_value": st.column_config.NumberColumn("p", format="%.3g"),
                "significant": st.column_config.CheckboxColumn("differs"),
            })
