"""The `delve` command group and what every command shares (error handling, --db).

Every failure caused by the user's input (a DelveError, a bad option value) prints one
paragraph naming the culprit to stderr, without a traceback, and exits with code 2.  All input
is validated before the database file is created or a run row is written.
"""

from __future__ import annotations

import sys

import click

from engine.core.errors import DelveError

DEFAULT_DB = "data/delve.duckdb"


class DelveGroup(click.Group):
    """Turns every user-input failure into one paragraph on stderr and exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except DelveError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(getattr(exc, "exit_code", 2))
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def seating_option(f):
    """`--seating`: the seating design of a new run (pipelines/run/seating.py, `VERSIONS`)."""
    return click.option(
        "--seating", type=click.Choice(["balanced-2", "balanced-1"]), default="balanced-2",
        show_default=True,
        help="The seating design of a new run: balanced-2 seats every pair of factions together, "
             "every faction in every seat and right after every other faction equally often per "
             "cycle; balanced-1 (no neighbour balance) reproduces the seats of runs and figures "
             "made before it (2026-12-03).")(f)


def db_option(f):
    return click.option("--db", default=DEFAULT_DB, show_default=True, type=click.Path(),
                        help="DuckDB database file.")(f)


@click.group(cls=DelveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="delve")
def main():
    """Delve: a balance lab for board-game designers."""
