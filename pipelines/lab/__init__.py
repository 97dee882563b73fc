"""The what-if lab: `compare` (two runs, paired or not), `sweep` (one run per value),
`balance` (balance search), `design_checks` (rarely chosen entries, stalls, openings,
ablations), `rules_form` (a form over a game's rules model, for the What-if page)."""
