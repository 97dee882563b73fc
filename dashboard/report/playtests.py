"""The report's "Playtests beside the bots" section: the run's game, rules and player count."""

from __future__ import annotations

from typing import Any


def playtest_section(db: str, run: dict[str, Any], prefix: str = ""):
    """The section, or None when the database holds no playtest of the run's game."""
    from dashboard import charts
    from dashboard.labels import game_labels, rename
    from dashboard.queries import playtests as q
    from pipelines.playtests.words import sentences

    from .html import Section, _table

    game = run.get("game")
    if not game or not q.has_playtests(db) or q.imports(db, game).is_empty():
        return None
    n_players, rules_hash = run.get("n_players"), run.get("rules_hash")
    sec = Section(f"{prefix}Playtests beside the bots")
    slices = q.slices(db, game)
    if n_players is None or slices.filter((slices["rules_hash"] == rules_hash)
                                          & (slices["n_players"] == int(n_players))).is_empty():
        sec.notes.append(
            f"The database holds playtests of {game}, but none on this run's rules "
            f"({rules_hash}) at {n_players} players: " + "; ".join(
                f"{r['games']} at {r['n_players']} players, {r['variant']} rules"
                for r in slices.iter_rows(named=True)) + ".")
        return sec
    maps = q.slice_maps(db, game, rules_hash, int(n_players))
    c = q.comparison(db, game, rules_hash, int(n_players), maps, q.version(db))
    labels = game_labels(game)
    sec.notes.append(
        f"Your {c.n_games} playtests on these rules at {n_players} players"
        + (f" (maps {', '.join(maps)}; bot games restricted to them)" if maps else "")
        + ", beside every bot tier in this database on the same rules and player count (games "
          "whose seats all played one bot). Human win rates have exact (Clopper-Pearson) "
          "intervals; distances have bootstrap intervals over the playtests; the agreement test "
          "is a Monte Carlo test, Holm-corrected over the factions.")
    sec.bullets = sentences(c, labels)
    sec.figures += [
        ("Win rate by faction: playtests and bot tiers", charts.playtest_win_rates(rename(c.rates, labels), c.fair)),
        ("Final scores", charts.playtest_scores(c.human_scores, c.tier_scores)),
        ("Where the points come from", charts.playtest_category_shares(rename(c.shares, labels))),
    ]
    pct = {"rate": ".1%", "low": ".1%", "high": ".1%", "wins": ".1f"}
    sec.tables.append(_table(c.rates, ["source", "faction", "games", "wins", "rate", "low", "high",
                                       "verdict"], pct, labels))
    sec.tables.append(_table(c.scores, ["tier", "distance", "low", "high", "closest", "p_same"],
                             {"distance": ".2f", "low": ".2f", "high": ".2f", "closest": ".0%",
                              "p_same": ".3f"}))
    if c.agreement.height:
        sec.tables.append(_table(c.agreement, ["tier", "faction", "observed", "expected", "p",
                                               "p_holm", "differs"],
                                 {"observed": ".1f", "expected": ".1f", "p": ".3f", "p_holm": ".3f"},
                                 labels))
    return sec
