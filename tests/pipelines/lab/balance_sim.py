"""Synthetic balance searches for the tests: a two-faction game whose balance point is known by
construction (faction m wins game i under value v when U_i < p_v; the candidates share the
seeds, so U_i is shared, except in a fraction of games a candidate redraws it)."""

from __future__ import annotations

import numpy as np

from pipelines.lab.balance import Candidate, look


def search(ps, rng, *, batch=100, max_games=3200, alpha=0.05, tolerance=0.02, shared=0.5):
    k = len(ps)
    cands = [Candidate(i) for i in range(k)]
    u = np.empty(0)
    own = np.empty((k, 0))
    redraw = np.empty((k, 0), dtype=bool)
    target, rnd = batch, 0
    while True:
        rnd += 1
        extra = target - len(u)
        u = np.concatenate([u, rng.random(extra)])
        own = np.concatenate([own, rng.random((k, extra))], axis=1)
        redraw = np.concatenate([redraw, rng.random((k, extra)) > shared], axis=1)
        won = np.where(redraw, own, u[None, :]) < np.asarray(ps)[:, None]
        n = len(u)
        counts = {i: {"m": (float(won[i].sum()), n), "b": (float(n - won[i].sum()), n)}
                  for i in range(k)}
        pairs = {}
        for i in range(k):
            for j in range(i + 1, k):
                up = int((won[i] & ~won[j]).sum())
                dn = int((~won[i] & won[j]).sum())
                pairs[(i, j)] = {"m": (n, up, dn, 0), "b": (n, dn, up, 0)}
        for c in cands:
            c.games = n
        stop, why, within = look(cands, counts, pairs, 0.5, alpha, rnd, 2, tolerance)
        if stop or target >= max_games:
            alive = [c for c in cands if c.alive]
            best = min(alive, key=lambda c: c.estimate)
            return stop, best.value, [c.value for c in alive], n
        target = min(max_games, 2 * target)
