"""The self-contained HTML report (`delve report`), drawn with the pages' queries and figure
builders: `build_report(db, run, vs=None)` and `write_report(db, run, out, vs=None)`."""

from .html import BARE_MODE_LOGGERS, build_report, write_report

__all__ = ["BARE_MODE_LOGGERS", "build_report", "write_report"]
