"""Factions: is any faction too strong, does the first seat win too often?

Win rates with 95% Wilson intervals against the fair share 1/P, score distributions, seat
and turn-order effects (from the starting player), head-to-head matchups with Holm marks, and
a Plackett-Luce strength model that controls for seat (and bot). Run, filters and focus faction live in the URL.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import table_words as tw

from dashboard import charts, findings, ui
from dashboard.queries import core as qcore
from dashboard.queries import factions as qf
from dashboard.queries import scoring as qs
from dashboard.labels import game_labels, name, relabel

db, run, filters = ui.filtered_run("Factions")
run_id = run["run_id"]
n_games = ui.games_or_stop(db, run_id, filters)
# The heavier, independent queries start beside this thread (last first); each load below
# finds its value cached or waits for it.
qcore.start(db, qf.strength_model, run_id, filters["n_players"], filters["map_id"],
              version=filters["version"])
for helper in (qf.faction_matrix, qf.seat_rates, qf.score_quantiles, qs.category_by_faction):
    qcore.start(db, helper, run_id, **filters)

rates = ui.load(qf.faction_rates, db, run_id, **filters)
if rates is None:
    st.stop()
player_games = int(rates["games"].sum())
undecided = ui.undecided_note(db, run_id, filters)
decided = n_games - int(undecided.get("undecided") or 0)
margin = ui.margin_input(run)
ui.show_findings(rates, ui.load(qf.seat_rates, db, run_id, **filters), n_games, run, filters,
                 ui.load(qs.category_by_faction, db, run_id, **filters), undecided=undecided,
                 margin=margin)
ui.show_map_table(run, filters)

st.caption("The faction win rates are this page's primary question (their verdicts are the "
           "findings); the seat, turn-order, head-to-head and matchup tables below are "
           "exploratory: each is Holm-corrected on its own, so over all of them a perfectly "
           "balanced game still shows a mark somewhere in roughly one run in five (the "
           "statistics audit's estimate). Confirm such a mark with a new run before acting on it.")
st.markdown("#### Win rate against the fair share")
ui.rests_on(decided, player_games,
            "bars: each faction's own 95% Wilson interval; a red/blue point: the exact binomial "
            "test against the fair share rejects after Holm's correction over the factions (a "
            "bar may exclude the fair share without a colour); the table's simultaneous "
            "interval (Clopper-Pearson at 5%/factions) holds for all factions at once. A tied "
            "win counts 1/k for each of its k winners")
game = run["game"]          # tables and charts name the factions (the URL and queries keep ids)
st.plotly_chart(charts.faction_win_rates(relabel(rates, run)), key="faction_rates_chart")
from pipelines.stats.verdicts import run_alpha, with_verdicts  # noqa: E402

judged = with_verdicts(rates, margin=margin, alpha=run_alpha(run.get("config")), total_games=decided)
tw.show(
    st.container(key="faction_rates_table"),
    judged.select("faction", "verdict", "games", "wins", "win_rate", "low", "high", "low_sim",
                  "high_sim", "fair_share", "p_holm", "significant", "p_tost_holm", "more_games",
                  "mean_score", "sd_score"),
    game,
    hide_index=True,
    column_config={**ui.rate_columns(),
                   "p_tost_holm": st.column_config.NumberColumn(
                       f"equivalence Holm p (±{100 * margin:g} pts)", format="%.3g"),
                   "more_games": st.column_config.NumberColumn("more games to settle (80% power)",
                                                               format="%d")},
)

st.markdown("#### Final scores")
quantiles = ui.load(qf.score_quantiles, db, run_id, **filters)
if quantiles is not None:
    st.plotly_chart(charts.score_boxes(relabel(quantiles, run)), key="score_box_chart")

st.markdown("#### Seat and first-player advantage")
seats = ui.load(qf.seat_rates, db, run_id, **filters)
if seats is not None:
    ui.rests_on(n_games, None, "turn order 0 is the starting player of each game (runs stored "
                "before the starting player was recorded show no turn order); a tied win counts "
                "1/k for each of its k winners")
    if findings.turn_order_is_seat(seats):
        seats = seats.filter(pl.col("kind") == "seat")
        st.caption("The starting player is seat 0 in every game here, so turn order is the seat "
                   "order: one table shows both.")
    st.plotly_chart(charts.seat_win_rates(seats), key="seat_chart")
    tw.show(
        st.container(key="seat_table"),
        seats.select("kind", "position", "games", "wins", "rate", "low", "high", "fair_share",
                     "p_holm", "significant"),
        hide_index=True,
        column_config={
            "rate": st.column_config.NumberColumn("win rate", format="percent"),
            "low": st.column_config.NumberColumn("95% low", format="percent"),
            "high": st.column_config.NumberColumn("95% high", format="percent"),
            "fair_share": st.column_config.NumberColumn("fair share", format="percent"),
            "significant": st.column_config.CheckboxColumn("differs"),
        },
    )

st.markdown("#### Faction against faction")
matrix = ui.load(qf.faction_matrix, db, run_id, **filters)
beyond = ui.load(qf.matchup_residuals, db, run_id, filters["n_players"], filters["map_id"],
                 version=filters["version"])
if matrix is not None:
    ui.rests_on(n_games, None, "head to head: each cell is the share of the games both "
                "factions played in which the row faction finished above the column faction "
                "(ties 1/2). It mostly restates the two factions' overall strengths (a strong "
                "faction finishes above a weak one): ▲/▼ marks a share that differs from 50% "
                "(exact binomial test, Holm over the pairs), not a matchup; the table below says "
                "which pairs differ from what their strengths predict. Grey: the pair never sat "
                "at the same table in this selection, so nothing is known about it")
    st.plotly_chart(charts.faction_matrix(relabel(matrix, run)), key="matrix_chart")
    factions = sorted(rates["faction"].to_list())
    faction_names = game_labels(game)
    focus = ui.url_choice("Focus faction", factions, "faction", key="focus_faction",
                          format_func=lambda f: name(faction_names, f))
    row = relabel(matrix.filter((matrix["faction"] == focus) & (matrix["games"] > 0)), run)
    st.plotly_chart(
        charts.rate_with_interval(row, "opponent",
                                  f"{name(faction_names, focus)}: share finished above each opponent",
                                  "opponent"),
        key="focus_chart")
if beyond is not None and beyond.height:
    st.markdown("**Matchups beyond strength**: the share of shared games each faction finished "
                "above the other, against what the two factions' strengths (and seats) predict "
                "under the finishing-order model below; 'differs': the z test rejects after "
                "Holm over the pairs.  Only these are matchups to look at.")
    tw.show(
        st.container(key="matchup_table"),
        beyond.filter(pl.col("faction") < pl.col("opponent")).sort("p_value"), game, hide_index=True,
        column_config={"observed": st.column_config.NumberColumn("finished above", format="percent"),
                       "expected": st.column_config.NumberColumn("strengths predict", format="percent"),
                       "residual": st.column_config.NumberColumn("beyond strength", format="percent"),
                       "significant": st.column_config.CheckboxColumn("differs")})

st.markdown("#### Finishing-order strength (Plackett-Luce)")
model = ui.load(qf.strength_model, db, run_id, filters["n_players"], filters["map_id"],
                version=filters["version"])
if model is not None:
    terms, fitted = model
    ui.rests_on(fitted, None,
                "Plackett-Luce over the full finishing order (Bradley-Terry for two players): "
                "each place goes to a seat with probability its strength over the total of the "
                "seats not yet placed, with faction, seat and (when bots vary within a seat) bot "
                "terms. Faction log-strengths are centred on the average faction, seats measured "
                "against the first seat; when every seat has its own fixed bot, a seat term "
                "includes that bot (its label says so); the bot filter does not apply. It measures "
                "the whole finishing order (avoiding last place counts), not only winning: where "
                "it ranks factions unlike their win rates, read the win rates for who wins (the "
                "test below says whether it does)")
    stage = ui.load(qf.stage_test, db, run_id, filters["n_players"], filters["map_id"],
                    version=filters["version"])
    if stage is not None:
        st.caption(findings.stage_sentence(stage))
    terms = relabel(terms, run, ("level",))     # a faction term named; seats and bots as they are
    st.plotly_chart(charts.strength_forest(terms), key="strength_chart")
    tw.show(st.container(key="strength_table"), terms, hide_index=True,
        column_config={
            "estimate": st.column_config.NumberColumn("log-strength", format="%.2f"),
            "low": st.column_config.NumberColumn("95% low", format="%.2f"),
            "high": st.column_config.NumberColumn("95% high", format="%.2f"),
            "odds": st.column_config.NumberColumn("strength ×", format="%.2f"),
        })

# Balance by skill tier: only for a run of a `delve simulate --tiers` group.
from dashboard.queries import tiers as qt  # noqa: E402

tier_runs = ui.load(qt.tier_runs, db, run_id, version=filters["version"])
if tier_runs is not None and tier_runs.height > 1:
    st.markdown("#### By skill tier")
    ui.rests_on(n_games, None,
                "the same games (seeds, seats, factions) at every tier, every seat playing the "
                "tier's bot; 95% Wilson intervals; a flag marks a faction whose win rate changes "
                "significantly between two tiers (paired difference over the same games, Holm "
                "over the factions): 'grows' when it moves away from the fair share, 'shrinks' "
                "towards it. The filters above do not apply")
    tier_table = ui.load(qt.tier_rates, db, run_id, version=filters["version"])
    if tier_table is not None:
        st.plotly_chart(charts.tier_win_rates(relabel(tier_table, run)), key="tier_chart")
        tw.show(
            st.container(key="tier_table"),
            tier_table.select("tier", "faction", "games", "wins", "rate", "low", "high"), game,
            hide_index=True,
            column_config={
                "games": st.column_config.NumberColumn("player-games"),
                "rate": st.column_config.NumberColumn("win rate", format="percent"),
                "low": st.column_config.NumberColumn("95% low", format="percent"),
                "high": st.column_config.NumberColumn("95% high", format="percent"),
            })
    undecided_tiers = ui.load(qt.tier_undecided, db, run_id, version=filters["version"])
    if undecided_tiers is not None and undecided_tiers["undecided"].sum():
        st.caption("Games that ended at the turn limit without a winner, per tier (the rates "
                   "above are over the decided games; the changes below count such a game as "
                   "won by nobody, at both tiers alike):")
        ui.undecided_table(undecided_tiers, "tier_undecided_table")
    shifts = ui.load(qt.tier_shifts, db, run_id, version=filters["version"])
    if shifts is not None:
        tw.show(st.container(key="tier_shift_table"), shifts, game, hide_index=True,
            column_config={
                "tier_a": "from tier", "tier_b": "to tier", "n": "paired seats",
                "rate_a": st.column_config.NumberColumn("win rate (from)", format="percent"),
                "rate_b": st.column_config.NumberColumn("win rate (to)", format="percent"),
                "diff": st.column_config.NumberColumn("change", format="percent"),
                "low": st.column_config.NumberColumn("95% low", format="percent"),
                "high": st.column_config.NumberColumn("95% high", format="percent"),
                "flag": "imbalance",
            })

# Win rate by card held: only for runs whose seats record the cards they held
# (players.held_cards: the cave game's traits and equipment); queries in dashboard/queries/cards.py.
from dashboard.queries import cards as qcards  # noqa: E402


def card_kind_names(db: str, run: dict, card_rates: pl.DataFrame) -> dict[str, str]:
    """A card kind ('eq', the cards' id prefix) by the rules' collection its cards are in
    ('equipment'), in words."""
    import json

    from dashboard.labels import _run_rules
    from pipelines.lab.design_checks import catalogue
    try:
        where = {i: c for c, i in catalogue(json.loads(_run_rules(db, run["run_id"]) or "{}"),
                                            skip=())}
    except ValueError:
        return {}
    out = {}
    for kind, card in card_rates.select("kind", "card").iter_rows():
        if kind not in out and card in where:
            out[kind] = where[card].split(".")[-1].replace("_", " ")
    return out

if ui.load(qcards.has_held_cards, db, run_id, version=filters["version"]):
    st.markdown("#### Win rate by card held")
    card_rates = ui.load(qcards.card_rates, db, run_id, **filters)
    if card_rates is not None and card_rates.height:
        kinds = sorted(card_rates["kind"].unique().to_list())
        kind_names = card_kind_names(db, run, card_rates)
        kind = ui.url_choice("Cards", kinds, "card_kind", key="card_kind",
                             format_func=lambda k: kind_names.get(k, k))
        shown = card_rates.filter(card_rates["kind"] == kind).sort("rate", descending=True)
        from dashboard.labels import run_names
        from dashboard.table_words import cell_words
        card_names = run_names(db, run)
        shown = shown.with_columns(pl.col("card").map_elements(
            lambda c: cell_words(card_names, c), return_dtype=pl.Utf8))
        ui.rests_on(n_games, int(shown["games"].sum()),
                    "each card's win rate among the seats that held it at some time in the game "
                    "(a seat counts once per card, whichever of its workers held it), with its "
                    "own 95% Wilson interval; a red/blue point: the exact binomial test against "
                    "the fair share rejects after Holm's correction over all cards of the run "
                    "(seat-games counted as independent). `delve checks` tests each card "
                    "against the other seats with the number of cards held fixed (a seat whose "
                    "workers die holds more cards) and errors clustered by game")
        st.plotly_chart(charts.rate_with_interval(shown, "card",
                                                  f"Win rate by card held: {kind_names.get(kind, kind)}",
                                                  "card"), key="card_rates_chart")
        tw.show(
            st.container(key="card_rates_table"),
            shown.select("card", "games", "wins", "rate", "low", "high", "fair_share", "p_holm",
                         "significant"),
            hide_index=True,
            column_config=ui.rate_columns(games="seats holding it"))
