"""Fairness metrics: fairlearn-compatible functions and ``MetricFrame``, computed in Rust.

Same names, keyword signatures and results as ``fairlearn.metrics`` 0.15 (checked by a
differential test suite), with these deliberate differences: negative sample weights and groups
whose weights sum to zero raise :class:`fairkit.FairkitError` (fairlearn returns NaN or
meaningless rates); every function also takes ``pos_label``.
"""

from fairkit.metrics._derived import count, make_derived_metric, mean_prediction
from fairkit.metrics._frame import MetricFrame
from fairkit.metrics import _group_feature  # noqa: F401  (fairlearn's GroupFeature name)
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

from fairkit.metrics._running import RunningMetrics  # noqa: E402  (streaming MetricFrame)

__all__ += ["RunningMetrics"]

from fairkit.metrics._disparity import disparities  # noqa: E402  (Aequitas' disparities)

__all__ += ["disparities"]

from fairkit.metrics._ranking import (  # noqa: E402  (rankings: FA*IR, exposure)
    fair_mtable,
    group_exposure,
    ranked_group_fairness,
)

__all__ += ["fair_mtable", "group_exposure", "ranked_group_fairness"]

from importlib.util import find_spec as _find_spec  # noqa: E402

from fairkit.metrics import _derived  # noqa: E402

# fairlearn's generated metrics: those of fairkit's rates now; those of scikit-learn's metrics
# (which import scikit-learn and scipy, about a second) on first access, through __getattr__.
globals().update(_derived.generated_metrics(with_sklearn=False))
_SKLEARN_GENERATED = _derived.sklearn_generated_names() if _find_spec("sklearn") else []
__all__ += sorted([*_derived.generated_metrics(with_sklearn=False), *_SKLEARN_GENERATED])


def __getattr__(name: str):
    if name in _SKLEARN_GENERATED or name == "_generated_metric_dict":
        # The rates' variants keep their identity; scikit-learn's are added.
        generated = {k: globals().get(k, fn) for k, fn in _derived.generated_metrics().items()}
        globals().update(generated)
        # fairlearn's name for the dict of every generated metric.
        globals()["_generated_metric_dict"] = generated
        return globals()[name]
    raise AttributeError(f"module 'fairkit.metrics' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))


def plot_metric_frame(metric_frame, **kwargs):
    """fairlearn's ``plot_metric_frame`` for fairkit's ``MetricFrame`` (needs matplotlib):
    ``kind="point"`` or ``"bar"``, ``metrics=`` (names), ``conf_intervals=`` (columns of
    ``[lower, upper]`` pairs; by default the frame's own bootstrap interval when it has one,
    drawn as whiskers), ``subplots``, ``plot_ci_labels``, ``ci_labels_precision``,
    ``ci_labels_fontsize``, ``ci_labels_color``, ``ci_labels_ha``, ``legend_label`` and
    matplotlib's keyword arguments. Returns the matplotlib axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fairkit.metrics import MetricFrame, selection_rate
    >>> mf = MetricFrame(metrics={"sel": selection_rate}, y_true=[1, 0, 1, 1],
    ...                  y_pred=[1, 0, 0, 1], sensitive_features=["a", "a", "b", "b"],
    ...                  n_boot=20, ci_quantiles=[0.05, 0.95], random_state=1)
    >>> axes = plot_metric_frame(mf, kind="bar")
    """
    from fairkit.metrics import _plot

    return _plot.plot_metric_frame(metric_frame, **kwargs)


__all__ += ["plot_metric_frame"]

from fairkit.metrics._plot_model_comparison import plot_model_comparison  # noqa: E402

__all__ += ["plot_model_comparison"]

from fairkit.metrics._roc import plot_roc_curve_by_group  # noqa: E402

__all__ += ["plot_roc_curve_by_group"]

from fairkit.metrics._regression import (  # noqa: E402  (numeric outputs)
    RegressionMetrics,
    regression_metrics,
)

__all__ += ["RegressionMetrics", "regression_metrics"]
