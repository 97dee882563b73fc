"""`delve dashboard` and `delve report`: the results for people (dashboard/ draws them).

`delve dashboard` is safe to leave running under a process manager: it starts Streamlit as a
child, forwards SIGTERM, SIGINT and SIGHUP to it (as SIGTERM: Streamlit shuts down cleanly and
the pages stop their launched runs, resumable), waits for it and exits with its status; on
Linux the child also gets SIGTERM if this process is killed outright (SIGKILL), so no server is
ever left serving without its parent.  It listens on 127.0.0.1 unless `--host` says otherwise;
beyond loopback, launching runs from the pages is off unless `--allow-launch`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click

from engine.core.errors import DelveError

from .base import db_option

LOOPBACK = ("127.0.0.1", "localhost", "::1")
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOP_GRACE_S = 20.0   # how long Streamlit (and the runs it stops) may take before SIGKILL


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """Linux: the child gets SIGTERM when its parent dies, even by SIGKILL."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def serve_child(cmd: list[str], env: dict) -> int:
    """Run `cmd`, forwarding SIGTERM/SIGINT/SIGHUP to it as SIGTERM; its exit status (a death
    by signal N as 128 + N, as a shell reports it)."""
    preexec = _die_with_parent if sys.platform.startswith("linux") else None
    proc = subprocess.Popen(cmd, env=env, preexec_fn=preexec)
    received: list[int] = []

    def forward(signum, frame):
        received.append(signum)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, forward) for s in FORWARDED}
    try:
        while True:
            try:
                rc = proc.wait(timeout=STOP_GRACE_S if received else None)
                break
            except subprocess.TimeoutExpired:  # it did not stop in time
                proc.kill()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return 128 - rc if rc < 0 else rc


@click.command()
@db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 (or one "
                   "interface's address) shares the dashboard on the network.")
@click.option("--allow-launch", is_flag=True,
              help="Let the pages launch runs when listening beyond loopback (off by default "
                   "then; always on for 127.0.0.1).")
@click.option("--max-launches", type=click.IntRange(min=1), default=1, show_default=True,
              help="Runs launched from the pages that may play at once; the others wait in "
                   "the queue.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="Where launched runs play: local worker processes, or a Dask cluster.")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask scheduler address for launched runs (with --backend dask).")
def dashboard(db, port, host, allow_launch, max_launches, backend, scheduler):
    """Open the Streamlit dashboard on the database."""
    from engine.core.rules import REPO_ROOT
    app = REPO_ROOT / "dashboard" / "app.py"
    if not app.is_file():
        raise DelveError(f"The dashboard app '{app}' is missing")
    if scheduler and backend != "dask":
        raise DelveError("--scheduler is only used with --backend dask")
    db_abs = str(Path(db).resolve())
    launch = allow_launch or is_loopback(host)
    env = dict(os.environ, DELVE_DB=db_abs, DELVE_HOST=host,
               DELVE_ALLOW_LAUNCH="1" if launch else "0", DELVE_MAX_LAUNCHES=str(max_launches),
               DELVE_LAUNCH_BACKEND=backend, DELVE_LAUNCH_SCHEDULER=scheduler or "")
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port),
           "--server.address", host, "--server.headless", "true",
           "--browser.gatherUsageStats", "false",
           "--client.toolbarMode", "minimal", "--", "--db", db_abs]  # no deploy button or dev menu
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Dashboard on http://{shown}:{port} (database {db_abs}); launching runs from "
               f"the pages is {'on' if launch else 'off (--allow-launch turns it on)'}, "
               f"{max_launches} at a time", err=True)
    sys.exit(serve_child(cmd, env))


@click.command("report")
@click.argument("run")
@click.option("--vs", "vs", default=None, metavar="RUN_B",
              help="Compare with this run (an id, unique prefix or 'latest').")
@click.option("-o", "--output", "output", required=True, type=click.Path(),
              help="The HTML file to write.")
@click.option("--db", default="data/delve.duckdb", show_default=True, type=click.Path(),
              help="DuckDB database file.")
def report_command(run, vs, output, db):
    """Export RUN (an id, unique prefix or 'latest') as one self-contained HTML file: manifest
    and the dashboard's figures, Plotly inlined, no network request when opened."""
    from dashboard.report import write_report
    path = write_report(db, run, output, vs=vs)
    click.echo(f"Report written to {path} ({path.stat().st_size / 1e6:.1f} MB)")


COMMANDS = (dashboard, report_command)
