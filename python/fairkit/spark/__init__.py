"""fairkit on Apache Spark: the exact fairness audit of a Spark DataFrame, on Spark's own engine.

:func:`audit` counts the rates with one Spark SQL aggregate (``bigint`` row counts and exact
mantissa sums of the weights: no row leaves the JVM; ``_counts.py``) and rebuilds on the driver
the exact mergeable state of ``fair_metrics::state`` — per-group confusion cells (row counts;
exact weight sums) — that the row-by-row path builds: each partition's Arrow batches sent to the
Rust core through ``mapInArrow`` (no row-by-row Python, no pandas on the executors) and folded
there, the states merged with a tree-reduce. The row path runs for data the count finds
irregular (its decoder names the bad row). With a score column, few distinct scores are swept
from the same aggregate grouped by score; many are swept per score range on the executors after
one shuffle (the ranges' totals from the aggregate grouped by range). Either way the driver
computes the same :class:`fairkit.AuditResult` that :func:`fairkit.audit` computes on one
machine from a pyarrow Table or pandas DataFrame: equal to the last bit, whatever the partitioning.

Needs ``pyspark>=3.5`` and ``pyarrow`` (the ``spark`` extra: ``pip install fairkit[spark]``) and
a Java runtime for Spark. See docs/spark.md for the exactness argument and the costs.

>>> import pandas as pd
>>> import fairkit
>>> df = pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0], "g": ["a", "a", "b", "b"]})
>>> r = fairkit.audit(df, label="y", pred="p", sensitive=["g"])
>>> r.rate("selection_rate")
{'a': 0.5, 'b': 0.0}
"""

from __future__ import annotations

import re
import warnings
from dataclasses import replace
from typing import Any, Iterable, Optional, Sequence

from fairkit._core import FairkitError
from fairkit._core import spark as _core
from fairkit.spark._arrow import (
    RANGE, AuditColumns, partition_states, score_decoder, score_range_segments,
    score_range_totals,
)
from fairkit.spark._counts import (SCORE_CELLS_LIMIT, _collect, counted_ranges, counted_state,
                                   counted_with_scores, few_scores, range_sql)
# Private here: the public name is fairkit.AuditResult (the old fairkit.spark.AuditResult warns,
# see __getattr__).
from fairkit.spark._result import AuditResult as _Result
from fairkit.spark._result import _AuditSource
from fairkit.spark._transform import transform_batches

from fairkit.spark._ll144 import ll144

__all__ = ["audit", "fit", "ll144", "transform"]

_STATE_SCHEMA = "confusion binary"


def _columns(label, pred, sensitive, score, weight, pos_label, neg_label,
             inferred: bool = False) -> AuditColumns:
    if isinstance(sensitive, str):
        sensitive = [sensitive]
    sensitive = tuple(sensitive or ())
    # An audit of inferred attributes (sensitive_proba=) may have no observed column.
    if not sensitive and not inferred:
        raise FairkitError("sensitive is empty: name at least one sensitive-feature column")
    for what, name in [("label", label), ("pred", pred), ("score", score), ("weight", weight)]:
        if name is not None and not isinstance(name, str):
            raise FairkitError(f"{what} must be a column name (str), got {type(name).__name__}")
    for s in sensitive:
        if not isinstance(s, str):
            raise FairkitError(f"sensitive must list column names (str), got {s!r}")
    return AuditColumns(label, pred, sensitive, score, weight, pos_label, neg_label)


#: The audit request's defaults: the ``fairkit audit`` command's (``fair_audit::request``), the
#: one source of truth of the keyword arguments' defaults below.
_DEFAULTS = _core.audit_defaults()


def _request(cols: AuditColumns, confidence, ci_method, n_resamples, seed, partial_interval,
             min_group_size, max_groups, allow_single_group, by, window, baseline,
             against, timezone=None, target=None, quantile=None,
             multiple_testing=None, unknowns=None, unknown_values=None,
             disparity_reference=None, tau=None, sensitive_proba=None, proxy=None) -> dict:
    """The audit request (``fair_audit::request::AuditRequest`` keys), checked by the library's
    one check before any row is read: a bad value raises :class:`FairkitError` naming the keyword
    argument, with the message ``fairkit audit`` gives for the same value."""
    if isinstance(partial_interval, tuple):
        partial_interval = list(partial_interval)
    request = {
        "label": cols.label, "pred": cols.pred, "score": cols.score, "weight": cols.weight,
        "sensitive": list(cols.sensitive), "confidence": confidence, "ci_method": ci_method,
        "resamples": n_resamples, "seed": seed, "interval": partial_interval,
        "min_group_size": min_group_size, "max_groups": max_groups,
        "allow_single_group": allow_single_group, "by": by, "window": window,
        "baseline": baseline, "against": against, "timezone": timezone,
        "multiple_testing": (_DEFAULTS["multiple_testing"] if multiple_testing is None
                             else multiple_testing),
        "unknowns": _DEFAULTS["unknowns"] if unknowns is None else unknowns,
        "unknown_values": _unknown_values(unknown_values),
        # A string, a list of strings or a dict {slice: group}: Rust reads all three.
        "disparity_reference": (_DEFAULTS["disparity_reference"] if disparity_reference is None
                                else disparity_reference),
        "tau": _DEFAULTS["tau"] if tau is None else tau,
    }
    if sensitive_proba:
        # Inferred attributes: {attribute: [probability columns]} and the proxy column.
        request["sensitive_proba"] = {str(a): [str(c) for c in cols]
                                      for a, cols in dict(sensitive_proba).items()}
        request["proxy"] = proxy
    elif proxy is not None:
        request["proxy"] = proxy
    if target is not None:
        # A regression audit: the numeric target instead of a label (label stays empty).
        request["label"] = cols.label or ""
        request["target"] = target
        request["quantile"] = _DEFAULTS["quantile"] if quantile is None else quantile
    _core.check_request(request)
    return request


def _unknown_values(values) -> list:
    """``unknown_values=`` as the request's list of text values (one value alone is a list of
    one; a Python value is compared by its text, booleans as Arrow writes them)."""
    if values is None:
        return []
    if isinstance(values, (str, int, bool)):
        values = [values]
    out = []
    for v in values:
        if isinstance(v, bool):
            out.append("true" if v else "false")
        elif isinstance(v, (str, int)):
            out.append(str(v))
        else:
            raise FairkitError(f"unknown_values must list str or int values, got {v!r}")
    return out


def _with_unknowns(cols: AuditColumns, request: dict) -> AuditColumns:
    """The columns read with the checked request's handling of unknown sensitive values."""
    return replace(cols, unknowns=request["unknowns"],
                   unknown_values=tuple(request["unknown_values"]))


def _local_by(data, by: Optional[str], timezone: Optional[str]):
    """``data`` with a zoned timestamp ``by`` column moved to wall-clock time in ``timezone``
    (``fairkit audit --timezone``: an instant falls on its day where the business is); naive
    timestamps, dates and text are left as written (text with an offset is placed by the
    request's ``timezone`` in Rust)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if by is None or timezone is None or by not in data.schema.names:
        return data
    kind = data.schema.field(by).type
    if not (pa.types.is_timestamp(kind) and kind.tz is not None):
        return data
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    i = data.schema.get_field_index(by)
    try:
        local = pc.local_timestamp(data.column(i).cast(pa.timestamp(kind.unit, tz=timezone)))
    except Exception as e:  # noqa: BLE001 - pyarrow's time zone database is the OS's
        raise FairkitError(f"timezone={timezone!r}: pyarrow cannot convert {by!r} to it: {e}") from e
    return data.set_column(i, by, local)


def _spark_local_by(df, by: Optional[str], timezone: Optional[str]):
    """The Spark form of :func:`_local_by`: a ``TimestampType`` (an instant) ``by`` column
    becomes its day in ``timezone`` (UTC when not given), a ``DateType``, as the single-machine
    decoder reads a timestamp as its day: Spark's ``from_utc_timestamp`` moves the stored value
    to the zone's wall clock and the day is taken from that value by arithmetic, so the session
    time zone plays no part."""
    if by is None or by not in df.columns:
        return df
    from pyspark.sql import functions as F
    from pyspark.sql.types import TimestampType

    if not isinstance(df.schema[by].dataType, TimestampType):
        return df
    zone = timezone or "UTC"
    column = "`" + by.replace("`", "``") + "`"
    day = F.expr(f"date_from_unix_date(CAST(floor(unix_micros(from_utc_timestamp({column}, "
                 f"'{zone}')) / 86400000000) AS INT))")
    return df.withColumn(by, day)


def _check_groups(confusion: bytes, request: dict) -> None:
    """The command's group guard, before the score pass (which grows with the groups)."""
    _core.check_groups(confusion, request)


def _report(confusion: bytes, scores: Optional[tuple], cols: AuditColumns, request: dict,
            source: str, led: tuple = (None, None)) -> _Result:
    # The schema-v1 report is the result (`_result._render` is the one call that builds it).
    return _Result._from_source(_AuditSource(confusion, scores, cols, request, source, *led))


def _leads(cols: AuditColumns, request: dict) -> tuple:
    """The columns of the extra count states of ``by`` / ``against`` (a checked request): the
    same rows decoded with that column leading the finest groups (as ``fairkit audit --by`` /
    ``--against`` decode them), without the score."""
    leads = [(kind, request[kind]) for kind in ("by", "against") if request[kind] is not None]
    return tuple((kind, replace(cols, sensitive=(column, *cols.sensitive), score=None, lead=1))
                 for kind, column in leads)


def _led(states: dict) -> tuple:
    """The ``(by, against)`` lead states of the report."""
    return states.get("by"), states.get("against")


def _audit_arrow(
    data: Any,
    *,
    label: str,
    pred: str,
    sensitive: Sequence[str],
    score: Optional[str] = None,
    weight: Optional[str] = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    confidence: float = _DEFAULTS["confidence"],
    ci_method: str = _DEFAULTS["ci_method"],
    n_resamples: int = _DEFAULTS["resamples"],
    seed: int = _DEFAULTS["seed"],
    partial_interval: Optional[tuple] = _DEFAULTS["interval"],
    min_group_size: int = _DEFAULTS["min_group_size"],
    max_groups: Optional[int] = _DEFAULTS["max_groups"],
    allow_single_group: bool = _DEFAULTS["allow_single_group"],
    by: Optional[str] = None,
    window: str = _DEFAULTS["window"],
    baseline: str = _DEFAULTS["baseline"],
    against: Optional[str] = None,
    timezone: Optional[str] = None,
    multiple_testing: str = _DEFAULTS["multiple_testing"],
    unknowns: str = _DEFAULTS["unknowns"],
    unknown_values: Optional[Sequence[str]] = None,
    disparity_reference: Any = None,
    tau: float = _DEFAULTS["tau"],
) -> _Result:
    """The single-machine audit of a pyarrow Table / RecordBatch or a pandas DataFrame
    (:func:`fairkit.audit` calls it for every table in memory).

    Same arguments and result as :func:`audit` (minus Spark): the reference the Spark path equals
    bit for bit.
    """
    import pyarrow as pa

    cols = _columns(label, pred, sensitive, score, weight, pos_label, neg_label)
    request = _request(cols, confidence, ci_method, n_resamples, seed, partial_interval,
                       min_group_size, max_groups, allow_single_group, by, window, baseline,
                       against, timezone, multiple_testing=multiple_testing,
                       unknowns=unknowns, unknown_values=unknown_values,
                       disparity_reference=disparity_reference, tau=tau)
    cols = _with_unknowns(cols, request)
    leads = _leads(cols, request)
    interval = None if request["interval"] is None else tuple(request["interval"])
    if not isinstance(data, (pa.Table, pa.RecordBatch)):
        try:
            data = pa.Table.from_pandas(data, preserve_index=False)
        except Exception as e:  # noqa: BLE001 - any conversion failure is a user input problem
            raise FairkitError(
                f"data must be a pandas or polars DataFrame, a pyarrow Table, RecordBatch or "
                f"RecordBatchReader, or a Spark DataFrame: {e}"
            ) from e
    data = _local_by(data, by, request["timezone"])
    batches = data.to_batches() if isinstance(data, pa.Table) else [data]
    state = cols.state("Arrow table")
    # The columns and their types, checked by the decoder before any row (also with no rows).
    state.check(pa.RecordBatch.from_pylist([], schema=data.schema))
    for batch in batches:
        if batch.num_rows:
            state.update(batch)
    confusion = bytes(state.to_bytes())
    scores = None
    names, negative, rows = _core.state_info(confusion)
    if not rows:
        # The command's wording for a file without data rows.
        raise FairkitError("Arrow table: the data is empty (no data rows); an audit needs at "
                           "least one data row")
    _check_groups(confusion, request)
    if cols.score is not None:
        # One segment holding every row, swept from nothing above: what the Spark path computes
        # from its range partitions (see docs/spark.md).
        weighted = cols.weight is not None
        decoder = score_decoder(cols, names, negative, "Arrow table")
        segment = _core.ScoreSegment(weighted, True)
        for batch in batches:
            if batch.num_rows:
                segment.update_arrow(decoder, batch)
        totals = bytes(segment.totals())
        empty = bytes(_core.ScoreSegment(weighted, False).totals())
        swept = segment.sweep(list(names), totals, empty, interval, len(cols.sensitive))
        scores = (bytes(swept), totals)
    states = {}
    for kind, lead_cols in leads:
        lead = lead_cols.state("Arrow table")
        lead.check(pa.RecordBatch.from_pylist([], schema=data.schema))
        for batch in batches:
            if batch.num_rows:
                lead.update(batch)
        states[kind] = bytes(lead.to_bytes())
    return _report(confusion, scores, cols, request, "arrow", _led(states))


def audit_arrow(data: Any, **kwargs: Any) -> _Result:
    """Deprecated name of :func:`fairkit.audit` for a table on one machine (FutureWarning; removed
    in fairkit 0.3): same arguments, same result."""
    warnings.warn(
        "fairkit.spark.audit_arrow was renamed fairkit.audit in fairkit 0.2 and will be removed "
        "in 0.3: call fairkit.audit(data, label=..., sensitive=..., ...) with the same arguments",
        FutureWarning,
        stacklevel=2,
    )
    return _audit_arrow(data, **kwargs)


def __getattr__(name: str) -> Any:
    # The result type moved to the top level with the local audit; the old name keeps working
    # for one release.
    if name == "AuditResult":
        warnings.warn(
            "fairkit.spark.AuditResult is fairkit.AuditResult since fairkit 0.2; the old name "
            "will be removed in 0.3",
            FutureWarning,
            stacklevel=2,
        )
        return _Result
    raise AttributeError(f"module 'fairkit.spark' has no attribute {name!r}")


def _check_spark_schema(schema, cols: AuditColumns) -> None:
    """Missing columns and wrong types, on the driver before any job: the Spark schema as Arrow
    (a column Arrow cannot hold becomes type null, refused if it plays a role), checked by the
    decoder the executors run."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type

    fields = []
    for f in schema.fields:
        try:
            t = to_arrow_type(f.dataType)
        except Exception:  # noqa: BLE001 - any type Arrow cannot hold
            t = pa.null()
        fields.append(pa.field(f.name, t))
    cols.state("the DataFrame").check(pa.RecordBatch.from_pylist([], schema=pa.schema(fields)))


_FAIRKIT_MESSAGE = re.compile(r"FairkitError: (.+)")


def _rethrow(e: Exception) -> None:
    """Re-raises an executor's FairkitError on the driver with its own message."""
    m = _FAIRKIT_MESSAGE.search(str(e))
    if m:
        message = m.group(1).strip()
        # The audit decoder's messages name the partition ("Spark partition 3: row 17, ...":
        # rows count within that partition); other executor errors get the context here.
        if not message.startswith("Spark partition"):
            message = f"in a Spark partition: {message}"
        raise FairkitError(message) from e
    raise e


def audit(
    df: Any,
    *,
    label: str,
    pred: str,
    sensitive: Sequence[str],
    score: Optional[str] = None,
    weight: Optional[str] = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    confidence: float = _DEFAULTS["confidence"],
    ci_method: str = _DEFAULTS["ci_method"],
    n_resamples: int = _DEFAULTS["resamples"],
    seed: int = _DEFAULTS["seed"],
    partial_interval: Optional[tuple] = _DEFAULTS["interval"],
    tree_depth: int = 2,
    score_partitions: Optional[int] = None,
    min_group_size: int = _DEFAULTS["min_group_size"],
    max_groups: Optional[int] = _DEFAULTS["max_groups"],
    allow_single_group: bool = _DEFAULTS["allow_single_group"],
    by: Optional[str] = None,
    window: str = _DEFAULTS["window"],
    baseline: str = _DEFAULTS["baseline"],
    against: Optional[str] = None,
    timezone: Optional[str] = None,
    multiple_testing: str = _DEFAULTS["multiple_testing"],
    unknowns: str = _DEFAULTS["unknowns"],
    unknown_values: Optional[Sequence[str]] = None,
    disparity_reference: Any = None,
    tau: float = _DEFAULTS["tau"],
    _path: str = "auto",
) -> _Result:
    """Exact fairness audit of a Spark DataFrame.

    Parameters
    ----------
    df
        A ``pyspark.sql.DataFrame``, any partitioning (empty and skewed partitions are fine).
    label, pred
        Columns of true labels and predictions (boolean, integer, floating-point, string or
        dictionary columns), decoded as the ``fairkit audit`` command decodes them: a value is
        positive when it equals ``pos_label`` (as text, as a number — ``1`` = ``1.0`` — or as a
        boolean — ``true`` = ``1``), negative when it equals ``neg_label`` or, when that is not
        given, the first other value seen; any third value is an error naming the row.
    sensitive
        One or more sensitive-feature columns (strings, integers, booleans); several give
        intersectional groups keyed by tuples.
    score
        Optional numeric score column: adds the exact AUC per group, KS gaps (DP-Δ, EO-Δ) and,
        when ``partial_interval=(alpha, beta)`` is given (``--interval``), partial SP on it, by a
        distributed sweep over score ranges (the driver
        holds O(ranges × groups²) numbers, never the rows; see docs/spark.md).
    weight
        Optional non-negative sample-weight column (exact weighted sums; Kish effective counts for
        the intervals).
    confidence, ci_method
        Level and method (``"wilson"`` or ``"clopper-pearson"``) of the rate intervals.
    n_resamples, seed
        Bootstrap resamples / permutations of the gap inference (at least 100), and their seed.

    Every default is the ``fairkit audit`` command's (read from ``fair_audit::request``: 1,000
    resamples, partial parity only when asked), and every setting is checked by its one check:
    a bad value raises the message the command gives for it.
    min_group_size
        A group with fewer rows in a gap's denominator (rows for selection rate and accuracy,
        positives for TPR, negatives for FPR; positives and negatives for AUC and KS) keeps its
        rates but is kept out of that gap and the headline, and is listed with the gap
        (``--min-group-size``; 0 keeps every group in).
    multiple_testing
        ``"none"`` (default), ``"bh"``, ``"by"``, ``"bonferroni"`` or ``"holm"``: adjust every
        gap's p-value over all the gaps of the report before calling it distinguishable
        (``--multiple-testing``); the adjusted value is written beside the raw one.
    disparity_reference, tau
        Aequitas' reference-group disparities (``--disparity-reference``, ``--tau``): each
        slice's reference group is ``"largest"`` (default), ``"min_metric"`` (per rate the
        group with the smallest value), or named in a dict ``{"race": "white"}`` (or a list of
        ``"race=white"`` entries, with a rule word for the slices not named); parity holds for a
        disparity in ``[tau, 1/tau]``. Read them as :meth:`AuditResult.disparities`.
    max_groups, allow_single_group
        The group guard (``--max-groups``, ``--allow-single-group``): more groups than
        ``max_groups`` (default 1,000) in a sensitive column or their intersection, or, without
        ``max_groups``, a column with a value on most rows (an identifier, a continuous number),
        or a column with a single value unless ``allow_single_group``, raise
        :class:`FairkitError` naming the column before the score pass.
    by, window, baseline
        Fairness over time (``fairkit audit --by``): one audit per window of the ``by`` column
        (``window="value"``: each value, e.g. a model version; ``"day"``, ``"week"``,
        ``"month"``: calendar windows of a date, timestamp or ``YYYY-MM-DD`` text column, as the
        UTC day unless ``timezone`` names the business's IANA time zone: then a timestamp that
        carries its zone or offset falls on its day there), each window's count gaps with intervals and their change against the
        ``baseline`` window (``"first"`` or ``"previous"``); the report's ``over_time`` block,
        charts and summary. The audit of all rows is unchanged.
    against
        A second model's prediction column of the same rows (``fairkit audit --against``): every
        count gap of both models with the paired change, its interval and p-value; the report's
        ``comparison`` block. Unweighted audits only.
    unknowns, unknown_values
        A null, empty or listed (``unknown_values``) sensitive value: ``"error"`` (default)
        raises naming the row, ``"as-group"`` makes it the group ``"(unknown)"`` of its column,
        ``"exclude"`` counts the row and keeps it out of every rate and gap (``fairkit audit
        --unknowns``, ``--unknown-values``). The report's ``unknowns`` block counts them.
    tree_depth
        Depth of the tree-reduce that merges the partition states (row-by-row path only).
    score_partitions
        Number of score ranges of the score pass (default: the DataFrame's partition count).

    Returns
    -------
    fairkit.AuditResult
        Equal, bit for bit, to :func:`fairkit.audit` on the same rows collected to one machine.

    Raises
    ------
    FairkitError
        On the driver, before any job runs, for a missing column or a column of the wrong type;
        after the job, with the executor's message, for bad values (nulls, negative weights,
        non-finite scores, ...).
    """
    cols = _columns(label, pred, sensitive, score, weight, pos_label, neg_label)
    try:
        from pyspark.sql import DataFrame
    except ImportError as e:  # pragma: no cover - pyspark is a test requirement
        raise FairkitError("fairkit.spark.audit needs pyspark: pip install 'fairkit[spark]'") from e
    if not isinstance(df, DataFrame):
        raise FairkitError(
            f"df must be a pyspark.sql.DataFrame, got {type(df).__name__} "
            "(use fairkit.audit for pandas, polars or pyarrow data)"
        )
    request = _request(cols, confidence, ci_method, n_resamples, seed, partial_interval,
                       min_group_size, max_groups, allow_single_group, by, window, baseline,
                       against, timezone, multiple_testing=multiple_testing,
                       unknowns=unknowns, unknown_values=unknown_values,
                       disparity_reference=disparity_reference, tau=tau)
    cols = _with_unknowns(cols, request)
    leads = _leads(cols, request)
    df = _spark_local_by(df, by, request["timezone"])
    _check_spark_schema(df.schema, cols)
    for _, lead_cols in leads:
        _check_spark_schema(df.schema, lead_cols)
    wanted = [cols.label, cols.pred, *cols.sensitive]
    wanted += [c for c in (cols.score, cols.weight) if c is not None]
    selected = df.select(*dict.fromkeys(wanted))

    interval = None if request["interval"] is None else tuple(request["interval"])
    if _path not in ("auto", "sql", "rows"):
        raise FairkitError(f"_path must be 'auto', 'sql' or 'rows', got {_path!r}")
    try:
        confusion, scores = None, None
        if _path != "rows" and cols.score is not None and (_path == "sql"
                                                            or few_scores(selected, cols)):
            # Few distinct scores: the rates and the score cells from one aggregate.
            confusion, scores, why = counted_with_scores(
                selected, cols, interval, None if _path == "sql" else SCORE_CELLS_LIMIT)
            if confusion is None and _path == "sql":
                raise FairkitError(f"the Spark SQL count cannot audit these rows: {why}")
        cuts, range_totals = None, None
        if confusion is None and _path != "rows":
            # Counted by Spark SQL (no row leaves the JVM); anything irregular is only detected
            # there, and the row-by-row path below names it exactly (docs/spark.md). With a
            # score, the aggregate groups by score range too: every range's totals for the
            # score pass.
            if cols.score is not None:
                cuts = _score_cuts(selected, cols, _ranges(selected, score_partitions))
                confusion, range_totals, why = counted_ranges(selected, cols, cuts)
            else:
                confusion, why = counted_state(selected, cols)
            if confusion is None and _path == "sql":
                raise FairkitError(f"the Spark SQL count cannot audit these rows: {why}")
        if confusion is None:
            confusion = _row_state(selected, cols, tree_depth)
        if not _core.state_info(confusion)[2]:
            raise FairkitError("the DataFrame: the data is empty (no data rows); an audit needs "
                               "at least one data row")
        _check_groups(confusion, request)
        if cols.score is not None and scores is None:
            if cuts is None:
                cuts = _score_cuts(selected, cols, _ranges(selected, score_partitions))
            scores = _score_pass(selected, cols, confusion, interval, cuts, range_totals)
        states = {kind: _lead_state(df, lead_cols, _path, tree_depth)
                  for kind, lead_cols in leads}
    except FairkitError:
        raise
    except ValueError as e:
        if "empty" in str(e).lower():
            raise FairkitError("the DataFrame: the data is empty (no data rows); it has no partitions: "
                               "an audit needs at least one data row") from e
        _rethrow(e)
    except Exception as e:  # noqa: BLE001 - Spark wraps executor errors in its own types
        _rethrow(e)
    return _report(confusion, scores, cols, request, "spark", _led(states))


def _lead_state(df: Any, cols: AuditColumns, path: str, tree_depth: int) -> bytes:
    """The count state of the rows with a ``by`` / ``against`` column leading the groups: one
    more Spark SQL aggregate (the row path for what it finds irregular)."""
    wanted = [cols.label, cols.pred, *cols.sensitive]
    wanted += [c for c in (cols.weight,) if c is not None]
    selected = df.select(*dict.fromkeys(wanted))
    state = None
    if path != "rows":
        state, _ = counted_state(selected, cols)
    return state if state is not None else _row_state(selected, cols, tree_depth)


def _row_state(selected: Any, cols: AuditColumns, tree_depth: int) -> bytes:
    """The row-by-row path: every partition's Arrow batches decoded in Rust on its executor
    (``mapInArrow``), the states merged by a tree-reduce."""

    def per_partition(batches: Iterable):
        return partition_states(batches, cols)

    states = selected.mapInArrow(per_partition, _STATE_SCHEMA)
    return states.rdd.map(lambda r: bytes(r[0])).treeReduce(_merge, depth=max(1, int(tree_depth)))


def _ranges(selected: Any, partitions: Optional[int]) -> int:
    """The number of score ranges: ``score_partitions``, else the DataFrame's partitions."""
    n = int(partitions) if partitions else max(1, selected.rdd.getNumPartitions())
    if n < 1:
        raise FairkitError(f"score_partitions must be >= 1, got {partitions!r}")
    return n


# The score sample that cuts the ranges: first this fraction of the rows, more if it holds fewer
# than _SAMPLE_PER_RANGE scores per range.
_SAMPLE_FRACTION = 1e-3
_SAMPLE_PER_RANGE = 32


def _score_cuts(selected: Any, cols: AuditColumns, n: int) -> list:
    """At most ``n - 1`` descending cut points of the score ranges, from a seeded sample of the
    scores (a read of the rows in the JVM; only how even the ranges are depends on it, never
    the result)."""
    import numpy as np
    from pyspark.sql import functions as F

    if n <= 1:
        return []
    score = (F.col(cols.score).cast("double") + F.lit(0.0)).alias("s")
    fraction = _SAMPLE_FRACTION
    while True:
        batches = _collect(selected.select(score).sample(False, fraction, seed=0))
        values = np.concatenate([np.asarray(b.column(0).to_numpy(zero_copy_only=False),
                                            dtype=float) for b in batches] or [np.empty(0)])
        values = values[np.isfinite(values)]
        if fraction >= 1.0 or len(values) >= _SAMPLE_PER_RANGE * n:
            break
        fraction = min(1.0, fraction * 2 * _SAMPLE_PER_RANGE * n / max(len(values), 1))
    values = np.sort(values)[::-1]
    picked = {float(values[i * len(values) // n]) for i in range(1, n) if len(values)}
    return sorted(picked, reverse=True)


def _partition_keys(spark: Any, n: int) -> list:
    """For each range ``r < n`` an int that Spark's hash partitioning among ``n`` sends to
    partition ``r`` (found by Spark's own ``hash``), so the shuffle gives each range a partition
    of its own; ``r`` itself where none of the first ints does (the pass then splits mixed
    partitions by range)."""
    from pyspark.sql import functions as F

    found = dict(spark.range(0, 64 * n)
                 .select(F.col("id").cast("int").alias("v"),
                         F.expr(f"pmod(hash(CAST(id AS INT)), {n})").alias("p"))
                 .groupBy("p").agg(F.min("v")).collect())
    return [int(found.get(r, r)) for r in range(n)]


def _score_pass(selected: Any, cols: AuditColumns, confusion: bytes, interval: tuple,
                cuts: list, range_totals: Optional[dict]) -> Optional[tuple]:
    """The exact score metrics by a distributed sweep (docs/spark.md): the rows numbered by score
    range (``cuts``; range 0 holds the highest scores; equal scores never straddle two ranges),
    each range's exact totals (``range_totals``, from the Spark SQL count, or one pass over the
    rows), one shuffle that gives each range a partition, each range swept on its executor from
    the totals of the ranges above it, the swept segments merged from the top."""
    from pyspark.sql import functions as F

    names, negative, _ = _core.state_info(confusion)
    if not names:
        return None
    keyed = selected.withColumn(RANGE, F.expr(range_sql(cols.score, cuts)))
    if range_totals is None:
        range_totals = {}
        for r, t in keyed.mapInArrow(lambda it: score_range_totals(it, cols, names, negative),
                                     "range int, totals binary").collect():
            r = int(r)
            range_totals[r] = (bytes(_core.merge_score_totals(range_totals[r], bytes(t)))
                               if r in range_totals else bytes(t))
    above, running = {}, bytes(_core.ScoreSegment(cols.weight is not None, False).totals())
    for r in sorted(range_totals):
        above[r] = running
        running = bytes(_core.merge_score_totals(running, range_totals[r]))
    totals = running
    n = len(cuts) + 1
    keys = F.array(*[F.lit(k) for k in _partition_keys(selected.sparkSession, n)])
    shuffled = keyed.repartition(n, F.element_at(keys, F.col(RANGE) + 1))
    segs = shuffled.mapInArrow(
        lambda it: score_range_segments(it, cols, names, negative, totals, above, interval),
        "range int, segment binary").collect()
    ordered = [bytes(seg) for _, seg in sorted(segs, key=lambda r: int(r[0]))]
    segment = ordered[0]
    for lower in ordered[1:]:
        segment = bytes(_core.merge_segments(segment, lower))
    return segment, totals


def _merge(left: bytes, right: bytes) -> bytes:
    return bytes(_core.merge_states(left, right))


def transform(
    df: Any,
    projection: Any,
    *,
    proba: str | Sequence[str] | None = None,
    sensitive: str | Sequence[str],
    output: Optional[str] = None,
    pred: Optional[str] = None,
    alpha: Any = None,
) -> Any:
    """A fitted :class:`fairkit.estimators.FairProjection` applied to every row of a Spark
    DataFrame: ``df`` with an ``output`` column (default ``"fair_proba"``) of fair class
    probabilities (array<double>, in the order of ``projection.classes_``).

    A fitted :class:`fairkit.estimators.WassersteinPostProcessor` (fair regression) is applied
    the same way to the prediction column ``pred=`` (instead of ``proba=``): ``output`` (default
    ``"fair_pred"``) holds each row's fair prediction, equal to ``transform`` on the collected
    rows bit for bit; ``alpha=`` overrides the fitted level as ``transform`` does. It must have
    been fitted with ``sigma=0`` (see :mod:`fairkit.spark._wasserstein`).

    Parameters
    ----------
    df
        A ``pyspark.sql.DataFrame``, any partitioning.
    projection
        A fitted ``FairProjection`` that takes probabilities directly (``estimator=None``); it is
        shipped to the executors as its saved bytes (a few kB).
    proba
        The base probabilities: one array<double> column (C values per row) or the names of C
        numeric columns, in the order of ``projection.classes_``.
    sensitive
        The sensitive-feature column(s), as at fit (several = intersectional groups).
    output
        Name of the new column.

    Returns
    -------
    DataFrame
        Lazy, like every Spark transformation: bad values (a group unseen at fit, probabilities
        that do not sum to 1, nulls) raise when an action runs, with fairkit's message inside
        Spark's error. Each row's output equals ``projection.predict_proba`` on that row bit for
        bit, whatever the partitioning.
    """
    from sklearn.utils.validation import check_is_fitted

    try:
        from pyspark.sql import DataFrame
        from pyspark.sql.types import ArrayType, DoubleType, NumericType, StructField, StructType
    except ImportError as e:  # pragma: no cover - pyspark is a test requirement
        raise FairkitError("fairkit.spark.transform needs pyspark: pip install 'fairkit[spark]'") from e
    if not isinstance(df, DataFrame):
        raise FairkitError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    from fairkit.estimators import WassersteinPostProcessor

    sensitive = [sensitive] if isinstance(sensitive, str) else list(sensitive)
    if isinstance(projection, WassersteinPostProcessor):
        if pred is None or proba is not None:
            raise FairkitError("a WassersteinPostProcessor transforms the prediction column: "
                               "pass pred= (not proba=)")
        from fairkit.spark import _wasserstein

        return _wasserstein.transform(df, projection, pred=pred, sensitive=sensitive,
                                      output=output or "fair_pred", alpha=alpha)
    if proba is None or pred is not None or alpha is not None:
        raise FairkitError("a FairProjection transforms probabilities: pass proba= "
                           "(pred= and alpha= are for a WassersteinPostProcessor)")
    output = output or "fair_proba"
    check_is_fitted(projection, "lambda_")
    if getattr(projection, "estimator_", None) is not None:
        raise FairkitError(
            "transform applies a FairProjection fitted on probabilities (estimator=None); "
            "compute the base model's probabilities into a column first"
        )
    fields = {f.name: f for f in df.schema.fields}
    n_classes = len(projection.classes_)
    got = _check_projection_columns(df, proba, sensitive, None)
    if got and got != n_classes:
        raise FairkitError(
            f"proba names {got} columns; the projector was fitted with {n_classes} classes"
        )
    if output in fields:
        raise FairkitError(f"output column {output!r} already exists: choose another name")
    schema = StructType([*df.schema.fields,
                         StructField(output, ArrayType(DoubleType(), False), False)])

    def per_partition(batches: Iterable):
        return transform_batches(batches, projection, proba, sensitive, output)

    return df.mapInArrow(per_partition, schema)


def _check_projection_columns(df: Any, proba, sensitive: Sequence[str], label) -> int:
    """Missing columns and wrong types of a FairProjection fit or transform, before any job:
    returns C for C probability columns, 0 for one array column (C is read from the data)."""
    from pyspark.sql.types import (
        ArrayType, BooleanType, IntegralType, NumericType, StringType,
    )

    fields = {f.name: f for f in df.schema.fields}
    wanted = [proba] if isinstance(proba, str) else list(proba)
    if not all(isinstance(n, str) for n in wanted) or not wanted:
        raise FairkitError(f"proba must be a column name or a list of column names, got {proba!r}")
    if not sensitive or not all(isinstance(s, str) for s in sensitive):
        raise FairkitError(f"sensitive must name one or more columns, got {sensitive!r}")
    for name in [*wanted, *sensitive, *([label] if label is not None else [])]:
        if name not in fields:
            raise FairkitError(
                f"column {name!r} is not in the DataFrame (columns: {', '.join(fields)})"
            )
    for name in sensitive:
        kind = fields[name].dataType
        if not isinstance(kind, (StringType, IntegralType, BooleanType)):
            raise FairkitError(
                f"sensitive column {name!r} has type {kind.simpleString()}; expected strings, "
                "integers or booleans (bucket continuous features first)"
            )
    if label is not None:
        kind = fields[label].dataType
        if not isinstance(kind, (StringType, IntegralType, BooleanType)):
            raise FairkitError(
                f"label column {label!r} has type {kind.simpleString()}; expected class labels "
                "(strings, integers or booleans)"
            )
    if isinstance(proba, str):
        kind = fields[proba].dataType
        if not (isinstance(kind, ArrayType) and isinstance(kind.elementType, NumericType)):
            raise FairkitError(
                f"column {proba!r} must be an array of numbers (one probability per class), "
                f"got {kind.simpleString()}"
            )
        return 0
    for name in wanted:
        if not isinstance(fields[name].dataType, NumericType):
            raise FairkitError(
                f"column {name!r} must be numeric, got {fields[name].dataType.simpleString()}"
            )
    if len(wanted) < 2:
        raise FairkitError("proba names one column: give one array column or C >= 2 columns")
    return len(wanted)


def fit(
    estimator: Any,
    df: Any,
    *,
    proba: str | Sequence[str] | None = None,
    sensitive: str | Sequence[str],
    label: Optional[str] = None,
    persist: bool = True,
    pred: Optional[str] = None,
    weight: Optional[str] = None,
) -> Any:
    """Fits a :class:`fairkit.estimators.FairProjection` (``estimator=None``) on a Spark
    DataFrame of base probabilities, sensitive features and optional labels, without moving the
    rows: each data pass of the dual solver is one Spark job whose partitions compute their sums
    in Rust, and the driver holds only the K-dimensional dual.

    A :class:`fairkit.estimators.WassersteinPostProcessor` (fair regression) is fitted on the
    prediction column ``pred=`` (instead of ``proba=``) and an optional ``weight=`` column,
    exactly: it needs every group's sorted predictions, so the prediction, sensitive and weight
    columns are collected to the driver (about 16–30 bytes a row); the result equals ``fit`` on
    the collected rows.

    Parameters
    ----------
    estimator
        An unfitted ``FairProjection(estimator=None, ...)``: its settings are used (it is cloned,
        not modified). ``solver="dual"`` only (ADMM keeps per-row state between passes).
    df
        A ``pyspark.sql.DataFrame``, any partitioning (empty and skewed partitions are fine).
    proba
        The base probabilities: one array<double> column (C values per row) or C numeric
        columns, in the order of the sorted class labels.
    sensitive
        The sensitive-feature column(s) (several = intersectional groups, as at ``fit``).
    label
        Optional true-label column: given, the marginals are empirical (as ``fit(X, y)``);
        otherwise plug-in from the probabilities (as ``fit(X)``).
    persist
        Persist the selected columns (memory and disk) for the fit's passes and release them
        after; turn off when ``df`` is already cached.

    Returns
    -------
    FairProjection
        Fitted: λ equal to ``estimator.fit`` on the collected rows up to floating-point rounding
        (within 1e-9, tested; the same bits on every run for the same partitioning). Use it
        locally or with :func:`transform`.

    Raises
    ------
    FairkitError
        On the driver before any job for a missing column or a wrong type; with the executor's
        message for bad values (nulls, probabilities outside [0, 1] or not summing to 1, labels
        that are not classes); as the one-machine fit for design errors (a group without rows,
        an equalized-odds cell without mass).
    """
    try:
        from pyspark.sql import DataFrame
    except ImportError as e:  # pragma: no cover - pyspark is a test requirement
        raise FairkitError("fairkit.spark.fit needs pyspark: pip install 'fairkit[spark]'") from e
    if not isinstance(df, DataFrame):
        raise FairkitError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    from fairkit.estimators import WassersteinPostProcessor

    if isinstance(estimator, WassersteinPostProcessor):
        if pred is None or proba is not None or label is not None:
            raise FairkitError("a WassersteinPostProcessor is fitted on the prediction column: "
                               "pass pred= (not proba= or label=)")
        from fairkit.spark import _wasserstein

        columns = [sensitive] if isinstance(sensitive, str) else list(sensitive)
        return _wasserstein.fit(estimator, df, pred=pred, sensitive=columns, weight=weight)
    if proba is None or pred is not None or weight is not None:
        raise FairkitError("a FairProjection is fitted on probabilities: pass proba= "
                           "(pred= and weight= are for a WassersteinPostProcessor)")
    from fairkit.spark._fit import fit_projection

    return fit_projection(estimator, df, proba=proba, sensitive=sensitive, label=label,
                          persist=persist, checks=_check_projection_columns)
