"""``count``, ``mean_prediction``, ``make_derived_metric`` and the generated
``<metric>_difference``/``_ratio``/``_group_min``/``_group_max`` functions (fairlearn 0.15's)."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np

from fairkit._core import FairkitError

_TRANSFORMS = ["difference", "group_min", "group_max", "ratio"]
_TRANSFORM_PARAMETERS = ["method"]
_METRIC_CALLABLE_ERROR = "Supplied metric object must be callable"
_METHOD_ARG_ERROR = (
    "Callables which accept a '{0}' argument "
    "may not be passed to make_derived_metric(). Please use functools.partial()"
)
_INVALID_TRANSFORM = f"Transform must be one of {_TRANSFORMS}"


def count(y_true, y_pred) -> int:
    """The number of rows (``y_pred`` is required for the metric signature but ignored).

    >>> count([0, 1, 1], [1, 1, 0])
    3
    """
    n_true, n_pred = len(y_true), len(y_pred)
    if n_true != n_pred:
        raise FairkitError(
            f"Found input variables with inconsistent numbers of samples: {[n_true, n_pred]!r}"
        )
    return n_true


def mean_prediction(y_true, y_pred, sample_weight=None) -> float:
    """The (weighted) mean of ``y_pred``; ``y_true`` is ignored.

    >>> float(mean_prediction([0, 0, 0], [1, 0, 0.5]))
    0.5
    """
    del y_true
    y_p = np.asarray(y_pred)
    y_p = np.squeeze(y_p) if y_p.size > 1 else y_p.reshape(-1)
    s_w = np.ones(len(y_p))
    if sample_weight is not None:
        s_w = np.asarray(sample_weight)
        s_w = np.squeeze(s_w) if s_w.size > 1 else s_w.reshape(-1)
    return np.dot(y_p, s_w) / s_w.sum()


class _DerivedMetric:
    """A metric aggregated over the groups of ``sensitive_features`` (see
    :func:`make_derived_metric`)."""

    def __init__(self, *, metric: Callable, transform: str, sample_param_names: list[str]):
        if not callable(metric):
            raise FairkitError(_METRIC_CALLABLE_ERROR)
        sig = inspect.signature(metric)
        for name in _TRANSFORM_PARAMETERS:
            if name in sig.parameters:
                raise FairkitError(_METHOD_ARG_ERROR.format(name))
        if transform not in _TRANSFORMS:
            raise FairkitError(_INVALID_TRANSFORM)
        self._metric_fn = metric
        self._transform = transform
        self._sample_param_names = list(sample_param_names or [])

    def __call__(self, y_true, y_pred, *, sensitive_features, **other_params) -> Any:
        from fairkit.metrics._frame import MetricFrame

        sample_params, params, transform_params = {}, {}, {}
        for k, val in other_params.items():
            if k in self._sample_param_names:
                sample_params[k] = val
            elif k in _TRANSFORM_PARAMETERS:
                transform_params[k] = val
            else:
                params[k] = val
        dispatch = functools.partial(self._metric_fn, **params)
        name = self._metric_fn.__name__
        for k, val in sorted(params.items()):
            name = f"{name}_{k}_{val}"
        dispatch.__name__ = name  # type: ignore[attr-defined]
        # A partial keeps the function's module, so fairkit still counts a recognised rate
        # with no other parameters in Rust.
        dispatch.__module__ = getattr(self._metric_fn, "__module__", None)  # type: ignore[attr-defined]
        if params:
            dispatch.__module__ = None  # type: ignore[attr-defined]
        mf = MetricFrame(
            metrics=dispatch,
            y_true=y_true,
            y_pred=y_pred,
            sensitive_features=sensitive_features,
            sample_params=sample_params,
        )
        if self._transform == "difference":
            return mf.difference(**transform_params)
        if self._transform == "ratio":
            return mf.ratio(**transform_params)
        if self._transform == "group_min":
            return mf.group_min()
        return mf.group_max()


def make_derived_metric(
    *, metric: Callable, transform: str, sample_param_names: list[str] | None = None
) -> Callable:
    """A function ``f(y_true, y_pred, *, sensitive_features, **params)`` returning
    ``transform`` (``"difference"``, ``"ratio"``, ``"group_min"`` or ``"group_max"``) of
    ``metric`` over the groups; as fairlearn's. ``sample_param_names`` (default
    ``["sample_weight"]``) are split by group, ``method=`` goes to the transform, other
    keyword arguments are bound to ``metric``.

    >>> from sklearn.metrics import accuracy_score
    >>> acc_diff = make_derived_metric(metric=accuracy_score, transform="difference")
    >>> float(acc_diff([1, 0, 1, 1], [1, 0, 0, 1], sensitive_features=["a", "a", "b", "b"]))
    0.5
    """
    if sample_param_names is None:
        sample_param_names = ["sample_weight"]
    return _DerivedMetric(metric=metric, transform=transform, sample_param_names=sample_param_names)


# fairlearn's generated variants of scikit-learn's metrics: (sklearn.metrics name, variants).
SKLEARN_VARIANTS = [
    ("accuracy_score", ["difference", "ratio", "group_min"]),
    ("zero_one_loss", ["difference", "ratio", "group_max"]),
    ("balanced_accuracy_score", ["group_min"]),
    ("precision_score", ["group_min"]),
    ("recall_score", ["group_min"]),
    ("roc_auc_score", ["group_min"]),
    ("mean_absolute_error", ["group_max"]),
    ("mean_squared_error", ["group_max"]),
    ("r2_score", ["group_min"]),
    ("f1_score", ["group_min"]),
    ("log_loss", ["group_max"]),
]


def sklearn_generated_names() -> list[str]:
    """The names of the variants of scikit-learn's metrics, known without importing it."""
    return [f"{base}_{variant}" for base, variants in SKLEARN_VARIANTS for variant in variants]


def generated_metrics(with_sklearn: bool = True) -> dict[str, Callable]:
    """fairlearn's generated ``<metric>_<transform>`` functions, by name: those of fairkit's
    rates, then (``with_sklearn`` and scikit-learn installed) those of scikit-learn's metrics."""
    from fairkit.metrics import _functions as f

    spec = [
        (f.true_positive_rate, ["difference", "ratio"]),
        (f.true_negative_rate, ["difference", "ratio"]),
        (f.false_positive_rate, ["difference", "ratio"]),
        (f.false_negative_rate, ["difference", "ratio"]),
        (f.selection_rate, ["difference", "ratio"]),
    ]
    skm = None
    if with_sklearn:
        try:  # scikit-learn is optional: its metrics' variants exist when it is installed
            import sklearn.metrics as skm
        except ImportError:  # pragma: no cover - exercised only without scikit-learn
            skm = None
    spec += [] if skm is None else [
        (getattr(skm, base), variants) for base, variants in SKLEARN_VARIANTS
    ]
    out: dict[str, Callable] = {}
    for base, variants in spec:
        for variant in variants:
            name = f"{base.__name__}_{variant}"
            fn = make_derived_metric(metric=base, transform=variant)
            fn.__name__ = name  # type: ignore[attr-defined]
            out[name] = fn
    return out
