"""Fixtures of the pipeline tests: pipefix.py (the toy game registered, a CLI runner)."""

from pipefix import *  # noqa: F401,F403  (pytest registers the fixtures from this namespace)
from pipefix import _toy_registered  # noqa: F401  (an autouse fixture)
