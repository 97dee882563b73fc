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
from dataclasses import dataclass
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


# -- serving: set by `delve dashboard` (delve/cli/serve.py) in the environment ------------------

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ServeSettings:
    """How the dashboard is served: its address, whether the pages may launch runs, how many
    launched runs play at once, and where (local worker processes, or a Dask cluster)."""

    host: str = "127.0.0.1"
    allow_launch: bool = True
    max_launches: int = 1
    backend: str = "loky"
    scheduler: str = ""

    @property
    def loopback(self) -> bool:
        return self.host in LOOPBACK or self.host.startswith("127.")

    def launch_off_reason(self) -> str | None:
        """Why the pages may not launch runs (None if they may)."""
        if self.allow_launch:
            return None
        return (f"Launching runs from the pages is off: this dashboard listens on {self.host}, "
                f"beyond this machine, so anyone on the network could start work. The operator "
                f"turns it on with `delve dashboard --host {self.host} --allow-launch`; "
                f"`delve simulate` works as always from a terminal.")


def serve_settings(environ: Mapping[str, str] | None = None) -> ServeSettings:
    """The serving settings from the environment (a plain `streamlit run`: this machine only,
    launching on, one at a time)."""
    env = os.environ if environ is None else environ
    host = env.get("DELVE_HOST") or "127.0.0.1"
    loop = host in LOOPBACK or host.startswith("127.")
    allow = env.get("DELVE_ALLOW_LAUNCH")
    try:
        limit = max(1, int(env.get("DELVE_MAX_LAUNCHES") or 1))
    except ValueError:
        limit = 1
    return ServeSettings(host=host, allow_launch=loop if allow is None else allow == "1",
                         max_launches=limit, backend=env.get("DELVE_LAUNCH_BACKEND") or "loky",
                         scheduler=env.get("DELVE_LAUNCH_SCHEDULER") or "")
