"""`delve dashboard` and `delve report`: the results for people (dashboard/ draws them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click

from engine.core.errors import DelveError

from .base import db_option


@click.command()
@db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
def dashboard(db, port):
    """Open the Streamlit dashboard on the database."""
    from engine.core.rules import REPO_ROOT
    app = REPO_ROOT / "dashboard" / "app.py"
    if not app.is_file():
        raise DelveError(f"The dashboard app '{app}' is missing")
    db_abs = str(Path(db).resolve())
    env = dict(os.environ, DELVE_DB=db_abs)
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--client.toolbarMode", "minimal", "--", "--db", db_abs]  # no deploy button or dev menu
    click.echo(f"Dashboard on http://localhost:{port} (database {db_abs})", err=True)
    try:
        sys.exit(subprocess.call(cmd, env=env))
    except KeyboardInterrupt:
        sys.exit(0)


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
