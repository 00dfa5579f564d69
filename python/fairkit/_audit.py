"""``fairkit.audit``: the fairness audit of a table wherever it lives — a pandas or polars
DataFrame, a pyarrow Table, RecordBatch or RecordBatchReader on this machine, or a Spark
DataFrame on a cluster — with ``fairkit audit``'s options, defaults and report (one Rust
``fair_audit::run`` behind every front end). ``fairkit.compare`` compares two audits gap by gap.

The heavy imports (pyarrow, pyspark) happen on the first call, so ``import fairkit`` stays light.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence

from fairkit._core import FairkitError


def _is_spark(data: Any) -> bool:
    t = type(data)
    return t.__name__ == "DataFrame" and t.__module__.startswith("pyspark.sql")


def _is_polars(data: Any) -> bool:
    t = type(data)
    return t.__name__ == "DataFrame" and t.__module__.startswith("polars")


def audit(data: Any, *, label: str, sensitive: Sequence[str], pred: Optional[str] = None,
          score: Optional[str] = None, weight: Optional[str] = None, **options: Any):
    """The fairness audit of ``data`` per sensitive group, as ``fairkit audit`` computes it.

    Parameters
    ----------
    data
        A pandas or polars DataFrame, a pyarrow Table / RecordBatch / RecordBatchReader (read to
        the end), or a ``pyspark.sql.DataFrame`` (audited on the cluster, equal to one machine).
        A file path is refused: audit files with the ``fairkit audit`` command, whose readers
        stream CSV and Parquet of any size.
    label, sensitive, pred, score, weight
        The columns by role, as ``fairkit audit --label … --sensitive …``.
    **options
        Every other option of :func:`fairkit.spark.audit_arrow` (``n_resamples``, ``seed``,
        ``confidence``, ``min_group_size``, ``by``, ``window``, ``timezone``, ``against``, …) —
        and for Spark those of :func:`fairkit.spark.audit`. Defaults are the command's.

    Returns
    -------
    fairkit.AuditResult
        The typed result: ``.document`` (report.json), ``.check(...)``, ``.compare(...)``,
        ``.report(out)``.

    Examples
    --------
    >>> import pandas as pd, fairkit
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0] * 50, "p": [1, 0, 0, 0] * 50,
    ...                    "g": ["a", "a", "b", "b"] * 50})
    >>> r = fairkit.audit(df, label="y", pred="p", sensitive=["g"], n_resamples=200)
    >>> round(r.document["headline"]["dp_difference"]["value"], 3)
    0.5
    """
    if isinstance(data, (str, bytes, os.PathLike)):
        raise FairkitError(
            f"data is a path ({os.fspath(data)!r}): fairkit.audit takes a table in memory (pandas, "
            "polars, pyarrow or Spark); audit a CSV or Parquet file with the command, "
            "`fairkit audit FILE --label … --sensitive …`, or read it first with "
            "pyarrow.parquet.read_table / pandas.read_csv"
        )
    columns = dict(label=label, sensitive=sensitive, pred=pred, score=score, weight=weight)
    if _is_spark(data):
        from fairkit.spark import audit as spark_audit

        return spark_audit(data, **columns, **options)
    if _is_polars(data):
        data = data.to_arrow()
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - pyarrow is a requirement of the audit
        raise FairkitError("fairkit.audit needs pyarrow: pip install pyarrow") from e
    if isinstance(data, pa.RecordBatchReader):
        data = data.read_all()
    from fairkit.spark import audit_arrow

    return audit_arrow(data, **columns, **options)


def compare(before, after, **options: Any) -> dict:
    """``before`` against ``after`` (two :class:`fairkit.AuditResult`), gap by gap, as
    ``fairkit compare`` does: ``before.compare(after, **options)``.

    Examples
    --------
    >>> import pandas as pd, fairkit
    >>> df = pd.DataFrame({"y": [1, 0] * 100, "p": [1, 0] * 100, "g": ["a"] * 100 + ["b"] * 100})
    >>> a = fairkit.audit(df, label="y", pred="p", sensitive=["g"], n_resamples=200)
    >>> fairkit.compare(a, a, n_resamples=200)["schema"]
    'fairkit-compare'
    """
    from fairkit.spark._result import AuditResult

    for name, value in (("before", before), ("after", after)):
        if not isinstance(value, AuditResult):
            raise FairkitError(
                f"{name} must be a fairkit.AuditResult (from fairkit.audit), "
                f"got {type(value).__name__}"
            )
    return before.compare(after, **options)
