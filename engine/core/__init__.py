"""What every game shares: protocol, rng, rules loading, event log, errors, registry."""
