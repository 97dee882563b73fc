"""The player board and the network (rulebook "Cities", "Buildings", "Tunnels", "Your
Network", "Metropolises").

The geometry is the same on every board (data: [geometry]); a board's state is a few ints:
a mask of built city sites and of symbiotic ones, a list of the building on each building
site, masks of built and upgraded tunnels and of upgraded buildings.  Everything derived
(the network, the legal sites, the counts cards ask for) is computed from those and
remembered per board version.
"""

from __future__ import annotations

from engine.core.cache import PerRulesCache, remember

from .rules import site_ids

FARM, DESAL, LAB = 1, 2, 3
BUILDINGS = ("farm", "desal", "lab")          # index + 1 = the code on a building site
KIND_CODE = {"farm": FARM, "desal": DESAL, "lab": LAB}


class Geo:
    """The board's sites as indices and bitmasks, and their map cells."""

    def __init__(self, rules, _key=None):
        g = rules.geometry
        self.city_ids = [c.id for c in g.cities]
        self.nc = nc = len(g.cities)
        self.start = self.city_ids.index(g.start)
        self.hex_ids = [h.id for h in g.hexagons]
        self.hex_colour = [h.colour for h in g.hexagons]
        self.nh = len(g.hexagons)
        code = {cid: i for i, cid in enumerate(self.city_ids)}
        code.update({hid: nc + i for i, hid in enumerate(self.hex_ids)})
        self.nt = nt = len(g.links)
        self.city_tun = [0] * nc          # tunnel sites touching each city site
        self.hex_tun = [0] * self.nh      # tunnel sites touching each hexagon
        self.tun_cities = [0] * nt        # city sites at the ends of each tunnel site
        self.city_nb = [0] * nc           # city sites one tunnel site away
        self.tun_ends: list[tuple[int, int]] = []
        for t, (a, b) in enumerate(g.links):
            ca, cb = code[a], code[b]
            self.tun_ends.append((ca, cb))
            for e in (ca, cb):
                if e < nc:
                    self.city_tun[e] |= 1 << t
                    self.tun_cities[t] |= 1 << e
                else:
                    self.hex_tun[e - nc] |= 1 << t
            if ca < nc and cb < nc:
                self.city_nb[ca] |= 1 << cb
                self.city_nb[cb] |= 1 << ca
        k = len(g.building_offsets)
        self.k = k
        self.nb = nb = nc * (k + 1)       # regular sites c*k+j, then expansion sites
        self.bsite_city = [b // k if b < nc * k else b - nc * k for b in range(nb)]
        self.bsite_exp = [b >= nc * k for b in range(nb)]
        self.city_bsites = [[c * k + j for j in range(k)] + [nc * k + c] for c in range(nc)]
        self.regular_mask = (1 << (nc * k)) - 1
        self.city_bmask = [sum(1 << b for b in sites) for sites in self.city_bsites]
        # Map cells: city sites, tunnel sites, building sites, expansion sites, hexagons.
        self.cell_city = 0
        self.cell_tun = nc
        self.cell_bld = nc + nt
        self.cell_hex = nc + nt + nb
        self.n_cells = nc + nt + nb + self.nh
        xy: list[tuple[int, int]] = [(c.x, c.y) for c in g.cities]
        hxy = {h.id: (h.x, h.y) for h in g.hexagons}
        allxy = {c.id: (c.x, c.y) for c in g.cities} | hxy
        for a, b in g.links:
            (x1, y1), (x2, y2) = allxy[a], allxy[b]
            xy.append(((x1 + x2) // 2, (y1 + y2) // 2))
        for b in range(nb):
            c = g.cities[self.bsite_city[b]]
            dx, dy = g.expansion_offset if self.bsite_exp[b] else g.building_offsets[b % k]
            xy.append((c.x + dx, c.y + dy))
        xy += [(h.x, h.y) for h in g.hexagons]
        self.xy = xy
        self.kind = (["city"] * nc + ["tunnel"] * nt
                     + ["expansion" if e else "building" for e in self.bsite_exp]
                     + ["metropolis"] * self.nh)
        ids = site_ids(g)   # cities, then per city its building sites and expansion, tunnels
        by_id = {}
        for c in range(nc):
            by_id[self.city_ids[c]] = c
            for j in range(k):
                by_id[f"{self.city_ids[c]}b{j + 1}"] = self.cell_bld + c * k + j
            by_id[f"{self.city_ids[c]}x"] = self.cell_bld + nc * k + c
        for t in range(nt):
            by_id[f"t{t + 1}"] = self.cell_tun + t
        assert set(by_id) == set(ids)
        self.cell_of_id = by_id
        self.cell_id = [""] * self.n_cells
        for sid, cell in by_id.items():
            self.cell_id[cell] = sid
        for h in range(self.nh):
            self.cell_id[self.cell_hex + h] = self.hex_ids[h]
        self.brown = next((h for h in range(self.nh) if self.hex_colour[h] == "brown"), -1)
        self.net_memo: dict = {}   # board contents -> Net (any seat, any game of these rules)


geo_for = PerRulesCache(Geo)


def geo(rules) -> Geo:
    return geo_for(rules, None)


def bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Net:
    """What a board's pieces add up to (remembered per board contents, `net`; `output`,
    `city_pts` and `sites` are filled in once by their first reader, nothing else changes,
    and each follows from the pieces and its own key alone: a Net serves any seat)."""

    __slots__ = ("comp", "conn", "n_cities", "n_white", "n_sym", "count", "up", "tunnels",
                 "up_tunnels", "city_tunnels", "city_up_tunnels", "metros", "full", "types",
                 "metro_mask", "up_city", "output", "city_pts", "sites")

    def __init__(self, g: Geo, p):
        comp = 1 << g.start
        frontier = comp
        tun = p.tun
        while frontier:
            nxt = 0
            for c in bits(frontier):
                for t in bits(g.city_tun[c] & tun):
                    nxt |= g.tun_cities[t]
            nxt &= ~comp
            comp |= nxt
            frontier = nxt
        self.comp = comp                          # city sites reachable (built or empty)
        conn = p.cmask & comp
        self.conn = conn                          # connected cities
        self.n_cities = conn.bit_count()
        self.n_sym = (conn & p.smask).bit_count()
        self.n_white = self.n_cities - self.n_sym
        count = [0, 0, 0, 0]                      # connected buildings by code
        up = [0, 0, 0, 0]                         # connected upgraded buildings by code
        types = []                                # per connected city: its building codes
        up_city = []                              # per connected city: upgraded count by code
        full = 0
        bld, bup = p.bld, p.bup
        for c in bits(conn):
            kinds = 0
            uc = [0, 0, 0, 0]
            for b in g.city_bsites[c]:
                code = bld[b]
                if code:
                    count[code] += 1
                    kinds |= 1 << code
                    if bup >> b & 1:
                        up[code] += 1
                        uc[code] += 1
            types.append((c, kinds))
            up_city.append(uc)
            if kinds == 0b1110:
                full += 1
        self.count = count
        self.up = up
        self.types = types
        self.up_city = up_city
        self.full = full
        self.tunnels = tun.bit_count()
        self.up_tunnels = p.tun_up.bit_count()
        near = 0
        for c in bits(p.cmask):
            near |= g.city_tun[c]
        near &= tun
        self.city_tunnels = near.bit_count()       # tunnels next to a city (they produce)
        self.city_up_tunnels = (near & p.tun_up).bit_count()
        mm = 0
        for h in range(g.nh):
            if g.hex_tun[h] and g.hex_tun[h] & ~tun == 0:
                mm |= 1 << h
        self.metro_mask = mm
        self.metros = mm.bit_count()
        self.output = None      # production.network_output, filled on first use
        self.city_pts = None    # scoring.city_points, filled on first use
        self.sites = {}         # legal sites by kind ("tunnel", "city", "building", ...)


NET_MEMO_SIZE = 65536


def net(g: Geo, p) -> Net:
    """The seat's Net: remembered per board version (`p.net`, reset on any change) and per
    board contents (`Geo.net_memo`: the pieces Net reads, so a board met again in a search,
    by any seat, is not recomputed; what Net's memos hold follows from the same pieces)."""
    memo = p.net
    if memo is None:
        key = (p.cmask, p.smask, p.bld, p.bup, p.tun, p.tun_up)
        cache = g.net_memo
        memo = cache.get(key)
        if memo is None:
            memo = remember(cache, key, Net(g, p), NET_MEMO_SIZE)
        p.net = memo
    return memo


def count(s, p, kind: str) -> int:
    """A Count kind on the seat's network (rules.CountKind)."""
    n = net(s.geo, p)
    if kind == "cities":
        return n.n_cities
    if kind == "white_cities":
        return n.n_white
    if kind == "symbiotic_cities":
        return n.n_sym
    if kind in _BUILDING_KINDS:
        return n.count[_BUILDING_KINDS[kind]]
    if kind in _UP_KINDS:
        return n.up[_UP_KINDS[kind]]
    if kind == "buildings":
        return n.count[1] + n.count[2] + n.count[3]
    if kind == "upgraded_buildings":
        return n.up[1] + n.up[2] + n.up[3]
    if kind == "tunnels":
        return n.tunnels
    if kind == "upgraded_tunnels":
        return n.up_tunnels
    if kind == "city_tunnels":
        return n.city_tunnels
    if kind == "city_upgraded_tunnels":
        return n.city_up_tunnels
    if kind == "metropolises":
        return n.metros
    if kind == "full_cities":
        return n.full
    if kind == "action_cards":
        return len(p.actions)
    if kind == "claimed_cards":
        return len(p.claimed) + len(p.actions)
    if kind == "specials_paid":
        return p.specials_paid
    if kind == "federation":
        return p.fed
    raise KeyError(kind)


_BUILDING_KINDS = {"farms": FARM, "desals": DESAL, "labs": LAB}
_UP_KINDS = {"upgraded_farms": FARM, "upgraded_desals": DESAL, "upgraded_labs": LAB}


def count_of(s, p, c) -> int:
    """A rules.Count: the smallest of its kinds (a full set), divided by n."""
    v = min(count(s, p, k) for k in c.of)
    return v // c.n


def holds(s, p, cond) -> bool:
    return cond is None or count(s, p, cond.of) >= cond.at_least


# ---------------------------------------------------------------------------- legal sites
def tunnel_sites(g: Geo, p) -> list[int]:
    """Tunnel sites connected to the starting city ("trace a path along the tunnels back to
    your starting city ... through cities or through empty city sites")."""
    n = net(g, p)
    out = n.sites.get("tunnel")
    if out is None:
        comp = n.comp
        tun = p.tun
        out = n.sites["tunnel"] = [t for t in range(g.nt)
                                   if not tun >> t & 1 and g.tun_cities[t] & comp]
    return out


def city_sites(g: Geo, p) -> list[int]:
    """Empty city sites adjacent (through a tunnel site) to an existing city."""
    n = net(g, p)
    out = n.sites.get("city")
    if out is None:
        cm = p.cmask
        out = n.sites["city"] = [c for c in range(g.nc)
                                 if not cm >> c & 1 and g.city_nb[c] & cm]
    return out


def building_sites(g: Geo, p, expansion: bool = False) -> list[int]:
    """Empty building sites next to a city or to a site where a city could be built; the
    expansion site only by a card that allows it (rulebook "Expansion Sites")."""
    n = net(g, p)
    key = "expansion" if expansion else "building"
    out = n.sites.get(key)
    if out is None:
        ok = p.cmask
        for c in city_sites(g, p):
            ok |= 1 << c
        out = []
        bld = p.bld
        for c in bits(ok):
            for b in g.city_bsites[c]:
                if not bld[b] and (expansion or not g.bsite_exp[b]):
                    out.append(b)
        out.sort()
        n.sites[key] = out
    return out
