"""The game as a whole: the rules data (rulebook "Components" counts), the seats and
factions, the protocol hooks (labels, map cells, board view, choice catalogue) and the
government-contracts switch."""

import random

import pytest

from engine.core.errors import RulesError, SetupError
from engine.core.play import play_game
from engine.core.protocol import Seat
from uwc_helpers import building, city, tunnel


def _copies(cards):
    return sum(c.copies for c in cards)


def test_component_counts(rules):
    """Components: "180 era cards" (66 / 57 / 57 by era), "16 metropolis tiles" (11 blue,
    5 brown), "25 special cards" (15 of 1-2 credits, 10 of 3), "8 government contracts",
    "4 player boards".  Every entry says where it comes from."""
    assert (_copies(rules.era1), _copies(rules.era2), _copies(rules.era3)) == (66, 57, 57)
    assert sum(1 for m in rules.metropolises if m.colour == "blue") == 11
    assert sum(1 for m in rules.metropolises if m.colour == "brown") == 5
    assert _copies(rules.specials) == 25
    assert sum(c.copies for c in rules.specials if c.cost >= 3) == 10
    assert all(1 <= c.cost <= 3 for c in rules.specials)
    assert len(rules.contracts) == 8 and len(rules.boards) == 4
    assert len(rules.sides["three_four"].slots) == 15 and len(rules.sides["two"].slots) == 12
    for side in rules.sides.values():
        colours = [sl.colour for sl in side.slots]
        assert colours.count("green") == colours.count("red") == colours.count("yellow")
    for coll in (rules.era1, rules.era2, rules.era3, rules.specials, rules.metropolises,
                 rules.contracts):
        assert all(c.source in ("rulebook", "assumed") for c in coll)


def test_seat_is_the_round_one_play_order_and_first_seat_is_kept(game, rules):
    """The seat is the play order of round 1 (RULES.md); `first_seat` stays the game's
    starting seat even when later rounds start with other players."""
    seats = [Seat(b, "random") for b in ("vent", "trench", "reef", "embassy")]
    s = game.new_game(rules, seats, 12)
    assert s.first_seat == 0
    rng = random.Random(12)
    firsts = set()
    while not s.is_over():
        firsts.add(s.order[0])
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        assert s.first_seat == 0
    assert len(firsts) > 1
    shuffled = game.load_rules(sets=["start.random_order=true"]).model
    firsts = {game.new_game(shuffled, seats, k).first_seat for k in range(12)}
    assert len(firsts) > 1


def test_setup_errors_name_the_option(game, rules):
    with pytest.raises(SetupError, match="2 to 4"):
        game.new_game(rules, [Seat("reef")], 1)
    with pytest.raises(SetupError, match="unknown player board"):
        game.new_game(rules, [Seat("reef"), Seat("atlantis")], 1)
    with pytest.raises(SetupError, match="different player board"):
        game.new_game(rules, [Seat("reef"), Seat("reef")], 1)


def test_bad_rules_data_names_the_file_and_field(game, tmp_path):
    """Mechanisms in code, numbers in data: bad data stops with the file and the field."""
    bad = tmp_path / "bad_board.toml"
    bad.write_text("[boards.reef.bonuses]\nc99 = { kelp = 1 }\n")
    with pytest.raises(RulesError, match=r"boards\.toml, field 'boards'.*unknown site 'c99'"):
        game.load_rules(variants=[bad])
    with pytest.raises(RulesError, match=r"era1\.0\.effect\.0\.kind"):
        game.load_rules(sets=['era1.0.effect=[{ kind = "teleport" }]'])
    bad = tmp_path / "bad_hand.toml"
    bad.write_text("[game]\nhand_limit = 0\n")
    with pytest.raises(RulesError, match=r"bad_hand\.toml, field 'game\.hand_limit'"):
        game.load_rules(variants=[bad])


def test_production_and_end_scoring_effects_that_would_be_ignored_are_errors(game):
    """Production cards "take effect during the Production phase" (their gains), end-scoring
    cards "can give you points at the end of the game" (points, or resources spent for
    points): a part that Production or final scoring would not apply is bad data, named by
    its field, not a card that silently does nothing."""
    trade = '{ kind = "trade", cost = { credits = 1 }, gain = { points = 1 } }'
    with pytest.raises(RulesError, match=r"era1\.51.*production effects use only 'gain'"):
        game.load_rules(sets=[f"era1.51.effect=[{trade}]"])
    with pytest.raises(RulesError, match=r"era1\.51.*end-scoring effects gain points only"):
        game.load_rules(sets=['era1.51.type="end"',
                              'era1.51.effect=[{ kind = "gain", gain = { credits = 2 } }]'])
    game.load_rules(sets=['era1.51.type="end"', f"era1.51.effect=[{trade}]"])   # allowed


def test_map_cells_cover_every_site(game, rules, make_state):
    cells = game.map_cells(rules)
    kinds = [c.kind for c in cells]
    assert kinds.count("city") == 11 and kinds.count("tunnel") == 20
    assert kinds.count("building") == 33 and kinds.count("expansion") == 11
    assert kinds.count("metropolis") == 3
    assert len({(c.x, c.y) for c in cells}) == len(cells)      # no two sites overlap
    s = make_state()
    city(s, 1, "c10")
    tunnel(s, 1, "t8", up=True)
    building(s, 1, "c10b1", "lab")
    view = game.board_view(s)
    mine = {(c, lab) for c, seat, lab in view if seat == 1}
    g = s.geo
    assert (g.cell_of_id["c11"], "starting city") in mine
    assert (g.cell_of_id["t8"], "upgraded tunnel") in mine
    assert (g.cell_of_id["c10b1"], "laboratory") in mine
    assert all(0 <= c < len(cells) for c, _s, _l in view)


def test_moves_log_cells_labels_and_catalogue(game, rules):
    """Every logged action, phase and score category has a display name; builds log their
    site's cell; played cards and chosen slots are words of the move details (what the
    design checks count)."""
    seats = [Seat(b, bot) for b, bot in zip(game.factions(rules), ("greedy", "random") * 2)]
    rec = play_game(game, rules, seats, 21)
    m = rec.moves
    labels = game.labels
    assert set(m["action"]) <= set(labels) and set(m["phase"]) <= set(labels)
    assert set(rec.scores["category"]) <= set(game.score_categories) <= set(labels)
    builds = [c for a, c in zip(m["action"], m["cell"]) if a == "build"]
    assert builds and all(c is not None for c in builds)
    words = {w for d in m["detail"] for w in d.split()}
    catalogue = game.extra["choice_catalogue"](rules)
    played = {i for coll, i in catalogue if i in words}
    assert any(i.startswith("e1_") for i in played) and any(i.startswith("g_") or
                                                            i.startswith("r_") for i in played)
    assert {coll for coll, _ in catalogue} == {"era1", "era2", "era3", "specials",
                                               "sides.three_four.slots", "sides.two.slots"}


def test_contracts_switch_off_by_default(game, rules):
    """Government contracts: never explained in our rulebook, a switchable reading, off by
    default (RULES.md)."""
    seats = [Seat(b) for b in ("reef", "trench")]
    assert game.new_game(rules, seats, 3).contracts == []
    on = game.load_rules(sets=["switches.contracts=true"]).model
    s = game.new_game(on, seats, 3)
    assert len(s.contracts) == 3 and all(h == -1 for _i, h in s.contracts)


def test_a_contract_is_claimed_once_by_the_first_to_meet_it(game):
    from engine.games.underwater_cities.contracts import check_contracts
    on = game.load_rules(sets=["switches.contracts=true"]).model
    s = game.new_game(on, [Seat(b) for b in ("reef", "trench")], 3)
    ids = [c.id for c in on.contracts]
    s.contracts = [[ids.index("k_farmers"), -1]]
    for k in range(1, 4):
        building(s, 0, f"c11b{k}", "farm")
        building(s, 1, f"c11b{k}", "farm")
    building(s, 0, "c11x", "farm")
    building(s, 1, "c11x", "farm")
    before = s.players[0].points
    check_contracts(s, s.players[0])
    check_contracts(s, s.players[1])
    assert s.contracts == [[ids.index("k_farmers"), 0]]
    assert s.players[0].points - before == 4 and s.log.s_category[-1] == "contracts"


def test_full_games_at_every_player_count(game, rules):
    for n in (2, 3, 4):
        seats = [Seat(b) for b in game.factions(rules)[:n]]
        rec = play_game(game, rules, seats, 100 + n)
        assert rec.game["rounds"] == 10 and rec.game["ended_by"] == "game_end"
        assert sum(p["won"] for p in rec.players) == 1


def test_a_copy_shares_nothing_that_changes(make_state):
    """clone(): playing on a copy leaves the original exactly as it was (boards, resources,
    hands, decks, supply, slots, contracts, play order)."""
    s = make_state(seed=9)
    rng = random.Random(9)
    for _ in range(60):
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])

    def snapshot(x):
        return repr(([(p.res, p.hand, p.cmask, p.tun, p.bld, p.bup, p.claimed, p.actions,
                       sorted(p.used), p.fed, p.points) for p in x.players],
                     x.decks, x.discard, x.sdeck, x.sface, x.supply, x.occ, x.contracts,
                     x.order, x.turn, x.stack, x.agenda, x.step, x.round))

    before = snapshot(s)
    c = s.clone(log=False)
    while not c.is_over():
        c.apply(c.legal_actions()[rng.randrange(len(c.legal_actions()))])
    assert snapshot(s) == before


def test_two_players_use_the_two_player_side(make_state):
    """Action Slots: "One side is designed for a two-player game. The other side is designed
    for three or four.\""""
    assert make_state(n=2).st.side_id == "two"
    assert make_state(n=3).st.side_id == make_state(n=4).st.side_id == "three_four"
