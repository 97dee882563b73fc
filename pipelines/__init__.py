"""Batch planning, joblib/Dask execution, the DuckDB store and the `delve` CLI."""
