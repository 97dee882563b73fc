"""Report: download a run (or two runs compared) as one self-contained HTML file — the same
figures as these pages, Plotly inlined, no network request when opened. The same file as
``delve report RUN [--vs RUN_B] -o FILE.html``."""

from __future__ import annotations

import streamlit as st

from dashboard import ui
from dashboard.queries import core as qcore
from dashboard.queries import runs as qruns

db = str(ui.db_path())
st.title("Report")


@st.cache_data(ttl=600, show_spinner="Building the report…", max_entries=4)
def build(db: str, run_id: str, vs: str | None, versions: tuple[str, ...]) -> bytes:
    """The HTML bytes; ``versions`` (the runs' data versions) renews them when a run grows."""
    from dashboard.report.html import build_report

    return build_report(db, run_id, vs).encode("utf-8")


run = ui.select_run()
if run is None:
    st.stop()
run_id = run["run_id"]
NONE = "(no comparison)"
runs = ui.load(qruns.runs_overview, db)
if runs is None:
    st.stop()
rows = {r["run_id"]: r for r in runs.iter_rows(named=True)}
others = [r for r in rows if r != run_id]
vs = ui.url_choice("Compare with (optional)", [NONE, *others], "vs", key="report_vs")
vs = None if vs == NONE else vs
st.caption(f"{run.get('games_stored', 0):,} games stored in this run. The file holds a manifest "
           "(game, rules hash, variant diff, seeds, bots, engine version, games) and every "
           "figure, with 95% intervals.")
if run.get("games_stored", 0) == 0:
    st.info("This run has no stored game yet: nothing to report.", icon="📄")
    st.stop()

if st.button("Prepare the report", key="report_prepare") or st.session_state.get("report_for") == (run_id, vs):
    st.session_state["report_for"] = (run_id, vs)
    try:
        versions = (ui.data_version(run),) + ((ui.data_version(rows[vs]),) if vs else ())
        data = build(db, run_id, vs, versions)
    except Exception as exc:  # noqa: BLE001 - shown as a message, never a traceback
        from engine.core.errors import DelveError

        if not isinstance(exc, (DelveError, qcore.DashboardDataError)):
            raise
        st.error(f"The report could not be built: {exc}")
        st.stop()
    name = f"delve-report-{run_id}" + (f"-vs-{vs}" if vs else "") + ".html"
    st.download_button("Download the HTML report", data, file_name=name, mime="text/html",
                       key="report_download", icon="⬇️")
    st.caption(f"{len(data) / 1e6:.1f} MB, self-contained.")
