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

* The fine scale ``k = max(t' - 53, -1074)`` has ``k <= t - 52`` (or ``-1074`` for subnormals)
  and ``k >= t - 54`` (or the clamp, which needs ``t <= -1021``): ``w 2^-k`` is an integer below
  2^55. The grouping key ``kw`` is ``k`` itself for the rates' aggregate, and for the aggregate
  by score (many groups) the coarse ``max(8 floor(k / 8), -1074)`` (weights within a factor 256
  share a key); ``k - 7 <= kw <= k``: ``m = w 2^-kw`` is an integer below 2^62 (2^55 when fine).
* ``fl(w*w)`` — the rounded square the row path adds — has exponent ``tq`` in ``[2t, 2t+2]``.
  ``kq = max(2 kw + 52, -1074)`` is ``<= 2k + 52 <= 2t - 52 <= tq - 52`` (a subnormal square
  forces the clamp), so ``mq = fl(w*w) 2^-kq`` is an integer, below 2^59 × 2^(2 (k - kw)) <=
  2^73 (2^59 when fine, a ``bigint``). ``kq`` is a function of ``kw``: one grouping key serves both. A square that overflows to
  ``+inf`` is flagged in the key instead.
* ``x × 2^-k`` (for ``m`` and ``mq``) as ``(x × 2^(60a)) × 2^b`` with ``-k = 60a + b``,
  ``0 <= b < 60``: the first factor an ``f64`` constant from a 35-entry literal array
  (``2^-1020 .. 2^1020``), the second ``CAST(shiftleft(1L, b) AS DOUBLE)`` (see
  :func:`_scaled`). Multiplying by a power of two is exact unless the result overflows or loses
  bits as a subnormal, and no step does: the result is the integer (``1 <=`` it ``< 2^73``), and
  the intermediate is it × ``2^-b``, in ``[2^-59, 2^73)``. ``m < 2^62`` is cast to ``bigint``
  exactly; a coarse ``mq`` stays an integer-valued double and is split exactly: ``top = floor(mq / 2^62)``
  (``< 2^11``) and ``mq - top 2^62`` (``< 2^62``: the low bits of ``mq``'s 53-bit mantissa, so
  the subtraction is exact), cast to ``bigint``.
* Limbs ``m >> 31 < 2^31`` and ``m & (2^31 - 1) < 2^31`` (the same for the rest of ``mq``, plus
  its ``top``): their ``bigint`` sums are exact for up to 2^32 rows per (cell, key); ``try_sum``
  turns a larger sum into NULL, and the audit falls back to the row path (exact at any size).
  Decimal(38,0) sums of the whole mantissa were exact at any size too, but 2-3× slower here
  (docs/benchmarks.md).

The driver adds ``(Σhigh × 2^31 + Σlow) × 2^kw`` (and ``(Σtop × 2^62 + Σhigh × 2^31 + Σlow) ×
2^kq``) to the accumulator: the exact sum.
"""

from __future__ import annotations

from typing import Any, Optional

from fairkit._core import spark as _core
from fairkit.spark._arrow import AuditColumns, label_text

_LAYOUT = _core.COUNT_LAYOUT

# The aggregate grouped by score is kept (and its rows held by the driver: ~100 bytes each in
# Arrow, ~80 in the sweep's cells) up to this many rows; above, the range sweep runs.
SCORE_CELLS_LIMIT = 2_000_000
# The probe (:func:`few_scores`): the first rows read, and the largest distinct fraction.
PROBE_ROWS = 65_536
PROBE_DISTINCT = 0.25


def _q(name: str) -> str:
    """A column name quoted for Spark SQL."""
    return "`" + name.replace("`", "``") + "`"


def _double(x: float) -> str:
    """An exact Spark SQL double literal (the shortest round-trip text, parsed correctly
    rounded)."""
    return repr(float(x)) + "D"


_INF = "CAST('Infinity' AS DOUBLE)"


# 2^(60a) for a in [-17, 17]: the coarse factor of _scaled (normal doubles, exact literals).
_POW2_60 = "array(" + ", ".join(_double(2.0 ** (60 * a)) for a in range(-17, 18)) + ")"


def _scaled(x: str, k: str, as_double: bool = False) -> str:
    """SQL for ``x × 2^-k`` as a ``bigint``, exact for the ``x``, ``k`` above (``-k`` in
    ``[-971, 1074]``): ``-k = 60a + b`` with ``b = pmod(-k, 60)``, and ``(x × 2^(60a)) × 2^b``,
    the first power from a 35-entry literal array, the second ``shiftleft(1L, b)`` as a double.
    Both products are exact (module docstring). ``a`` is clamped to the table, so a branch
    Spark evaluates for a row it then discards cannot index outside it.

    Why not one table of every power (``2^-971 .. 2^1023``, this module's first form): a
    1,995-entry literal array in the generated code made the whole weighted aggregate about 1.8×
    slower at 1e7 rows (docs/benchmarks.md); ``pow(2, -k)`` is ``StrictMath.pow``, slower still."""
    n = f"(-({k}))"
    b = f"CAST(pmod({n}, 60) AS INT)"
    a = f"CAST(least(greatest(({n} - pmod({n}, 60)) div 60, -17), 17) + 18 AS INT)"
    product = f"{x} * element_at({_POW2_60}, {a}) * CAST(shiftleft(1L, {b}) AS DOUBLE)"
    return f"({product})" if as_double else f"CAST({product} AS BIGINT)"


def counting_frame(selected: Any, cols: AuditColumns, float_labels: set,
                   by_score: bool = False) -> Any:
    """The aggregate: one row per (label, prediction, sensitive values, key) with the row count
    and, when weighted, the limb sums of the mantissas (layout: ``_core.COUNT_LAYOUT``).

    ``by_score``: grouped by the score too (its value ``+ 0.0``, so ``-0.0`` and ``0.0`` are one
    score, as in the sweep, under the score column's name): the rates and the score sweep's
    cells from one aggregate, when the scores take few distinct values.

    Built from SQL text (a handful of calls into the JVM, not one per literal and operator)."""
    from pyspark.sql import functions as F

    L = _LAYOUT
    # The LL144 tables count no label (and a scoring tool no prediction either).
    label_cols = tuple(c for c in (cols.label, cols.pred) if c is not None)
    names = [_q(c) for c in (*label_cols, *cols.sensitive)]
    keys = list(names)
    extra = []
    if cols.score is not None:
        extra.append(f"CAST({_q(cols.score)} AS DOUBLE) AS __fk_s")
    if by_score:
        # The score first: grouping by the same keys with the double last was ~1.4x slower
        # (4.3 s against 3.1 s at 1e7 rows, 96k groups; docs/benchmarks.md).
        names.insert(0, _q(cols.score))
        keys.insert(0, f"CAST({_q(cols.score)} AS DOUBLE) + 0.0D AS {_q(cols.score)}")
    if cols.weight is not None:
        extra.append(f"CAST({_q(cols.weight)} AS DOUBLE) AS __fk_w")
    frame = selected.selectExpr(*keys, *extra)
    checks = []  # (condition, code): any of them sends the audit down the row path
    if cols.weight is not None:
        checks.append((f"(__fk_w IS NULL OR isnan(__fk_w) OR __fk_w < 0 OR __fk_w = {_INF})",
                       L["bad_weight"]))
    if cols.score is not None:
        checks.append((f"(__fk_s IS NULL OR isnan(__fk_s) OR abs(__fk_s) = {_INF})",
                       L["bad_score"]))
    for c in label_cols:
        if c in float_labels:
            # -0.0: equal to 0.0 for groupBy, another value for the label coder. 1 / -0.0 is
            # -inf, but Spark's division refuses zero and its atan2 adds 0.0 to its arguments;
            # pow(-0.0, -1) is -inf (StrictMath.pow, no normalisation).
            checks.append((f"({_q(c)} = 0 AND pow({_q(c)}, -1D) < 0)",
                           L["negative_zero_label"]))
    aggs = [f"count(1) AS {L['rows']}"]
    mantissas, split = [], []
    if cols.weight is not None:
        positive = f"(__fk_w > 0 AND __fk_w < {_INF})"  # false for 0, NaN, +inf, <0, null
        # The aggregate by score groups by a coarse exponent (fewer groups: 2.8 s against 3.2 s
        # at 1e7 rows and 96k groups); the rates' few groups are faster with the fine one and
        # no split (1.34-1.41 s against 1.45-1.56 s): docs/benchmarks.md.
        step = L["key_step"] if by_score else 1
        fine = "floor(log2(__fk_w)) - 53"
        scale = fine if step == 1 else f"{step} * floor(({fine}) / {step})"
        frame = frame.selectExpr(
            "*", f"CAST(CASE WHEN {positive} THEN greatest({scale}, -1074) "
                 "ELSE 0 END AS BIGINT) AS __fk_kw")
        kq = "greatest(2 * __fk_kw + 52, -1074)"
        infinite = f"(__fk_w * __fk_w = {_INF})"
        key = (f"CASE WHEN {positive} AND {infinite} THEN __fk_kw + {L['infinite_square']} "
               "ELSE __fk_kw END")
        low, bits = (1 << L["low_bits"]) - 1, L["low_bits"]
        squared = f"{positive} AND NOT {infinite}"
        mantissas = [
            f"CASE WHEN {positive} THEN {_scaled('__fk_w', '__fk_kw')} ELSE 0L END AS __fk_mw"]
        if step == 1:  # mq < 2^59: a bigint
            mantissas.append(f"CASE WHEN {squared} THEN {_scaled('(__fk_w * __fk_w)', kq)} "
                             "ELSE 0L END AS __fk_mq")
        else:
            # mq < 2^73 as an integer-valued double, split exactly: its bits from 2^62 up, then
            # the rest (< 2^62) as a bigint.
            mantissas.append(f"CASE WHEN {squared} THEN "
                             f"{_scaled('(__fk_w * __fk_w)', kq, True)} ELSE 0D END AS __fk_dq")
            top = f"floor(__fk_dq / {_double(2.0 ** (2 * bits))})"
            split = [
                "__fk_mw", f"CAST({top} AS BIGINT) AS __fk_qt",
                f"CAST(__fk_dq - {top} * {_double(2.0 ** (2 * bits))} AS BIGINT) AS __fk_mq",
            ]
            aggs.append(f"try_sum(__fk_qt) AS {L['square_top']}")
        for (hi, lo), m in (((L["weight_high"], L["weight_low"]), "__fk_mw"),
                            ((L["square_high"], L["square_low"]), "__fk_mq")):
            aggs.append(f"try_sum(shiftright({m}, {bits})) AS {hi}")
            aggs.append(f"try_sum({m} & {low}) AS {lo}")
    elif checks:
        key = "0L"
    else:
        return frame.groupBy(*names).agg(*[F.expr(a) for a in aggs])
    for cond, code in reversed(checks):
        key = f"CASE WHEN {cond} THEN {code}L ELSE {key} END"
    # The mantissas in a projection of their own: each computed once per row, not once per
    # aggregate that reads it.
    frame = frame.selectExpr(*names, f"{key} AS {L['key']}", *mantissas)
    if split:
        frame = frame.selectExpr(*names, L["key"], *split)
    return frame.groupBy(*names, L["key"]).agg(*[F.expr(a) for a in aggs])


def _collect(frame: Any) -> list:
    """The aggregate's rows on the driver, as pyarrow batches (collected by the JVM)."""
    if hasattr(frame, "toArrow"):  # pyspark >= 4.0
        return frame.toArrow().to_batches()
    return frame._collect_as_arrow()  # pyspark 3.5: the same Arrow collection, not yet public


def counted_state(selected: Any, cols: AuditColumns) -> tuple[Optional[bytes], str]:
    """The audit state counted by Spark SQL, or ``(None, why)`` when the rows hold something the
    row path must name (or the data is empty)."""
    from pyspark.sql.types import DoubleType, FloatType

    types = {f.name: f.dataType for f in selected.schema.fields}
    float_labels = {c for c in (cols.label, cols.pred)
                    if isinstance(types.get(c), (FloatType, DoubleType))}
    batches = _collect(counting_frame(selected, cols, float_labels))
    return _state_of(batches, cols)


def _state_of(batches: list, cols: AuditColumns) -> tuple[Optional[bytes], str]:
    """The audit state of an aggregate's batches (see :func:`counted_state`)."""
    if not sum(b.num_rows for b in batches):
        return None, "no rows"
    state = _core.CountedState(cols.label, cols.pred, list(cols.sensitive),
                               cols.weight is not None, label_text(cols.pos_label),
                               label_text(cols.neg_label), cols.unknowns,
                               list(cols.unknown_values), cols.lead)
    for batch in batches:
        why = state.add(batch)
        if why is not None:
            return None, why
    return bytes(state.to_bytes()), ""


def few_scores(selected: Any, cols: AuditColumns) -> bool:
    """Whether the scores look few enough for :func:`counted_with_scores`: among the first
    ``PROBE_ROWS`` rows (a job that reads only the first partitions), at most
    ``PROBE_DISTINCT`` of them distinct. Only speed depends on it: both paths are exact, and
    ``counted_with_scores`` still gives up above ``SCORE_CELLS_LIMIT`` cells."""
    from pyspark.sql import functions as F

    row = (selected.select(cols.score).limit(PROBE_ROWS)
           .agg(F.count(F.lit(1)), F.approx_count_distinct(cols.score)).collect()[0])
    return int(row[0]) > 0 and int(row[1]) <= PROBE_DISTINCT * int(row[0])


def _counted_cells(selected: Any, cols: AuditColumns, limit: Optional[int]) -> tuple:
    """The aggregate grouped by the score column too, on the driver: ``(state, CountedScores,
    "")`` — the state byte for byte the row path's — or ``(None, None, why)`` when it has more
    than ``limit`` rows or holds something the other paths must handle."""
    from pyspark.sql.types import DoubleType, FloatType

    types = {f.name: f.dataType for f in selected.schema.fields}
    float_labels = {c for c in (cols.label, cols.pred)
                    if isinstance(types.get(c), (FloatType, DoubleType))}
    frame = counting_frame(selected, cols, float_labels, by_score=True)
    if limit is not None:
        frame = frame.limit(int(limit) + 1)
    batches = _collect(frame)
    if limit is not None and sum(b.num_rows for b in batches) > limit:
        return None, None, f"more than {limit} (score, group, label, prediction) cells"
    state, why = _state_of(batches, cols)
    if state is None:
        return None, None, why
    names, negative, _ = _core.state_info(state)
    acc = _core.CountedScores(cols.label, cols.score, list(cols.sensitive),
                              cols.weight is not None, list(names), label_text(cols.pos_label),
                              negative, cols.unknowns, list(cols.unknown_values))
    for batch in batches:
        why = acc.add(batch)
        if why is not None:
            return None, None, why
    return state, acc, ""


def counted_with_scores(selected: Any, cols: AuditColumns, interval: tuple,
                        limit: Optional[int]) -> tuple[Optional[bytes], Optional[tuple], str]:
    """The audit state and the score metrics from one Spark SQL aggregate grouped by the score
    too, the score sweep run on the driver (``fair_metrics::score_sweep::sweep_counted``):
    ``(state, (segment, totals), "")`` — the state byte for byte the row path's, the segment
    and totals the range-partitioned sweep's — or ``(None, None, why)`` when the aggregate has
    more than ``limit`` rows or holds something the other paths must handle."""
    state, acc, why = _counted_cells(selected, cols, limit)
    if state is None:
        return None, None, why
    segment, totals = acc.sweep(list(_core.state_info(state)[0]), interval, len(cols.sensitive))
    return state, (bytes(segment), bytes(totals)), ""


def range_sql(score: str, cuts: list) -> str:
    """SQL for the score range number of a row: 0 for scores ``>= cuts[0]``, ``r`` for
    ``cuts[r-1] > score >= cuts[r]``, ``len(cuts)`` below ``cuts[-1]`` (``cuts`` descending;
    equal scores always share a range), by a balanced tree of comparisons. ``-0.0`` is ``0.0``."""
    s = f"(CAST({_q(score)} AS DOUBLE) + 0.0D)"

    def tree(lo: int, hi: int) -> str:
        if lo == hi:
            return str(lo)
        mid = (lo + hi) // 2  # ranges lo..mid hold the scores >= cuts[mid]
        return f"CASE WHEN {s} >= {_double(cuts[mid])} THEN {tree(lo, mid)} " \
               f"ELSE {tree(mid + 1, hi)} END"

    return f"CAST({tree(0, len(cuts))} AS INT)"


def counted_ranges(selected: Any, cols: AuditColumns,
                   cuts: list) -> tuple[Optional[bytes], Optional[dict], str]:
    """The audit state and every score range's exact totals (``{range: totals bytes}``) from
    one Spark SQL aggregate grouped by the range number (:func:`range_sql`) in place of the
    score: the range sweep then needs no totals pass over the rows. A missing or non-finite
    score keeps its value, so the aggregate flags it as it flags a bad score. ``(None, None,
    why)`` as :func:`counted_state`."""
    s = f"CAST({_q(cols.score)} AS DOUBLE)"
    bad = f"({s} IS NULL OR isnan({s}) OR abs({s}) = {_INF})"
    ranged = selected.selectExpr(
        *[_q(c) for c in selected.columns if c != cols.score],
        f"CASE WHEN {bad} THEN {s} ELSE CAST({range_sql(cols.score, cuts)} AS DOUBLE) END "
        f"AS {_q(cols.score)}")
    state, acc, why = _counted_cells(ranged, cols, None)
    if state is None:
        return None, None, why
    return state, {int(r): bytes(t) for r, t in acc.totals_by_score()}, ""
