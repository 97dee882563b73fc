"""Faction Trait Phase (rulebook "Faction Trait Phase") and the factions' own decisions.

In rounds 1-3 each player marks one of their faction's two traits of that round's level;
"Immediately" outputs are gained at once.  The callings and traits themselves are hooks in
factions/ (one module per faction, Appendix A); the `fx` frame is where a faction asks its own
questions (which smithy cell to circle, where to dig on the Deepdelvers' sheet, ...)."""

from __future__ import annotations


# ====================================================================== task
def t_trait(s, task) -> None:
    s.phase = "traits"
    faction = s.rules.factions[s.players[task[1]].faction]
    if any(t.level == task[2] for t in faction.traits):
        s.stack.append(("trait", task[1], task[2]))


# ====================================================================== frames
def l_trait(s, frame):
    faction = s.rules.factions[s.players[frame[1]].faction]
    return [("trait", t.side) for t in faction.traits if t.level == frame[2]]


def a_trait(s, frame, action):
    p = s.players[frame[1]]
    faction = s.rules.factions[p.faction]
    trait = next(t for t in faction.traits if t.level == frame[2] and t.side == action[1])
    p.traits.append(trait.id)
    for k, act in enumerate(trait.actions):
        if act.when == "immediate":
            s.gain(p, act.output, "trait")
    s.hooks[p.seat].trait_chosen(s, p, trait.id)


def l_fx(s, frame):
    return s.hooks[frame[1]].frame_actions(s, s.players[frame[1]], frame)


def a_fx(s, frame, action):
    s.hooks[frame[1]].frame_apply(s, s.players[frame[1]], frame, action)


LEGAL = {"trait": l_trait, "fx": l_fx}
APPLY = {"trait": a_trait, "fx": a_fx}
TASKS = {"trait": t_trait}
