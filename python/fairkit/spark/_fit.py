"""``fit``: :class:`fairkit.estimators.FairProjection` fitted on a Spark DataFrame.

The rows never leave the executors. The fit is the crate's partitioned fit
(``info_projection::PartitionedFit``, see docs/spark.md):

1. one small Spark job collects the distinct sensitive values, labels and probability-vector
   lengths (what the one-machine fit learns from ``np.unique``): the group index and classes;
2. one job computes each partition's marginal sums (the joint P(Y, S) unnormalised, and the
   row count) in Rust; the driver merges them and builds the design;
3. the driver runs the dual solver (Newton or L-BFGS, K numbers); each data pass it asks for is
   one Spark job: every partition computes its sums at the driver's λ in Rust, the driver
   merges them.

Partition results are merged in partition order (a two-level tree for many partitions), so
the same partitioning gives the same bits on every run; any partitioning gives λ equal to the
one-machine fit up to floating-point rounding (tested to 1e-9).
"""

from __future__ import annotations

import math
from functools import reduce
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import spark as _core

_SUMS_SCHEMA = "sums binary"


def ordered_reduce(rdd: Any, merge: Callable[[bytes, bytes], bytes], fan_in: int | None = None):
    """Merges the (at most one per partition) byte strings of ``rdd`` in partition order.

    Up to ``fan_in`` partitions (default ⌈√P⌉, at least 64) are merged on the driver; beyond,
    blocks of ``fan_in`` consecutive partitions are merged on executors first, each block in
    partition order. Each partition must hold at most one item. Returns None when no partition
    produced anything.
    """
    n = rdd.getNumPartitions()
    fan = fan_in or max(64, math.isqrt(max(n - 1, 0)) + 1)
    tagged = rdd.mapPartitionsWithIndex(lambda i, it: [(i, bytes(b)) for b in it])
    if n > fan:
        tagged = (
            tagged.map(lambda t: (t[0] // fan, t))
            .groupByKey(numPartitions=max(1, math.ceil(n / fan)))
            .map(lambda kv: (kv[0], reduce(merge, [b for _, b in sorted(kv[1])])))
        )
    items = [b for _, b in sorted(tagged.collect())]
    return reduce(merge, items) if items else None


def merge_marginals(a: bytes, b: bytes) -> bytes:
    """Two partitions' marginal sums, added (module level: pickled by reference)."""
    return bytes(_core.fp_merge_marginals(a, b))


def merge_passes(a: bytes, b: bytes) -> bytes:
    """Two partitions' sums of one dual pass, added (module level: pickled by reference)."""
    return bytes(_core.fp_merge_passes(a, b))


def _columns_of(batch, names: Sequence[str]) -> dict:
    return {
        name: batch.column(batch.schema.get_field_index(name)).to_numpy(zero_copy_only=False)
        for name in names
    }


class _Reader:
    """Turns one Arrow batch into what the core reads: probabilities, group codes, labels.

    Plain data (pickled to every executor): column names, the group index and classes learnt
    on the driver.
    """

    def __init__(self, proba, sensitive, label, n_classes, index, classes):
        self.proba = proba
        self.sensitive = list(sensitive)
        self.label = label
        self.n_classes = n_classes
        self.index = index
        self.classes = classes

    def read(self, batch):
        from fairkit.estimators._fair_projection import _class_codes
        from fairkit.spark._transform import proba_matrix

        n = batch.num_rows
        p = proba_matrix(batch, self.proba, self.n_classes)
        feats = _columns_of(batch, self.sensitive)
        features = feats[self.sensitive[0]] if len(self.sensitive) == 1 else feats
        codes = self.index.transform(features, n)
        labels = None
        if self.label is not None:
            y = _columns_of(batch, [self.label])[self.label]
            labels = _class_codes(y, self.classes, n)
        return p, codes, labels


def _marginal_rows(batches: Iterable, reader: _Reader, settings: dict):
    import pyarrow as pa

    total = None
    for batch in batches:
        if batch.num_rows == 0:
            continue
        p, codes, labels = reader.read(batch)
        sums = bytes(_core.fp_marginal_sums(p, codes, reader.index.names, labels, settings))
        total = sums if total is None else merge_marginals(total, sums)
    if total is not None:
        yield pa.RecordBatch.from_arrays([pa.array([total], pa.binary())], names=["sums"])


def _pass_rows(batches: Iterable, reader: _Reader, settings: dict, marginals: bytes,
               lam: list, slack: bool, hessian: bool):
    import pyarrow as pa

    passes = _core.FairProjectionPasses(settings, marginals, reader.index.names)
    total = None
    for batch in batches:
        if batch.num_rows == 0:
            continue
        p, codes, _ = reader.read(batch)
        sums = bytes(passes.pass_sums(lam, slack, hessian, p, codes))
        total = sums if total is None else merge_passes(total, sums)
    if total is not None:
        yield pa.RecordBatch.from_arrays([pa.array([total], pa.binary())], names=["sums"])


def _arrow_values(values: list, field) -> np.ndarray:
    """Collected Python values as the numpy array Arrow's ``to_numpy`` gives on executors."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type

    return pa.array(values, type=to_arrow_type(field.dataType)).to_numpy(zero_copy_only=False)


def fit_projection(estimator: Any, df: Any, *, proba, sensitive, label, persist: bool,
                   checks: Callable[..., int]) -> Any:
    """See :func:`fairkit.spark.fit` (``checks`` validates the columns and returns C or 0)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from sklearn.base import clone

    from fairkit.estimators import FairProjection
    from fairkit.estimators._fair_projection import _classes_and_codes
    from fairkit.estimators._groups import GroupIndex
    from fairkit.spark import _rethrow

    if not isinstance(estimator, FairProjection):
        raise FairkitError(
            f"estimator must be a fairkit.estimators.FairProjection, got {type(estimator).__name__}"
        )
    if estimator.estimator is not None:
        raise FairkitError(
            "fairkit.spark.fit fits a FairProjection on probabilities (estimator=None): compute "
            "the base model's probabilities into a column first"
        )
    est = clone(estimator)
    est._check_params()
    settings = est._settings()
    if settings["solver"] != "dual":
        raise FairkitError(
            f"invalid parameter solver = {settings['solver']!r}: fairkit.spark.fit runs the "
            "dual solver (ADMM keeps per-row state between passes)"
        )
    sensitive = [sensitive] if isinstance(sensitive, str) else list(sensitive)
    if label is not None and not isinstance(label, str):
        raise FairkitError(f"label must be a column name (str), got {type(label).__name__}")
    fixed_c = checks(df, proba, sensitive, label)
    wanted = ([proba] if isinstance(proba, str) else list(proba)) + sensitive
    if label is not None:
        wanted.append(label)
    selected = df.select(*dict.fromkeys(wanted))
    if persist:
        selected = selected.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        # 1. Distinct sensitive values, labels and vector lengths: groups and classes.
        keys = list(dict.fromkeys(sensitive + ([label] if label is not None else [])))
        size = [] if fixed_c else [F.size(F.col(proba)).alias("__fairkit_n_classes")]
        distinct = selected.select(*keys, *size).distinct().collect()
        if not distinct:
            raise FairkitError("the DataFrame has no rows to fit on")
        fields = {f.name: f for f in selected.schema.fields}
        if fixed_c:
            n_classes = fixed_c
        else:
            sizes = sorted({r["__fairkit_n_classes"] for r in distinct})
            if len(sizes) != 1 or sizes[0] is None or sizes[0] < 2:
                raise FairkitError(
                    f"column {proba!r} holds probability vectors of lengths {sizes}: every row "
                    "needs the same number (≥ 2) of class probabilities, no nulls"
                )
            n_classes = int(sizes[0])
        combos = {tuple(r[s] for s in sensitive) for r in distinct}
        values = {s: _arrow_values([c[j] for c in combos], fields[s])
                  for j, s in enumerate(sensitive)}
        features = values[sensitive[0]] if len(sensitive) == 1 else values
        index, _ = GroupIndex.fit(features, len(combos))
        if label is not None:
            ys = _arrow_values(sorted({r[label] for r in distinct}, key=repr), fields[label])
            classes, _ = _classes_and_codes(ys, n_classes, len(ys))
        else:
            classes = np.arange(n_classes)
        reader = _Reader(proba, sensitive, label, n_classes, index, classes)

        def run(job) -> bytes:
            try:
                return job()
            except FairkitError:
                raise
            except Exception as e:  # noqa: BLE001 - Spark wraps executor errors in its own types
                _rethrow(e)
                raise  # pragma: no cover - _rethrow always raises

        # 2. Marginal pass.
        def marginal_job():
            rows = selected.mapInArrow(
                lambda it: _marginal_rows(it, reader, settings), _SUMS_SCHEMA)
            return ordered_reduce(rows.rdd.map(lambda r: r[0]), merge_marginals)

        marginals = run(marginal_job)
        if marginals is None:
            raise FairkitError("the DataFrame has no rows to fit on")
        passes = _core.FairProjectionPasses(settings, marginals, index.names)

        # 3. The dual solve on the driver, one Spark job per data pass.
        def oracle(lam, slack, hessian):
            def pass_job():
                rows = selected.mapInArrow(
                    lambda it: _pass_rows(it, reader, settings, marginals, lam, slack, hessian),
                    _SUMS_SCHEMA)
                out = ordered_reduce(rows.rdd.map(lambda r: r[0]), merge_passes)
                if out is None:
                    raise FairkitError("a data pass saw no rows: the DataFrame changed during the fit")
                return out
            return run(pass_job)

        core = passes.fit(oracle)
    finally:
        if persist:
            selected.unpersist()
    est.estimator_ = None
    est.n_features_in_ = n_classes
    est.classes_ = classes
    return est._set_fitted(core, settings, index)
