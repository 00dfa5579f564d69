"""``fairkit.audit``: the fairness audit of a table wherever it lives — a pandas or polars
DataFrame, a pyarrow Table, RecordBatch or RecordBatchReader on this machine, or a Spark
DataFrame on a cluster — with ``fairkit audit``'s options, defaults and report (one Rust
``fair_audit::run`` behind every front end). ``fairkit.compare`` compares two audits gap by gap.

The heavy imports (pyarrow, pyspark) happen on the first call, so ``import fairkit`` stays light.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence

from fairkit._core import FairkitError
from fairkit._core import spark as _spark_core

# The command's defaults, read from Rust (`AuditRequest::default()`): one source of truth.
_DEFAULTS = _spark_core.audit_defaults()


def _is_spark(data: Any) -> bool:
    t = type(data)
    return t.__name__ == "DataFrame" and t.__module__.startswith("pyspark.sql")


def _is_polars(data: Any) -> bool:
    t = type(data)
    return t.__name__ == "DataFrame" and t.__module__.startswith("polars")


def _paths(data: Any) -> Optional[list]:
    """The file paths ``data`` names (one path or a list of them), or None for a table."""
    if isinstance(data, (str, os.PathLike)):
        return [os.fspath(data)]
    if isinstance(data, bytes):
        raise FairkitError("data is bytes: pass a path as str or pathlib.Path, or a table")
    if isinstance(data, (list, tuple)) and data and all(
            isinstance(p, (str, os.PathLike)) for p in data):
        return [os.fspath(p) for p in data]
    return None


def _audit_files(paths: list, options: dict, reading: dict):
    """Files audited by the command's readers in the Rust core (``fairkit audit``'s path)."""
    from fairkit._core import audit_files
    from fairkit.spark import _columns, _request
    from fairkit.spark._result import AuditResult

    cols = _columns(options["label"], options["pred"], options["sensitive"], options["score"],
                    options["weight"], options["pos_label"], options["neg_label"],
                    inferred=bool(options.get("sensitive_proba")))
    request = _request(cols, options["confidence"], options["ci_method"], options["n_resamples"],
                       options["seed"], options["partial_interval"], options["min_group_size"],
                       options["max_groups"], options["allow_single_group"], options["by"],
                       options["window"], options["baseline"], options["against"],
                       options["timezone"], options.get("target"), options.get("quantile"),
                       multiple_testing=options.get("multiple_testing"),
                       unknowns=options.get("unknowns"),
                       unknown_values=options.get("unknown_values"),
                       disparity_reference=options.get("disparity_reference"),
                       tau=options.get("tau"),
                       sensitive_proba=options.get("sensitive_proba"),
                       proxy=options.get("proxy"))
    read = dict(reading)
    read["pos_label"] = _label_text(options["pos_label"])
    if options["neg_label"] is not None:
        read["neg_label"] = _label_text(options["neg_label"])
    audited = audit_files(paths, request, read)
    return AuditResult(audited.render(["json"])["json"], audited)


def _label_text(value: Any) -> str:
    # A file's labels are text as written ("1", "yes", "true"): a Python label is matched by its
    # text, booleans as CSV and Parquet write them.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _without_target(options: dict) -> dict:
    """The options of a classifier's audit (the regression and inferred keywords dropped)."""
    return {k: v for k, v in options.items()
            if k not in ("target", "quantile", "sensitive_proba", "proxy")}


def _audit_rankings(data: Any, options: dict, ranking: dict, reading: dict):
    """Rankings (``query=``): files through the command's readers; a table written to a
    temporary Parquet file and read by them (as the audit of a numeric target is), so the
    numbers are the command's bit for bit. Options are checked once, in Rust."""
    from fairkit._core import audit_files

    if options["label"] is not None or options["target"] is not None:
        raise FairkitError("query= audits rankings, which have no label= or target=: give "
                           "relevance= for the utility of each item")
    request = {
        "label": "", "sensitive": list(options["sensitive"] or ()),
        "score": options["score"], "weight": options["weight"],
        "confidence": options["confidence"], "ci_method": options["ci_method"],
        "resamples": options["n_resamples"], "seed": options["seed"],
        "min_group_size": options["min_group_size"], "max_groups": options["max_groups"],
        "allow_single_group": options["allow_single_group"], "tau": options["tau"],
        **{k: v for k, v in ranking.items() if v is not None},
    }
    if "top_k" in request and isinstance(request["top_k"], int):
        request["top_k"] = [request["top_k"]]
    for key, given in (("pred", options["pred"]), ("by", options["by"]),
                       ("against", options["against"]),
                       ("interval", options["partial_interval"])):
        if given is not None:
            request[key] = list(given) if key == "interval" else given
    _spark_core.check_request(request)
    paths = _paths(data)
    if paths is not None:
        from fairkit.spark._result import AuditResult

        audited = audit_files(paths, request, dict(reading))
        return AuditResult(audited.render(["json"])["json"], audited)
    if reading:
        raise FairkitError(f"{', '.join(reading)} set how files are read; data here is a "
                           f"{type(data).__name__}, not a path")
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    description = f"{type(data).__module__.split('.')[0]} {type(data).__name__}"
    if _is_spark(data):
        # The audited columns collected to the driver as Arrow (the driver needs their size), then
        # the one-machine audit, as the audit of a numeric target does: the command's numbers
        # bit for bit. Per-query states merged across executors are not built yet.
        from fairkit.spark._counts import _collect

        names = [request.get("query"), request.get("rank"), request.get("score"),
                 request.get("relevance"), request.get("weight"), *request["sensitive"]]
        names = [n for n in dict.fromkeys(names) if n is not None]
        missing = [n for n in names if n not in data.columns]
        if missing:
            raise FairkitError(f"the DataFrame has no column {missing[0]!r}; its columns: "
                               f"{', '.join(data.columns)}")
        batches = _collect(data.select(*names))
        if not batches or not sum(b.num_rows for b in batches):
            raise FairkitError("the DataFrame has no rows to audit")
        data, description, fmt = pa.Table.from_batches(batches), "Spark DataFrame", "spark"
    else:
        fmt = "arrow"
    if _is_polars(data):
        data = data.to_arrow()
    if isinstance(data, pa.RecordBatchReader):
        data = data.read_all()
    elif isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    elif not isinstance(data, pa.Table):
        data = pa.Table.from_pandas(data, preserve_index=False)
    from fairkit.spark._result import AuditResult

    with tempfile.TemporaryDirectory(prefix="fairkit-") as d:
        path = os.path.join(d, "table.parquet")
        pq.write_table(data, path)
        audited = audit_files([path], request, {"describe_as": (description, fmt)})
    return AuditResult(audited.render(["json"])["json"], audited)


def _audit_table_of_target(table, options: dict, description: str, fmt: str = "arrow"):
    """A table audited against a numeric target: written to a temporary Parquet file and read
    by the command's readers (the regression audit's one path today), so the numbers are the
    command's bit for bit; the report names the table, not the file."""
    import tempfile

    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory(prefix="fairkit-") as d:
        path = os.path.join(d, "table.parquet")
        pq.write_table(table, path)
        return _audit_files([path], options, {"describe_as": (description, fmt)})


def _audit_spark_of_target(df: Any, options: dict, score_partitions: Optional[int] = None):
    """A Spark DataFrame audited against a numeric target, the command's numbers bit for bit:
    exact sums per group and a distributed sweep of the predictions over value ranges
    (``fairkit/spark/_regression.py``: the driver holds per-range and per-group sums, never
    rows). With ``by`` (windows, each its own sweep) the audited columns are still collected to
    the driver (about 40 bytes a row) and audited on one machine."""
    if options.get("by") is None:
        from fairkit.spark import _columns, _request
        from fairkit.spark._regression import audit_regression

        cols = _columns(options["label"], options["pred"], options["sensitive"],
                        options["score"], options["weight"], options["pos_label"],
                        options["neg_label"])
        request = _request(cols, options["confidence"], options["ci_method"],
                           options["n_resamples"], options["seed"],
                           options["partial_interval"], options["min_group_size"],
                           options["max_groups"], options["allow_single_group"], None,
                           options["window"], options["baseline"], options["against"],
                           options["timezone"], options.get("target"), options.get("quantile"),
                           multiple_testing=options.get("multiple_testing"),
                           unknowns=options.get("unknowns"),
                           unknown_values=options.get("unknown_values"),
                           disparity_reference=options.get("disparity_reference"),
                           tau=options.get("tau"))
        return audit_regression(df, request, options, score_partitions)
    if score_partitions is not None:
        raise FairkitError("score_partitions sets the distributed sweep, which a regression "
                           "audit with by= does not run (its columns are collected)")
    return _collect_spark_of_target(df, options)


def _collect_spark_of_target(df: Any, options: dict):
    """The regression audit of a Spark DataFrame with its audited columns collected to the
    driver (about 40 bytes a row) and audited on one machine: the path of ``by=`` (and, before
    the distributed sweep, of every regression audit; python/bench/spark_regression.py measures
    both)."""
    import pyarrow as pa

    from fairkit.spark._counts import _collect

    names = [options["target"] or options["label"], options["pred"],
             *list(options["sensitive"] or ()),
             *([options["weight"]] if options["weight"] else []),
             *[c for cols in (options.get("sensitive_proba") or {}).values() for c in cols],
             *([options["proxy"]] if options.get("proxy") else [])]
    missing = [n for n in names if n is not None and n not in df.columns]
    if missing:
        raise FairkitError(f"the DataFrame has no column {missing[0]!r}; its columns: "
                           f"{', '.join(df.columns)}")
    batches = _collect(df.select(*[n for n in dict.fromkeys(names) if n is not None]))
    table = pa.Table.from_batches(batches) if batches else None
    if table is None or table.num_rows == 0:
        raise FairkitError("the DataFrame has no rows to audit")
    return _audit_table_of_target(table, options, "Spark DataFrame", "spark")


def audit(
    data: Any,
    *,
    label: Optional[str] = None,
    sensitive: Sequence[str] = (),
    target: Optional[str] = None,
    quantile: float = _DEFAULTS["quantile"],
    pred: Optional[str] = None,
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
    sensitive_proba: Optional[Mapping[str, Sequence[str]]] = None,
    proxy: Optional[str] = None,
    query: Optional[str] = None,
    rank: Optional[str] = None,
    relevance: Optional[str] = None,
    top_k: Any = None,
    persistence: Optional[float] = None,
    fair_p: Optional[float] = None,
    fair_alpha: Optional[float] = None,
    tree_depth: Optional[int] = None,
    score_partitions: Optional[int] = None,
    delimiter: Optional[str] = None,
    input_format: Optional[str] = None,
    memory_budget: Optional[str] = None,
):
    """The fairness audit of ``data`` per sensitive group, as ``fairkit audit`` computes it.

    Parameters
    ----------
    data
        A pandas or polars DataFrame, a pyarrow Table / RecordBatch / RecordBatchReader (read to
        the end), a ``pyspark.sql.DataFrame`` (audited on the cluster, equal to one machine), or
        a path (``str`` / ``os.PathLike``, or a list of them): CSV or Parquet files, plain, gzip
        or zstd, or folders of parts, read and streamed by the ``fairkit audit`` command's own
        readers (any size; the same report as the command on the same files).
    label, sensitive, pred, score, weight
        The columns by role, as ``fairkit audit --label … --sensitive …``.
    target, quantile
        A numeric target instead of ``label``: the audit of the numeric prediction in ``pred``
        (a regression model, a credit limit, a risk score read as a number), as
        ``fairkit audit --target … --pred …`` — per group mean prediction, residual, MAE,
        RMSE, R², the ``quantile`` of the prediction (the median by default) and the NYC Local
        Law 144 scoring rate, the gaps between groups, and the Wasserstein-1 and KS distances
        between the groups' predictions (``document["regression"]``). Files, pandas, polars
        and pyarrow tables, and a Spark DataFrame (its audited columns are collected to the
        driver for now: about 40 bytes a row).
    pos_label, neg_label, confidence, ci_method, n_resamples, seed, partial_interval, \
    min_group_size, max_groups, allow_single_group, by, window, baseline, against, timezone, \
    multiple_testing, unknowns, unknown_values, disparity_reference, tau
        The options of ``fairkit audit`` (``--resamples`` is ``n_resamples``, ``--interval``
        ``partial_interval``), with the command's defaults, read from the Rust core.
    sensitive_proba, proxy
        Inferred sensitive attributes, as ``--sensitive-proba`` and ``--proxy``: a dict
        ``{"race": ["p_white", "p_black", "p_other"]}`` of membership-probability columns (one
        per group; each row's in [0, 1] and summing to 1 within 1e-6, checked by the Rust core
        with the command's message) and the column whose values are the proxy cells of the
        bounds. The result's ``.inferred`` (report.json's ``inferred``) holds the weighted and
        most-likely-group estimates with intervals and the partial-identification bounds of
        every disparity (docs/inferred-groups.md). Tables and Spark DataFrames are audited
        through the command's readers (written to a temporary Parquet file, as ``target=``).
    query, rank, relevance, top_k, persistence, fair_p, fair_alpha
        The audit of rankings, as ``fairkit audit --query … --rank …``: each query's rows are
        one ranking, ordered by ``rank`` (1 = top) or by ``score`` (highest first); per group
        exposure (1/log2(1 + position), or ``persistence``'s geometric discount) against its
        share of items, exposure and expected clicks per unit of ``relevance`` (Singh &
        Joachims), NDCG, the shares of the ``top_k`` positions and FA*IR's test per query
        (``fair_p``, ``fair_alpha``), with intervals from resampling queries
        (``.ranking``). Files, pandas, polars and pyarrow tables, and a Spark DataFrame (its
        audited columns are collected to the driver for now: it needs memory for them).
    tree_depth, score_partitions
        Spark only (see :func:`fairkit.spark.audit`); refused for other data. With ``target=``
        on Spark, ``score_partitions`` is the number of prediction ranges of the distributed
        sweep (default: the DataFrame's partitions; each range's rows must fit in one
        executor), and ``tree_depth`` is refused.
    delimiter, input_format, memory_budget
        Files only, as the command's ``--delimiter``, ``--input-format`` (``"csv"`` or
        ``"parquet"`` when the extension does not say) and ``--memory-budget`` (e.g. ``"2G"``).

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
    if query is not None and (sensitive_proba or proxy is not None):
        raise FairkitError("sensitive_proba= and proxy= audit a prediction column: inferred "
                           "attributes are not available in a ranking audit (query=) yet")
    if query is not None or any(v is not None for v in (rank, relevance, top_k, persistence,
                                                        fair_p, fair_alpha)):
        if spark_only := {k: v for k, v in (("tree_depth", tree_depth),
                                            ("score_partitions", score_partitions))
                          if v is not None}:
            raise FairkitError(f"{', '.join(spark_only)} set the Spark audit's plan; the "
                               f"audit of rankings does not use them")
        options = dict(
            label=label, target=target, sensitive=sensitive, pred=pred, score=score,
            weight=weight, confidence=confidence, ci_method=ci_method,
            n_resamples=n_resamples, seed=seed, partial_interval=partial_interval,
            min_group_size=min_group_size, max_groups=max_groups,
            allow_single_group=allow_single_group, by=by, against=against, tau=tau,
        )
        ranking = dict(query=query, rank=rank, relevance=relevance, top_k=top_k,
                       persistence=persistence, fair_p=fair_p, fair_alpha=fair_alpha)
        reading = {k: v for k, v in (("delimiter", delimiter), ("input_format", input_format),
                                     ("memory_budget", memory_budget)) if v is not None}
        return _audit_rankings(data, options, ranking, reading)
    if (label is None) == (target is None):
        raise FairkitError(
            "name the outcome: label= (a classifier's true label) or target= (a numeric target "
            "for the audit of a numeric prediction), not both" if label is not None else
            "name the outcome: label= (a classifier's true label) or target= (a numeric target "
            "for the audit of a numeric prediction)"
        )
    options = dict(
        label=label, sensitive=sensitive, pred=pred, score=score, weight=weight,
        pos_label=pos_label, neg_label=neg_label, confidence=confidence, ci_method=ci_method,
        n_resamples=n_resamples, seed=seed, partial_interval=partial_interval,
        min_group_size=min_group_size, max_groups=max_groups,
        allow_single_group=allow_single_group, by=by, window=window, baseline=baseline,
        against=against, timezone=timezone, target=target, quantile=quantile,
        multiple_testing=multiple_testing, unknowns=unknowns, unknown_values=unknown_values,
        disparity_reference=disparity_reference, tau=tau,
        sensitive_proba=sensitive_proba, proxy=proxy,
    )
    spark_only = {k: v for k, v in (("tree_depth", tree_depth),
                                    ("score_partitions", score_partitions)) if v is not None}
    reading = {k: v for k, v in (("delimiter", delimiter), ("input_format", input_format),
                                 ("memory_budget", memory_budget)) if v is not None}
    paths = _paths(data)
    if paths is not None:
        if spark_only:
            raise FairkitError(f"{', '.join(spark_only)} set the Spark audit's plan; data here "
                               f"is a file audited on this machine, where they do not apply")
        return _audit_files(paths, options, reading)
    if reading:
        raise FairkitError(f"{', '.join(reading)} set how files are read; data here is a "
                           f"{type(data).__name__}, not a path")
    if target is not None or sensitive_proba or proxy is not None:
        if (target is not None and _is_spark(data)
                and set(spark_only) <= {"score_partitions"}):
            return _audit_spark_of_target(data, options, spark_only.get("score_partitions"))
        # Inferred attributes read their rows with the command's readers (their states do not
        # cross between processes yet): a Spark DataFrame's audited columns are collected.
        if spark_only:
            raise FairkitError(f"{', '.join(spark_only)} set the Spark audit's plan of a "
                               f"classifier's observed groups; this audit does not use them")
        if _is_spark(data):
            return _collect_spark_of_target(data, options)
        description = f"{type(data).__module__.split('.')[0]} {type(data).__name__}"
        if _is_polars(data):
            data = data.to_arrow()
        import pyarrow as pa

        if isinstance(data, pa.RecordBatchReader):
            data = data.read_all()
        elif isinstance(data, pa.RecordBatch):
            data = pa.Table.from_batches([data])
        elif not isinstance(data, pa.Table):
            data = pa.Table.from_pandas(data, preserve_index=False)
        return _audit_table_of_target(data, options, description)
    if _is_spark(data):
        from fairkit.spark import audit as spark_audit

        return spark_audit(data, **_without_target(options), **spark_only)
    if spark_only:
        raise FairkitError(
            f"{', '.join(spark_only)} set the Spark audit's plan; data here is a "
            f"{type(data).__name__} audited on this machine, where they do not apply"
        )
    if _is_polars(data):
        data = data.to_arrow()
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - pyarrow is a requirement of the audit
        raise FairkitError("fairkit.audit needs pyarrow: pip install pyarrow") from e
    if isinstance(data, pa.RecordBatchReader):
        data = data.read_all()
    from fairkit.spark import _audit_arrow

    return _audit_arrow(data, **_without_target(options))


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
