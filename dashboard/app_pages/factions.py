"""Factions: is any faction too strong, does the first seat win too often?

Win rates with 95% Wilson intervals against the fair share 1/P, score distributions, seat
and turn-order effects, the faction-vs-faction matrix with Holm marks, and a strength model
that controls for seat (and bot). Run, filters and focus faction live in the URL.
"""

from __future__ import annotations

import streamlit as st

from dashboard import charts, ui
from dashboard.queries import core as qcore
from dashboard.queries import factions as qf

db, run, filters = ui.filtered_run("Factions")
run_id = run["run_id"]
n_games = ui.games_or_stop(db, run_id, filters)
# The heavier, independent queries start beside this thread (last first); each load below
# finds its value cached or waits for it.
qcore.start(db, qf.strength_model, run_id, filters["n_players"], filters["map_id"],
              version=filters["version"])
for helper in (qf.faction_matrix, qf.seat_rates, qf.score_quantiles):
    qcore.start(db, helper, run_id, **filters)

rates = ui.load(qf.faction_rates, db, run_id, **filters)
if rates is None:
    st.stop()
player_games = int(rates["games"].sum())
ui.show_findings(rates, ui.load(qf.seat_rates, db, run_id, **filters), n_games, run, filters)

st.markdown("#### Win rate against the fair share")
ui.rests_on(n_games, player_games,
            "95% Wilson intervals; a red/blue point differs from the fair share after Holm's "
            "correction over the factions")
st.plotly_chart(charts.faction_win_rates(rates), key="faction_rates_chart")
st.container(key="faction_rates_table").dataframe(
    rates.select("faction", "games", "wins", "win_rate", "low", "high", "fair_share",
                 "p_holm", "significant", "mean_score", "sd_score"),
    hide_index=True,
    column_config={
        "games": st.column_config.NumberColumn("player-games"),
        "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
        "low": st.column_config.NumberColumn("95% low", format="percent"),
        "high": st.column_config.NumberColumn("95% high", format="percent"),
        "fair_share": st.column_config.NumberColumn("fair share", format="percent"),
        "p_holm": st.column_config.NumberColumn("Holm p", format="%.3g"),
        "significant": st.column_config.CheckboxColumn("differs"),
        "mean_score": st.column_config.NumberColumn("mean score", format="%.1f"),
        "sd_score": st.column_config.NumberColumn("sd score", format="%.1f"),
    },
)

st.markdown("#### Final scores")
quantiles = ui.load(qf.score_quantiles, db, run_id, **filters)
if quantiles is not None:
    st.plotly_chart(charts.score_boxes(quantiles), key="score_box_chart")

st.markdown("#### Seat and first-player advantage")
seats = ui.load(qf.seat_rates, db, run_id, **filters)
if seats is not None:
    ui.rests_on(n_games, None, "turn order 0 is the first player of each game")
    st.plotly_chart(charts.seat_win_rates(seats), key="seat_chart")
    st.container(key="seat_table").dataframe(
        seats.select("kind", "position", "games", "wins", "rate", "low", "high", "fair_share",
                     "p_holm", "significant"),
        hide_index=True,
        column_config={
            "rate": st.column_config.NumberColumn("win rate", format="percent"),
            "low": st.column_config.NumberColumn("95% low", format="percent"),
            "high": st.column_config.NumberColumn("95% high", format="percent"),
            "fair_share": st.column_config.NumberColumn("fair share", format="percent"),
            "p_holm": st.column_config.NumberColumn("Holm p", format="%.3g"),
            "significant": st.column_config.CheckboxColumn("differs"),
        },
    )

st.markdown("#### Faction against faction")
matrix = ui.load(qf.faction_matrix, db, run_id, **filters)
if matrix is not None:
    ui.rests_on(n_games, None, "each cell: win rate of the row faction in the games the column "
                "faction also played; ▲/▼ the 95% interval excludes the fair share after Holm's "
                "correction over all cells")
    st.plotly_chart(charts.faction_matrix(matrix), key="matrix_chart")
    factions = sorted(rates["faction"].to_list())
    focus = ui.url_choice("Focus faction", factions, "faction", key="focus_faction")
    row = matrix.filter(matrix["faction"] == focus)
    st.plotly_chart(
        charts.rate_with_interval(row, "opponent", f"{focus}: win rate by opponent at the table",
                                  "opponent"),
        key="focus_chart")

st.markdown("#### Strength model")
model = ui.load(qf.strength_model, db, run_id, filters["n_players"], filters["map_id"],
                version=filters["version"])
if model is not None:
    terms, fitted = model
    ui.rests_on(fitted, None,
                "Luce's choice of the winner (Plackett-Luce first place; Bradley-Terry for two "
                "players): each seat's chance to win is its strength over the table's total, with "
                "faction, seat and (when bots vary within a seat) bot terms. Faction log-strengths "
                "are centred on the average faction, seats measured against the first seat; the "
                "bot filter does not apply")
    st.plotly_chart(charts.strength_forest(terms), key="strength_chart")
    st.container(key="strength_table").dataframe(
        terms, hide_index=True,
        column_config={
            "estimate": st.column_config.NumberColumn("log-strength", format="%.2f"),
            "low": st.column_config.NumberColumn("95% low", format="%.2f"),
            "high": st.column_config.NumberColumn("95% high", format="%.2f"),
            "odds": st.column_config.NumberColumn("strength ×", format="%.2f"),
        })
