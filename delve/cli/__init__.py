"""The `delve` command line: the one entry point above engine, pipelines and dashboard.

One module per command group: `simulate` (simulate, resume), `data` (games, rules, runs,
replay, check), `lab` (compare, sweep, balance, checks, and simulate's what-if options),
`serve` (dashboard, report), `bench` (bench, bench-dashboard), `ladder` (ladder, tune), `playtests` (human playtests); `base` holds the group and its
error handling.  Commands import what they use when they run, so `delve --help` stays quick.

Every failure caused by the user's input (a DelveError, a bad option value) prints one
paragraph naming the culprit to stderr, without a traceback, and exits with code 2.  All input
is validated before the database file is created or a run row is written.
"""

from __future__ import annotations

from . import bench, data, lab, ladder, playtests, serve, simulate
from .base import DEFAULT_DB, DelveGroup, db_option, main

for _group in (simulate, data, lab, serve, bench, ladder, playtests):
    for _cmd in _group.COMMANDS:
        main.add_command(_cmd)

__all__ = ["DEFAULT_DB", "DelveGroup", "db_option", "main"]
