"""Fixtures of the CLI tests: the pipeline tests' (tests/pipelines/pipefix.py), and their helpers
(pipeline_helpers.py) importable here."""

import sys
from pathlib import Path

_PIPELINES = str(Path(__file__).resolve().parents[1] / "pipelines")
if _PIPELINES not in sys.path:
    sys.path.insert(0, _PIPELINES)

from pipefix import *  # noqa: E402,F401,F403
from pipefix import _toy_registered  # noqa: E402,F401
