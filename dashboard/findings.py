"""Findings in plain words: short sentences from the statistics the Factions page already has.

A pure function of the frames the page loads (`queries.faction_rates`, `queries.seat_rates`)
and the number of games; no query, no Streamlit, so the page, the HTML report and notebooks
(`delve.api`) say the same thing and tests check the sentences on known data.

What a sentence may claim is exactly what the statistics support:
- a faction is "too strong" / "too weak" only when its 95% Wilson interval excludes the fair
  share after Holm's correction over the factions (the page's `significant` mark);
- a faction is "balanced within ±margin" only when the equivalence test (two one-sided exact
  tests, Holm over the factions; `pipelines.stats.verdicts`) shows its win rate within the
  margin of the fair share; "every faction is balanced" is the intersection of those claims;
- any other faction is "not yet known": the sentence quotes its simultaneous interval (the
  Bonferroni Clopper-Pearson interval over the factions, the one that agrees with the marks,
  audit N8) and the games that would settle it at 80% power, planned from the margin (never
  from the difference observed, audit N3);
- the first player without a mark is "no evidence of an advantage ..." with the games that would
  tell an advantage of the margin at 80% power;
- every sentence carries its interval and the games behind it.
- where the points come from: for the score category whose points differ most between factions,
  the faction it brings the least (and the most) of their points, each with its interval; "the
  least of any faction" is said plainly only when the gap to the next faction is significant at
  the Bonferroni level over the categories scanned, otherwise the sentence says it is not clear.
- a faction's win rate "depends on the map" only when the chi-square test of homogeneity over
  the run's maps rejects after Holm's correction over the factions
  (`pipelines.stats.heterogeneity`), with its weakest and strongest map and their intervals.
Sentences are ordered by importance: a significant imbalance first (largest gap first), then
the factions whose strength depends on the map, then the factions shown balanced, the first player's advantage, then what the evidence cannot settle
yet, then where points come from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Mapping, Sequence

from pipelines.stats.verdicts import BALANCED, DEFAULT_MARGIN, STRONG, WEAK, verdict_columns

#: z of a two-sided 95% interval (the page's intervals).
Z95 = 1.959963984540054
#: The smallest gap the "games needed" estimate aims at (2 percentage points).
MIN_GAP = 0.02


@dataclass(frozen=True)
class Finding:
    text: str
    kind: str          # "faction", "first_player", "no_evidence", "more_games"
    weight: float      # importance (larger first)
    significant: bool


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _interval(low: float, high: float) -> str:
    return f"[{_pct(low)}, {_pct(high)}]"


def _games(n: int) -> str:
    return f"{n:,} game{'s' if n != 1 else ''}"


def _round_up(n: float) -> int:
    """Up to two significant figures (3,457 -> 3,500): an estimate, not a promise."""
    if n <= 100:
        return int(math.ceil(n / 10.0) * 10)
    mag = 10 ** (int(math.log10(n)) - 1)
    return int(math.ceil(n / mag) * mag)


def games_needed(rate: float, fair: float, player_games: int, n_games: int,
                 tests: int = 1, margin: float | None = None, power: float = 0.8) -> int:
    """Games at which the two-sided test of the fair share (at the Bonferroni level of the
    `tests` Holm-corrected rows) has `power` against a true rate off by `margin` (by the gap
    seen, at least MIN_GAP, when no margin is given): (z_a sqrt(p0 q0) + z_b sqrt(p1 q1))^2 /
    gap^2 player-games (the variance under the null for the level, under the alternative for
    the power), turned into games by the run's own ratio of this faction's player-games to
    games.  (Audit N3: the old estimate had 50% power.)"""
    gap = margin if margin is not None else max(abs(rate - fair), MIN_GAP)
    p0 = min(max(fair, 0.01), 0.99)
    p1 = min(max(p0 + gap, 0.01), 0.99)
    z_a = NormalDist().inv_cdf(1 - 0.05 / (2 * max(tests, 1)))
    z_b = NormalDist().inv_cdf(power)
    needed_pg = (z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) ** 2 / gap ** 2
    per_game = player_games / max(n_games, 1)
    return _round_up(needed_pg / max(per_game, 1e-9))


def _name(labels: Mapping[str, str] | None, key: str) -> str:
    if labels and key in labels:
        return labels[key]
    return key.replace("_", " ").title()


def _poss(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _win(name: str) -> str:
    """'Ironclads win', 'Mole Corp wins' (a plural name ends in s)."""
    return f"{name} {'win' if name.endswith('s') else 'wins'}"


def _rows(frame: Any) -> list[dict]:
    if frame is None:
        return []
    if hasattr(frame, "iter_rows"):
        return list(frame.iter_rows(named=True))
    return list(frame.to_dict("records"))


def _ok(*values: Any) -> bool:
    return all(v is not None and not (isinstance(v, float) and math.isnan(v)) for v in values)


def _mean_ci(r: Mapping[str, Any], z: float = Z95) -> tuple[float, float, float]:
    """Mean points per player-game with its normal interval (a faction sits once per game, so
    its player-games are independent games)."""
    n, mean, var = int(r["n"]), float(r["mean"]), float(r.get("var") or 0.0)
    half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.inf
    return mean, mean - half, mean + half


def _pts(x: float) -> str:
    return f"{x:.1f}"


def category_findings(by_category: Any, labels: Mapping[str, str] | None = None) -> list[Finding]:
    """Where the points come from: `by_category` has faction, category, n (player-games), mean
    and var of the points per player-game (`queries.category_by_faction`).  One sentence, on
    the category whose mean differs most between factions (at least 2 factions, 2 games each),
    when its least-served faction is clearly below the next (Holm-like, over the categories)
    or never scored it; otherwise nothing."""
    rows = [r for r in _rows(by_category) if _ok(r.get("mean")) and int(r.get("n") or 0) > 1]
    totals: dict[str, float] = {}
    per_cat: dict[str, list[dict]] = {}
    for r in rows:
        totals[r["faction"]] = totals.get(r["faction"], 0.0) + float(r["mean"])
        per_cat.setdefault(r["category"], []).append(r)
    cats = {c: rs for c, rs in per_cat.items() if len(rs) >= 2}
    if not cats:
        return []
    spread = {c: max(float(r["mean"]) for r in rs) - min(float(r["mean"]) for r in rs)
              for c, rs in cats.items()}
    cat = max(sorted(cats), key=lambda c: spread[c])
    if spread[cat] <= 0:
        return []
    ranked = sorted(cats[cat], key=lambda r: (float(r["mean"]), r["faction"]))
    low, nxt, top = ranked[0], ranked[1], ranked[-1]
    z_b = NormalDist().inv_cdf(1 - 0.05 / (2 * len(cats)))
    se = math.sqrt(float(low.get("var") or 0) / int(low["n"]) + float(nxt.get("var") or 0)
                   / int(nxt["n"]))
    clear = float(nxt["mean"]) - float(low["mean"]) > z_b * se
    cname = _name(labels, cat).lower() if labels and cat in labels else cat.replace("_", " ")

    def part(r: Mapping[str, Any]) -> str:
        m, lo, hi = _mean_ci(r)
        return (f"{_pts(m)} [{_pts(lo)}, {_pts(hi)}] of their {totals[r['faction']]:.0f} "
                f"points per game")

    lname, tname = (_name(labels, r["faction"]) for r in (low, top))
    never = float(low["mean"]) == 0 and not float(low.get("var") or 0)
    if not clear and not never:
        return []        # "the least, but not clearly" is not a finding (issue 31, M6)
    least = "the least of any faction"
    if never:
        # Not one point in any game: more likely the faction's rules than its play.
        text = (f"{_poss(lname)} {cname} brought no points in any of their "
                f"{int(low['n']):,} player-games (of their {totals[low['faction']]:.0f} points "
                f"per game): it may be a category their rules never score (check the faction's "
                f"rules before reading it as weak play)")
    else:
        text = f"{_poss(lname)} {cname} brings {part(low)}, {least}"
    if top is not low:
        text += f"; it brings {tname} the most, {part(top)}"
    return [Finding(text + f" ({int(low['n']):,} and {int(top['n']):,} player-games).",
                    "categories", 0.8, clear)]


def map_findings(het: Any, labels: Mapping[str, str] | None = None,
                 map_names: Mapping[str, str] | None = None) -> list[Finding]:
    """Factions whose win rate depends on the map (pipelines.stats.heterogeneity: chi-square
    test of homogeneity over the maps, Holm over the factions), the lowest p first, each with
    its weakest and strongest map and their intervals; or one sentence that none does."""
    rows = _rows(het)
    if not rows:
        return []
    map_names = map_names or {}
    tested = [r for r in rows if _ok(r.get("p_holm"))]
    differ = sorted((r for r in tested if r.get("differs")), key=lambda r: r["p_holm"])
    out = []
    for r in differ[:3]:
        rates = {m: v for m, v in (r.get("rates") or {}).items() if v is not None}
        lo_m = min(rates, key=lambda m: rates[m][0])
        hi_m = max(rates, key=lambda m: rates[m][0])

        def at(m):
            rate, low, high, n = rates[m]
            return f"{_pct(rate)} {_interval(low, high)} on {_name(map_names, m)} ({int(n):,} games)"
        out.append(Finding(
            f"{_poss(_name(labels, r['faction']))} win rate depends on the map: {at(lo_m)} "
            f"against {at(hi_m)} (chi-square test over the {len(rates)} maps, Holm over the "
            f"{len(tested)} factions: p {_p(r['p_holm'])}).",
            "map", 1.9 - 0.01 * len(out), True))
    if len(differ) > 3:
        out.append(Finding(f"{len(differ) - 3} more factions' win rates depend on the map "
                           f"(the table by map below).", "map", 1.85, True))
    if not differ and tested:
        out.append(Finding(f"No faction's win rate differs detectably between the maps "
                           f"(chi-square tests, Holm over the {len(tested)} factions).",
                           "map", 0.8, False))
    return out


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def played_by(bots: Sequence[str] | None, bot: str | None = None) -> str:
    """Who played the games a verdict rests on, as a clause for its sentence (' played by
    greedy bots'): the bots that played the run (`players.bot`, as the page's bot filter
    lists them), or the filter's one bot; '' when unknown.  Measured balance moves with the
    players' skill (DESIGN.md, Statistics), so a verdict names the players it is about."""
    kinds = [bot] if bot else list(dict.fromkeys(b for b in bots or () if b))
    if not kinds:
        return ""
    if len(kinds) == 1:
        return f" played by {kinds[0]} bots"
    return f" played by {', '.join(kinds[:-1])} and {kinds[-1]} bots"


def undecided_sentence(info: Mapping[str, Any], what: str = "Win rates") -> str:
    """The games without a winner in words: how many, their share with its interval, and how
    `what` counts them (over the decided games)."""
    k, n = int(info["undecided"]), int(info["games"])
    decided = n - k
    return (f"{k:,} of {_games(n)} ({_pct(info['share'])} {_interval(info['low'], info['high'])}) "
            f"ended at the turn limit without a winner (the rulebook names none there). "
            f"{what} here are over the {decided:,} decided game{'s' if decided != 1 else ''}; "
            f"scores count every game.")


def findings(rates: Any, seats: Any = None, *, n_games: int, n_players: int | None = None,
             labels: Mapping[str, str] | None = None,
             categories: Any = None, bots: Sequence[str] | None = None,
             bot: str | None = None, undecided: Mapping[str, Any] | None = None,
             margin: float | None = None, alpha: float = 0.05,
             by_map: Any = None, map_names: Mapping[str, str] | None = None) -> list[Finding]:
    """The findings of one run (with the page's filters), most important first.

    `rates`: faction, games (player-games), win_rate, low, high, fair_share, significant;
    `seats`: kind ('turn order' / 'seat'), position, games, rate, low, high, fair_share,
    significant; `n_games`: the games they rest on; `n_players`: the player-count filter, if
    any (the sentence then says "of 4-player games"); `labels`: display names of factions and
    categories; `categories`: points per player-game by faction and category (optional, for the
    "where the points come from" sentence, `category_findings`); `bots`: the bots that played
    the run and `bot` the page's bot filter (`played_by`: the verdicts then say "of 4-player
    games played by greedy bots"; with several bots in the run, the seats are played by
    different bots and the first player's sentence says its rate mixes seat and skill);
    `undecided`: the games without a winner ({games, undecided, share, low, high},
    queries.factions.undecided_share): when there are any, the first finding says how many, and
    the verdicts rest on the decided games; `margin`: the smallest imbalance that matters
    (win-rate points as a fraction; default ±3 points, `pipelines.stats.verdicts`); `alpha`:
    the level of each verdict (a run grown until settled spends it over its looks); `by_map`:
    the faction x map heterogeneity rows (`pipelines.stats.heterogeneity.map_heterogeneity`)
    when the run plays several maps, `map_names` their display names."""
    out: list[Finding] = []
    if undecided and undecided.get("undecided"):
        share = float(undecided["share"])
        out.append(Finding(undecided_sentence(undecided), "undecided",
                           4.0 if share >= 0.05 else 1.2, share >= 0.05))
        n_games = int(undecided["games"]) - int(undecided["undecided"])
    if n_players is None:  # one player count in the data: its fair share says which
        shares = {round(r["fair_share"], 9) for r in _rows(rates) if _ok(r.get("fair_share"))}
        if len(shares) == 1:
            k = 1 / next(iter(shares))
            n_players = round(k) if abs(k - round(k)) < 1e-6 else None
    clause = played_by(bots, bot)
    of_games = (f"of {n_players}-player games" if n_players else "of their games") + clause
    in_games = f" in games{clause}" if clause else ""
    # a bot per seat (--bots greedy,random,...): who moves first is also which bot plays
    kinds = list(dict.fromkeys(b for b in bots or () if b))
    mixes = (f" (the seats are played by different bots, {', '.join(kinds)}: this mixes the "
             f"seat with the bots' skill)" if len(kinds) > 1 else "")
    rows = [r for r in _rows(rates) if _ok(r.get("win_rate"), r.get("low"), r.get("high"))]
    m = DEFAULT_MARGIN if margin is None else float(margin)
    if rows:
        cols = verdict_columns([r["wins"] if _ok(r.get("wins")) else r["win_rate"] * r["games"]
                                for r in rows], [r["games"] for r in rows],
                               [r["fair_share"] for r in rows], [r["win_rate"] for r in rows],
                               [bool(r.get("significant")) for r in rows], margin=m, alpha=alpha,
                               total_games=n_games)
        rows = [{**r, "verdict": v, "more_games": g, "p_tost": pt}
                for r, v, g, pt in zip(rows, cols["verdict"], cols["more_games"], cols["p_tost"])]
    balanced, unknown = [], []
    for r in rows:
        name, fair = _name(labels, r["faction"]), r["fair_share"]
        gap = r["win_rate"] - fair
        if r["verdict"] in (STRONG, WEAK):
            out.append(Finding(
                f"{_win(name)} {_pct(r['win_rate'])} {_interval(r['low'], r['high'])} {of_games} "
                f"against a fair {_pct(fair)} ({_games(int(r['games']))} with {name}): "
                f"{r['verdict']}.", "faction", 2.0 + abs(gap), True))
        elif r["verdict"] == BALANCED:
            balanced.append(r)
        else:
            unknown.append(r)
    within = f"within ±{100 * m:.0f} points"
    test = (f"equivalence test, Holm over the {len(rows)} factions" if alpha == 0.05 else
            f"equivalence test at level {alpha:.2g} per faction, Holm over the {len(rows)} factions")
    if balanced:
        fair = balanced[0]["fair_share"]
        listed = ", ".join(f"{_name(labels, r['faction'])} {_pct(r['win_rate'])} "
                           f"{_interval(r['low'], r['high'])}" for r in balanced)
        if len(balanced) == len(rows):
            text = (f"Every faction is balanced {within} of the fair {_pct(fair)}{in_games}: "
                    f"{listed} ({test}; {_games(n_games)}).")
        else:
            text = (f"Balanced {within} of the fair {_pct(fair)}{in_games}: {listed} ({test}; "
                    f"{_games(n_games)}).")
        out.append(Finding(text, "balanced", 1.4 if len(balanced) == len(rows) else 1.1, True))
    first = next((r for r in _rows(seats) if r.get("kind") == "turn order"
                  and r.get("position") == 0 and _ok(r.get("rate"), r.get("low"), r.get("high"))),
                 None)
    if first is not None:
        gap = first["rate"] - first["fair_share"]
        head = (f"The first player wins {_pct(first['rate'])} {_interval(first['low'], first['high'])} "
                f"against a fair {_pct(first['fair_share'])} ({_games(n_games)})")
        if first.get("significant"):
            what = "an advantage" if gap > 0 else "a disadvantage"
            out.append(Finding(f"{head}: {what} of moving first{mixes}.", "first_player",
                               1.5 + abs(gap), True))
        else:
            orders = sum(1 for r in _rows(seats) if r.get("kind") == "turn order")
            n = games_needed(first["rate"], first["fair_share"], first["games"], n_games, orders,
                             margin=m)
            more = (f"; telling an edge of {100 * m:.0f} points would take about {n:,} games "
                    f"(80% power)" if n > n_games else "")
            out.append(Finding(
                f"{head}: no evidence of an advantage or a disadvantage of moving first{more}"
                f"{mixes}.",
                "first_player", 0.5 + abs(gap), False))
    if unknown:
        fair = unknown[0]["fair_share"]
        sim = all(_ok(r.get("low_sim"), r.get("high_sim")) for r in unknown)
        lo_k, hi_k = ("low_sim", "high_sim") if sim else ("low", "high")
        listed = ", ".join(f"{_name(labels, r['faction'])} {_pct(r['win_rate'])} "
                           f"{_interval(r[lo_k], r[hi_k])}" for r in unknown)
        kind = (f"simultaneous 95% intervals over the {len(rows)} factions" if sim
                else "95% intervals")
        more = max((r["more_games"] for r in unknown if _ok(r["more_games"])), default=math.nan)
        settle = (f" About {_round_up(more):,} more games would settle "
                  f"{'it' if len(unknown) == 1 else 'them'} (80% power if a faction is fair or off "
                  f"by the margin; planned from the margin, not from the gaps seen)."
                  if _ok(more) and more > 0 else "")
        if len(unknown) == len(rows):
            text = (f"No faction is shown balanced {within} of the fair {_pct(fair)}, nor too strong "
                    f"or too weak, yet{in_games}: {listed} ({kind}; {_games(n_games)}).{settle}")
        else:
            text = (f"Not yet known{in_games}: {listed}: neither shown {within} of the fair "
                    f"{_pct(fair)} nor shown to differ ({kind}; {_games(n_games)}).{settle}")
        out.append(Finding(text, "no_evidence", 1.0, False))
    if categories is not None:
        out.extend(category_findings(categories, labels))
    if by_map is not None:   # pipelines.stats.heterogeneity over the run's maps
        out += map_findings(by_map, labels, map_names)
    out.sort(key=lambda f: -f.weight)
    return out


def _points(gap: float) -> str:
    g = abs(gap) * 100
    if g < 100 * MIN_GAP - 1e-9:
        return f"under {100 * MIN_GAP:.0f} points"
    return f"{g:.0f} points"


def sentences(*args: Any, **kwargs: Any) -> list[str]:
    """`findings(...)` as plain text, most important first."""
    return [f.text for f in findings(*args, **kwargs)]


def stage_sentence(test: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> str:
    """Audit N4 in words: whether the finishing-order strengths also describe who wins (the
    likelihood-ratio test of one set of strengths for the win and the later places)."""
    from dashboard.comparison_words import p_text
    labels = labels or {}
    p = p_text(test["p"])
    lr = f"likelihood-ratio {test['statistic']:.1f} on {test['df']} df, p {p if p.startswith('<') else '= ' + p}"
    if test["holds"]:
        return (f"One set of strengths fits both the win and the later places ({lr}): the "
                f"chart below reads as strength to win too.")
    gaps = ", ".join(f"{labels.get(f, f)} {g:+.2f}" for g, f in test["gaps"])
    return (f"The same strengths do not decide the win and the later places ({lr}): this chart "
            f"measures the whole finishing order, and its ranking can differ from who wins; read "
            f"the win rates above for strength to win.  Largest gaps, winning against later "
            f"places (log-strength): {gaps}.")


def turn_order_is_seat(seats) -> bool:
    """Whether the turn-order rows repeat the seat rows (the starting player is always seat 0,
    as in Glimmerdeep): then one table says it all (stats audit N10)."""
    import polars as pl
    cols = ["position", "games", "wins"]
    seat = seats.filter(pl.col("kind") == "seat").select(cols).sort("position")
    turn = seats.filter(pl.col("kind") == "turn order").select(cols).sort("position")
    return turn.height > 0 and seat.height == turn.height and seat.equals(turn)
