"""fairkit: fairness metrics and fairness methods with a Rust core.

``fairkit.metrics`` holds fairlearn-compatible metrics (same names, keyword signatures and
results) plus what fairlearn lacks; ``fairkit.estimators`` holds scikit-learn-style fairness
methods; ``fairkit.ranking`` re-ranks scored items fairly (FA*IR, Geyik et al.);
``fairkit.audit`` audits a table (pandas, polars, pyarrow or Spark) as the ``fairkit audit``
command does, ``fairkit.compare`` compares two audits, and ``fairkit.ll144`` writes
the NYC Local Law 144 bias-audit tables. Invalid input raises
:class:`FairkitError`, a ``ValueError`` subclass whose message names the problem.
"""

from importlib import import_module
from typing import Any

from fairkit._core import FairkitError, __version__

from fairkit._audit import audit, compare
from fairkit._ll144 import Ll144Result, ll144

__all__ = ["AuditResult", "FairkitError", "Ll144Result", "__version__", "audit", "compare",
           "estimators", "ll144", "metrics", "ranking"]


def __getattr__(name: str) -> Any:
    # The submodules (and through them numpy) are imported on first use, so `import fairkit`
    # and the `fairkit` command, which runs through this package, start without them;
    # `fairkit.metrics.x` after `import fairkit` works as before.
    if name in ("estimators", "metrics", "ranking"):
        return import_module(f"fairkit.{name}")
    # The audit's result type (it pulls the audit's report code).
    if name == "AuditResult":
        from fairkit.spark._result import AuditResult

        return AuditResult
    raise AttributeError(f"module 'fairkit' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
