"""Display names of what Glimmerdeep logs: score categories, actions and phases (the database
keeps the ids; the dashboard, its charts and the report show these).  Names follow the
rulebook's vocabulary; faction actions name their faction's ability."""

LABELS: dict[str, str] = {
    # score categories (scoring.CATEGORIES)
    "vp_track": "Victory-point track",
    "buildings": "Buildings",
    "resources": "Leftover resources",
    "map_objective": "Map objective",
    "calling": "Faction calling",
    "traits": "Traits",
    # phases
    "setup": "Setup",
    "excavation": "Excavation",
    "construction": "Construction",
    "production": "Production",
    "market": "Market",
    "final": "Final scoring",
    # actions
    "excavate": "Excavate",
    "excavate_space": "Excavate one space",
    "construct": "Construct a building",
    "choose_building": "Choose a building",
    "activate": "Activate (a building, outpost, trait or the smithy)",
    "trait": "Take a trait",
    "pass": "Pass",
    "skip": "Skip",
    "done": "Done",
    "later": "Deepdelvers: excavate later",
    "sheet": "Deepdelvers: dig on the sheet",
    "map": "Deepdelvers: dig on the map",
    "line": "Deepdelvers: dig a line",
    "circle": "Forgeburrowers: place a forge circle",
    "fb": "Forgeburrowers: forge ability",
    # level 2 right, "You may activate a building during any phase" (RB:301): the building's
    # one activation of that phase moved in time, not an extra one ("One time per phase", RB:101)
    "fbx": "Forgeburrowers: activate in another phase (level 2 right)",
    "gt_convert": "Gildtails: convert resources",
    "gw3l": "Gemwardens: level-3 ability",
    "nb_top": "Nightbarons: build from the deck top",
    "nb_swap": "Nightbarons: swap market cards",
    "nb_bswap": "Nightbarons: swap a building",
}
