"""Scikit-learn-style fairness estimators with a Rust core.

* :class:`FairProjection` — multi-class, multi-group fair post-processing of any probabilistic
  classifier by information projection (Alghamdi et al., NeurIPS 2022; crate ``info-projection``).
* :class:`WassersteinBarycenter` — a regressor post-processed to the groups' Wasserstein
  barycenter (Chzhen et al., NeurIPS 2020; crate ``fair-regression``), and
  :class:`WassersteinPostProcessor`, the same map on bare predictions.

The estimators need scikit-learn (``pip install scikit-learn``); it is imported when an
estimator is first used, so ``import fairkit`` works without it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    "FairPCA",
    "FairProjection",
    "FairSVM",
    "PartialParityClassifier",
    "RateConstrainedClassifier",
    "WassersteinBarycenter",
    "WassersteinPostProcessor",
    "rates",
]

# Public name -> module defining it (imported on first access: scikit-learn is optional).
_LAZY = {
    "FairProjection": "fairkit.estimators._fair_projection",
    "RateConstrainedClassifier": "fairkit.estimators._rate_constrained",
    "PartialParityClassifier": "fairkit.estimators._partial_parity",
    "FairPCA": "fairkit.estimators._fair_pca",
    "FairSVM": "fairkit.estimators._fair_svm",
    "WassersteinBarycenter": "fairkit.estimators._wasserstein",
    "WassersteinPostProcessor": "fairkit.estimators._wasserstein",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    if name == "rates":
        return import_module("fairkit.estimators.rates")
    raise AttributeError(f"module 'fairkit.estimators' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
