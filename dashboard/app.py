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

from dashboard import ui  # noqa: E402

st.set_page_config(page_title="Delve", page_icon="⛏️", layout="wide")

PAGES = [
    # The default page is served at "/", so a shared link is "/?run=RUN_ID".
    st.Page(_HERE / "app_pages" / "runs.py", title="Runs", icon="📋", default=True),
]

page = st.navigation(PAGES)
st.sidebar.caption(f"Database: `{ui.db_path()}`")
page.run()
