"""Running batches: `plan` (which games, seats, seeds), `execute` (chunks of games in a joblib
or Dask pool, one writer), `pairing` (paired and growing runs), `replay` (one stored game
rebuilt from its seed)."""
