"""``transform``: a fitted :class:`fairkit.estimators.FairProjection` applied to a Spark
DataFrame, partition by partition.

The projector travels to the executors inside the function's closure, pickled as the crate's
canonical bytes (the joint P(Y, S), λ and the report: a few kB, independent of the fitting
rows), and each partition's Arrow batches go through ``predict_proba`` on numpy views of the
columns (no pandas, no row-by-row Python). Each row's fair probabilities depend only on that
row, so the result equals ``projection.predict_proba`` on the collected rows bit for bit,
whatever the partitioning.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from fairkit._core import FairkitError


def proba_matrix(batch, proba: str | Sequence[str], n_classes: int) -> np.ndarray:
    """The batch's base probabilities as an N x C float64 matrix: one array<double> column of
    length C per row, or C double columns."""
    n = batch.num_rows
    if isinstance(proba, str):
        col = batch.column(batch.schema.get_field_index(proba))
        if col.null_count:
            raise FairkitError(f"column {proba!r} has a null probability array")
        offsets = np.asarray(col.offsets)
        lengths = np.diff(offsets)
        if n and (lengths != n_classes).any():
            row = int(np.argmax(lengths != n_classes))
            raise FairkitError(
                f"column {proba!r} row {row} has {int(lengths[row])} probabilities; the "
                f"projector was fitted with {n_classes} classes"
            )
        values = col.values.slice(int(offsets[0]) if n else 0, n * n_classes)
        if values.null_count:
            raise FairkitError(f"column {proba!r} has a null probability")
        flat = values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
        return np.ascontiguousarray(flat.reshape(n, n_classes))
    out = np.empty((n, len(proba)), dtype=np.float64)
    for j, name in enumerate(proba):
        col = batch.column(batch.schema.get_field_index(name))
        if col.null_count:
            raise FairkitError(f"column {name!r} has a null probability")
        out[:, j] = col.to_numpy(zero_copy_only=False)
    return out


def transform_batches(batches: Iterable, projection: Any, proba, sensitive: Sequence[str],
                      output: str):
    """The ``mapInArrow`` function: every input batch with the ``output`` column appended."""
    import pyarrow as pa

    n_classes = len(projection.classes_)
    for batch in batches:
        if batch.num_rows == 0:
            continue
        p = proba_matrix(batch, proba, n_classes)
        groups = {
            name: batch.column(batch.schema.get_field_index(name)).to_numpy(zero_copy_only=False)
            for name in sensitive
        }
        features = groups[sensitive[0]] if len(sensitive) == 1 else groups
        fair = projection.predict_proba(p, sensitive_features=features)
        offsets = pa.array(np.arange(0, fair.size + 1, n_classes, dtype=np.int32))
        column = pa.ListArray.from_arrays(offsets, pa.array(fair.reshape(-1)))
        yield pa.RecordBatch.from_arrays(
            [*batch.columns, column], names=[*batch.schema.names, output]
        )
