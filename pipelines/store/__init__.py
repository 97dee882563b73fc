"""The database: the contract's tables (`schema`), opening the file with the lock retry
(`connect`), the single writer (`writer`) and the contract's invariants (`checks`, `sql/`).

The public names are re-exported here: `from pipelines.store import Store, connect_read`.
"""

from .connect import (StoreError, check_db_path, connect_read, is_lock_error, resolve_run,
                      retrying_connect)
from .schema import (BATCH_TABLES, DEFAULT_DB, PLAYTEST_SCHEMA, PRIMARY_KEYS, SCHEMA, arrow_schema, to_arrow,
                     to_arrow_subset)
from .writer import DatabaseHeld, Store

__all__ = ["BATCH_TABLES", "DatabaseHeld", "DEFAULT_DB", "PLAYTEST_SCHEMA", "PRIMARY_KEYS", "SCHEMA", "Store", "StoreError",
           "arrow_schema", "check_db_path", "connect_read", "is_lock_error", "resolve_run",
           "retrying_connect", "to_arrow", "to_arrow_subset"]
