"""Fixtures of the dashboard tests.  They live in dashfix.py, a module with a name of its own,
so that test modules import shared constants from it (`from dashfix import ...`) without
depending on which of the suite's conftest modules Python imported last."""

from dashfix import *  # noqa: F401,F403  (pytest registers the fixtures from this namespace)
from dashfix import _clear_streamlit_caches  # noqa: F401  (an autouse fixture)
