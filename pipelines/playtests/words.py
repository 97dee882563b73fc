"""The comparison of playtests with the bots, in plain words (page, report, CLI, delve.api)."""

from __future__ import annotations

from typing import Mapping

import polars as pl

from .compare import Comparison


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _iv(lo: float, hi: float) -> str:
    return f"[{_pct(lo)}, {_pct(hi)}]"


def sentences(c: Comparison, names: Mapping[str, str] | None = None) -> list[str]:
    """What a designer should read first, most useful first."""
    names = names or {}
    nm = lambda f: names.get(f, f)  # noqa: E731
    out: list[str] = []
    if c.n_games == 0:
        return ["No playtest matches these rules and this player count."]
    few = (f"{c.n_games} playtest{'s' if c.n_games != 1 else ''} "
           f"({c.n_decided} with a winner)")
    if not c.tiers:
        out.append(f"{few}: no bot games on the same rules and player count to set beside them: "
                   f"simulate some (e.g. `delve simulate GAME --tiers greedy,mcts:400`).")
        return out + _human_only(c, nm)
    sc = c.scores
    if sc.height:
        best = sc.sort("distance").row(0, named=True)
        rest = ", ".join(f"{r['tier']} {r['distance']:.1f}" for r in sc.sort("distance").iter_rows(named=True)
                         if r["tier"] != best["tier"])
        out.append(
            f"Your playtesters' final scores look most like {best['tier']}'s: {best['distance']:.1f} "
            f"points apart [{best['low']:.1f}, {best['high']:.1f}] (Wasserstein distance, bootstrap "
            f"over your {c.n_games} games; closest in {_pct(best['closest'])} of resamples"
            + (f"; the others: {rest}" if rest else "") + ")."
            + (" Even so, games played by that bot would rarely differ this much "
               f"(p = {best['p_same']:.3f}): no tier plays quite like your group."
               if best["p_same"] < 0.05 else ""))
    ca = c.categories
    if ca.height:
        best = ca.sort("distance").row(0, named=True)
        out.append(f"Where the points come from looks most like {best['tier']}: the category shares "
                   f"differ by {100 * best['distance']:.0f} percentage points "
                   f"[{100 * best['low']:.0f}, {100 * best['high']:.0f}] (total variation, "
                   f"{c.n_categorised} games with every category noted; closest in "
                   f"{_pct(best['closest'])} of resamples).")
    elif c.n_games:
        out.append("No playtest noted its score categories on every seat: add points_<category> "
                   "columns to compare where the points come from.")
    out += _factions(c, nm)
    half = _half_width(c)
    if half is not None:
        out.append(f"How few: with {c.n_decided} decided playtests a faction's win rate is known to "
                   f"about ±{100 * half:.0f} points (exact 95% interval at the fair share); the "
                   f"bots' to about ±{100 * _bot_half(c):.0f}.")
    return out


def _half_width(c: Comparison) -> float | None:
    h = c.rates.filter(pl.col("source") == "playtests")
    if h.is_empty():
        return None
    return float(((h["high"] - h["low"]) / 2).median())


def _bot_half(c: Comparison) -> float:
    b = c.rates.filter(pl.col("source") != "playtests")
    return float(((b["high"] - b["low"]) / 2).median()) if b.height else float("nan")


def reference_tier(c: Comparison) -> str | None:
    """The tier the faction verdicts are set beside: the closest by scores, else the first."""
    return c.closest_scores or (c.tiers[0] if c.tiers else None)


def _factions(c: Comparison, nm) -> list[str]:
    t = reference_tier(c)
    h = {r["faction"]: r for r in c.rates.filter(pl.col("source") == "playtests").iter_rows(named=True)}
    b = {r["faction"]: r for r in c.rates.filter(pl.col("source") == t).iter_rows(named=True)}
    ag = {r["faction"]: r for r in c.agreement.filter(pl.col("tier") == t).iter_rows(named=True)}
    out = []
    overall = c.agreement_overall.filter(pl.col("tier") == t)
    if overall.height:
        o = overall.row(0, named=True)
        diff = [f for f, r in ag.items() if r["differs"]]
        out.append(
            (f"Your playtests' faction results disagree with {t}'s (Monte Carlo test over "
             f"{o['factions']} factions, p = {o['p']:.3f})" if o["p"] < 0.05 else
             f"Your playtests' faction results are consistent with {t}'s (p = {o['p']:.3f}; a test "
             f"of agreement, which few games can pass by having little to say)")
            + (f"; after Holm over the factions: {', '.join(nm(f) for f in diff)}." if diff else "."))
    for f in sorted(set(h) | set(b)):
        hr, br = h.get(f), b.get(f)
        if br is None or hr is None:
            continue
        hv, bv = hr["verdict"], br["verdict"]
        human = f"won {hr['wins']:g} of {hr['games']}, {_pct(hr['rate'])} {_iv(hr['low'], hr['high'])}"
        bot = f"{_pct(br['rate'])} {_iv(br['low'], br['high'])}"
        if hv == bv == "not shown to differ":
            continue
        if hv == bv:
            out.append(f"Both your playtests ({human}) and {t} ({bot}) find {nm(f)} {hv}.")
        elif hv == "not shown to differ":
            out.append(f"Your {hr['games']} playtest seats cannot tell whether {nm(f)} is {bv} "
                       f"({human}); the bots at {t} say it is ({bot}).")
        elif bv == "not shown to differ":
            out.append(f"Your playtesters find {nm(f)} {hv} ({human}); the bots at {t} do not ({bot}).")
        else:
            out.append(f"Your playtesters find {nm(f)} {hv} ({human}) where the bots at {t} find it "
                       f"{bv} ({bot}).")
    return out


def _human_only(c: Comparison, nm) -> list[str]:
    out = []
    for r in c.rates.filter(pl.col("source") == "playtests").iter_rows(named=True):
        if r["verdict"] != "not shown to differ":
            out.append(f"Your playtests find {nm(r['faction'])} {r['verdict']}: won {r['wins']:g} of "
                       f"{r['games']}, {_pct(r['rate'])} {_iv(r['low'], r['high'])}.")
    return out
