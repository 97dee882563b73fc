"""Delve: a balance lab for board-game designers.  `delve.cli` is the command line (`delve`)."""
