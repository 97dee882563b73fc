"""Delve dashboard entry point: a router over the pages in ``dashboard/app_pages/``.

    streamlit run dashboard/app.py -- --db data/delve.duckdb

The database path comes from ``--db`` after ``--``, else ``DELVE_DB``, else
``data/delve.duckdb``. (Streamlit ignores a ``pages/`` folder once ``st.navigation`` is
used, hence ``app_pages/``.)
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if str(_HERE.parent) not in sys.path:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(_HERE.parent))

import streamlit as st  # noqa: E402

from dashboard import queries, ui  # noqa: E402

# For the people who use it, not a Streamlit developer: no deploy button, no developer menu
# (toolbar "minimal": only what set_page_config gives, here nothing, so the menu is hidden).
st.set_option("client.toolbarMode", "minimal")
st.set_page_config(page_title="Delve", page_icon=str(_HERE / "assets" / "favicon.png"),
                   layout="wide")

PAGES = [
    # The default page is served at "/", so a shared link is "/?run=RUN_ID".
    st.Page(_HERE / "app_pages" / "runs.py", title="Runs", icon=":material/list_alt:", default=True),
    # One line per page; the URL path is the file name (/factions?run=...&players=4).
    st.Page(_HERE / "app_pages" / "factions.py", title="Factions", icon=":material/balance:"),
    st.Page(_HERE / "app_pages" / "scoring.py", title="Scoring", icon=":material/calculate:"),
    st.Page(_HERE / "app_pages" / "map.py", title="Map", icon=":material/map:"),
    st.Page(_HERE / "app_pages" / "replay.py", title="Replay", icon=":material/replay:"),
    st.Page(_HERE / "app_pages" / "report.py", title="Report", icon=":material/description:"),
    st.Page(_HERE / "app_pages" / "whatif.py", title="What-if", icon=":material/science:"),
    st.Page(_HERE / "app_pages" / "checks.py", title="Checks", icon=":material/rule:"),
    st.Page(_HERE / "app_pages" / "playtests.py", title="Playtests", icon=":material/groups:"),
]

page = st.navigation(PAGES)
st.sidebar.caption(f"Database: `{ui.db_path()}`")
with queries.batch(ui.db_path()):  # one short read-only connection for the page's queries
    page.run()
