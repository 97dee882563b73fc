"""The dashboard's SQL, one module per page, aggregated in DuckDB and cached as small frames.

- `core`: the read-only connection (the store's lock retry), `cached`, `batch`, errors;
- `background`: the one background-query mechanism (a page lane and a prefetch lane);
- `filters`: the player-count / map / bot filters every analysis shares, rate columns;
- `runs`, `factions`, `scoring`, `map`, `replay`, `whatif`: each page's queries.

Pages import their own module (`from dashboard.queries import factions as q`); the names
below are re-exported for the report, the benchmarks and notebooks (`queries.faction_rates`).
"""

from . import background, core, factions, filters, map, replay, runs, scoring, whatif  # noqa: A004
from .core import (ANALYSIS_TTL_S, BUSY_TIMEOUT_S, CACHE_TTL_S, CONTRACT_TABLES, DashboardDataError,
                   DatabaseBusy, DatabaseMissing, DatabaseUnreadable, SchemaMismatch, batch, cached,
                   existing_tables, read_frame, start)
from .factions import (LINEUP_SEATS, faction_matrix, faction_rates, score_quantiles, seat_rates,
                       strength_model, undecided_share)
from .map import cell_action_counts, cell_counts, map_cells
from .replay import game_list, game_log
from .runs import (RUNS_COLUMNS, empty_runs, faction_summary, filter_options, games_count,
                   points_by_category, run_details, runs_overview, undecided_by_bot)
from .scoring import (TOTAL_SCORE, category_by_faction, points_by_round, scoring_stats,
                      winners_vs_losers)
