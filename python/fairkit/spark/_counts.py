"""The rates audit counted by Spark SQL: no row leaves the JVM (docs/spark.md, "Counting in the
JVM").

One aggregate, grouped by the label, prediction and sensitive columns (their values as they are)
and, when weighted, the weight's binary scale exponent, gives per group a ``bigint`` row count
and ``bigint`` sums of the weights' integer mantissas (and of their ``f64`` squares'), split in
31-bit limbs. The driver decodes the aggregate rows with the ``fairkit audit`` command's decoder
(label coder, column types, group names) and rebuilds the exact weight sums in the Rust
accumulator (``fair_metrics::state::ExactSumParts``): the state — and so the report — is the one
the row-by-row path builds, byte for byte.

Anything irregular — a null, a third label value, a negative / NaN / infinite weight, a
non-finite score, a ``-0.0`` label (``groupBy`` merges it with ``0.0``; the label coder does not),
a limb sum past 2^63 — is only *detected* here; :func:`fairkit.spark.audit` then runs the
row-by-row path, whose decoder names the row, column and value as it always did.

**Exactness of the weight sums.** For a finite weight ``w > 0`` with binary exponent ``t``
(``2^t <= w < 2^(t+1)``), ``w = M 2^(t-52)`` with an integer ``M < 2^53`` (subnormals:
``w = M 2^-1074``). Spark's ``log2`` is ``ln(w) / ln 2`` with an error far below 1 for
``|log2 w| <= 1075``, so ``t' = floor(log2 w)`` is ``t - 1``, ``t`` or ``t + 1``.

* ``kw = max(t' - 53, -1074)``: ``kw <= t - 52`` (or ``-1074`` for subnormals), so
  ``m = w 2^-kw`` is an integer, and ``kw >= t - 54`` (or the clamp, which needs ``t <= -1021``),
  so ``m < 2^55``.
* ``fl(w*w)`` — the rounded square the row path adds — has exponent ``tq`` in ``[2t, 2t+2]``.
  ``kq = max(2 kw + 52, -1074)`` is ``<= 2t - 52 <= tq - 52`` (a subnormal square forces the
  clamp), so ``mq = fl(w*w) 2^-kq`` is an integer, and ``kq >= 2t - 56`` (or the clamp, which
  needs ``t < -509``, so ``tq < -1016``), so ``mq < 2^59``. ``kq`` is a function of ``kw``: one
  grouping key serves both. A square that overflows to ``+inf`` is flagged in the key instead.
* ``m = (w × 2^a) × 2^b`` with ``a = floor(-kw / 2)``, ``b = -kw - a`` (both powers of two are
  ``f64`` constants, looked up in a literal array): multiplying by a power of two is exact unless
  the result overflows or loses bits as a subnormal; scaling up, every step stays ``<= m <
  2^59``; scaling down, every step stays ``>= m >= 2^52``. The cast to ``bigint`` is exact.
* Limbs ``m >> 31 < 2^28`` and ``m & (2^31 - 1) < 2^31``: their ``bigint`` sums are exact for
  up to 2^32 rows per (cell, exponent); ``try_sum`` turns a larger sum into NULL, and the audit
  falls back to the row path (exact at any size). Decimal(38,0) sums of the whole mantissa were
  exact at any size too, but 2-3× slower here (docs/benchmarks.md).

The driver adds ``(Σhigh × 2^31 + Σlow) × 2^kw`` to the accumulator: the exact sum.
"""

from __future__ import annotations

from typing import Any, Optional

from fairkit._core import spark as _core
from fairkit.spark._arrow import AuditColumns, label_text

_LAYOUT = _core.COUNT_LAYOUT


def _scale_table(F):
    """``(first, second)``: literal arrays of ``2^a`` and ``2^b`` (``a + b = -k``), indexed by
    ``k + 1075`` for ``k`` in ``[-1074, 971]``."""
    ks = range(-1074, 972)
    first = F.array(*[F.lit(2.0 ** ((-k) // 2)) for k in ks])
    second = F.array(*[F.lit(2.0 ** (-k - (-k) // 2)) for k in ks])
    return first, second


def _scaled(F, tables, x, k):
    """``x × 2^-k`` as a ``bigint`` (exact for the ``x``, ``k`` above)."""
    first, second = tables
    index = (F.least(F.greatest(k, F.lit(-1074)), F.lit(971)) + F.lit(1075)).cast("int")
    return (x * F.element_at(first, index) * F.element_at(second, index)).cast("long")


def counting_frame(selected: Any, cols: AuditColumns, float_labels: set) -> Any:
    """The aggregate: one row per (label, prediction, sensitive values, key) with the row count
    and, when weighted, the limb sums of the mantissas (layout: ``_core.COUNT_LAYOUT``)."""
    from pyspark.sql import functions as F

    L = _LAYOUT
    keys = [cols.label, cols.pred, *cols.sensitive]
    inf = F.lit(float("inf"))
    extra = []
    if cols.score is not None:
        extra.append(F.col(cols.score).cast("double").alias("__fk_s"))
    if cols.weight is not None:
        extra.append(F.col(cols.weight).cast("double").alias("__fk_w"))
    frame = selected.select(*keys, *extra)
    checks = []  # (condition, code): any of them sends the audit down the row path
    if cols.weight is not None:
        w = F.col("__fk_w")
        checks.append((w.isNull() | F.isnan(w) | (w < 0) | (w == inf), L["bad_weight"]))
    if cols.score is not None:
        s = F.col("__fk_s")
        checks.append((s.isNull() | F.isnan(s) | (F.abs(s) == inf), L["bad_score"]))
    for c in (cols.label, cols.pred):
        if c in float_labels:
            # -0.0: equal to 0.0 for groupBy, another value for the label coder. 1 / -0.0 is
            # -inf, but Spark's division refuses zero and its atan2 adds 0.0 to its arguments;
            # pow(-0.0, -1) is -inf (StrictMath.pow, no normalisation).
            checks.append(((F.col(c) == 0) & (F.pow(F.col(c), F.lit(-1.0)) < 0),
                           L["negative_zero_label"]))
    aggs = [F.count(F.lit(1)).alias(L["rows"])]
    if cols.weight is not None:
        tables = _scale_table(F)
        w = F.col("__fk_w")
        positive = (w > 0) & (w < inf)  # false for 0, NaN, +inf, negatives and nulls
        kw = F.when(positive, F.greatest(F.floor(F.log2(w)) - 53, F.lit(-1074))) \
            .otherwise(F.lit(0)).cast("long")
        frame = frame.select("*", kw.alias("__fk_kw"))
        kw, q = F.col("__fk_kw"), w * w
        infinite = q == inf
        kq = F.greatest(2 * kw + 52, F.lit(-1074))
        zero = F.lit(0).cast("long")
        mw = F.when(positive, _scaled(F, tables, w, kw)).otherwise(zero)
        mq = F.when(positive & ~infinite, _scaled(F, tables, q, kq)).otherwise(zero)
        key = F.when(positive & infinite, kw + L["infinite_square"]).otherwise(kw)
        low = (1 << L["low_bits"]) - 1
        for (hi, lo), m in (((L["weight_high"], L["weight_low"]), mw),
                            ((L["square_high"], L["square_low"]), mq)):
            aggs.append(F.try_sum(F.shiftright(m, L["low_bits"])).alias(hi))
            aggs.append(F.try_sum(m.bitwiseAND(F.lit(low))).alias(lo))
    elif checks:
        key = F.lit(0).cast("long")
    else:
        return frame.groupBy(*keys).agg(*aggs)
    for cond, code in reversed(checks):
        key = F.when(cond, F.lit(code).cast("long")).otherwise(key)
    return frame.groupBy(*keys, key.alias(L["key"])).agg(*aggs)


def counted_state(selected: Any, cols: AuditColumns) -> tuple[Optional[bytes], str]:
    """The audit state counted by Spark SQL, or ``(None, why)`` when the rows hold something the
    row path must name (or the data is empty)."""
    from pyspark.sql.types import DoubleType, FloatType

    types = {f.name: f.dataType for f in selected.schema.fields}
    float_labels = {c for c in (cols.label, cols.pred)
                    if isinstance(types.get(c), (FloatType, DoubleType))}
    table = counting_frame(selected, cols, float_labels).toArrow()
    if table.num_rows == 0:
        return None, "no rows"
    state = _core.CountedState(cols.label, cols.pred, list(cols.sensitive),
                               cols.weight is not None, label_text(cols.pos_label),
                               label_text(cols.neg_label))
    for batch in table.to_batches():
        why = state.add(batch)
        if why is not None:
            return None, why
    return bytes(state.to_bytes()), ""
