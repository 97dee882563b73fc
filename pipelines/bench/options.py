"""How many options a decision offers (issue 27, "Small decisions"): the legal list's length at
every decision of seeded games, over all decisions and per decision kind (the top
frame's name, for games with a decision stack): the count of decisions, the mean, the 99th
percentile and the maximum number of options, and the share above `WIDE` (30).

    delve bench --options --game glimmerdeep --games 20 --seed 1 [--options-bot random]

Game i has seed `game_seed(seed, i)`, `players` seats (or the most the game seats), factions
and maps rotated; every seat plays one bot (greedy by default: the engine a good player builds
offers more than a random player's; random is a cheap look).  A
search tree spreads its budget over a node's options, so a decision of hundreds of options gets
a few visits each: the report names the decisions that are wide."""

from __future__ import annotations

from collections import defaultdict
from typing import Callable

from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import game_seed

WIDE = 30      # options above which a decision counts as wide (issue 27: "more than ~30")


def seats_of(game_id: str, players: int) -> int:
    """The seats the games have: `players`, or the most the game seats."""
    counts = get_game(game_id).player_counts
    return players if players in counts else max(counts)


def option_counts(game_id: str, games: int, seed: int, players: int = 4,
                  bot: str = "greedy") -> dict[str, list[int]]:
    """{decision kind: [option counts]} over `games` games of `bot` in every seat, played by
    the one play loop (`engine.core.play.play_game`, watched before every decision; "all"
    holds every decision).  A seat's legal list is the state's (the no-peeking tests check
    that a seat's view lists exactly the real decisions)."""
    game = get_game(game_id)
    rules = game.load_rules().model
    facs = game.factions(rules)
    maps = game.maps(rules)
    n = seats_of(game_id, players)
    out: dict[str, list[int]] = defaultdict(list)

    def watch(s) -> None:
        k = len(s.legal_actions())
        stack = getattr(s, "stack", None)
        out["all"].append(k)
        out[stack[-1][0] if stack and isinstance(stack[-1][0], str) else "decision"].append(k)

    for i in range(games):
        seats = [Seat(facs[(i + k) % len(facs)], bot) for k in range(n)]
        play_game(game, rules, seats, game_seed(seed, i), map=maps[i % len(maps)], log=False,
                  watch=watch)
    return dict(out)


def summary(counts: list[int]) -> tuple[int, float, int, int, float]:
    """(decisions, mean, 99th percentile, maximum, share above WIDE) of option counts."""
    c = sorted(counts)
    n = len(c)
    p99 = c[min(n - 1, int(0.99 * n))]
    return n, sum(c) / n, p99, c[-1], sum(1 for x in c if x > WIDE) / n


def report_options(game_ids: list[str], *, games: int, seed: int, players: int,
                   bot: str = "greedy", echo: Callable[[str], None] = print) -> None:
    for gid in game_ids:
        counts = option_counts(gid, games, seed, players, bot)
        echo(f"\n{gid}: options per decision over {games} {bot} games "
             f"({seats_of(gid, players)} players, seed {seed}); wide: more than {WIDE}")
        echo(f"{'decision':<16}{'decisions':>10}{'mean':>8}{'p99':>6}{'max':>6}{'> ' + str(WIDE):>8}")
        kinds = ["all"] + sorted((k for k in counts if k != "all"),
                                 key=lambda k: -max(counts[k]))
        for kind in kinds:
            n, mean, p99, mx, wide = summary(counts[kind])
            echo(f"{kind:<16}{n:>10}{mean:>8.1f}{p99:>6}{mx:>6}{wide:>8.1%}")
        wide_kinds = [k for k in kinds[1:] if max(counts[k]) > WIDE]
        echo("wide decisions: " + (", ".join(wide_kinds) if wide_kinds else "none"))

