"""What `delve simulate` and `delve resume` print and how they exit when a run stops early.

- a game that raised: its seed and the command that reproduces it, exit code 1;
- Ctrl-C / SIGTERM: how many games are kept and the command that resumes, exit code 130;
- a dead worker, a full disk, a read-only file: one paragraph (RunStopped / StoreError),
  exit code 1, raised through the CLI's DelveError handling.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from pipelines.run.execute import RunSummary, failure_report, resume_run


@contextmanager
def interrupt_exits():
    """Ctrl-C during a run: print the runner's message (games kept, how to resume), exit 130."""
    try:
        yield
    except KeyboardInterrupt as exc:
        click.echo(getattr(exc, "delve_message", None)
                   or "Interrupted: the run is marked 'failed'.", err=True)
        sys.exit(130)


def exit_if_games_failed(summary: RunSummary) -> None:
    if summary.failures:
        click.echo(failure_report(summary), err=True)
        sys.exit(1)


def resume(db, run: str, *, jobs: int | None, progress: bool, backend: str = "loky",
           scheduler: str | None = None, flush_s: float = 0.5) -> None:
    with interrupt_exits():
        row, summary = resume_run(db, run, jobs=jobs, progress=progress, backend=backend,
                                  scheduler=scheduler, flush_s=flush_s)
    click.echo(summary.run_id)
    click.echo(f"resumed: {summary.n_games} missing games played in {summary.wall_s:.1f}s; "
               f"{row['n_games']} games planned")
    exit_if_games_failed(summary)
