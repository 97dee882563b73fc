"""A world consistent with what one seat has seen (`Game.determinize`, for search bots).

`observe(state, seat)` hides exactly the order of the face-down decks (rulebook "Setup": each
player's excavation deck is shuffled face down; the building decks show only their top card;
the solo market deck is face down) by sorting them.  A determinisation shuffles exactly those
parts again with the bot's own stream: the cards already flipped, the top building cards and
everything on the table stay as the seat saw them, and no card enters or leaves a deck, so a
world holds only cards the seat knows are there.  It reads nothing but the observation.
"""

from __future__ import annotations


def determinize(obs, seat: int, rng):
    world = obs.clone()
    for p in world.writable_players():
        hidden = p.deck[p.deck_pos:]
        if len(hidden) > 1:
            hidden = list(hidden)
            rng.shuffle(hidden)
            p.deck = p.deck[: p.deck_pos] + hidden   # a new list: clones share decks
    for kind, deck in world.decks.items():
        if len(deck) > 2:
            rest = deck[:-1]
            rng.shuffle(rest)
            world.decks[kind] = rest + deck[-1:]
    if len(world.solo_deck) > 1:
        world.solo_deck = list(world.solo_deck)
        rng.shuffle(world.solo_deck)
    return world
