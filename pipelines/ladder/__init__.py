"""Skill ladders and search-bot tuning (issue 13): which bots are stronger than which, with
intervals, and the per-game search parameters chosen by a small documented grid search."""
