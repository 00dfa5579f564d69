"""The Spark rates audit counted by Spark SQL (``fairkit/spark/_counts.py``) against the
row-by-row path (``mapInArrow`` + the Rust decoder), on a local Spark: the same state bytes and
the same report.json, and — for bad rows, which the count only detects — the same error message.

The row path stays reachable through ``audit(..., _path="rows")``; ``_path="sql"`` refuses to
fall back, so a test of it fails if the count did not do the work.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from fairkit import FairkitError
from fairkit._core import spark as core
from fairkit.spark import _report, _request, _row_state, audit
from fairkit.spark._arrow import AuditColumns
from fairkit.spark._counts import counted_state

from test_spark import spark  # noqa: F401  (the module's local[2] Spark session fixture)

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")

# Weights where float addition is inexact or the exact sum needs many bits: subnormals, 1e-300
# next to 1e300, squares that underflow (1e-160), reach the subnormal range (1e-155) or
# overflow to +inf (1e155), 0.1 / 0.2 / 0.3, zeros of both signs, integers.
EXTREME = [0.0, -0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-160, 1e-155, 1e-5,
           0.1, 0.2, 0.3, 0.7, 1.0, 3.0, 123.456, 2.0 ** 52 + 1, 1e150, 1e155, 1e300]


def frame(seed: int, n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({
        "label": y,
        "pred": np.where(rng.random(n) < 0.7, y, 1 - y),
        "group": rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1]),
        "region": rng.integers(0, 3, n),
        "w": np.where(rng.random(n) < 0.5, rng.uniform(0.1, 3.0, n),
                      rng.choice(EXTREME, n)),
        "iw": rng.integers(0, 1000, n),
        "score": np.round(rng.random(n), 2),
    })


FRAME = frame(3)


def both_paths(sdf, **kw):
    """(SQL count, row path) on the same rows: the same state bytes, and the same report.json
    (the report is a function of the state; with a score the score passes run after either)."""
    sensitive = kw["sensitive"]
    cols = AuditColumns(kw["label"], kw["pred"], tuple(sensitive), kw.get("score"),
                        kw.get("weight"), kw.get("pos_label", 1), kw.get("neg_label"))
    wanted = [cols.label, cols.pred, *cols.sensitive]
    wanted += [c for c in (cols.score, cols.weight) if c is not None]
    selected = sdf.select(*dict.fromkeys(wanted))
    counted, why = counted_state(selected, cols)
    assert counted is not None, why
    rows = _row_state(selected, cols, 2)
    assert counted == rows
    got = audit(sdf, _path="sql", n_resamples=200, **kw)
    if cols.score is None:
        request = _request(cols, 0.95, "wilson", 200, 0, None, kw.get("min_group_size", 30),
                           kw.get("max_groups"), kw.get("allow_single_group", False), None,
                           "value", "first", None)
        want = _report(rows, None, cols, request, "spark")
    else:
        want = audit(sdf, _path="rows", n_resamples=200, **kw)
    assert got.report_json == want.report_json
    return got


@pytest.mark.parametrize("weight", [None, "w", "iw"])
def test_count_equals_rows_bit_for_bit(spark, weight):
    sdf = spark.createDataFrame(FRAME).repartition(3)
    r = both_paths(sdf, label="label", pred="pred", sensitive=["group", "region"], weight=weight)
    assert r.input.rows == len(FRAME)
    assert r.settings.weighted is (weight is not None)


def test_extreme_weights_are_summed_exactly(spark):
    # Every extreme weight in every cell of one group, repeated: the row path's accumulator is
    # exact, so a count that rounded anywhere would differ in the bytes.
    pdf = pd.DataFrame({
        "label": np.tile([0, 0, 1, 1], len(EXTREME) * 3),
        "pred": np.tile([0, 1, 0, 1], len(EXTREME) * 3),
        "group": "a",
        "w": np.repeat(EXTREME * 3, 4),
    })
    sdf = spark.createDataFrame(pdf).repartition(2)
    kw = dict(label="label", pred="pred", sensitive=["group"], weight="w",
              allow_single_group=True)
    both_paths(sdf, **kw)
    # A float32 weight column (widened exactly, as the row path widens it).
    f32 = spark.createDataFrame(pdf.assign(w=pdf["w"].clip(upper=1e30).astype(np.float32)))
    both_paths(f32, **kw)


def test_every_binary_exponent_is_summed_exactly(spark):
    # One weight per binary exponent, subnormals to the largest double, each with a full
    # 53-bit mantissa: every entry of _scaled's power table and every shift 0..59 is used, for
    # the weight and for its square (which underflows, is subnormal, normal or +inf by turns).
    rng = np.random.default_rng(7)
    weights = [math.ldexp(1.0 + rng.random(), e) for e in range(-1022, 1024)]
    weights += [math.ldexp(float(rng.integers(1, 2 ** 52)), -1074) for _ in range(64)]
    weights = [w for w in weights if math.isfinite(w)]
    pdf = pd.DataFrame({
        "label": np.tile([0, 1], len(weights)),
        "pred": np.tile([1, 1], len(weights)),
        "group": np.tile(["a", "a", "b", "b"], len(weights))[:2 * len(weights)],
        "w": np.repeat(weights, 2),
    })
    sdf = spark.createDataFrame(pdf).repartition(3)
    both_paths(sdf, label="label", pred="pred", sensitive=["group"], weight="w")
    # Weights summing beyond the largest double: the audit stands, the disparities (ratios of
    # those sums) are left out of the slice, and the views and Python say why.
    import fairkit

    r = fairkit.audit(pdf, label="label", pred="pred", sensitive=["group"], weight="w")
    assert r.document["settings"]["disparity"] is not None
    assert "disparities" not in r.document["audits"][0]["slices"][0]
    markdown = r.report(formats=["md"])["markdown"]
    assert "Not computed: the slice's weighted counts are not finite" in markdown
    with pytest.raises(FairkitError, match="weighted counts are not finite"):
        r.disparities()


def test_every_binary_exponent_is_summed_exactly_by_score(spark):
    # The aggregate by score keys a coarse exponent (a multiple of 8) and splits the squares'
    # mantissas (up to 2^73) in three limbs: the state is still the row path's, byte for byte.
    from fairkit.spark._counts import counted_with_scores

    rng = np.random.default_rng(8)
    weights = [math.ldexp(1.0 + rng.random(), e) for e in range(-1022, 1024)]
    weights += [math.ldexp(float(rng.integers(1, 2 ** 52)), -1074) for _ in range(64)]
    n = len(weights)
    pdf = pd.DataFrame({
        "label": np.arange(n) % 2, "pred": (np.arange(n) // 2) % 2,
        "group": np.where(np.arange(n) % 3 == 0, "a", "b"),
        "score": (np.arange(n) % 5) / 4.0, "w": weights,
    })
    sdf = spark.createDataFrame(pdf).repartition(3)
    cols = AuditColumns("label", "pred", ("group",), "score", "w")
    selected = sdf.select("label", "pred", "group", "score", "w")
    state, scores, why = counted_with_scores(selected, cols, (0.0, 1.0), None)
    assert state is not None, why
    assert state == _row_state(selected, cols, 2)
    assert scores is not None


@pytest.mark.parametrize("kind", ["str", "bool", "int", "float"])
def test_label_column_types(spark, kind):
    y, p = FRAME["label"], FRAME["pred"]
    convert = {
        "str": (lambda v: np.where(v == 1, "yes", "no"), "yes"),
        "bool": (lambda v: v == 1, True),
        "int": (lambda v: np.where(v == 1, 7, -3), 7),
        "float": (lambda v: np.where(v == 1, 1.0, 0.5), 1),
    }
    f, pos = convert[kind]
    pdf = FRAME.assign(label=f(y), pred=f(p))
    sdf = spark.createDataFrame(pdf).repartition(2)
    r = both_paths(sdf, label="label", pred="pred", sensitive=["group"], pos_label=pos,
                   weight="w")
    assert r.input.positive_label == {"str": "yes", "bool": "true", "int": "7", "float": "1"}[kind]


def test_declared_negative_and_spellings(spark):
    # "1" / "1.0" and "0" / "0.0" spell the same two values; groupBy keeps them apart, the
    # label coder joins them.
    pdf = FRAME.assign(label=np.where(FRAME["label"] == 1, "1", "0.0"),
                       pred=np.where(FRAME["pred"] == 1, "1.0", "0"))
    sdf = spark.createDataFrame(pdf)
    both_paths(sdf, label="label", pred="pred", sensitive=["group"], neg_label=0)


def test_with_score_column(spark):
    sdf = spark.createDataFrame(FRAME).repartition(3)
    # (Integer weights: the extreme ones overflow the score sweep's f64 AUC sums on both paths.)
    for weight in (None, "iw"):
        r = both_paths(sdf, label="label", pred="pred", sensitive=["group"], score="score",
                       weight=weight)
        assert r.score_slice() is not None


def test_scores_counted_by_sql_equal_the_range_sweep(spark, monkeypatch):
    # Few distinct scores (rounded to 0.01), -0.0 beside 0.0, two sensitive columns: the score
    # aggregate swept on the driver gives the range-partitioned sweep's report bit for bit
    # (unweighted, and with integer weights, whose tied sums are exact either way).
    pdf = FRAME.assign(score=np.where(np.arange(len(FRAME)) % 7 == 0,
                                      np.where(np.arange(len(FRAME)) % 2 == 0, -0.0, 0.0),
                                      FRAME["score"]))
    sdf = spark.createDataFrame(pdf).repartition(3)
    import fairkit.spark as fs

    def refuse(*a, **k):
        raise AssertionError("the range sweep ran")

    for weight in (None, "iw"):
        kw = dict(label="label", pred="pred", sensitive=["group", "region"], score="score",
                  weight=weight, n_resamples=200)
        want = audit(sdf, _path="rows", **kw)
        with monkeypatch.context() as m:
            m.setattr(fs, "_score_pass", refuse)
            got = audit(sdf, **kw)  # auto: 600 rows, few scores
        assert got.report_json == want.report_json


def test_weighted_scores_counted_by_sql_are_close_to_the_range_sweep(spark):
    # Real-valued weights: the totals are exact on both paths; a tied score's weight sum is
    # rounded once here and added row by row there, so the last bits may differ.
    import json
    sdf = spark.createDataFrame(FRAME.assign(w=np.random.default_rng(2).uniform(0.1, 3.0,
                                                                             len(FRAME))))
    kw = dict(label="label", pred="pred", sensitive=["group"], score="score", weight="w",
              n_resamples=200)
    got = json.loads(audit(sdf, _path="sql", **kw).report_json)
    want = json.loads(audit(sdf, _path="rows", **kw).report_json)

    def numbers(x, path=""):
        if isinstance(x, dict):
            for k, v in x.items():
                yield from numbers(v, f"{path}.{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                yield from numbers(v, f"{path}[{i}]")
        elif isinstance(x, float):
            yield path, x

    a, b = dict(numbers(got)), dict(numbers(want))
    assert a.keys() == b.keys()
    timing = [k for k in a if "seconds" in k]
    for k in a.keys() - set(timing):
        assert a[k] == pytest.approx(b[k], rel=1e-12, abs=1e-12), k


def test_many_distinct_scores_take_the_range_sweep(spark, monkeypatch):
    import fairkit.spark as fs

    def refuse(*a, **k):
        raise AssertionError("the aggregate by score ran")

    kw = dict(label="label", pred="pred", sensitive=["group"], score="score", n_resamples=200)
    # Scores rounded to 0.01: the probe says few, but the aggregate has more cells than the
    # limit allows, so it is dropped and the range sweep runs.
    sdf = spark.createDataFrame(FRAME).repartition(2)
    want = audit(sdf, _path="rows", **kw)
    with monkeypatch.context() as m:
        m.setattr(fs, "SCORE_CELLS_LIMIT", 10)
        got = audit(sdf, **kw)
    assert got.report_json == want.report_json
    # Continuous scores: the probe says many, and the aggregate by score never runs.
    cont = spark.createDataFrame(FRAME.assign(score=np.random.default_rng(4).random(len(FRAME))))
    cols = AuditColumns("label", "pred", ("group",), "score")
    assert not fs.few_scores(cont, cols)
    assert fs.few_scores(sdf, cols)
    want = audit(cont, _path="rows", **kw)
    with monkeypatch.context() as m:
        m.setattr(fs, "counted_with_scores", refuse)
        got = audit(cont, **kw)
    assert got.report_json == want.report_json


def error_of(fn) -> str:
    with pytest.raises(FairkitError) as e:
        fn()
    return str(e.value)


BAD = {
    "third label": (lambda d: d.assign(label=np.where(np.arange(len(d)) == 11, 2, d["label"])),
                    {}, "row path"),
    "null label": (lambda d: d.assign(label=d["label"].astype("Int64").where(
        np.arange(len(d)) != 5, pd.NA)), {}, "row path"),
    "null group": (lambda d: d.assign(group=d["group"].where(np.arange(len(d)) != 3, None)),
                   {}, "row path"),
    "NaN weight": (lambda d: d.assign(w=np.where(np.arange(len(d)) == 8, np.nan, d["w"])),
                   {"weight": "w"}, "a weight is missing, NaN, infinite or negative"),
    "negative weight": (lambda d: d.assign(w=np.where(np.arange(len(d)) == 9, -1.0, d["w"])),
                        {"weight": "w"}, "a weight is missing, NaN, infinite or negative"),
    "infinite weight": (lambda d: d.assign(w=np.where(np.arange(len(d)) == 9, np.inf, d["w"])),
                        {"weight": "w"}, "a weight is missing, NaN, infinite or negative"),
    "null weight": (lambda d: d.assign(w=d["w"].where(np.arange(len(d)) != 4, None)),
                    {"weight": "w"}, "a weight is missing, NaN, infinite or negative"),
    "infinite score": (lambda d: d.assign(score=np.where(np.arange(len(d)) == 7, np.inf,
                                                         d["score"])),
                       {"score": "score"}, "a score is missing, NaN or infinite"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_rows_give_the_row_path_message(spark, case):
    make, extra, why = BAD[case]
    sdf = spark.createDataFrame(make(FRAME)).repartition(2)
    kw = dict(label="label", pred="pred", sensitive=["group"], **extra)
    want = error_of(lambda: audit(sdf, _path="rows", **kw))
    assert want.startswith("Spark partition") and "row " in want
    assert error_of(lambda: audit(sdf, **kw)) == want
    # The count detects it (and only detects it).
    sql = error_of(lambda: audit(sdf, _path="sql", **kw))
    assert sql.startswith("the Spark SQL count cannot audit these rows")
    if why != "row path":
        assert why in sql
    else:
        # The decoder refused an aggregate row: its message names the value, not a row.
        assert "the DataFrame" in sql


def test_negative_zero_label_takes_the_row_path(spark):
    # groupBy merges -0.0 with 0.0; the label coder reads them as two values: "-0" is a third.
    pdf = FRAME.assign(label=FRAME["label"].astype(float), pred=FRAME["pred"].astype(float))
    pdf.loc[17, "label"] = -0.0
    sdf = spark.createDataFrame(pdf)
    kw = dict(label="label", pred="pred", sensitive=["group"])
    want = error_of(lambda: audit(sdf, _path="rows", **kw))
    assert "'-0'" in want
    assert error_of(lambda: audit(sdf, **kw)) == want
    assert "-0.0" in error_of(lambda: audit(sdf, _path="sql", **kw))
    # Only -0.0 and 1.0: a valid pair, audited by the row path.
    only = pdf.assign(label=np.where(pdf["label"] == 1, 1.0, -0.0), pred=1.0)
    sdf = spark.createDataFrame(only)
    assert audit(sdf, **kw).report_json == audit(sdf, _path="rows", **kw).report_json


def test_empty_frame_message_unchanged(spark):
    empty = spark.createDataFrame(FRAME).filter("label > 5")
    kw = dict(label="label", pred="pred", sensitive=["group"], weight="w")
    assert error_of(lambda: audit(empty, **kw)) == error_of(lambda: audit(empty, _path="rows",
                                                                          **kw))
    with pytest.raises(FairkitError, match="_path must be"):
        audit(empty, _path="fast", **kw)


def test_counted_state_refuses_unusable_aggregates():
    L = core.COUNT_LAYOUT
    base = {"y": pa.array([1, 0], pa.int64()), "p": pa.array([1, 1], pa.int64()),
            "g": pa.array(["a", "b"]), L["rows"]: pa.array([3, 2], pa.int64())}
    weighted = dict(base, **{L["key"]: pa.array([-53, -53], pa.int64()),
                             L["weight_high"]: pa.array([1, None], pa.int64()),
                             L["weight_low"]: pa.array([0, 0], pa.int64()),
                             L["square_high"]: pa.array([0, 0], pa.int64()),
                             L["square_low"]: pa.array([0, 0], pa.int64()),
                             L["square_top"]: pa.array([0, 0], pa.int64())})
    s = core.CountedState("y", "p", ["g"], True, "1")
    assert "2^63" in s.add(pa.RecordBatch.from_pydict(weighted))
    third = dict(base, y=pa.array([0, 5], pa.int64()))
    assert "'5'" in core.CountedState("y", "p", ["g"], False, "1").add(
        pa.RecordBatch.from_pydict(third))
    flagged = dict(base, **{L["key"]: pa.array([0, L["bad_score"]], pa.int64())})
    assert "score" in core.CountedState("y", "p", ["g"], False, "1").add(
        pa.RecordBatch.from_pydict(flagged))
    ok = core.CountedState("y", "p", ["g"], False, "1")
    assert ok.add(pa.RecordBatch.from_pydict(base)) is None
    names, negative, rows = core.state_info(bytes(ok.to_bytes()))
    assert (names, negative, rows) == (["a", "b"], "0", 5)


# -- continuous scores: the range sweep, its ranges' totals counted by Spark SQL -----------------

def continuous(seed: int, n: int = 900) -> pd.DataFrame:
    """All-distinct scores but for a few ties, -0.0 beside 0.0, and a score equal to a likely
    range cut (0.5) several times."""
    pdf = frame(seed, n)
    rng = np.random.default_rng(seed + 100)
    s = rng.random(n)
    s[::50] = 0.5
    s[1::97] = -0.0
    s[2::97] = 0.0
    return pdf.assign(score=s)


@pytest.mark.parametrize("n_partitions,ranges", [(1, None), (3, None), (4, 1), (3, 7), (5, 200)])
@pytest.mark.parametrize("weight", [None, "iw"])
def test_continuous_scores_equal_one_machine_bit_for_bit(spark, monkeypatch, n_partitions,
                                                         ranges, weight):
    # Unweighted and with integer weights (exact tied sums either way), any number of ranges —
    # one, more than the partitions, nearly one per row — gives the single-machine report; the
    # SQL count gives every range's totals (the totals pass over the rows never runs), and the
    # row path, which runs it, gives the same report.
    import fairkit.spark as fs
    from fairkit import audit as audit_local

    pdf = continuous(n_partitions)
    sdf = spark.createDataFrame(pdf).repartition(n_partitions)
    kw = dict(label="label", pred="pred", sensitive=["group", "region"], score="score",
              weight=weight, n_resamples=200, score_partitions=ranges)
    want = audit_local(pdf, **{k: v for k, v in kw.items() if k != "score_partitions"})

    def refuse(*a, **k):
        raise AssertionError("the totals pass ran")

    with monkeypatch.context() as m:
        m.setattr(fs, "score_range_totals", refuse)
        got = audit(sdf, **kw)
    assert got == want
    assert audit(sdf, _path="rows", **kw) == want


def test_continuous_weighted_scores_are_close_to_one_machine(spark):
    from fairkit import audit as audit_local

    pdf = continuous(9).assign(w=np.random.default_rng(4).uniform(0.1, 3.0, 900))
    kw = dict(label="label", pred="pred", sensitive=["group"], score="score", weight="w",
              n_resamples=200)
    got = audit(spark.createDataFrame(pdf).repartition(4), **kw)
    want = audit_local(pdf, **kw)
    for a, b in zip(got.score_slice().auc_by_group, want.score_slice().auc_by_group):
        assert a.group == b.group and a.auc == pytest.approx(b.auc, rel=1e-12, abs=1e-15)
    assert got.score_slice().ks_dp.value == pytest.approx(want.score_slice().ks_dp.value,
                                                          rel=1e-12, abs=1e-15)
    assert got.input.rows == 900


def test_a_bad_score_is_named_by_the_row_path(spark):
    pdf = continuous(2).astype({"score": float})
    pdf.loc[417, "score"] = np.nan
    with pytest.raises(FairkitError, match=r"row \d+, column 'score'"):
        audit(spark.createDataFrame(pdf).repartition(2), label="label", pred="pred",
              sensitive=["group"], score="score", n_resamples=100)


def test_range_numbers():
    # Descending cuts: range 0 holds the scores >= cuts[0]; a score equal to a cut goes up.
    from fairkit.spark._counts import range_sql

    assert range_sql("s", []) == "CAST(0 AS INT)"
    sql = range_sql("s", [0.5, 0.2, 0.0])
    assert sql.count("CASE WHEN") == 3


def test_range_numbers_in_spark(spark):
    from pyspark.sql import functions as F
    from fairkit.spark._counts import range_sql

    cuts = [0.5, 0.2, 0.0]
    scores = [0.9, 0.5, 0.3, 0.2, 0.1, 0.0, -0.0, -1.0]
    got = spark.createDataFrame(pd.DataFrame({"s": scores})) \
        .select(F.expr(range_sql("s", cuts)).alias("r")).toPandas()["r"].tolist()
    assert got == [0, 0, 1, 1, 2, 2, 2, 3]


@pytest.mark.parametrize("n", [1, 2, 3, 8, 17])
def test_each_range_gets_a_partition_of_its_own(spark, n):
    from pyspark.sql import functions as F
    from fairkit.spark import _partition_keys

    keys = F.array(*[F.lit(k) for k in _partition_keys(spark, n)])
    parts = spark.range(0, 5 * n).select((F.col("id") % n).cast("int").alias("r")) \
        .repartition(n, F.element_at(keys, F.col("r") + 1)) \
        .select("r", F.spark_partition_id().alias("p")).distinct().collect()
    assert sorted((int(r), int(p)) for r, p in parts) == [(r, r) for r in range(n)]


def _unknown_frame() -> pd.DataFrame:
    df = FRAME.copy()
    g = df["group"].astype(object)
    g.iloc[::7] = None
    g.iloc[3::11] = "NA"
    g.iloc[5::13] = ""
    df["group"] = g
    return df


def _unknown_parts(doc: dict) -> tuple:
    return doc["unknowns"], doc["audits"], doc["headline"], doc.get("score_metrics")


@pytest.mark.parametrize("handling", ["as-group", "exclude"])
def test_unknowns_same_everywhere(spark, tmp_path, handling):
    # Issue 43: the unknowns block and every rate, gap and score metric are the same on pandas,
    # a CSV file, and Spark (SQL count and row path, several partitionings), bit for bit.
    df = _unknown_frame()
    # Integer weights: the range-partitioned score sweep of extreme float weights is only close
    # to one pass (test_weighted_scores_counted_by_sql_are_close_to_the_range_sweep).
    kw = dict(label="label", pred="pred", sensitive=["group", "region"], weight="iw",
              score="score", n_resamples=200, unknowns=handling, unknown_values=["NA"])
    import fairkit

    want = fairkit.audit(df, **kw).document
    u = want["unknowns"]
    unknown = df["group"].isna() | df["group"].isin(["NA", ""])
    assert u["handling"] == handling and u["columns"][0]["rows"] == int(unknown.sum())
    assert u["columns"][1]["rows"] == 0 and u["slices"][2]["rows"] == int(unknown.sum())
    assert u["excluded_rows"] == (int(unknown.sum()) if handling == "exclude" else 0)
    groups = [g["group"] for g in want["audits"][0]["slices"][0]["groups"]]
    assert ("(unknown)" in groups) == (handling == "as-group")
    path = tmp_path / "u.csv"
    df.to_csv(path, index=False)
    assert _unknown_parts(fairkit.audit(str(path), **kw).document) == _unknown_parts(want)
    for parts, paths in ((1, ("sql",)), (3, ("sql", "rows"))):
        sdf = spark.createDataFrame(df).repartition(parts)
        for p in paths:
            got = audit(sdf, _path=p, **kw).document
            assert _unknown_parts(got) == _unknown_parts(want), (parts, p)


def test_unknowns_bad_inputs_same_everywhere(spark, tmp_path):
    import fairkit

    df = pd.DataFrame({"label": [1, 0, 1, 0], "pred": [1, 0, 0, 1],
                       "group": pd.array([1, None, 2, 99], dtype="Int64")})
    sdf = spark.createDataFrame(df.astype({"group": "float64"})).selectExpr(
        "label", "pred", "CAST(group AS BIGINT) AS group")
    path = tmp_path / "int.parquet"
    df.to_parquet(path)
    kw = dict(label="label", pred="pred", sensitive=["group"], n_resamples=200)
    for data in (df, sdf, str(path)):
        with pytest.raises(FairkitError, match="unknown_values=.*unknowns= as-group|"
                                               "unknown_values.*as-group"):
            fairkit.audit(data, unknown_values=["NA"], **kw)
        with pytest.raises(FairkitError, match="'NA'|\"NA\" is listed as an unknown value"):
            fairkit.audit(data, unknowns="exclude", unknown_values=["NA"], **kw)
        with pytest.raises(FairkitError, match="row 2.*unknowns= as-group"):
            fairkit.audit(data, **kw)
    # The integer code 99 is a value of the column: two rows kept out, on every front end.
    docs = [fairkit.audit(d, unknowns="exclude", unknown_values=[99], allow_single_group=True,
                          **kw).document["unknowns"] for d in (df, sdf, str(path))]
    assert docs[0]["excluded_rows"] == 2 and docs[0] == docs[1] == docs[2]
