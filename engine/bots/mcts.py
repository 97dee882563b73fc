"""Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling, Powley and
Whitehouse 2012), for any registered game through the protocol alone.

One tree over the searching seat's information sets: a node is the sequence of decisions
taken since the root (open loop), shared by every world the seat cannot tell apart.  Each
iteration samples a fresh world from the seat's observation, `game.determinize(obs, seat,
rng)` (the observation itself, copied, when the game declares no determinize: no hidden
information), then walks that world down the tree:

- selection: UCT over the children legal in this world, with availability counts (a child's
  exploration term uses how often it *could* have been chosen, not the parent's visits);
  every seat picks what maximises its own reward (multi-player, max-n style);
- expansion: one new child per iteration; with `widen` > 0 a node's options are ranked once by
  the game's heuristic and only the best `widen + isqrt(visits)` are considered (progressive
  widening); with `order` > 0 a node with at least `order` options (and fewer than the
  widening threshold) is ranked too and tries its options best first (move ordering, and the
  `prior` bias below); otherwise untried options are taken in random order;
- rollout: `depth` steps of the random or greedy policy, then the game's heuristic
  (`evaluate`; with `leaf = "game"` the game's `extra["leaf_value"]` where it declares one)
  for every seat at the leaf, or the result if the game ended; a random step
  uses the game's `extra["rollout_action"]` (state, rng) -> (action, legal) or None when it
  declares one: a legal action drawn without listing every option;
- backpropagation: each node adds the reward of the seat that chose it.

With `reuse`, a decision that directly follows the seat's own last decision (the state's
`step` counter one past it: no other seat and no other decision in between) starts from the
subtree of the action chosen then, with its visits: in a turn of several decisions (a card,
its orders, a worker's steps) the later ones inherit what the first searched.  The subtree
was built from the seat's own earlier observation, so it holds nothing the seat could not
see.

With `worlds = K`, a decision deals only K worlds (the first K iterations deal them) and
iteration i plays on a copy of world i mod K, chance stream included: the options of a node
are compared on the same hidden cards and the same dice and tiles (common random numbers),
and later iterations clone instead of dealing.

With `narrow = K`, a decision the game marks as the second part of one move of the same seat
(`extra["follow_up"](state)`: Glimmerdeep's dig through the anchor its card's first decision
chose) is widened to its K best options by the heuristic, plus `isqrt(visits)`, whatever its
size, and the expansion of its first part goes on into it: the new part-move is valued through
its best completion, not through a random one, so a move split into small decisions is
searched as the whole move was.

With `opponents = "greedy"` the other seats do not search: at a node where another seat
decides, the tree follows the heuristic's best option in the node's ranking (the greedy bot's
choice up to ties; an opponent model, as in TAG's MCTS), so the visits go to the searching
seat's own options and the tree reaches further into its own next turn.

Rewards are in [0, 1] per seat ("margin": logistic of the seat's value minus the best other
seat's value over `scale`; "rank": the share of the other seats it beats), so one exploration
constant suits every game.  A finished game is on the same scale (`terminal_rewards`): a win
is worth 1, more than any unfinished position, and a finished game not won at most
LOSS_CEILING, so the search takes a win that is one move away.

Budget: forward-model calls, never time, charged at their real cost.  Every `apply` the search
makes on its worlds counts one, and every option it asks the game to value (greedy rollout
steps, the widening and ordering ranks, the opponent model) counts one, as if it had applied
the option to look at it.  Where an iteration applied more than that (the engine counts every
action applied in the thread, `engine.core.frames.applies`: a heuristic that plays a turn out
on copies, a leaf that finishes the turn first, the rules probing what a choice leaves usable),
it is charged what it applied, so a budget is about the same compute in every game and at
every setting.  A search stops at the first iteration boundary at or past the budget.  The
bot's only randomness is its own stream (`engine.core.rng.bot_rng`), so the same seed gives
the same moves on any machine.
"""

from __future__ import annotations

import math
from math import isqrt, log, sqrt

from ..core.errors import DelveError
from ..core.frames import applies
from .greedy import option_values
from .leaf import fitted_leaf
from .params import MCTSParams, tuned_leaf


class Node:
    __slots__ = ("seat", "n", "w", "avail", "children", "order", "prior", "decisive")

    def __init__(self, seat: int):
        self.seat = seat          # the seat whose decision led here (its reward is summed)
        self.n = 0
        self.w = 0.0
        self.avail = 0            # iterations in which this node's action was legal
        self.children: dict = {}  # action -> Node, in creation order (deterministic)
        self.order: list | None = None   # options ranked by the heuristic (widening)
        self.prior: dict | None = None   # action -> prior value in [0, 1] (progressive bias)
        # True while every world in which this node's action was taken ended the game at once
        # with its mover the sole winner (a decisive move, Teytaud and Teytaud 2010)
        self.decisive = False


def leaf_function(game, p: MCTSParams):
    """The leaf value `(state, seat) -> float` that `p.leaf` names (params.MCTSParams)."""
    if p.leaf == "game":
        return game.extra.get("leaf_value") or game.evaluate
    if p.leaf == "fitted":
        fit = tuned_leaf(game.id)
        if fit is None:
            raise DelveError(f"{game.id}: leaf = \"fitted\" needs fitted weights in "
                             f"data/bots/{game.id}.toml [leaf]: "
                             f"`delve fit-leaf {game.id} --write` fits them")
        return fitted_leaf(game, fit)
    return game.evaluate


class MCTSBot:
    """`mcts` / `mcts:BUDGET`: IS-MCTS with the game's tuned parameters (data/bots/)."""

    name = "mcts"

    def __init__(self, game, rng, params: MCTSParams | None = None):
        self.game = game
        self.rng = rng
        self.p = params or MCTSParams()
        self.fm_calls = 0          # forward-model calls of the last decision
        self.iterations = 0        # iterations of the last decision
        self.total_fm_calls = 0    # over the bot's life (tests, bench)
        self.total_iterations = 0
        self.last_iteration_cost = 0  # forward-model calls of the last iteration (tests)
        self.unapplied = 0         # options the heuristic valued without applying (this iteration)
        self.kept = None           # (step of the next decision, subtree) for `reuse`
        self.reused = 0            # decisions that started from a kept subtree (tests, bench)
        self.seat = -1             # the seat searching (the opponent model's "me")
        self._leaf = leaf_function(game, self.p)
        self._follow_up = game.extra.get("follow_up") if self.p.narrow else None

    # ------------------------------------------------------------------ the bot protocol
    def choose(self, obs, seat: int):
        return self.decide(obs, seat)[0]

    def decide(self, obs, seat: int):
        """(action, legal): the action and the legal list it was chosen from (the play loop
        applies it with `apply_legal`, so the decision is not checked twice)."""
        legal = obs.legal_actions()
        if len(legal) == 1:
            self.fm_calls = self.iterations = 0
            kept = self.kept
            if kept is not None and getattr(obs, "step", None) == kept[0]:
                child = kept[1].children.get(legal[0])   # a forced move: follow it down
                self.kept = (kept[0] + 1, child) if child is not None else None
            return legal[0], legal
        return self.search(obs, seat, legal), legal

    # ------------------------------------------------------------------ search
    def search(self, obs, seat: int, legal: list):
        p, rng, game = self.p, self.rng, self.game
        det = game.determinize
        root = self._kept_root(obs, seat)
        self.seat = seat
        self.fm_calls = 0
        it = 0
        dealt = [] if p.worlds else None
        while self.fm_calls < p.budget:
            it += 1
            before = self.fm_calls
            applied, self.unapplied = applies(), 0
            if dealt is None:
                world = det(obs, seat, rng) if det is not None else obs.clone()
            else:                          # `worlds`: K worlds, each played on a copy
                k = (it - 1) % p.worlds
                if k == len(dealt):
                    dealt.append(det(obs, seat, rng) if det is not None else obs.clone())
                world = dealt[k].clone()
            path = self._descend(root, world)
            rewards = self._rollout(world)
            for node in path:
                node.n += 1
                node.w += rewards[node.seat]
            # the iteration's real cost: every action applied in it (the worlds' steps, the
            # rules' own probes, the heuristic's play on its copies, a leaf finishing a turn),
            # and an option valued without applying it as one, where that is more
            real = applies() - applied + self.unapplied
            if real > self.fm_calls - before:
                self.fm_calls = before + real
            self.last_iteration_cost = self.fm_calls - before
        self.iterations = it
        self.root = root
        self.total_fm_calls += self.fm_calls
        self.total_iterations += it
        best, best_key = None, None
        for i, a in enumerate(legal):
            child = root.children.get(a)
            if child is None or child.n == 0:
                continue
            key = (child.decisive, child.n, child.w / child.n, -i)
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best is None:
            best = legal[0]
        elif p.reuse:
            step = getattr(obs, "step", None)
            if isinstance(step, int):
                self.kept = (step + 1, root.children[best])
        return best

    def _kept_root(self, obs, seat: int) -> Node:
        """The subtree kept from the seat's last decision when this one directly follows it
        (`reuse`), else a fresh root."""
        kept, self.kept = self.kept, None
        if kept is not None and getattr(obs, "step", None) == kept[0] \
                and kept[1].seat == seat:          # (kept is only ever set with reuse on)
            self.reused += 1
            return kept[1]
        return Node(seat)

    def _descend(self, node: Node, state) -> list[Node]:
        """Selection and expansion in one world; returns the nodes visited below the root."""
        p, rng = self.p, self.rng
        path = []
        c = p.c * LEAF_SPAN        # rewards of unfinished positions span LEAF_SPAN, not 1
        step = _stepper(state)
        me, modelled = self.seat, p.opponents == "greedy"
        while not state.is_over():
            mover = state.to_move()
            legal = state.legal_actions()
            narrow = self._follow_up is not None and len(legal) > 1 and self._follow_up(state)
            widened = narrow or (p.widen and len(legal) > p.widen)
            ranked = widened or (len(legal) > 1 and ((p.order and len(legal) >= p.order)
                                                     or (modelled and mover != me)))
            if ranked:
                if node.order is None:
                    node.order, node.prior = self._ranked(state, mover, legal)
                allowed = self._widened(node, legal, p.narrow if narrow else p.widen) \
                    if widened else self._in_order(node, legal)
                if modelled and mover != me:
                    allowed = allowed[:1]    # the opponent model: its heuristic's best option
            else:
                allowed = legal
            children = node.children
            untried = None
            for a in allowed:
                ch = children.get(a)
                if ch is None:
                    if untried is None:
                        untried = []
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                if ranked:
                    a = untried[0]           # the best-ranked option not tried yet
                else:
                    a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = Node(mover)
                child.avail = 1
                if p.prior and node.prior is not None:   # virtual visits from the heuristic
                    child.n = p.prior
                    child.w = p.prior * (LEAF_LOW + LEAF_SPAN * node.prior.get(a, 0.0))
                children[a] = child
                step(a, legal)
                self.fm_calls += 1
                child.decisive = _sole_winner(state) == mover
                path.append(child)
                # a forced move does not end the selection, nor does the first part of a
                # move whose follow-up is searched narrowly: its best completion is expanded
                # in the same iteration, so the first value it gets is that completion's
                if len(legal) > 1 and not (self._follow_up is not None and not state.is_over()
                                           and self._follow_up(state)):
                    return path
                node = child
                continue
            best, best_s = None, -1.0
            for a in allowed:
                ch = children[a]
                if ch.decisive:              # the mover takes a win that is one move away
                    best = a
                    break
                s = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n) if ch.n else math.inf
                if s > best_s:
                    best, best_s = a, s
            step(best, legal)
            self.fm_calls += 1
            node = children[best]
            if node.decisive and _sole_winner(state) != mover:
                node.decisive = False        # a world in which it does not win at once
            path.append(node)
        return path

    def _values(self, state, mover: int, legal: list) -> list[float]:
        """The heuristic's value of each option: one call an option, or what it applied where
        that is more (the iteration's real cost, `search`)."""
        before = applies()
        values = option_values(self.game, state, mover, legal)
        self.fm_calls += len(legal)
        self.unapplied += max(0, len(legal) - (applies() - before))
        return values

    def _ranked(self, state, mover: int, legal: list) -> list:
        values = self._values(state, mover, legal)
        idx = sorted(range(len(legal)), key=lambda i: -values[i])
        prior = None
        if self.p.prior:
            top, scale = values[idx[0]], self.p.scale
            prior = {legal[i]: 1.0 / (1.0 + math.exp(min(50.0, (top - values[i]) / scale)))
                     for i in idx}
        return [legal[i] for i in idx], prior

    def _in_order(self, node: Node, legal: list) -> list:
        """Every legal option, the heuristic's ranking first (move ordering, no widening)."""
        legal_set = set(legal)
        out = [a for a in node.order if a in legal_set]
        if len(out) < len(legal):
            ranked = set(node.order)
            out += [a for a in legal if a not in ranked]
        return out

    def _widened(self, node: Node, legal: list, width: int) -> list:
        k = width + isqrt(int(node.n))
        legal_set = set(legal)
        out = [a for a in node.order if a in legal_set][:k]
        if len(out) < k:                     # options this world has that the ranking lacks
            ranked = set(node.order)
            out += [a for a in legal if a not in ranked][:k - len(out)]
        return out

    def _rollout(self, state) -> list[float]:
        p, rng, game = self.p, self.rng, self.game
        greedy = p.rollout == "greedy"
        step = _stepper(state)
        fast = None if greedy else game.extra.get("rollout_action")
        for _ in range(p.depth):
            if state.is_over():
                break
            if fast is not None:
                drawn = fast(state, rng)
                if drawn is not None:        # a legal action drawn without listing them all
                    step(drawn[0], drawn[1])
                    self.fm_calls += 1
                    continue
            legal = state.legal_actions()
            if len(legal) == 1:
                a = legal[0]
            elif greedy:
                values = self._values(state, state.to_move(), legal)
                top = max(values)
                ties = [a for a, v in zip(legal, values) if v >= top - 1e-9]
                a = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
            else:
                a = legal[rng.randrange(len(legal))]
            step(a, legal)
            self.fm_calls += 1
        return self._rewards(state)

    def _rewards(self, state) -> list[float]:
        if state.is_over():
            return terminal_rewards(state.result(), self.p)
        value = self._leaf
        values = [float(value(state, s)) for s in range(_n_seats(state))]
        if len(values) == 1:
            return reward_vector(values, self.p)
        return [LEAF_LOW + LEAF_SPAN * r for r in reward_vector(values, self.p)]


def _stepper(state):
    """`apply_legal` (the protocol's optional fast path), else `apply`."""
    fast = getattr(state, "apply_legal", None)
    return fast if fast is not None else (lambda a, _legal: state.apply(a))


def _n_seats(state) -> int:
    for attr in ("n", "n_players"):
        v = getattr(state, attr, None)
        if isinstance(v, int):
            return v
    return len(state.players)


# One scale for finished and unfinished games (several seats): a sole win is worth 1, a
# finished game not won at most LOSS_CEILING, and an unfinished position (the heuristic leaf's
# logistic margin) lies between, in [LEAF_LOW, LEAF_LOW + LEAF_SPAN].  UCT's exploration
# constant is scaled by LEAF_SPAN, so a tree that reaches no finished game searches as before.
LOSS_CEILING = 0.25
LEAF_LOW, LEAF_SPAN = 0.25, 0.5


def _sole_winner(state) -> int | None:
    """The seat that alone won the finished game in `state`, else None."""
    if not state.is_over():
        return None
    won = [r.seat for r in state.result() if r.won]
    return won[0] if len(won) == 1 else None


def terminal_rewards(results, p: MCTSParams) -> list[float]:
    """A finished game on the leaf's scale (rewards in [0, 1], a leaf's logistic margin in
    between): a sole winner gets 1, the best any position can be worth, and k tied winners 1/k
    each; a seat that did not win gets at most LOSS_CEILING, ordered by the final scores.  A
    game with no winner (a turn limit the rulebook does not score) is lost by every seat.  Solo
    games keep the score's own reward (their result is a score, not a win)."""
    res = sorted(results, key=lambda r: r.seat)
    values = [float(r.score) for r in res]
    base = reward_vector(values, p)
    if len(res) == 1:
        return base
    won = [r.won for r in res]
    n_won = sum(won)
    return [1.0 / n_won if w else LOSS_CEILING * b for b, w in zip(base, won)]


def reward_vector(values: list[float], p: MCTSParams) -> list[float]:
    """Each seat's reward in [0, 1] from every seat's value (heuristic or final score)."""
    n = len(values)
    if n == 1:
        v = values[0]
        return [0.5 + 0.5 * v / (abs(v) + 4.0 * p.scale)]
    out = []
    if p.reward == "rank":
        for i, v in enumerate(values):
            beaten = sum(1.0 if v > u else 0.5 if v == u else 0.0
                         for j, u in enumerate(values) if j != i)
            out.append(beaten / (n - 1))
        return out
    top = sorted(values, reverse=True)
    for v in values:
        other = top[1] if v == top[0] else top[0]
        x = (v - other) / p.scale
        out.append(1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0)
    return out
