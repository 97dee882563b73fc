"""Replay: one game step by step, rebuilt from its seed and checked against the stored log.

The game is replayed by ``pipelines.run.replay`` (the same machinery as ``delve replay``): a new
game from the stored seed, seats and rules, the bots' own seeded streams, every move and score
event compared with the database. The board is drawn from the move log's cells on the game's
own map; games without a map get the move table only. Run, game and step live in the URL.
The board at the chosen step is the game's real state there (``Game.board_view``), rebuilt
from the seed up to that step; below it, the cells each seat's logged moves worked.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import table_words as tw

from dashboard import charts, ui
from dashboard.labels import game_labels, name, relabel
from dashboard.queries import core as qcore
from dashboard.queries import map as qm
from dashboard.queries import replay as qr

db = str(ui.db_path())
st.title("Replay")


@st.cache_data(ttl=600, show_spinner="Replaying the game from its seed…")
def verify(db: str, run_id: str, game_id: int) -> dict:
    """Rebuild the game from its seed and compare it with the log (small, cacheable result)."""
    from engine.core.errors import DelveError
    from pipelines.run.replay import replay

    lines: list[str] = []
    try:
        with qcore.connection(db) as con:  # the page's own connection: one open per render
            res = replay(db, run_id, game_id, echo=lines.append, con=con)
    except DelveError as exc:
        return {"ok": None, "error": str(exc), "n_moves": 0, "mismatches": [], "final_board": None}
    final = {"error": None, **res.final_board} if res.final_board else None
    return {"ok": res.ok, "error": None, "n_moves": res.n_moves, "mismatches": res.mismatches[:20],
            "final_board": final}


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def board(db: str, run_id: str, game_id: int, step: int) -> dict:
    """The game's board after `step`, rebuilt from its seed (a small, cacheable dict)."""
    from engine.core.errors import DelveError
    from pipelines.run.replay import board_at_step

    try:
        return {"error": None, **board_at_step(db, run_id, game_id, step)}
    except DelveError as exc:
        return {"error": str(exc), "cells": None}


run = ui.select_run()
if run is None:
    st.stop()
run_id, game = run["run_id"], run["game"]
games = ui.load(qr.game_list, db, run_id, version=ui.data_version(run))
if games is None:
    st.stop()
if games.is_empty():
    st.info("This run has no stored game yet.", icon="🎲")
    st.stop()

by_id = {r["game_id"]: r for r in games.iter_rows(named=True)}
from dashboard.labels import run_names  # noqa: E402
from dashboard.table_words import cell_words, word  # noqa: E402

run_words = run_names(db, run)


def _map(m: str | None) -> str:
    return word(run_words, m) if m else "no map"


def _factions(listed: str | None) -> str:
    """'deepdelvers ★, gildtails' -> 'Deepdelvers ★, Gildtails' (the seats' factions, named)."""
    def one(seat: str) -> str:
        faction, star, rest = seat.strip().partition(" ")
        return run_words.get(faction, faction) + (f" {rest}" if star else "")
    return ", ".join(one(s) for s in (listed or "").split(",") if s.strip())


game_id = ui.url_choice(
    "Game", list(by_id), "game", key="replay_game",
    format_func=lambda g: f"game {g} · {_map(by_id[g]['map'])} · {_factions(by_id[g]['factions'])}")
row = by_id[game_id]
st.caption(f"Seed {row['seed']} · {row['n_players']} players · map {_map(row['map'])} · "
           f"{row['steps']} steps · final scores {row['scores']} (★ = winner). "
           f"The list shows the first {len(by_id)} games of the run.")

log = ui.load(qr.game_log, db, run_id, int(game_id))
if log is None:
    st.stop()
players, moves, scores = log
check = verify(db, run_id, int(game_id))
if check["ok"] is None:
    st.warning(f"This game cannot be rebuilt here: {check['error']}", icon="⚠️")
elif check["ok"]:
    st.success(f"Rebuilt from its seed: {check['n_moves']} moves, every move, score event and "
               "final score identical to the database.", icon="✅")
else:
    st.error(f"The rebuilt game differs from the database ({len(check['mismatches'])} "
             "differences shown below).", icon="❌")
    st.code("\n".join(check["mismatches"]), language=None)

seats = [f"{r['seat']}: {run_words.get(r['faction'], r['faction'])} ({r['bot']})"
         for r in players.iter_rows(named=True)]
last = int(moves["step"].max()) if moves.height else 0
if last == 0:
    st.info("This game has no recorded moves (simulated with --no-log-moves).", icon="🎲")
    st.stop()
wanted = st.query_params.get("step")
start = int(wanted) if wanted is not None and wanted.isdigit() and int(wanted) <= last else last
step = st.slider("Step", 0, last, start, key="replay_step")
if st.query_params.get("step") != str(step):
    st.query_params["step"] = str(step)

current = moves.filter(pl.col("step") == step)
if current.height:
    m = current.row(0, named=True)
    shown = game_labels(game)  # the game's names for its phases and actions (the log keeps ids)
    st.markdown(f"**Step {step}** · round {m['round']} · {name(shown, m['phase'])} · seat "
                f"{m['seat']} ({name(run_words, players['faction'][m['seat']])}) · "
                f"{name(shown, m['action'])}")
    # the move in the game's words (the log's ids named from the run's rules), then its cell
    st.code(f"{cell_words(run_words, m['action'])} {cell_words(run_words, m['detail'] or '')}"
            + (f" @ cell {m['cell']}" if m["cell"] is not None else ""), language=None)

# scores at this step, per seat and category (cumulative)
upto = scores.filter(pl.col("step") <= step)
table = players.select("seat", "faction", "bot")
if upto.height:
    wide = (upto.group_by("seat", "category").agg(pl.col("points").sum())
            .pivot(on="category", index="seat", values="points").fill_null(0))
    cats = sorted(c for c in wide.columns if c != "seat")
    wide = wide.select("seat", *cats).with_columns(pl.sum_horizontal(cats).alias("total"))
    names = game_labels(game)       # the game's names for its score categories, as on Scoring
    taken, renames = set(wide.columns), {}
    for c in cats:
        shown_as = name(names, c)
        if shown_as != c and shown_as not in taken:
            renames[c] = shown_as
            taken.add(shown_as)
    wide = wide.rename(renames)
    table = table.join(wide, on="seat", how="left").fill_null(0)
else:
    table = table.with_columns(pl.lit(0).alias("total"))
tw.show(st.container(key="replay_scores"), table, names=run_words, hide_index=True)

map_id = row["map"]
cells = ui.load(qm.map_cells, db, game, map_id) if map_id else None
has_map = cells is not None and not cells.is_empty()
if has_map:   # cell kinds in words
    cells = cells.with_columns(pl.col("kind").cast(pl.Utf8).map_elements(
        lambda k: word(run_words, k), return_dtype=pl.Utf8))
if not has_map or check["ok"] is None:
    view = None
elif step == last and check["final_board"] is not None:  # the verification's own final board
    view = check["final_board"]
else:
    view = board(db, run_id, int(game_id), int(step))
here = current.row(0, named=True)["cell"] if current.height else None
if not has_map:
    st.info("This game has no map to draw the board on; the moves are listed below.", icon="🗺️")
elif view is None or view["error"]:
    st.info("The board cannot be rebuilt for this game"
            + (f": {view['error']}" if view else "") + ".", icon="🗺️")
elif view["cells"] is None:
    st.info(f"{game} does not describe its board (no `board_view` hook in its Game): the "
            "cells each seat's moves worked are shown instead.", icon="🗺️")
else:
    st.container(key="replay_board_state").plotly_chart(
        charts.board_state(cells, [(c, s, cell_words(run_words, lab)) for c, s, lab in view["cells"]],
                           seats,
                           f"Board after step {step} (round {view['round']}), rebuilt from "
                           "the seed" + (" · outlined: this step's cell" if here is not None
                                         else ""), current=here),
        key="replay_board_now")

left, right = st.columns([3, 2])
if has_map:
    left.plotly_chart(charts.board_at_step(cells, moves, step, seats,
                                           f"Cells worked by each seat up to step {step} "
                                           "(outlined: this step's cell)"),
                      key="replay_board")
else:
    left.info("This game has no map to draw; the moves are listed below.", icon="🗺️")
right.plotly_chart(charts.score_race(scores, seats, step), key="replay_race")

st.markdown("#### Moves up to this step")
tw.show(st.container(key="replay_moves"), # the game's names for phases and actions; no "None"
    relabel(moves.filter(pl.col("step") <= step).tail(25), game).with_columns(
        pl.col("cell").cast(pl.Utf8).fill_null("")), hide_index=True)
