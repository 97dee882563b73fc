"""Everything between the engine and the pages: `run` (plan and execute batches, pairing,
replay), `store` (the DuckDB contract, connections, the writer, invariants), `lab` (the
what-if lab), `stats` (statistics), `bench` (benchmarks, soak).  Imports `engine`, never
`dashboard` or the CLI (`delve`)."""
