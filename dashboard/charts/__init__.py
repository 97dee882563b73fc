"""Pure Plotly figure builders: DataFrame in, ``go.Figure`` out, one module per page.

No Streamlit here, so tests and the HTML report call them directly. Inputs are the aggregated
frames of ``dashboard.queries`` (polars or pandas; only columns are read). The builders are
re-exported here: ``from dashboard import charts; charts.faction_win_rates(frame)``.
"""

from .common import (CATEGORY_COLOR, FACTION_COLOR, FAIR_SHARE_COLOR, NEUTRAL, PALETTE, SIGNIFICANT_HIGH, SIGNIFICANT_LOW, color_of, rate_with_interval)
from .runs import (category_points_bar, faction_win_rate_bar)
from .factions import (faction_matrix, faction_win_rates, score_boxes, seat_win_rates, strength_forest)
from .scoring import (category_boxes, category_stacked, round_curves, winners_losers)
from .map import (kind_codes, map_heatmap)
from .replay import (NEUTRAL_COLOR, board_at_step, board_state, score_race)
from .whatif import (DIFF_COLORS, category_diff_bar, diff_forest, heatmap_diff, sweep_lines)
from .tiers import (tier_win_rates)
from .ladder import (ladder_win_rates)
from .playtests import (playtest_category_shares, playtest_scores, playtest_win_rates)
