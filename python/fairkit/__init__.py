"""fairkit: fairness metrics and fairness methods with a Rust core.

``fairkit.metrics`` holds fairlearn-compatible metrics (same names, keyword signatures and
results) plus what fairlearn lacks; ``fairkit.estimators`` holds scikit-learn-style fairness
methods. Invalid input raises :class:`FairkitError`, a ``ValueError`` subclass whose message
names the problem.
"""

from fairkit._core import FairkitError, __version__

from fairkit import estimators, metrics

__all__ = ["FairkitError", "__version__", "estimators", "metrics"]
