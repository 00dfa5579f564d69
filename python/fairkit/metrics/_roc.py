"""``plot_roc_curve_by_group``: one ROC curve per group (and overall), as fairlearn 0.15 draws it.

The curves are scikit-learn's ``RocCurveDisplay.from_predictions`` (so scikit-learn and
matplotlib are needed); the groups are fairkit's: the features are read and named as by
``MetricFrame``, several features give one curve per observed combination, named by its values
joined with commas (fairlearn's group names, e.g. ``"aa,f"``), in sorted order.
"""

from __future__ import annotations

import numpy as np

from fairkit._core import FairkitError

_CHANCE_LEVEL_LABEL = "Chance level (AUC = 0.50)"
_OVERALL_LABEL = "Overall"
_INCONSISTENT_ARRAY_LENGTH = "Arrays {} have an inconsistent number of items"


def plot_roc_curve_by_group(
    y_true,
    y_score,
    *,
    sensitive_features,
    ax=None,
    plot_overall: bool = True,
    plot_chance_level: bool = True,
    pos_label=None,
    title: str | None = None,
):
    """Plot the ROC curve of every group of ``sensitive_features`` (and of all rows, and the
    chance diagonal) on one matplotlib axes; returns the axes. The AUC per group itself is
    ``MetricFrame(metrics=roc_auc_score, y_true=..., y_pred=y_score, sensitive_features=...)``.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_roc_curve_by_group([0, 1, 0, 1, 0, 1], [0.1, 0.8, 0.4, 0.6, 0.3, 0.9],
    ...                              sensitive_features=["a", "a", "a", "b", "b", "b"])
    >>> len(ax.get_lines())
    4
    """
    try:
        import matplotlib.pyplot as plt
        from sklearn.metrics import RocCurveDisplay
    except ImportError:
        raise FairkitError(
            "plot_roc_curve_by_group needs matplotlib and scikit-learn: "
            "pip install matplotlib scikit-learn"
        ) from None
    from fairkit.metrics._frame import _Cells, _process_features

    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score)
    if y_score.shape[0] != y_true.shape[0]:
        raise FairkitError(_INCONSISTENT_ARRAY_LENGTH.format("y_true and y_score"))
    features = _process_features("sensitive_feature_", sensitive_features, len(y_true))
    cells = _Cells(features, len(y_true))

    if ax is None:
        _, ax = plt.subplots()
    if plot_chance_level:
        ax.plot([0, 1], [0, 1], linestyle="--", color="0.8", label=_CHANCE_LEVEL_LABEL)
    if plot_overall:
        RocCurveDisplay.from_predictions(
            y_true, y_score, name=_OVERALL_LABEL, pos_label=pos_label, ax=ax
        )
    keys = cells.keys()
    named = []
    for c in cells.present():
        key = keys[c]
        name = ",".join(map(str, key)) if isinstance(key, tuple) else str(key)
        named.append((name, c))
    for name, c in sorted(named):
        rows = cells.rows(c)
        RocCurveDisplay.from_predictions(
            y_true[rows], y_score[rows], name=name, pos_label=pos_label, ax=ax
        )
    if title is not None:
        ax.set_title(title)
    return ax
