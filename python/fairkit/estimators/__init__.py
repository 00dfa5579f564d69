"""Scikit-learn-style fairness estimators (reserved: the bindings land here).

Each estimator module wraps a class from ``fairkit._core.estimators`` and converts inputs with
``fairkit._validation``.
"""

__all__: list = []
