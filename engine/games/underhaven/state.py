"""Underhaven player state and the resource mechanisms ("The Resources", "Payment for
Building"): 0-5 tracks that overflow into power tokens, power tokens paying a whole single
resource payment with change, morale steps bought with resources."""

from __future__ import annotations

MONEY, FOOD, MATERIAL = 0, 1, 2
TRACKS = ("money", "food", "material")


def gain_track(track: int, pt: int, amount: int, pt_value: int) -> tuple[int, int]:
    """Gain `amount` on a 0-5 track: every time it reaches `pt_value` (6) it becomes a power
    token and the track continues from 0 ("As soon as ANY of the basic resources becomes a 6,
    you get a Power Token, then continue to count up from 0")."""
    track += amount
    if track >= pt_value:
        pt += track // pt_value
        track %= pt_value
    return track, pt


def pay_track(track: int, pt: int, amount: int, pt_value: int) -> tuple[int, int] | None:
    """Pay `amount` of one basic resource, individually ("Payment for Building").  The track
    pays when it covers the amount; otherwise one power token pays it: worth 6, the change
    (6 - amount) goes back onto the track; an amount of 6 or more is paid whole by one token
    ("an infinite value ABOVE 5").  None if it cannot be paid."""
    if amount <= 0:
        return track, pt
    if track >= amount:
        return track - amount, pt
    if pt <= 0:
        return None
    pt -= 1
    if amount < pt_value:
        return gain_track(track, pt, pt_value - amount, pt_value)
    return track, pt


class Player:
    """One corporation's board, meeting room and supply."""

    __slots__ = ("seat", "corp", "colour", "ability", "res", "pt", "tg", "energy", "morale", "rep",
                 "workers", "consultants", "cons_free", "cons_landed", "pros_free",
                 "spec_total", "spec_home", "spec_busy", "hired_out", "hired", "perm",
                 "turn_colours", "hand", "discard", "slot", "secret", "bought", "trapezoids",
                 "start_buildings", "unfinished", "university", "entrance", "used",
                 "markers", "used_slots", "support_pending", "mv_left", "mv_stopped",
                 "mv_jet", "supers", "loans", "owed", "cubes")

    def __init__(self, seat: int, corp: str, colour: str):
        self.seat = seat
        self.corp = corp
        self.colour = colour
        self.ability = ""
        self.res = [0, 0, 0]          # money, food, material tracks (0-5)
        self.pt = 0                   # power tokens
        self.tg = 0                   # trade goods
        self.energy = 0
        self.morale = 0
        self.rep = 0                  # reputation so far (mirrors the score events)
        self.workers: list[int] = []  # cell of each worker
        self.consultants = 0
        self.cons_free = 0            # in the meeting room
        self.cons_landed: list[int] = []   # social buildings landed on this turn
        self.pros_free = 0
        self.spec_total = 0           # own-colour specialists still owned
        self.spec_home = 0            # of those, in the meeting room
        self.spec_busy = 0            # own specialists used by me this turn
        self.hired_out = 0            # my specialists hired by others (cubes on my board)
        self.hired: list[int] = []    # seats whose specialist I hired (returned next turn)
        self.supers: list[int] = []   # Corp super specialists I hold
        self.perm: list[str] = []     # permanent recruits (other colours), unlocked specialists
        self.turn_colours: set[str] = set()   # specialist skills at my disposal this turn
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.slot: str | None = None  # the activation card in the console
        self.secret: set[str] = set() # cards drawn unseen by others
        self.bought: list[str] = []   # market cards owned (end-scoring bonuses)
        self.trapezoids: list[str] = []
        self.start_buildings: list[str] = []
        self.unfinished: list[int] = []   # spaces built last turn (flipped next turn)
        self.university = False
        self.entrance = -1
        self.used: set[str] = set()   # once-per-turn / once-per-round ability marks
        self.markers = 0              # activation markers left this turn
        self.used_slots: tuple = ()   # (row, side) already covered
        self.support_pending = False
        self.mv_left = 0
        self.mv_stopped: tuple = ()   # worker indices that explored (stopped) this Move
        self.mv_jet = False
        self.loans: list[int] = []    # loan tiers taken (advanced)
        self.owed: tuple | None = None    # Construction Molds: the first build's deferred cost
        self.cubes: list[int] = []    # Low Light Pub: rivals' buildings carrying my deal cube

    def clone(self) -> "Player":
        p = Player.__new__(Player)
        p.seat = self.seat
        p.corp = self.corp
        p.colour = self.colour
        p.ability = self.ability
        p.res = self.res.copy()
        p.pt = self.pt
        p.tg = self.tg
        p.energy = self.energy
        p.morale = self.morale
        p.rep = self.rep
        p.workers = self.workers.copy()
        p.consultants = self.consultants
        p.cons_free = self.cons_free
        p.cons_landed = self.cons_landed.copy()
        p.pros_free = self.pros_free
        p.spec_total = self.spec_total
        p.spec_home = self.spec_home
        p.spec_busy = self.spec_busy
        p.hired_out = self.hired_out
        p.hired = self.hired.copy()
        p.perm = self.perm.copy()
        p.turn_colours = self.turn_colours.copy()
        p.hand = self.hand.copy()
        p.discard = self.discard.copy()
        p.slot = self.slot
        p.secret = self.secret.copy()
        p.bought = self.bought.copy()
        p.trapezoids = self.trapezoids.copy()
        p.start_buildings = self.start_buildings.copy()
        p.unfinished = self.unfinished.copy()
        p.university = self.university
        p.entrance = self.entrance
        p.used = self.used.copy()
        p.markers = self.markers
        p.used_slots = self.used_slots
        p.support_pending = self.support_pending
        p.mv_left = self.mv_left
        p.mv_stopped = self.mv_stopped
        p.mv_jet = self.mv_jet
        p.supers = self.supers.copy()
        p.loans = self.loans.copy()
        p.owed = self.owed
        p.cubes = self.cubes.copy()
        return p

    def resources_total(self) -> int:
        """Everything counted by end scoring step 6 (tracks, power tokens, goods, energy)."""
        return sum(self.res) + self.pt + self.tg + self.energy
