"""The input checks every binary fairness classifier's ``fit`` starts with."""

from __future__ import annotations

from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit.estimators._fair_projection import _factorize_labels

try:
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import validate_data
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e


def _py(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def binary_fit_inputs(estimator: Any, X: Any, y: Any, sensitive_features: Any):
    """``(X, y, classes, codes)`` for ``estimator.fit``: groups given, X float64 C-ordered (sets
    ``n_features_in_``), y binary with exactly two classes, ``codes`` 0/1 indices into
    ``classes``. Every failure is a :class:`FairkitError` naming the estimator."""
    name = type(estimator).__name__
    if sensitive_features is None:
        raise FairkitError(
            f"sensitive_features is missing: {name}.fit needs one group label per row "
            "(sensitive_features=...)"
        )
    X, y = validate_data(estimator, X, y, dtype=np.float64, order="C", y_numeric=False)
    check_classification_targets(y)
    y_type = type_of_target(y, input_name="y", raise_unknown=True)
    if y_type != "binary":
        raise FairkitError(
            "Only binary classification is supported. The type of the target is "
            f"{y_type}: {name} needs exactly two classes"
        )
    classes, codes = _factorize_labels(y)
    if len(classes) != 2:
        shown = ", ".join(repr(_py(c)) for c in classes[:5])
        raise FairkitError(
            f"y has {len(classes)} class(es) ({shown}{', ...' if len(classes) > 5 else ''}): "
            f"{name} needs exactly two classes"
        )
    return X, y, classes, codes
