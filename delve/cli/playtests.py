"""`delve playtests template|import|list|remove|compare`: human playtests beside the bots."""

from __future__ import annotations

import click

from .base import db_option


@click.group("playtests")
def playtests():
    """Your own playtests (games people played) beside the bots.

    \b
      delve playtests template GAME -o my_playtests.csv   # a table to fill (.csv or .xlsx)
      delve playtests import GAME my_playtests.csv        # checked row by row, stored once
      delve playtests compare GAME                        # humans against each bot tier
      delve playtests list | remove ID
    The Playtests page of `delve dashboard` and `delve report` show the same comparison."""


@playtests.command("template")
@click.argument("game")
@click.option("-o", "--output", required=True, type=click.Path(),
              help="The file to write: .csv (with # hint lines) or .xlsx (with a hints sheet).")
def template(game, output):
    """Write an empty playtest table for GAME, its factions and score categories as hints."""
    from engine.core.registry import get_game
    from pipelines.playtests.table import write_template
    g = get_game(game)
    rules = g.load_rules().model
    path = write_template(output, g.id, g.title, list(g.factions(rules)), list(g.score_categories),
                          list(g.player_counts), list(g.maps(rules)))
    click.echo(f"wrote {path}: one row per seat; fill it, then `delve playtests import {g.id} {path}`")


@playtests.command("import")
@click.argument("game")
@click.argument("file", type=click.Path())
@click.option("--label", default=None, help="A name for this import (default: the file's name).")
@db_option
def import_command(game, file, label, db):
    """Check FILE (.csv or .xlsx) against GAME's rules row by row and store its games.  A bad
    row stops the import with the row and column named, and nothing is written; the same
    table imported twice is stored once."""
    from pipelines.playtests import load_file
    from pipelines.playtests.store import import_playtest
    from pipelines.store import check_db_path
    check_db_path(db)
    p = load_file(game, file)
    res = import_playtest(db, p, label=label)
    if not res.new:
        click.echo(f"{file} was imported before as {res.playtest_id} ({res.games} games): "
                   f"nothing written")
        return
    click.echo(f"imported {res.games} games ({res.seats} seats) from {file} as {res.playtest_id} "
               f"-> {db}\nnext: `delve playtests compare {game}` or the Playtests page of "
               f"`delve dashboard`")


@playtests.command("list")
@click.option("--game", default=None, help="Only this game's imports.")
@db_option
def list_command(game, db):
    """The imported playtest files: id, game, label, games, player counts, rules."""
    from pipelines.playtests.store import list_playtests
    rows = list_playtests(db, game)
    if not rows:
        click.echo(f"no playtests in {db} (`delve playtests import GAME FILE`)")
        return
    click.echo(f"{'id':<34} {'game':<18} {'games':>5} {'players':<8} {'rules':<16} label")
    for r in rows:
        click.echo(f"{r['playtest_id']:<34} {r['game']:<18} {r['games']:>5} {r['players']:<8} "
                   f"{r['variants']:<16} {r['label']}")


@playtests.command("remove")
@click.argument("playtest_id", metavar="ID")
@db_option
def remove_command(playtest_id, db):
    """Remove one imported file's games (ID from `delve playtests list`, or a unique prefix)."""
    from pipelines.playtests.store import remove_playtest
    n = remove_playtest(db, playtest_id)
    click.echo(f"removed {n} playtest games")


@playtests.command("compare")
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="The player count (default: the one most playtests have).")
@db_option
def compare_command(game, players, db):
    """Set GAME's playtests beside every bot tier on the same rules and player count: which tier
    plays most like your group, and whether your faction verdicts agree with the bots'."""
    from engine.core.errors import DelveError
    from engine.core.registry import get_game
    from pipelines.playtests.compare import compare
    from pipelines.playtests.data import Slice, default_slice, load_slice, with_maps
    from pipelines.playtests.words import sentences
    g = get_game(game)
    s = default_slice(db, g.id)
    if s is None:
        raise DelveError(f"No playtests of {g.id} in '{db}' (--db): import some with "
                         f"`delve playtests import {g.id} FILE`")
    if players is not None:
        s = with_maps(db, Slice(s.game, s.rules_hash, players))
    c = compare(load_slice(db, s))
    maps = f", maps {', '.join(s.maps)}" if s.maps else ""
    click.echo(f"{g.title}, {s.n_players} players{maps}, rules {s.rules_hash}: {c.n_games} playtests; "
               f"bot tiers on the same rules: {', '.join(c.tiers) or 'none'}")
    labels = g.labels or {}
    for line in sentences(c, {k: str(v) for k, v in dict(labels).items()}):
        click.echo(f"- {line}")


COMMANDS = (playtests,)
