"""One package per game (see README.md here: the shape of a game package and how to add one)."""
