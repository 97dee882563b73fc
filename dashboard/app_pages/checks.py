"""Checks: design checks of one run, each flag with its evidence (pipelines.lab.design_checks),
and the play checks per skill tier over the runs of the same rules (pipelines.lab.play_checks):
saturation, dead and forced options, runaway leader, early decisions, lead changes, turn
limits, reference ranges, dominant sources, unused sources, source caps, paying hazards.

Rarely chosen actions and catalogue entries (cards, buildings...), games hitting a turn limit
or stalling, dominant openings; and, on request, an ablation run (the run's games replayed
without one entry, paired) whose comparison flags the factions whose balance changes.
The selected run lives in the URL (?run=RUN_ID).
"""

from __future__ import annotations

import json

import polars as pl
import streamlit as st

from dashboard import table_words as tw

from dashboard import jobs, ui
from dashboard.settings import serve_settings
from dashboard.labels import entry_names, game_title, run_names
from dashboard.queries import whatif as wq

JOB_KEY = "checks_job"

db = ui.db_path()
st.title("Checks")

runs = ui.load(wq.runs, str(db))
if runs is None:
    st.stop()
if runs.is_empty():
    ui.show_no_runs(db)
    st.stop()
done = runs.filter(pl.col("status") == "done")
if done.is_empty():
    st.info("No finished run yet.")
    st.stop()
ids = done["run_id"].to_list()
by_id = {r["run_id"]: r for r in done.iter_rows(named=True)}
wanted = st.query_params.get("run")
run_id = st.selectbox("Run", ids, index=ids.index(wanted) if wanted in ids else 0,
                      format_func=lambda r: f"{by_id[r]['label'] or by_id[r]['variant']} · "
                                            f"{game_title(by_id[r]['game'])} · {r}",
                      key="checks_run")
if st.query_params.get("run") != run_id:
    st.query_params["run"] = run_id

game = by_id[run_id]["game"]
rep = ui.load(wq.checks, str(db), run_id)
if rep is None:
    st.stop()
if isinstance(rep, str):
    st.error(rep)
    st.stop()

names = run_names(str(db), rep.run)
flagged = rep.flagged
st.metric("flags", len(flagged))
findings = pl.DataFrame([{"flag": "⚑" if f.flagged else "ok", "check": f.check,
                          "tier": f.tier, "subject": f.subject, "evidence": f.evidence}
                         for f in rep.findings])
tw.show(
    st.container(key="checks_findings"),
    findings, game, names=names, hide_index=True, use_container_width=True)
st.caption("Thresholds: data/checks/checks.toml (a designer's choice, per game). A flag is an "
           "estimate past its threshold; \"not yet certain\" when its 95% interval still reaches "
           "the threshold. Tier: the bot every seat played (mixed: seats played different bots).")

st.header("Per skill tier", divider="gray")
st.caption("The same checks on every finished run of this game with the same rules and player "
           "count, per tier: does the pattern hold for every bot, or only for some? ⚑ flagged, "
           "ok measured and not flagged (estimate [95% interval]); — not flagged at that tier "
           "(options and sources are listed only where flagged) or not measured there.")
tiers = ui.load(wq.tier_checks, str(db), run_id)
if isinstance(tiers, str):
    st.error(tiers)
elif tiers is not None:
    from pipelines.lab.play_checks import by_tier
    tier_findings, _tables, tier_runs = tiers
    st.caption(f"{len(tier_runs)} run(s): {', '.join(tier_runs)}")
    tw.show(st.container(key="checks_by_tier"), by_tier(tier_findings), game, names=names,
            hide_index=True, use_container_width=True)

with st.expander("Options offered and chosen (dead and forced options)"):
    tw.show(st, rep.tables.get("options"), game, names=names, hide_index=True)
with st.expander("Score categories: equal for every seat, at their most (saturation)"):
    tw.show(st, rep.tables.get("saturation"), game, names=names, hide_index=True)
with st.expander("Decisiveness, length, reference ranges and sources of the winners' points"):
    for name in ("decisiveness", "tier_length", "range", "sources"):
        if rep.tables.get(name) is not None and rep.tables[name].height:
            tw.show(st, rep.tables[name], game, names=names, hide_index=True)
with st.expander("Sources no one scores, sources above their cap, chance cards meant as hazards"):
    for name in ("unused", "caps", "hazards"):
        if rep.tables.get(name) is not None and rep.tables[name].height:
            tw.show(st, rep.tables[name], game, names=names, hide_index=True)
with st.expander("Choices: actions and catalogue entries"):
    tw.show(st, rep.tables["choices"], game, names=names, hide_index=True)
with st.expander("Openings: each seat's first decision"):
    tw.show(st, rep.tables["openings"], game, names=names, hide_index=True)
with st.expander("How games ended"):
    tw.show(st, rep.tables["length"], game, names=names, hide_index=True)
if "cards" in rep.tables:   # runs whose seats record the cards they held (pipelines/lab/card_checks.py)
    with st.expander("Cards held: holders' win rate against the other seats"):
        tw.show(
            st.container(key="checks_cards_table"),
            rep.tables["cards"], game, names=names, hide_index=True)

# -- ablation -------------------------------------------------------------------------------------

st.header("Ablation", divider="gray")
st.caption("Replay this run's games without one card or building (paired: same seeds and "
           "seats) and test whether any faction's win rate changes (Holm-corrected).")
from pipelines.lab.design_checks import catalogue  # noqa: E402

cat = catalogue(json.loads(rep.run["rules"] or "{}"))
entry_ids = [f"{c}.{i}" for c, i in cat]
job = st.session_state.get(JOB_KEY)
launch_off = serve_settings().launch_off_reason()
if launch_off:
    st.info(launch_off, icon="🔒")
if entry_ids:
    shown_names = entry_names(rep.run["rules"])

    def _entry(e: str) -> str:
        coll, _, eid = e.rpartition(".")
        return f"{shown_names.get(eid) or eid.replace('_', ' ')} ({coll.replace('_', ' ')})"
    choice = st.selectbox("Entry to remove", entry_ids, key="checks_ablate_entry",
                          format_func=_entry)
    if st.button("Run ablation", key="checks_ablate",
                 disabled=job is not None or launch_off is not None):
        entry = choice.rsplit(".", 1)[1]
        args = ["checks", run_id, "--ablate", entry, "--db", str(db)]
        st.session_state[JOB_KEY] = jobs.launch(
            "ablation", args, db, {"entry": entry, "title": f"ablation of {run_id} without {entry}"})
        st.rerun()
else:
    st.caption("The rules of this game have no catalogue of cards or buildings to remove.")


@st.fragment(run_every=1.0)
def _ablation_progress():
    job = st.session_state.get(JOB_KEY)
    if job is None:
        return
    rc = job.returncode()
    if job.state == "queued":
        st.progress(0.0, text=f"ablation without {job.info['entry']}: queued "
                              f"({jobs.launch_queue().position(job)} in line)")
        return
    if rc is None:
        st.progress(0.5, text=f"ablation without {job.info['entry']}: running…")
        return
    st.session_state[JOB_KEY] = None
    st.session_state["checks_ablation_log"] = (rc, job.log_tail(40))
    st.cache_data.clear()
    st.rerun()


_ablation_progress()
if st.session_state.get("checks_ablation_log"):
    rc, log = st.session_state["checks_ablation_log"]
    (st.success if rc == 0 else st.error)(f"Ablation finished (exit code {rc}).")
    st.code("\n".join(l for l in log.splitlines() if "ablation" in l or "Error" in l) or log,
            language=None)

ablations = runs.filter(pl.col("paired_with") == run_id)
ablations = ablations.filter(pl.col("config").str.contains('"ablate"'))
if ablations.height:
    st.markdown("**Ablation runs of this run** (open one on the What-if page to see the full "
                "comparison)")
    tw.show(st, ablations.select("run_id", "variant", "n_games", "status"), hide_index=True)
