"""The Deepdelvers (rulebook Appendix A): a second, smaller map on the faction sheet, dug once
each excavation phase with one of the three flipped cards; VP for its completed rows and columns.
See deepdelvers.md for what is assumed."""

from __future__ import annotations

from functools import lru_cache

from ..board import Board, footprints, placements_of, shape_placements
from . import FactionPlay, register

T1L, T2L, T2R, T3L, T3R = ("deepdelvers_1l", "deepdelvers_2l", "deepdelvers_2r",
                           "deepdelvers_3l", "deepdelvers_3r")
SHEET = "dd_sheet"      # fx: excavated spaces of the faction-sheet map (bitmask, cell = y*w+x)
DONE = "dd_round"       # fx: the round whose faction-sheet excavation is done
_DIGS: dict[tuple, list[int]] = {}   # (w, h, shape cells, sheet, reach) -> new-space masks


@lru_cache(maxsize=16)
def sheet_board(w: int, h: int) -> Board:
    """The faction-sheet map: a w x h grid of plain spaces, with the base board geometry."""
    full = (1 << (w * h)) - 1
    col0 = sum(1 << (y * w) for y in range(h))
    col_last = sum(1 << (y * w + w - 1) for y in range(h))
    return Board(map_id=f"deepdelvers_sheet_{w}x{h}", width=w, height=h,
                 kinds=("dirt",) * (w * h), full=full, iron=0, gold=0, gem=0, dirt=full,
                 forest=0, blocked=0, biolum=0, settlement=0, peak=0, outposts=(),
                 not_left=full & ~col0, not_right=full & ~col_last)


def sheet_offset(board: Board) -> int:
    """Sheet buildings are stored in p.built / p.buildings shifted past the map by one blank
    row, so that the map's geometry (grow, neighbours) never sees them."""
    return board.width * board.height + board.width


@lru_cache(maxsize=None)
def sheet_lines(w: int, h: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column masks of a w x h sheet (computed once: the heuristic asks often)."""
    rows = tuple(((1 << w) - 1) << (y * w) for y in range(h))
    cols = tuple(sum(1 << (y * w + x) for y in range(h)) for x in range(w))
    return rows, cols


def calling_vp(calling: dict, sheet: int) -> int:
    """Appendix A, Deepdelvers calling: VP for each completely excavated row and column."""
    w, h = calling["width"], calling["height"]
    rows, cols = sheet_lines(w, h)
    vp = sum(v for m, v in zip(rows, calling["row_vp"]) if sheet & m == m)
    vp += sum(v for m, v in zip(cols, calling["col_vp"]) if sheet & m == m)
    return vp


@register("deepdelvers")
class Deepdelvers(FactionPlay):

    def __init__(self, rules, faction_id: str):
        super().__init__(rules, faction_id)
        c = self.data.calling
        self.w, self.h = c["width"], c["height"]
        self.sheet = sheet_board(self.w, self.h)
        self.adjacent = bool(c.get("sheet_adjacent", 1))   # D6 reading
        self.shapes = {s.id: s for s in rules.shapes}
        self._sheet_pl: dict[str, tuple[int, ...]] = {}
        self._sites: dict[str, list[tuple[int, str]]] | None = None
        self._lines: dict[int, list[int]] = {}

    # --- setup and the excavation phase ----------------------------------------------------
    def setup(self, st, p) -> None:
        p.fx[SHEET] = 0
        p.fx[DONE] = 0

    def after_flip(self, st, p, shape_id: str, card_no: int) -> None:
        """"After drawing an excavation card, the player can choose to excavate that shape on
        both their map sheet and their faction sheet ... If the player chose not to ... before
        drawing their third excavation card, they must use the shape on that card.\""""
        if p.fx[DONE] == st.round:
            return
        last = card_no >= st.rules.game.excavations_per_round - 1
        st.stack.append(("fx", p.seat, "dd_sheet", shape_id, "last" if last else "choose"))

    def reach_anywhere(self, st, p) -> bool:
        return T2R in p.traits

    # --- the faction-sheet map -------------------------------------------------------------
    def sheet_placements(self, shape_id: str) -> tuple[int, ...]:
        pl = self._sheet_pl.get(shape_id)
        if pl is None:
            pl = self._sheet_pl[shape_id] = shape_placements(self.sheet, self.shapes[shape_id])
        return pl

    def sheet_digs(self, p, shape_id: str) -> list[int]:
        sheet = p.fx[SHEET]
        reach = self.sheet.full
        if self.adjacent and sheet and T2R not in p.traits:
            reach = self.sheet.grow(sheet)
        key = (self.w, self.h, self.shapes[shape_id].cells, sheet, reach)
        out = _DIGS.get(key)
        if out is not None:
            return out
        if len(_DIGS) > 20000:
            _DIGS.clear()
        out = _DIGS[key] = []
        seen = set()
        for m in self.sheet_placements(shape_id):
            new = m & ~sheet
            if new and m & reach and new not in seen:
                seen.add(new)
                out.append(new)
        return out

    # --- traits ----------------------------------------------------------------------------
    def trait_chosen(self, st, p, trait_id: str) -> None:
        t = self.traits[trait_id]
        if trait_id == T1L:
            st.stack.append(("fx", p.seat, "dd_pick"))
        elif trait_id == T2L:
            cells = tuple(t.params["cells"])
            pts = tuple(sorted((cells[i], cells[i + 1]) for i in range(0, len(cells), 2)))
            if T2L not in st.static.placements:
                st.static.placements[T2L] = placements_of(st.static.board, pts, True,
                                                          st.static.skip)
            st.stack.append(("excavate", p.seat, T2L, "trait"))
        elif trait_id == T3L:
            st.stack.append(("fx", p.seat, "dd_line"))
        elif trait_id == T3R:
            if p.deck_pos < len(p.deck):
                sid = p.deck[p.deck_pos]
                p.deck_pos += 1
                p.flips += 1
                st.stack.append(("fx", p.seat, "dd_sheet", sid, "extra"))
                st.stack.append(("excavate", p.seat, sid, "trait"))

    def map_lines(self, st) -> list[int]:
        board = st.static.board
        key = id(board)
        lines = self._lines.get(key)
        if lines is None:
            w, h = board.width, board.height
            lines = [((1 << w) - 1) << (y * w) for y in range(h)]
            lines += [sum(1 << (y * w + x) for y in range(h)) for x in range(w)]
            self._lines[key] = lines
        return lines

    def frame_actions(self, st, p, frame) -> list[tuple]:
        name = frame[2]
        if name == "dd_sheet":
            mode = frame[4]
            acts = [("sheet", m) for m in self.sheet_digs(p, frame[3])]
            if mode == "choose":
                acts.append(("later",))
            elif mode == "may" or not acts:
                acts.append(("skip",))
            return acts
        if name == "dd_pick":
            t = self.traits[T1L].params
            return [("map", t["shape_a"]), ("map", t["shape_b"])]
        if name == "dd_line":
            forbid = st.forbidden(p)
            reach = st.reach(p) if self.traits[T3L].params.get("adjacent", True) else st.static.board.full
            acts = []
            for m in self.map_lines(st):
                m &= ~forbid
                if m & ~p.exc and m & reach:
                    acts.append(("line", m & ~p.exc))
            return acts or [("skip",)]
        raise KeyError(name)

    def frame_apply(self, st, p, frame, action) -> None:
        name = frame[2]
        if name == "dd_sheet":
            if action[0] == "sheet":
                p.fx[SHEET] |= action[1]
            if action[0] != "later" and frame[4] in ("choose", "last"):
                p.fx[DONE] = st.round
        elif name == "dd_pick":
            t = self.traits[T1L].params
            other = t["shape_b"] if action[1] == t["shape_a"] else t["shape_a"]
            st.stack.append(("fx", p.seat, "dd_sheet", other, "may"))
            st.stack.append(("excavate", p.seat, action[1], "trait"))
        elif name == "dd_line":
            if action[0] == "line":
                st.excavate(p, action[1], "trait")

    # --- construction on the faction sheet (level 3 right) ----------------------------------
    def sites(self, st, p, kind: str) -> list[tuple[int, str]]:
        if T3R not in p.traits:
            return []
        if self._sites is None:
            off = sheet_offset(st.static.board)
            g = st.rules.game
            self._sites = {k: [(fp << off, "sheet") for fp in footprints(self.sheet, tuple(size))]
                           for k, size in (("workshop", g.workshop_footprint),
                                           ("forge", g.forge_footprint))}
        return self._sites[kind]

    def site_space(self, st, p, kind: str) -> int | None:
        return st.standard_site_space(p)  # site_ok only judges the sheet's own sites

    def site_ok(self, st, p, kind: str, fp: int, tag: str) -> bool | None:
        if tag != "sheet":
            return None
        off = sheet_offset(st.static.board)
        local = fp >> off
        built = p.built >> off
        return not (local & ~p.fx[SHEET] or local & built or self.sheet.neighbours(local) & built)

    # --- end of game -----------------------------------------------------------------------
    def final_scoring(self, st, p) -> list[tuple[str, int]]:
        return [("calling", calling_vp(self.data.calling, p.fx[SHEET]))]
