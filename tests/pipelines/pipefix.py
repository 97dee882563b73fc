"""Fixtures of the pipeline and CLI tests (tests/pipelines/**, tests/delve/): the test-only toy
game registered, a CLI runner.  Kept in a module with a name of its own so the conftest files
of both folders take them from one place."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # loky workers inherit sys.path, so they can import toygame too
    sys.path.insert(0, str(HERE))

import toygame  # noqa: E402  (registers the game "toy")

from engine.core.registry import register  # noqa: E402


@pytest.fixture(autouse=True)
def _toy_registered():
    register(toygame.GAME)
    yield


@pytest.fixture
def cli():
    """Run `delve ...` in-process; returns click's Result (stdout, stderr, exit_code)."""
    from click.testing import CliRunner

    from delve.cli import main

    def run(*args):
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return run
