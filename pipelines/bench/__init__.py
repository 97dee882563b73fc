"""Benchmarks and long checks: `engine` (`delve bench`: decision costs, speed-up, writer
share, memory) and `soak` (`make soak`: long random runs with invariants after every step)."""
