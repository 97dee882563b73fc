"""Small Streamlit helpers the pages share: the database path and friendly data errors.

Pages only lay out; they call :func:`load` around every query helper so that a missing,
empty, foreign or busy database becomes a plain-words message, never a traceback.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import streamlit as st

from dashboard import queries, settings

T = TypeVar("T")

#: While the database stays busy, rerun the page automatically this many times.
BUSY_AUTO_RETRIES = 5
BUSY_RETRY_PAUSE_S = 1.0
_BUSY_COUNT_KEY = "_delve_busy_retries"

BUSY_MESSAGE = (
    "The database is busy: a simulation is writing to it right now. Retrying in a moment…"
)


def db_path() -> Path:
    """The database this dashboard reads (``-- --db PATH``, ``DELVE_DB`` or the default)."""
    return settings.resolve_db_path()


def how_to_fill(db: Path) -> str:
    return (
        "Run `make demo` to simulate a default batch and open the dashboard, or simulate "
        f"a batch yourself:\n\n```\ndelve simulate glimmerdeep --games 200 --players 4 "
        f"--bots greedy --seed 1 --db {db}\n```"
    )


def show_no_database(db: Path) -> None:
    st.info(f"There is no Delve database at `{db}` yet.\n\n" + how_to_fill(db), icon="🗂️")


def show_no_runs(db: Path) -> None:
    st.info(f"The database `{db}` holds no runs yet.\n\n" + how_to_fill(db), icon="🗂️")


def load(fn: Callable[..., T], *args: Any) -> T | None:
    """Call a query helper; on a data problem show a friendly message and return None."""
    db = db_path()
    try:
        result = fn(*args)
    except queries.DatabaseMissing:
        show_no_database(db)
        return None
    except queries.DatabaseBusy:
        _show_busy()
        return None
    except queries.DatabaseUnreadable:
        st.error(
            f"`{db}` exists but is not a DuckDB database this dashboard can read. "
            "Point it at another file with `-- --db PATH` or the `DELVE_DB` variable."
        )
        return None
    except queries.SchemaMismatch as exc:
        st.error(
            f"`{db}` does not hold the Delve tables this page needs. "
            "Was it written by `delve simulate`?"
        )
        with st.expander("Details"):
            st.code(str(exc.__cause__ or exc), language=None)
        return None
    except duckdb.Error as exc:  # the last resort: still no raw traceback
        st.error(f"DuckDB could not read `{db}`.")
        with st.expander("Details"):
            st.code(f"{type(exc).__name__}: {exc}", language=None)
        return None
    st.session_state[_BUSY_COUNT_KEY] = 0
    return result


def _show_busy() -> None:
    st.warning(BUSY_MESSAGE, icon="⏳")
    tries = int(st.session_state.get(_BUSY_COUNT_KEY, 0))
    if tries < BUSY_AUTO_RETRIES:
        st.session_state[_BUSY_COUNT_KEY] = tries + 1
        time.sleep(BUSY_RETRY_PAUSE_S)
        st.rerun()
    st.button("Retry now", key="busy_retry")
