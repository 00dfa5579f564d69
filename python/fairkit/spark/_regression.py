"""The audit of a numeric prediction (``fairkit.audit(spark_df, target=..., pred=...)``) on
Spark, without collecting the rows (docs/spark.md, "Regression audits"):

1. cuts: a seeded sample of the predictions, ``n - 1`` descending quantiles (``_score_cuts``,
   the score audit's: only how even the ranges are depends on it);
2. one pass over the rows (``mapInArrow``): each partition's rows decoded by the command's
   decoder (``_core.spark.RegressionPart``) into exact regression sums per prediction range
   and the lowest prediction of each; the sums merged per range on the executors
   (``reduceByKey``), so the driver receives one small state per range;
3. driver: the sums of all rows (every per-group metric) and, per range, the exact totals of the
   ranges above it and their lowest prediction;
4. one shuffle that gives each range a partition (the score audit's keys); each range's
   predictions sorted and swept there from the totals above (``sweep_segment``), one segment
   per range back to the driver;
5. driver: the segments merged from the top and the command's report built
   (``_core.spark.regression_document``, ``fair_audit::run``).

The driver holds ``ranges × groups`` exact sums and ``ranges`` segments of ``O(groups²)``
numbers, never rows; each range must fit in its executor's memory (about 16 bytes a row).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

import pyarrow as pa

from fairkit._core import FairkitError
from fairkit._core import spark as _core

_PART_SCHEMA = "range int, lowest double, sums binary"
_SEGMENT_SCHEMA = "range int, segment binary"
# The rows set aside as unknown (``unknowns="exclude"``) travel as range -1.
_SET_ASIDE = -1


class _Columns:
    """The columns of a regression audit, as the executors need them."""

    def __init__(self, target: str, pred: str, sensitive, weight: Optional[str],
                 unknowns: str, unknown_values) -> None:
        self.target = target
        self.pred = pred
        self.score = pred  # the sample of `_score_cuts` reads the prediction
        self.sensitive = tuple(sensitive)
        self.weight = weight
        self.unknowns = unknowns
        self.unknown_values = tuple(unknown_values)

    def part(self, origin: str, cuts=()) -> "_core.RegressionPart":
        return _core.RegressionPart(self.target, self.pred, list(self.sensitive), self.weight,
                                    origin, self.unknowns, list(self.unknown_values),
                                    list(cuts))


def _origin() -> str:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return f"Spark partition {ctx.partitionId()}" if ctx is not None else "Spark partition"


def _first_pass(batches: Iterable[pa.RecordBatch], cols: _Columns, cuts: list):
    """``mapInArrow``: this partition's sums per range (and its set-aside rows)."""
    part = cols.part(_origin(), cuts)
    rows = 0
    for batch in batches:
        if batch.num_rows:
            part.update(batch)
            rows += batch.num_rows
    set_aside, ranges = part.parts()
    # The set-aside row carries the partition's row count (set-aside rows included) for the
    # report's input.rows; a double holds it exactly below 2^53.
    yield pa.RecordBatch.from_arrays(
        [pa.array([_SET_ASIDE] + [r for r, _, _ in ranges], pa.int32()),
         pa.array([float(rows)] + [low for _, low, _ in ranges], pa.float64()),
         pa.array([bytes(set_aside)] + [bytes(s) for _, _, s in ranges], pa.binary())],
        names=["range", "lowest", "sums"])


def _sweep_ranges(batches: Iterable[pa.RecordBatch], cols: _Columns, names: list,
                  n_sensitive: int, quantile: float, totals: bytes, above: dict,
                  previous: dict, range_column: str):
    """``mapInArrow`` after the shuffle: each range's predictions swept from the totals above."""
    import pyarrow.compute as pc

    parts: dict = {}
    origin = _origin()
    for batch in batches:
        if not batch.num_rows:
            continue
        ranges = batch.column(range_column)
        rows = batch.drop_columns([range_column])
        present = pc.unique(ranges).to_pylist()
        for r in present:
            piece = rows if len(present) == 1 else rows.filter(pc.equal(ranges, r))
            if r not in parts:
                parts[r] = cols.part(origin)
                parts[r].freeze_groups(list(names))
            parts[r].keep(piece)
    done = sorted(r for r in parts if r in above)
    yield pa.RecordBatch.from_arrays(
        [pa.array(done, pa.int32()),
         pa.array([bytes(parts[r].sweep(list(names), n_sensitive, quantile, totals, above[r],
                                        previous[r])) for r in done], pa.binary())],
        names=["range", "segment"])


def _merge_parts(a: tuple, b: tuple) -> tuple:
    """Two partitions' ``(range, lowest, sums)`` of one range, or ``(-1, rows, set-aside
    state)``."""
    if a[0] == _SET_ASIDE:
        return a[0], a[1] + b[1], bytes(_core.merge_states(a[2], b[2]))
    return a[0], min(a[1], b[1]), bytes(_core.merge_regression(a[2], b[2]))


def audit_regression(df: Any, request: dict, options: dict, n_ranges: Optional[int]):
    """The report of the regression audit of ``df`` (a checked ``request``), swept on Spark."""
    from fairkit.spark import _partition_keys, _ranges, _rethrow, _score_cuts
    from fairkit.spark._arrow import RANGE
    from fairkit.spark._counts import range_sql
    from fairkit.spark._result import AuditResult
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import to_arrow_type

    cols = _Columns(request["target"], request["pred"], request["sensitive"], request["weight"],
                    request["unknowns"], request["unknown_values"])
    names = [cols.target, cols.pred, *cols.sensitive, *([cols.weight] if cols.weight else [])]
    missing = [n for n in names if n not in df.columns]
    if missing:
        raise FairkitError(f"the DataFrame has no column {missing[0]!r}; its columns: "
                           f"{', '.join(df.columns)}")
    selected = df.select(*dict.fromkeys(names))
    # Wrong types: the decoder's check on the schema, before any job.
    fields = []
    for f in selected.schema.fields:
        try:
            t = to_arrow_type(f.dataType)
        except Exception:  # noqa: BLE001 - any type Arrow cannot hold
            t = pa.null()
        fields.append(pa.field(f.name, t))
    cols.part("the DataFrame").check(pa.RecordBatch.from_pylist([], schema=pa.schema(fields)))
    try:
        n = _ranges(selected, n_ranges)
        cuts = _score_cuts(selected, cols, n)
        weighted = cols.weight is not None
        merged = dict(
            selected.mapInArrow(lambda it: _first_pass(it, cols, cuts), _PART_SCHEMA)
            .rdd.map(lambda r: (int(r[0]), (int(r[0]), float(r[1]), bytes(r[2]))))
            .reduceByKey(_merge_parts, numPartitions=max(1, min(n, 64)))
            .mapValues(lambda v: v[1:])
            .collect())
        if _SET_ASIDE not in merged:  # a DataFrame without partitions
            raise FairkitError("the DataFrame: the data is empty (no data rows); an audit "
                               "needs at least one data row")
        read_rows, set_aside = merged.pop(_SET_ASIDE)
        read_rows = int(read_rows)
        kept = sorted(merged)
        if kept:
            total = merged[kept[0]][1]
            for r in kept[1:]:
                total = bytes(_core.merge_regression(total, merged[r][1]))
            group_names, _ = _core.regression_names(total)
        else:
            group_names = []
        if read_rows == 0:
            raise FairkitError("the DataFrame: the data is empty (no data rows); an audit needs "
                               "at least one data row")
        segments = []
        if kept:
            totals = bytes(_core.regression_totals(total, group_names, weighted))
            above, previous = {}, {}
            running, lowest = None, None
            for r in kept:
                above[r] = (bytes(_core.regression_totals(running, group_names, weighted))
                            if running is not None else
                            bytes(_core.regression_totals(merged[r][1], [], weighted)))
                previous[r] = lowest
                running = (merged[r][1] if running is None
                           else bytes(_core.merge_regression(running, merged[r][1])))
                lowest = merged[r][0]
            keyed = selected.withColumn(RANGE, F.expr(range_sql(cols.pred, cuts)))
            keys = F.array(*[F.lit(k) for k in _partition_keys(selected.sparkSession, n)])
            shuffled = keyed.repartition(n, F.element_at(keys, F.col(RANGE) + 1))
            quantile = request["quantile"]
            n_sensitive = len(cols.sensitive)
            swept = dict(shuffled.mapInArrow(
                lambda it: _sweep_ranges(it, cols, group_names, n_sensitive, quantile, totals,
                                         above, previous, RANGE),
                _SEGMENT_SCHEMA).collect())
            segments = [bytes(swept[r]) for r in kept]
        source = _RegressionSource(set_aside, total if kept else None, segments, request,
                                   read_rows)
        json = source.render(["json"])["json"]
    except FairkitError:
        raise
    except Exception as e:  # noqa: BLE001 - Spark wraps executor errors in its own types
        _rethrow(e)
    return AuditResult(json, source)


class _RegressionSource:
    """What a Spark regression audit's report is built from (merged bytes, never rows)."""

    def __init__(self, set_aside: bytes, sums: Optional[bytes], segments: list, request: dict,
                 rows: int) -> None:
        self.set_aside, self.sums, self.segments = set_aside, sums, segments
        self.request, self.rows = request, rows

    def render(self, views: list) -> dict:
        return _core.regression_document(self.set_aside, self.sums, self.segments,
                                         self.request, ("Spark DataFrame", "spark"), self.rows,
                                         list(views))
