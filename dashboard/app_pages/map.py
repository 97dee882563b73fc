"""Map: where on the map the game happens — moves and the points they scored per cell,
drawn with the game's own cell geometry (``map_cells``), for one faction, for winners
against losers, or as the difference between two runs. Every choice lives in the URL."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, ui
from dashboard.labels import game_labels, name
from dashboard.queries import map as qm
from dashboard.queries import runs as qruns

db, run, filters = ui.filtered_run("Map")
run_id, game = run["run_id"], run["game"]
options = ui.load(qruns.filter_options, db, run_id, filters["version"])
if options is None:
    st.stop()

maps = [filters["map_id"]] if filters["map_id"] else options["maps"]
if not maps:
    st.info(f"The games of this run record no map (`{game}` declares none), so there is "
            "nothing to draw.", icon="🗺️")
    st.stop()

cols = st.columns(4)
from dashboard.labels import run_names  # noqa: E402
from dashboard.table_words import word  # noqa: E402

map_names = run_names(db, run)
map_id = ui.url_choice("Map to draw", maps, "draw", key="map_draw", container=cols[0],
                       format_func=lambda m: word(map_names, m))
cells = ui.load(qm.map_cells, db, game, map_id)
if cells is None:
    st.stop()
if cells.is_empty():
    st.info(f"`{game}` declares no cells for the map `{map_id}` in `map_cells`, so it cannot "
            "be drawn.", icon="🗺️")
    st.stop()
cells = cells.with_columns(pl.col("kind").cast(pl.Utf8).map_elements(   # kinds in words
    lambda k: word(map_names, k), return_dtype=pl.Utf8))

all_counts = ui.load(qm.cell_action_counts, db, run_id, map_id,
                     n_players=filters["n_players"], bot=filters["bot"],
                     version=filters["version"], points=False)
if all_counts is None:
    st.stop()
actions = sorted(set(all_counts["action"].to_list()))
METRICS = {"moves": "moves per player-game", "points": "points per player-game"}
metric = ui.url_choice("Measure", list(METRICS), "metric", key="map_metric", container=cols[1],
                       format_func=lambda m: METRICS[m])
action = ui.url_choice("Action", [ui.ALL, *actions], "action", key="map_action",
                       container=cols[2], format_func=lambda a: name(game_labels(game), a))
action = None if action == ui.ALL else action
MODES = {"players": "selected players", "outcome": "winners − losers", "runs": "other run − this run"}
mode = ui.url_choice("View", list(MODES), "view", key="map_view", container=cols[3],
                     format_func=lambda m: MODES[m])
cols = st.columns(2)
faction = ui.url_choice("Faction", [ui.ALL, *options["factions"]], "faction", key="map_faction",
                        container=cols[0], format_func=lambda f: map_names.get(f, f))
faction = None if faction == ui.ALL else faction
# The points are joined in only when they are measured (the first view counts moves).
base = dict(map_id=map_id, faction=faction, action=action, n_players=filters["n_players"],
            bot=filters["bot"], points=metric == "points")
version = filters["version"]


def per_player_game(frame: pl.DataFrame) -> tuple[pl.DataFrame, int, int]:
    """Per-cell values divided by the player-games they rest on; (values, games, player-games)."""
    if frame.is_empty():
        return frame.with_columns(pl.lit(0.0).alias("value")), 0, 0
    games, pg = int(frame["games"][0]), int(frame["player_games"][0])
    return frame.with_columns((pl.col(metric) / max(pg, 1)).alias("value")), games, pg


label = METRICS[metric]
who = map_names.get(faction, faction) if faction else "all factions"
if mode == "players":
    won = ui.url_choice("Whose moves", ["all", "winners", "losers"], "who", key="map_who",
                        container=cols[1])
    won_arg = {"all": None, "winners": True, "losers": False}[won]
    counts = ui.load(qm.cell_counts, db, run_id, **base, won=won_arg, version=version)
    if counts is None:
        st.stop()
    values, games, pg = per_player_game(counts)
    if values.is_empty():
        st.info("No moves on this map for this selection.", icon="🔎")
        st.stop()
    ui.rests_on(games, pg, f"{who}, {won} players, {action or 'all actions'} on `{map_id}`")
    fig = charts.map_heatmap(cells, values, "value", f"{label} — {who}, {won} players",
                             value_label=label)
elif mode == "outcome":
    win = ui.load(qm.cell_counts, db, run_id, **base, won=True, version=version)
    lose = ui.load(qm.cell_counts, db, run_id, **base, won=False, version=version)
    if win is None or lose is None:
        st.stop()
    (wv, games, pg_w), (lv, _, pg_l) = per_player_game(win), per_player_game(lose)
    if wv.is_empty() and lv.is_empty():
        st.info("No moves on this map for this selection.", icon="🔎")
        st.stop()
    diff = (wv.select("cell", pl.col("value").alias("w"))
            .join(lv.select("cell", pl.col("value").alias("l")), on="cell", how="full",
                  coalesce=True)
            .with_columns((pl.col("w").fill_null(0) - pl.col("l").fill_null(0)).alias("value")))
    ui.rests_on(games, pg_w + pg_l, f"{pg_w:,} winners against {pg_l:,} losers of {who}")
    fig = charts.map_heatmap(cells, diff, "value", f"winners − losers: {label} ({who})",
                             diverging=True, value_label="difference")
else:
    other = ui.select_run(key="map_other_run", param="vs", label="Compare with run",
                          exclude=run_id, game=game)
    if other is None:
        st.info(f"There is no other `{game}` run to compare with.", icon="🔎")
        st.stop()
    a = ui.load(qm.cell_counts, db, run_id, **base, won=None, version=version)
    b = ui.load(qm.cell_counts, db, other["run_id"], **base, won=None,
                version=ui.data_version(other))
    if a is None or b is None:
        st.stop()
    (av, games_a, pg_a), (bv, games_b, pg_b) = per_player_game(a), per_player_game(b)
    diff = (bv.select("cell", pl.col("value").alias("b"))
            .join(av.select("cell", pl.col("value").alias("a")), on="cell", how="full",
                  coalesce=True)
            .with_columns((pl.col("b").fill_null(0) - pl.col("a").fill_null(0)).alias("value")))
    ui.rests_on(games_a + games_b, pg_a + pg_b,
                f"{games_a:,} games of this run and {games_b:,} of the other")
    fig = charts.map_heatmap(cells, diff, "value", f"other run − this run: {label} ({who})",
                             diverging=True, value_label="difference")

st.plotly_chart(fig, key="map_chart")
st.caption("Each square is a map cell at its own coordinates; the letters are a short code "
           "for the cell's kind (below). Points per cell are the points scored by the move made "
           "there.")
_kinds = sorted(set(cells["kind"].cast(pl.Utf8).to_list())) if cells is not None else []
if _kinds:   # the letters on the squares, spelled out (issue 31: 'di', 'ir', 'bu' unexplained)
    st.container(key="map_legend").markdown(
        "Cell kinds: " + " · ".join(f"**{c}** {k.replace('_', ' ')}"
                                    for k, c in charts.kind_codes(_kinds).items()))
