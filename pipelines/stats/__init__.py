"""Statistics shared by the dashboard, the report and the what-if lab.

Every rate comes with its interval; the computations are delegated to statsmodels/scipy.
Modules: `rates` (proportions), `differences` (means, paired and Welch differences),
`multiplicity` (Holm), `strength` (strength models), `summaries` (weighted distributions).
The public names are re-exported here: `from pipelines import stats; stats.rate_ci(...)`.
"""

from .differences import diff_ci, diff_ci_summary, mean_ci
from .multiplicity import holm
from .rates import Rate, exact_ci, rate_ci, rate_table, rate_test, ratio_ci
from .strength import (StageTest, StrengthFit, Term, luce_winner_model, plackett_luce_model,
                       stage_homogeneity)
from .summaries import median_ci, weighted_summary

__all__ = ["Rate", "StageTest", "StrengthFit", "Term", "diff_ci", "diff_ci_summary", "exact_ci", "holm",
           "luce_winner_model", "mean_ci", "median_ci", "plackett_luce_model", "rate_ci", "rate_table",
           "rate_test", "ratio_ci", "stage_homogeneity", "weighted_summary"]
