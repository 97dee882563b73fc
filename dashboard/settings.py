"""Where the dashboard finds its database.

Precedence: ``streamlit run dashboard/app.py -- --db PATH`` beats the ``DELVE_DB``
environment variable, which beats the default ``data/delve.duckdb`` (relative to the
working directory, as for the ``delve`` CLI).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

DEFAULT_DB = Path("data/delve.duckdb")
ENV_VAR = "DELVE_DB"


def resolve_db_path(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """Return the database path from the command line, the environment or the default.

    Unknown arguments are ignored, so the app still starts when it is run under a test
    runner whose own ``sys.argv`` is not meant for it.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    environ = os.environ if environ is None else environ
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--db", default=None)
    known, _unknown = parser.parse_known_args(argv)
    if known.db:
        return Path(known.db)
    if environ.get(ENV_VAR):
        return Path(environ[ENV_VAR])
    return DEFAULT_DB
