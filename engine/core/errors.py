"""Errors.  `DelveError` is a user-facing error: the CLI prints it (no traceback) and exits 2."""

from __future__ import annotations


class DelveError(Exception):
    """An error caused by the user's input.  The message names the culprit."""

    exit_code = 2


class RulesError(DelveError):
    """A rules file, variant patch or override is not valid."""

    def __init__(self, source: str, field: str, expected: str):
        self.source = source
        self.field = field
        self.expected = expected
        where = f"{source}" + (f", field '{field}'" if field else "")
        super().__init__(f"Invalid rules in {where}: {expected}")

    def __reduce__(self):
        # picklable with its three fields, so a rules error raised in a joblib or Dask worker
        # reaches the user as itself (not as an unreadable BrokenProcessPool)
        return (type(self), (self.source, self.field, self.expected))


class UnknownGame(DelveError):
    pass


class SetupError(DelveError):
    """A game cannot be set up as asked (player count, map, faction)."""


class IllegalAction(Exception):
    """An action that is not legal in the current state.  The state is left untouched."""
