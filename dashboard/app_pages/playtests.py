"""Playtests: your human games beside each bot tier on the same rules and player count.

Which tier plays most like your group (score and category distances, with their
uncertainty), whether your faction verdicts agree with the bots' (a test, not a picture), and
how few games you have.  Game, player count and rules live in the URL (?game=...&players=4).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import table_words as tw

from dashboard import charts, ui
from dashboard.labels import base_names, game_labels, relabel
from dashboard.queries import playtests as q
from pipelines.playtests.words import sentences

db = str(ui.db_path())
st.title("Playtests")
st.caption("Games people played, imported with `delve playtests import GAME FILE`, set beside "
           "Delve's bot tiers on the same rules and player count.")

if not ui.db_path().is_file():
    ui.show_no_database(ui.db_path())
    st.stop()
imports = ui.load(q.imports, db)
if imports is None:
    st.stop()
if imports.is_empty():
    st.info(
        "No playtests in this database yet. Write a table for your game, fill it in a "
        "spreadsheet (one row per seat of each game), and import it:\n\n```\n"
        "delve playtests template glimmerdeep -o my_playtests.csv\n"
        f"delve playtests import glimmerdeep my_playtests.csv --db {db}\n```\n\n"
        "Invented example tables (not real results) are in `examples/playtests/`.", icon="🎲")
    st.stop()

games = sorted(set(imports["game"].to_list()))
wanted = st.query_params.get("game")
game = st.selectbox("Game", games, index=games.index(wanted) if wanted in games else 0,
                    key="pt_game")
slices = ui.load(q.slices, db, game)
if slices is None or slices.is_empty():
    st.stop()
options = [(r["rules_hash"], int(r["n_players"])) for r in slices.iter_rows(named=True)]
by_opt = {(r["rules_hash"], int(r["n_players"])): r for r in slices.iter_rows(named=True)}
want = (st.query_params.get("rules"), int(st.query_params.get("players") or 0))
choice = st.selectbox(
    "Rules and player count", options, index=options.index(want) if want in options else 0,
    format_func=lambda o: f"{o[1]} players · {by_opt[o]['variant']} rules ({o[0][:8]}) · "
                          f"{by_opt[o]['games']} playtests", key="pt_slice")
rules_hash, n_players = choice
st.query_params.update({"game": game, "players": str(n_players), "rules": rules_hash})

maps = ui.load(q.slice_maps, db, game, rules_hash, n_players)
c = ui.load(q.comparison, db, game, rules_hash, n_players, maps or (), q.version(db))
if c is None:
    st.stop()
labels = game_labels(game)
if maps:
    map_names = base_names(game)
    st.caption("Bot games restricted to the maps your playtests were played on: "
               f"{', '.join(map_names.get(m, m) for m in maps)}.")

st.subheader("Findings")
st.container(key="pt_findings").markdown("\n".join(f"- {s}" for s in sentences(c, labels)))

st.plotly_chart(charts.playtest_win_rates(relabel(c.rates, game), c.fair),
                key="pt_rates")
left, right = st.columns(2)
with left:
    st.plotly_chart(charts.playtest_scores(c.human_scores, c.tier_scores),
                    key="pt_scores")
with right:
    shares = c.shares.with_columns(pl.col("category").replace(labels)) if labels else c.shares
    st.plotly_chart(charts.playtest_category_shares(shares),
                    key="pt_shares")

pct, cc = "percent", st.column_config
st.subheader("Which tier plays like your group")
st.caption("Scores: Wasserstein distance between the final scores, in points. Categories: total "
           "variation between the shares of points by category (0% = the same shares). The "
           "interval is a bootstrap over your games; 'closest' is the share of resamples in "
           "which the tier is the closest; 'p (same)' asks whether as many games of that tier "
           "would differ this much from it (small: your group plays differently).")
dist = {"distance": cc.NumberColumn("distance", format="%.2f"),
        "low": cc.NumberColumn("95% low", format="%.2f"),
        "high": cc.NumberColumn("95% high", format="%.2f"),
        "closest": cc.NumberColumn("closest in", format=pct),
        "p_same": cc.NumberColumn("p (same)", format="%.3f"),
        "games": cc.NumberColumn("bot games")}
st.markdown("**Final scores**")
tw.show(st.container(key="pt_score_table"), c.scores, hide_index=True, column_config=dist)
if c.categories.height:
    st.markdown(f"**Category shares** ({c.n_categorised} playtests noted every category)")
    tw.show(st, c.categories, hide_index=True, column_config=dist)

st.subheader("Faction verdicts: playtests against the bots")
st.caption("Win rates over decided games; a shared win counts 1/k. The agreement test draws each "
           "playtest's winner among its seats in proportion to the tier's win rates (Monte Carlo, "
           "4,000 draws); per faction Holm-corrected over the factions of that tier.")
tw.show(st.container(key="pt_rates_table"), c.rates, game, hide_index=True,
                                             column_config={**ui.rate_columns(), "source": "who"})
if c.agreement.height:
    tw.show(st, c.agreement_overall, hide_index=True,
                 column_config={"p": cc.NumberColumn("p (all factions)", format="%.3f")})
    tw.show(st, c.agreement, game, hide_index=True,
                 column_config={"observed": cc.NumberColumn("wins in playtests", format="%.1f"),
                                "expected": cc.NumberColumn("expected at the tier", format="%.1f"),
                                "differs": cc.CheckboxColumn("differs")})
with st.expander("Seats and game length"):
    tw.show(st, c.seats, hide_index=True, column_config={**ui.rate_columns(), "source": "who"})
    tw.show(st, c.length, hide_index=True,
                 column_config={"mean": cc.NumberColumn("mean rounds", format="%.1f"),
                                "low": cc.NumberColumn("95% low", format="%.1f"),
                                "high": cc.NumberColumn("95% high", format="%.1f")})
with st.expander("Imported files"):
    tw.show(st, imports.filter(pl.col("game") == game), hide_index=True)
    st.caption("`delve playtests remove ID` removes one; importing the same file again adds nothing.")
