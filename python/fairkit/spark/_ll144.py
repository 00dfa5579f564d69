"""``fairkit.spark.ll144``: the NYC Local Law 144 tables of a Spark DataFrame, counted by Spark
SQL (docs/spark.md, "LL144 tables"; docs/ll144.md).

The rows never leave the JVM. One aggregate — ``fairkit.spark.audit``'s count
(:func:`fairkit.spark._counts.counting_frame`: ``bigint`` row counts and exact mantissa limb sums
of the weights), grouped by the sex, race and selected values as they are — gives every sex ×
race pair's exact sums; the driver runs the command's decoder over the aggregate rows
(``_core.Ll144Counted``). For a scoring tool the same aggregate groups by the score too (few
distinct scores), or by score range (the ranges of ``fairkit.spark.audit``'s score sweep: cut by
a seeded sample, numbered by :func:`fairkit.spark._counts.range_sql`); the range holding the
median is then aggregated again, by score or by finer ranges, until the median's order
statistics are single scores. The median and each pair's count strictly above it are exact
(``fair_metrics::distribution::MedianSweep``), so the tables equal ``fairkit.ll144``'s and the
command's bit for bit, whatever the partitioning.

Anything the aggregate flags (a missing, negative or non-finite weight, a non-finite score, a
null or third selected value, ``-0.0``) sends the rows through the command's decoder on the
executors (``mapInArrow``), which raises its message naming the partition, row and column.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from fairkit._core import FairkitError, Ll144Counted, Ll144Rows
from fairkit._ll144 import Ll144Result, _label_text
from fairkit.spark._arrow import AuditColumns, _origin
from fairkit.spark._counts import (SCORE_CELLS_LIMIT, _INF, _collect, _double, _q,
                                   counting_frame, few_scores, range_sql)

# A refinement that does not reach single scores in this many rounds is a bug, not data.
_MAX_ROUNDS = 64


def _check_schema(schema, settings: dict) -> None:
    """Missing columns and wrong types, before any job: the Spark schema as Arrow, checked by
    the command's decoder."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type

    fields = []
    for f in schema.fields:
        try:
            t = to_arrow_type(f.dataType)
        except Exception:  # noqa: BLE001 - any type Arrow cannot hold
            t = pa.null()
        fields.append(pa.field(f.name, t))
    Ll144Rows(settings, "the DataFrame").check(
        pa.RecordBatch.from_pylist([], schema=pa.schema(fields)))


def _row_check(selected: Any, settings: dict) -> None:
    """Every row through the command's decoder on its executor: the first bad value raises its
    message (``Spark partition 3: row 17, column 'w': ...``)."""
    import pyarrow as pa

    def per_partition(batches: Iterable):
        rows = Ll144Rows(settings, _origin())
        for batch in batches:
            if batch.num_rows:
                rows.update(batch)
        yield pa.RecordBatch.from_arrays([pa.array([0], pa.int32())], names=["ok"])

    selected.mapInArrow(per_partition, "ok int").collect()


def _add_all(acc: Ll144Counted, frame: Any, cells: bool, piece: Optional[str] = None,
             cuts: Optional[list] = None, bounds: tuple = (float("-inf"), float("inf")),
             limit: Optional[int] = None) -> tuple[bool, str]:
    """The aggregate's rows added to ``acc``: ``(True, "")``, or ``(False, why)`` when it has
    more than ``limit`` rows or holds a value the row check must name."""
    if limit is not None:
        frame = frame.limit(int(limit) + 1)
    batches = _collect(frame)
    if limit is not None and sum(b.num_rows for b in batches) > limit:
        return False, f"more than {limit} cells"
    for batch in batches:
        why = acc.add(batch, cells, piece, cuts, bounds)
        if why is not None:
            return False, why
    return True, ""


def _ranged(frame: Any, cols: AuditColumns, cuts: list) -> Any:
    """``frame`` with the score replaced by its range number (a bad score kept, so the
    aggregate flags it), as ``fairkit.spark.audit``'s range count does."""
    s = f"CAST({_q(cols.score)} AS DOUBLE)"
    bad = f"({s} IS NULL OR isnan({s}) OR abs({s}) = {_INF})"
    return frame.selectExpr(
        *[_q(c) for c in frame.columns if c != cols.score],
        f"CASE WHEN {bad} THEN {s} ELSE CAST({range_sql(cols.score, cuts)} AS DOUBLE) END "
        f"AS {_q(cols.score)}")


def _within(frame: Any, score: str, lo: float, hi: float) -> Any:
    """The rows scored ``lo <= s < hi`` (an infinite bound is no bound)."""
    s = f"(CAST({_q(score)} AS DOUBLE) + 0.0D)"
    conditions = []
    if lo != float("-inf"):
        conditions.append(f"{s} >= {_double(lo)}")
    if hi != float("inf"):
        conditions.append(f"{s} < {_double(hi)}")
    return frame.where(" AND ".join(conditions)) if conditions else frame


def _count_scores(acc: Ll144Counted, selected: Any, cols: AuditColumns, ranges: int,
                  limit: int) -> tuple[bool, str]:
    """The pairs' cells and the score pieces, the range holding the median refined until the
    median is found (module docstring)."""
    from fairkit.spark import _score_cuts

    by_score = lambda frame: counting_frame(frame, cols, set(), by_score=True)  # noqa: E731
    if few_scores(selected, cols):
        ok, why = _add_all(acc, by_score(selected), True, cols.score, limit=limit)
        if ok or not why.startswith("more than"):
            return ok, why
    cuts = _score_cuts(selected, cols, ranges)
    ok, why = _add_all(acc, by_score(_ranged(selected, cols, cuts)), True, cols.score, cuts)
    if not ok:
        return ok, why
    for _ in range(_MAX_ROUNDS):
        found = acc.locate()
        if found is None:
            return True, ""
        lo, hi = found
        acc.split(lo, hi)
        part = _within(selected, cols.score, lo, hi)
        ok, why = _add_all(acc, by_score(part), False, cols.score, bounds=(lo, hi), limit=limit)
        if ok:
            continue
        if not why.startswith("more than"):
            return ok, why
        sub = [c for c in _score_cuts(part, cols, ranges) if lo <= c < hi]
        ok, why = _add_all(acc, by_score(_ranged(part, cols, sub)), False, cols.score, sub,
                           bounds=(lo, hi))
        if not ok:
            return ok, why
    raise FairkitError(f"the median's score range was not narrowed to single scores in "
                       f"{_MAX_ROUNDS} rounds")


def ll144(
    df: Any,
    *,
    sex: str,
    race: str,
    selected: Optional[str] = None,
    score: Optional[str] = None,
    selected_value: Any = 1,
    weight: Optional[str] = None,
    unknown_values: Sequence[str] = ("",),
    exclude_below: Optional[float] = 0.02,
    data_source: Optional[str] = None,
    audit_date: Optional[str] = None,
    confidence: float = 0.95,
    score_partitions: Optional[int] = None,
    _cells_limit: int = SCORE_CELLS_LIMIT,
) -> Ll144Result:
    """The NYC Local Law 144 tables of a Spark DataFrame, computed by Spark SQL (no row is
    collected): the same :class:`fairkit.Ll144Result` as :func:`fairkit.ll144` on the same rows,
    its tables equal to the last bit, whatever the partitioning.

    Arguments are :func:`fairkit.ll144`'s (``selected=`` a 0/1 column of a tool that selects,
    or ``score=`` a tool that scores: the share strictly above the whole sample's median;
    ``unknown_values``, ``exclude_below``, ``weight``, ...), checked by the command's one check
    before any job. ``score_partitions``: the number of score ranges of a scoring tool's first
    aggregate (default: the DataFrame's partitions).

    Examples
    --------
    >>> import fairkit.spark
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()  # doctest: +SKIP
    >>> df = spark.createDataFrame(
    ...     [("F", "A", 1), ("F", "B", 0), ("M", "A", 1), ("M", "B", 1)] * 25,
    ...     ["sex", "race", "hired"])  # doctest: +SKIP
    >>> r = fairkit.spark.ll144(df, sex="sex", race="race", selected="hired")  # doctest: +SKIP
    >>> r.sex[["category", "selection_rate", "impact_ratio"]].values.tolist()  # doctest: +SKIP
    [['F', 0.5, 0.5], ['M', 1.0, 1.0]]
    """
    try:
        from pyspark.sql import DataFrame
    except ImportError as e:  # pragma: no cover - pyspark is a test requirement
        raise FairkitError("fairkit.spark.ll144 needs pyspark: pip install 'fairkit[spark]'") from e
    if not isinstance(df, DataFrame):
        raise FairkitError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__} "
                           "(use fairkit.ll144 for files, pandas, polars or pyarrow data)")
    if (selected is None) == (score is None):
        raise FairkitError("name exactly one of selected= (a tool that selects, a 0/1 column) "
                           "and score= (a tool that scores)")
    settings = dict(sex=sex, race=race, selected=selected, score=score, weight=weight,
                    selected_value=_label_text(selected_value) if selected is not None else None,
                    unknown_values=[str(u) for u in unknown_values],
                    exclude_below=exclude_below, data_source=data_source,
                    audit_date=audit_date, confidence=confidence)
    acc = Ll144Counted(settings)  # every setting checked here, before any job
    _check_schema(df.schema, settings)
    cols = AuditColumns(None, selected, (sex, race), score, weight)
    frame = df.select(*dict.fromkeys(c for c in (sex, race, selected, score, weight)
                                     if c is not None))
    from fairkit.spark import _ranges, _rethrow

    try:
        if score is None:
            ok, why = _add_all(acc, counting_frame(frame, cols, _float_columns(frame, cols)),
                               True)
        else:
            ok, why = _count_scores(acc, frame, cols, _ranges(frame, score_partitions),
                                    int(_cells_limit))
        if not ok:
            # Only detected by the count: the decoder names the bad row.
            _row_check(frame, settings)
            raise FairkitError(f"the Spark SQL count cannot use these rows: {why}")
        return Ll144Result(acc.tables("Spark DataFrame"))
    except FairkitError:
        raise
    except Exception as e:  # noqa: BLE001 - Spark wraps executor errors in its own types
        _rethrow(e)
        raise


def _float_columns(frame: Any, cols: AuditColumns) -> set:
    """The selection column when it is floating point (its ``-0.0`` is flagged)."""
    from pyspark.sql.types import DoubleType, FloatType

    types = {f.name: f.dataType for f in frame.schema.fields}
    return {c for c in (cols.pred,) if c is not None
            and isinstance(types.get(c), (FloatType, DoubleType))}
