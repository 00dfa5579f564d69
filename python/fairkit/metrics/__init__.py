"""Fairness metrics: fairlearn-compatible functions and ``MetricFrame``, computed in Rust.

Same names, keyword signatures and results as ``fairlearn.metrics`` 0.15 (checked by a
differential test suite), with these deliberate differences: negative sample weights and groups
whose weights sum to zero raise :class:`fairkit.FairkitError` (fairlearn returns NaN or
meaningless rates); every function also takes ``pos_label``.
"""

from fairkit.metrics._derived import count, make_derived_metric, mean_prediction
from fairkit.metrics._frame import MetricFrame
from fairkit.metrics._functions import (
    demographic_parity_difference,
    demographic_parity_ratio,
    equal_opportunity_difference,
    equal_opportunity_ratio,
    equalized_odds_difference,
    equalized_odds_ratio,
    false_negative_rate,
    false_positive_rate,
    selection_rate,
    true_negative_rate,
    true_positive_rate,
)

__all__ = [
    "MetricFrame",
    "count",
    "make_derived_metric",
    "mean_prediction",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
    "false_negative_rate",
    "false_positive_rate",
    "selection_rate",
    "true_negative_rate",
    "true_positive_rate",
]

from fairkit.metrics._beyond import (  # noqa: E402  (beyond fairlearn)
    GroupMetric,
    MulticlassGap,
    PairwiseGap,
    auc_by_group,
    demographic_parity_ks,
    equal_opportunity_ks,
    multiclass_equalized_odds,
    multiclass_statistical_parity,
    partial_demographic_parity,
    partial_equal_opportunity,
    partial_statistical_parity,
)

__all__ += [
    "GroupMetric",
    "MulticlassGap",
    "PairwiseGap",
    "auc_by_group",
    "demographic_parity_ks",
    "equal_opportunity_ks",
    "multiclass_equalized_odds",
    "multiclass_statistical_parity",
    "partial_demographic_parity",
    "partial_equal_opportunity",
    "partial_statistical_parity",
]

from fairkit.metrics._intervals import (  # noqa: E402  (confidence intervals)
    GapInterval,
    RateIntervals,
    gap_interval,
    rate_intervals,
)

__all__ += ["GapInterval", "RateIntervals", "gap_interval", "rate_intervals"]

from fairkit.metrics._derived import generated_metrics as _generated  # noqa: E402

_GENERATED = _generated()
globals().update(_GENERATED)
__all__ += sorted(_GENERATED)
del _generated
