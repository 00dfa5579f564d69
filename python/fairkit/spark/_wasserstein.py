"""The Wasserstein-barycenter post-processor for regression
(:class:`fairkit.estimators.WassersteinPostProcessor`) on a Spark DataFrame.

``transform`` never moves the rows: the fitted post-processor (its saved bytes: every group's
sorted fitting predictions, 8 bytes each) is broadcast once, and each partition's Arrow batches
go through ``transform`` on numpy views of the columns. Without jitter (``sigma=0``, the default)
a row's fair prediction depends only on that row, so the result equals ``transform`` on the
collected rows bit for bit, whatever the partitioning. The jitter of ``sigma > 0`` is the i-th
draw of a seeded stream for the i-th row of a call, which a partitioned DataFrame cannot
reproduce: refused.

``fit`` is exact: it needs every group's sorted predictions, so it collects the prediction, the
sensitive columns and the weight (about 16–30 bytes a row) to the driver through Arrow. A
mergeable quantile sketch for data beyond the driver's memory is not built yet.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

import numpy as np

from fairkit._core import FairkitError


def _sensitive_frame(table, sensitive: Sequence[str]) -> dict:
    """The sensitive columns of an Arrow batch or table as ``{name: values}`` (what the
    post-processor's ``sensitive_features`` reads; nulls stay ``None`` and are refused there)."""
    return {name: np.asarray(table.column(table.schema.get_field_index(name))
                             .to_pylist(), dtype=object)
            for name in sensitive}


def _predictions(table, pred: str) -> np.ndarray:
    col = table.column(table.schema.get_field_index(pred))
    if col.null_count:
        raise FairkitError(f"column {pred!r} has a null prediction")
    return np.ascontiguousarray(col.to_numpy(zero_copy_only=False), dtype=np.float64)


def check_columns(df: Any, pred: str, sensitive: Sequence[str], weight: Optional[str]) -> None:
    """Missing columns and a non-numeric prediction or weight, on the driver before any job."""
    from pyspark.sql.types import NumericType

    fields = {f.name: f for f in df.schema.fields}
    for name in [pred, *sensitive, *([weight] if weight else [])]:
        if name not in fields:
            raise FairkitError(f"column {name!r} not found; the DataFrame has {sorted(fields)}")
    for what, name in (("prediction", pred), ("weight", weight)):
        if name is not None and not isinstance(fields[name].dataType, NumericType):
            raise FairkitError(f"{what} column {name!r} must be numeric, got "
                               f"{fields[name].dataType.simpleString()}")


def fit(post: Any, df: Any, *, pred: str, sensitive: Sequence[str],
        weight: Optional[str]) -> Any:
    """A fitted clone of ``post`` from the collected columns (see the module docs)."""
    from sklearn.base import clone

    check_columns(df, pred, sensitive, weight)
    cols = [pred, *sensitive, *([weight] if weight else [])]
    selected = df.select(*cols)
    import pyarrow as pa

    if hasattr(selected, "toArrow"):  # pyspark >= 4.0
        table = selected.toArrow()
    else:  # pragma: no cover - the tests run pyspark 4
        table = pa.Table.from_pandas(selected.toPandas(), preserve_index=False)
    w = None
    if weight:
        col = table.column(weight)
        if col.null_count:
            raise FairkitError(f"column {weight!r} has a null weight")
        w = col.to_numpy(zero_copy_only=False).astype(np.float64)
    fitted = clone(post)
    return fitted.fit(_predictions(table, pred), _sensitive_frame(table, sensitive),
                      sample_weight=w)


def transform(df: Any, post: Any, *, pred: str, sensitive: Sequence[str], output: str,
              alpha: Any = None) -> Any:
    """``df`` with the fair prediction in ``output`` (see the module docs)."""
    from pyspark.sql.types import DoubleType, StructField, StructType
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(post, "model_")
    if float(post.sigma) != 0.0:
        raise FairkitError(
            "transform on Spark needs a post-processor fitted with sigma=0: the jitter of "
            "sigma > 0 is drawn row by row in the order of one call, which a partitioned "
            "DataFrame does not have"
        )
    check_columns(df, pred, sensitive, None)
    if output in df.columns:
        raise FairkitError(f"output column {output!r} already exists: choose another name")
    saved = df.sparkSession.sparkContext.broadcast(post.model_.to_bytes())
    indexes = post.group_indexes_
    names = list(post.feature_names_)
    if len(sensitive) != len(names):
        raise FairkitError(f"sensitive names {len(sensitive)} column(s) but the post-processor "
                           f"was fitted with {len(names)} ({', '.join(names)})")
    schema = StructType([*df.schema.fields, StructField(output, DoubleType(), False)])

    def per_partition(batches: Iterable):
        import pyarrow as pa

        from fairkit._core import estimators as core

        model = core.wasserstein_barycenter_from_bytes(saved.value)
        alphas = None if alpha is None else (
            [float(alpha)] if np.ndim(alpha) == 0 else [float(a) for a in alpha])
        for batch in batches:
            if batch.num_rows == 0:
                continue
            y = _predictions(batch, pred)
            frame = _sensitive_frame(batch, sensitive)
            codes = [ix.transform(frame[name], len(y)) for ix, name in zip(indexes, sensitive)]
            fair = model.transform(y, codes, [ix.names for ix in indexes], alphas)
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(np.asarray(fair, dtype=np.float64))],
                schema=batch.schema.append(pa.field(output, pa.float64(), False)))

    return df.mapInArrow(per_partition, schema)
