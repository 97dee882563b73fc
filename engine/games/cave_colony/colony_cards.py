"""Colony cards: the draw at the start of a turn ("If you do not have a Colony Card that hasn't
been completed, draw 2 and look at both. Pick one card to keep and place it face down in front
of you, placing the other one at the bottom of the deck"), the gems spent on them ("Spend Gem
(Colony Cards require you to spend 1 or more Gem)") and their completion: one score event
("colony", 1 point) per completed card, its reward for the colony's workers, and the win at
five ("After Completing 5 Colony Cards, you are the winner and the game is over").

A card's cost is counts per gem colour plus wildcard slots (cards.cost_vector); a gem pays a
slot of its colour, else a wildcard slot.
"""

from __future__ import annotations

from . import cards as C
from .rules import WILD
from .state import NC, apply, legal, task


@task("draw_colony")
def draw_colony(s, t) -> None:
    seat = t[1]
    drawn = tuple(c for c in (s.draw(C.COLONY) for _ in range(s.rules.recruit.colony_draw))
                  if c >= 0)
    if len(drawn) == 1:
        keep(s, seat, drawn[0])
    elif drawn:
        s.stack.append(("colony_pick", seat, drawn))


def keep(s, seat: int, card: int) -> None:
    s.card[seat] = card
    s.card_up[seat] = False


@legal("colony_pick")
def pick_options(s, frame):
    return [("keep", c) for c in frame[2]]


@apply("colony_pick")
def pick(s, frame, a) -> None:
    seat = frame[1]
    keep(s, seat, a[1])
    for c in frame[2]:
        if c != a[1]:
            s.bottom(C.COLONY, c, 1 << seat)      # the drawer looked at it


def needs(s, seat: int, colour: int) -> bool:
    """Whether a gem of `colour` can still go on the seat's colony card."""
    if s.card[seat] < 0:
        return False
    miss = missing(s, seat)
    return miss[colour] > 0 or miss[WILD] > 0


NOTHING = (0,) * (NC + 1)


def missing(s, seat: int) -> tuple[int, ...]:
    """What the seat's card still needs: per colour, then wildcard slots (all 0: no card).
    A gem beyond its colour's slots fills a wildcard slot."""
    card = s.card[seat]
    if card < 0:
        return NOTHING
    cost = s.st.cards.colony_cost[card]
    on = s.oncard
    b = seat * NC
    out = []
    over = 0
    for c in range(NC):
        x = on[b + c]
        k = cost[c]
        if x < k:
            out.append(k - x)
        else:
            out.append(0)
            over += x - k
    out.append(cost[WILD] - over)
    return tuple(out)


def place_gem(s, seat: int, colour: int) -> None:
    """A spent gem goes on the card; a full card is completed."""
    s.oncard[seat * NC + colour] += 1
    if s.rules.colony.reveal_on_spend:
        s.card_up[seat] = True
    card = s.card[seat]
    if sum(s.oncard[seat * NC: seat * NC + NC]) >= s.st.cards.colony_total[card]:
        complete(s, seat)


def complete(s, seat: int) -> None:
    card = s.card[seat]
    base = seat * NC
    for c in range(NC):
        k = s.oncard[base + c]
        if s.rules.colony.spent_gems == "supply":
            s.gem_supply[c] += k
        else:
            s.removed[c] += k
        s.oncard[base + c] = 0
    s.card[seat] = -1
    s.card_up[seat] = False
    s.done[seat] = s.done[seat] + (card,)
    s.colony_mods[seat] = C.add(s.colony_mods[seat], s.st.cards.colony_reward[card])
    before = s.mods[seat]
    s.refresh_mods(seat)
    if s.alive[seat]:
        collect_boosts(s, seat, before)
    s.log.score(s.step, s.round, seat, "colony", 1)
    if len(s.done[seat]) >= s.rules.game.cards_to_win:
        win(s, seat)


def collect_boosts(s, seat: int, before: tuple) -> None:
    """A reward that boosts the worker's energy or movement is collected as crystals at once,
    as when recruiting ("Collect Energy (silver crystal) if you have any boosts", RB:111-113):
    one crystal per point the boost (its positive part) grew, while the supply lasts."""
    after = s.mods[seat]
    e = min(max(0, max(0, after[C.ENERGY]) - max(0, before[C.ENERGY])), s.ecrys_supply)
    s.ecrys[seat] += e
    s.ecrys_supply -= e
    k = min(max(0, max(0, after[C.MOVEMENT]) - max(0, before[C.MOVEMENT])), s.mcrys_supply)
    s.mcrys[seat] += k
    s.mcrys_supply -= k


def win(s, seat: int) -> None:
    from .turn import end_game
    s.finish.append(seat)
    if not s.rules.game.play_out or len(s.finish) >= s.n - 1:
        end_game(s, "game_end")
    else:
        s.stop_turn(seat)
