"""fairkit.spark on a real local Spark (local[2], started here): the audit of a DataFrame equals the
single-machine audit bit for bit, whatever the partitioning, and bad input fails on the driver.

Needs pyspark, pyarrow and a Java runtime (``.ci/run`` installs one when ``java`` is missing);
these tests are not skipped when they are absent, they fail.
"""

from __future__ import annotations

import math
import statistics
import os
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import fairkit
from conformance_cases import SPARK_WEIGHTED_SCORE_HEADLINE
from fairkit import FairkitError
from fairkit._core import spark as core
from fairkit.metrics import demographic_parity_ks, partial_statistical_parity
from fairkit import AuditResult
from fairkit import audit as audit_local
from fairkit.spark import audit

# pyspark 4.3 warns about pandas 3 even on the Arrow-only path; createDataFrame(pandas) works.
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")


@pytest.fixture(scope="module")
def spark():
    # Executors must run this interpreter (the venv with fairkit), not whatever python3 is on PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("fairkit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        # Loopback only: CI machines may have hostnames that do not resolve.
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    # The bad-value tests make executors fail on purpose; keep their Java stack traces out of the
    # log (the assertions check the messages that reach the driver).
    session.sparkContext.setLogLevel("FATAL")
    yield session


def assert_nested_close(a, b, rel=1e-12, path="scores"):
    """Equal structure, equal non-floats, floats within ``rel`` (relative, absolute near 0)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, float) and isinstance(b, float), path
        assert math.isclose(a, b, rel_tol=rel, abs_tol=rel), f"{path}: {a!r} vs {b!r}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for k in a:
            assert_nested_close(a[k], b[k], rel, f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_nested_close(x, y, rel, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


def without_score_metrics(r: AuditResult) -> dict:
    """The report without what the weighted score metrics change in the last bits: the score
    metrics, the score headline keys and the summary sentences (which quote them)."""
    d = r._comparable()
    d.pop("score_metrics")
    d.pop("summary")
    d["headline"] = {k: v for k, v in d["headline"].items()
                     if k not in ("auc_difference", "ks_dp", "ks_eo", "psp")}
    return d


def random_frame(seed: int, n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    y = rng.integers(0, 2, n)
    # Scores rounded to 2 decimals: many ties, inside and across partitions.
    s = np.round(np.clip(rng.normal(0.4 + 0.2 * y + 0.05 * (g == "m"), 0.2), 0, 1), 2)
    return pd.DataFrame(
        {
            "id": np.arange(n),
            "label": y,
            "pred": (s > 0.5).astype(np.int64),
            "group": g,
            "region": rng.integers(0, 3, n),
            "score": s,
            "w": rng.uniform(0.1, 3.0, n),
        }
    )


FRAME = random_frame(1)
KW = dict(label="label", pred="pred", sensitive=["group"], score="score", n_resamples=300, seed=7)


def partitioned(spark, pdf: pd.DataFrame, n: int):
    sdf = spark.createDataFrame(pdf)
    if n == 17:
        # Hash-partition 3 groups into 17 partitions: at least 14 partitions are empty.
        return sdf.repartition(17, "group")
    return sdf.repartition(n)


@pytest.mark.parametrize("n_partitions", [1, 3, 17])
@pytest.mark.parametrize("weighted", [False, True])
def test_equals_single_machine_bit_for_bit(spark, n_partitions, weighted):
    sdf = partitioned(spark, FRAME, n_partitions)
    assert sdf.rdd.getNumPartitions() == n_partitions
    if n_partitions == 17:
        sizes = sdf.rdd.glom().map(len).collect()
        assert sizes.count(0) >= 14
    kw = dict(KW, weight="w" if weighted else None)
    got = audit(sdf, **kw)
    want = audit_local(FRAME, **kw)
    assert (got.input.format, want.input.format) == ("spark", "arrow")
    if weighted:
        # Weighted score metrics start each score range from exactly rounded totals instead of
        # a running float sum, and (few distinct scores, as here) a tied score's weights are
        # summed exactly and rounded once instead of added one by one: equal up to rounding.
        # Everything else is bit for bit.
        assert_nested_close(got.document["score_metrics"], want.document["score_metrics"])
        assert without_score_metrics(got) == without_score_metrics(want)
    else:
        assert got == want
    assert got.input.rows == len(FRAME)
    assert got.settings.weighted is weighted


def test_single_machine_matches_independent_computation():
    # Partial parity only when asked (the command's --interval; no default interval).
    r = audit_local(FRAME, **dict(KW, weight="w"), partial_interval=(0.0, 1.0))
    (only,) = r.slices  # one sensitive column: its slice is the finest
    assert only == r.finest and only.slice == "group" and only.attributes == ("group",)
    z = statistics.NormalDist().inv_cdf(0.975)
    scores = r.score_slice()
    assert scores == r.score_slice("group")
    for key, sub in FRAME.groupby("group"):
        g = r.finest.group(key)
        assert g.rows == len(sub)
        w = sub["w"].to_numpy()
        sel = np.sum(w * sub["pred"]) / np.sum(w)
        assert g.rates["selection_rate"].value == pytest.approx(sel, rel=1e-12)
        pos = sub["label"] == 1
        tpr = np.sum(w[pos] * sub["pred"][pos]) / np.sum(w[pos])
        assert g.rate("true_positive_rate") == pytest.approx(tpr, rel=1e-12)
        assert g.counts.tp == pytest.approx(np.sum(w[pos] * sub["pred"][pos]), rel=1e-12)
        # Wilson's interval on Kish's effective n of the denominator (all rows of the group).
        n = w.sum() ** 2 / (w**2).sum()
        centre = (sel + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(sel * (1 - sel) / n + z * z / (4 * n * n))
        est = g.rates["selection_rate"]
        assert est.lower == pytest.approx(centre - half, rel=1e-9)
        assert est.upper == pytest.approx(centre + half, rel=1e-9)
        auc = roc_auc_score(sub["label"], sub["score"], sample_weight=w)
        (ga,) = [a for a in scores.auc_by_group if a.group == key]
        assert ga.auc == pytest.approx(auc, rel=1e-12)
    ks = demographic_parity_ks(FRAME["score"], sensitive_features=FRAME["group"],
                               sample_weight=FRAME["w"])
    assert scores.ks_dp.value == pytest.approx(ks.value, abs=1e-12)
    top = partial_statistical_parity(FRAME["score"], sensitive_features=FRAME["group"],
                                     sample_weight=FRAME["w"], interval=(0.0, 1.0))
    assert scores.psp.value == pytest.approx(top.value, abs=1e-12)
    gap = r.gap("dp_difference")
    by = [v for v in r.finest.rate("selection_rate").values()]
    assert gap.key == "dp_difference" and gap.kind == "difference"
    assert gap.value == pytest.approx(max(by) - min(by), abs=1e-12)
    assert 0 < gap.p_value <= 1 and gap.lower <= gap.value <= gap.upper
    # fairlearn's names are aliases of the report keys.
    assert r.gap("demographic_parity_difference") == gap
    assert r.gap("equalized_odds_difference") == r.finest.gaps["eq_odds_difference"]
    assert set(r.finest.gaps) == {"dp_difference", "dp_ratio", "eo_difference", "eo_ratio",
                                  "eq_odds_difference", "eq_odds_ratio", "accuracy_difference",
                                  "accuracy_ratio"}
    assert r.headline["dp_difference"].value == gap.value
    assert r.headline["ks_dp"].value == scores.ks_dp.value
    assert r.settings.interval == (0.0, 1.0) and r.settings.rate_ci_method == "wilson"
    assert r.input.columns.sensitive == ("group",) and r.summary
    assert r.document == __import__("json").loads(r.report_json)
    with pytest.raises(KeyError, match="unknown gap 'dp'"):
        r.gap("dp")
    with pytest.raises(KeyError, match="no slice 'race'"):
        r.slice("race")


def test_group_in_only_one_partition_and_skew(spark):
    pdf = FRAME.copy()
    # Group "z" only in the last ids; range partitioning by id puts all of it in one partition.
    pdf.loc[pdf["id"] >= len(pdf) - 25, "group"] = "z"
    sdf = spark.createDataFrame(pdf).repartitionByRange(5, "id")
    per_partition = sdf.rdd.glom().map(lambda rows: sum(r["group"] == "z" for r in rows)).collect()
    assert sorted(per_partition)[-1] == 25 and sum(x > 0 for x in per_partition) == 1
    got = audit(sdf, **KW, partial_interval=(0.0, 0.3))
    assert got == audit_local(pdf, **KW, partial_interval=(0.0, 0.3))
    assert got.finest.group("z").rows == 25
    # Skewed: nearly everything in one partition, a few rows in the others.
    keyed = pdf.assign(k=np.where(pdf["id"] % 50 == 0, pdf["id"], 0))
    skew = spark.createDataFrame(keyed).repartitionByRange(4, "k")
    sizes = sorted(skew.rdd.glom().map(len).collect())
    assert sizes[-1] > 0.9 * len(pdf)
    assert audit(skew, **KW) == audit_local(pdf, **KW)


def test_intersectional_groups_and_bool_labels(spark):
    pdf = FRAME.assign(label=FRAME["label"] == 1, pred=FRAME["pred"] == 1)
    kw = dict(label="label", pred="pred", sensitive=["group", "region"], pos_label=True)
    got = audit(spark.createDataFrame(pdf).repartition(3), **kw)
    assert got == audit_local(pdf, **kw)
    assert [s.slice for s in got.slices] == ["group", "region", "group & region"]
    assert got.finest == got.slice("group & region") and got.finest.attributes == tuple(kw["sensitive"])
    assert "f & 0" in got.finest.names and len(got.finest.groups) == 9
    sub = pdf[(pdf["group"] == "x") & (pdf["region"] == 2)]
    assert got.finest.rate("selection_rate")["x & 2"] == pytest.approx(sub["pred"].mean(),
                                                                      rel=1e-12)
    assert got.slice("region").group("2").rows == (pdf["region"] == 2).sum()


def test_disparities_from_spark_equal_the_local_audit(spark):
    """Aequitas' disparity frame of a Spark audit (weighted, a named reference, tau) is the
    single-machine audit's, and report.json carries the options."""
    pdf = FRAME
    kw = dict(label="label", pred="pred", sensitive=["group", "region"], weight="w",
              disparity_reference={"group": "x"}, tau=0.9, n_resamples=100)
    got = audit(spark.createDataFrame(pdf).repartition(3), **kw)
    want = audit_local(pdf, **kw)
    assert got == want
    d = got.disparities()
    pd.testing.assert_frame_equal(d, want.disparities(), check_exact=True)
    assert got.document["settings"]["disparity"]["reference"] == ["largest", "group=x"]
    assert set(d[d["attribute_name"] == "group"]["fpr_ref_group_value"]) == {"x"}
    assert list(d["attribute_name"].unique()) == ["group", "region", "group & region"]


def test_string_labels_with_pos_label(spark):
    pdf = FRAME.assign(label=np.where(FRAME["label"] == 1, "yes", "no"),
                       pred=np.where(FRAME["pred"] == 1, "yes", "no"))
    kw = dict(label="label", pred="pred", sensitive=["group"], pos_label="yes")
    got = audit(spark.createDataFrame(pdf).repartition(3), **kw)
    want = audit_local(FRAME, label="label", pred="pred", sensitive=["group"])
    assert got.slices == want.slices
    assert got.input.positive_label == "yes" and want.input.positive_label == "1"


def test_merge_is_order_free_and_rejects_garbage():
    parts = [FRAME.iloc[i::4] for i in range(4)]
    import pyarrow as pa
    from fairkit.spark._arrow import AuditColumns, score_decoder

    cols = AuditColumns("label", "pred", ("group",), "score", "w")
    states = []
    for p in parts:
        s = cols.state("part")
        for batch in pa.Table.from_pandas(p, preserve_index=False).to_batches():
            s.update(batch)
        states.append(s.to_bytes())
    a = core.merge_states(core.merge_states(states[0], states[1]), core.merge_states(states[2], states[3]))
    b = core.merge_states(states[3], core.merge_states(states[2], core.merge_states(states[1], states[0])))
    assert a == b
    with pytest.raises(FairkitError, match="magic|truncated"):
        core.merge_states(b"junk", states[0])
    # Parts that learned different negative labels hold three values in all: an error.
    yes = cols.state("one")
    yes.update(pa.RecordBatch.from_pandas(FRAME.iloc[:10].assign(label=7, pred=7), preserve_index=False))
    with pytest.raises(FairkitError, match="more than two values .* both '0' and '7'"):
        core.merge_states(states[0], yes.to_bytes())
    # Score segments merge from the highest score range down, and only so.
    names, negative, _ = core.state_info(a)
    index = {name: i for i, name in enumerate(names)}
    high, low = FRAME[FRAME["score"] > 0.5], FRAME[FRAME["score"] <= 0.5]
    segments, totals = [], []
    for part in (high, low):
        seg = core.ScoreSegment(True, True)
        seg.update_arrow(score_decoder(cols, names, negative, "part"),
                         pa.RecordBatch.from_pandas(part, preserve_index=False))
        segments.append(seg)
        totals.append(bytes(seg.totals()))
    everything = bytes(core.merge_score_totals(totals[0], totals[1]))
    above = [bytes(core.ScoreSegment(True, False).totals()), totals[0]]
    swept = [bytes(s.sweep(list(index), everything, ab, (0.0, 1.0)))
             for s, ab in zip(segments, above)]
    core.merge_segments(swept[0], swept[1])
    with pytest.raises(FairkitError, match="disjoint key ranges"):
        core.merge_segments(swept[1], swept[0])
    with pytest.raises(FairkitError, match="already swept"):
        segments[0].totals()


def test_bad_input_raises_on_the_driver(spark):
    sdf = spark.createDataFrame(FRAME)
    # The columns and types are checked on the driver, by the decoder the executors run, with the
    # `fairkit audit` command's rules and messages.
    with pytest.raises(FairkitError, match=r"column 'race' \(given by sensitive=\) is not in"):
        audit(sdf, label="label", pred="pred", sensitive=["race"])
    with pytest.raises(FairkitError, match=r"column 'weights' \(given by weight=\) is not in"):
        audit(sdf, label="label", pred="pred", sensitive=["group"], weight="weights")
    with pytest.raises(FairkitError, match=r"column 'group' has Parquet/Arrow type Utf8, but the score"):
        audit(sdf, label="label", pred="pred", sensitive=["region"], score="group")
    with pytest.raises(FairkitError, match=r"column 'w' has Parquet/Arrow type Float64, but a sensitive"):
        audit(sdf, label="label", pred="pred", sensitive=["w"])
    with pytest.raises(FairkitError, match=r"column 'pred' is given for both label= and pred="):
        audit(sdf, label="pred", pred="pred", sensitive=["group"])
    with pytest.raises(FairkitError, match="pyspark.sql.DataFrame"):
        audit(FRAME, label="label", pred="pred", sensitive=["group"])
    with pytest.raises(FairkitError, match="sensitive is empty"):
        audit(sdf, label="label", pred="pred", sensitive=[])
    with pytest.raises(FairkitError, match="ci_method"):
        audit(sdf, label="label", pred="pred", sensitive=["group"], ci_method="normal")


def test_bad_values_raise_the_executor_message_on_the_driver(spark):
    neg = FRAME.assign(w=np.where(FRAME["id"] == 1234, -1.0, FRAME["w"]))
    with pytest.raises(FairkitError, match=r"Spark partition \d+: row \d+, column 'w': weight -1(\.0)? is negative"):
        audit(spark.createDataFrame(neg).repartition(3), label="label", pred="pred",
              sensitive=["group"], weight="w")
    nan = FRAME.assign(score=np.where(FRAME["id"] == 7, np.inf, FRAME["score"]))
    with pytest.raises(FairkitError, match=r"Spark partition \d+: row \d+, column 'score': inf is not a finite"):
        audit(spark.createDataFrame(nan), **KW)
    nulls = FRAME.assign(group=FRAME["group"].where(FRAME["id"] != 3, None))
    with pytest.raises(FairkitError, match=r"Spark partition \d+: row \d+, column 'group': the value is missing"):
        audit(spark.createDataFrame(nulls), label="label", pred="pred", sensitive=["group"])
    third = FRAME.assign(label=np.where(FRAME["id"] == 11, 2, FRAME["label"]))
    with pytest.raises(FairkitError, match=r"column 'label': value '2' is neither the positive label '1'"):
        audit(spark.createDataFrame(third), label="label", pred="pred", sensitive=["group"])
    empty = spark.createDataFrame(FRAME).filter("id < 0")
    with pytest.raises(FairkitError, match=r"the data is empty \(no data rows\)"):
        audit(empty, label="label", pred="pred", sensitive=["group"])


def test_package_exports_spark_module():
    import fairkit.spark

    assert fairkit.spark.audit is audit
    assert isinstance(fairkit.__version__, str)


def test_the_local_audit_checks_its_input():
    with pytest.raises(FairkitError, match=r"Arrow table: column 'y' \(given by label=\) is not in"):
        audit_local(FRAME, label="y", pred="pred", sensitive=["group"])
    with pytest.raises(FairkitError, match="a pandas or polars DataFrame, a pyarrow Table, RecordBatch or RecordBatchReader"):
        audit_local([1, 2, 3], label="label", pred="pred", sensitive=["group"])
    with pytest.raises(FairkitError, match=r"Arrow table: the data is empty \(no data rows\)"):
        audit_local(FRAME.iloc[:0], label="label", pred="pred", sensitive=["group"])
    # The command's decoding rules: float labels 0.0/1.0 are two values; a third value is an
    # error naming the row, column and value.
    floats = audit_local(FRAME.assign(label=FRAME["label"].astype(float)), **KW)
    assert floats.slices == audit_local(FRAME, **KW).slices
    third = FRAME.assign(pred=np.where(FRAME["id"] == 41, 2, FRAME["pred"]))
    with pytest.raises(FairkitError, match=r"Arrow table: row 42, column 'pred': value '2' is neither"):
        audit_local(third, **KW)
    with pytest.raises(FairkitError, match=r"neither the positive label 'yes' nor the negative label '[01]'.*pos_label="):
        audit_local(FRAME, label="label", pred="pred", sensitive=["group"], pos_label="yes")
    with pytest.raises(FairkitError, match="partial_interval"):
        audit_local(FRAME, **KW, partial_interval=0.5)
    with pytest.raises(FairkitError, match="confidence"):
        audit_local(FRAME, **dict(KW, weight="w"), confidence=1.5)
    one = FRAME[FRAME["group"] == "f"]
    with pytest.raises(FairkitError, match=r'"group" has a single value, "f".*allow_single_group=True'):
        audit_local(one, label="label", pred="pred", sensitive=["group"])
    with pytest.raises(FairkitError, match="min_group_size: .*negative"):
        audit_local(FRAME, **KW, min_group_size=-1)
    with pytest.raises(FairkitError, match=r'"group" has 3 distinct values.*max_groups= 3'):
        audit_local(FRAME, **KW, max_groups=2)
    single = audit_local(one, label="label", pred="pred", sensitive=["group"],
                         allow_single_group=True)
    assert single.finest.names == ["f"]
    assert all(g.value is None and "at least two groups" in g.undefined_reason
               for g in single.finest.gaps.values())


# The old result model's numbers for `audit_local(FRAME, **KW)`, as python/src/spark/report.rs
# computed them before the schema-v1 report became the only model (same fair_metrics::ci calls).
OLD_GAPS = {
    "demographic_parity_difference": {
        "approximate": False, "estimate": 0.13779253224865312, "lower": 0.10016697919204164,
        "n_permutations": 300, "n_resamples": 300, "p_value": 0.0033222591362126247, "seed": 7,
        "upper": 0.1953356295922818},
    "equal_opportunity_difference": {
        "approximate": False, "estimate": 0.15236382866208353, "lower": 0.11603589430329568,
        "n_permutations": 300, "n_resamples": 300, "p_value": 0.0033222591362126247, "seed": 7,
        "upper": 0.2102505901426359},
    "equalized_odds_difference": {
        "approximate": False, "estimate": 0.15236382866208353, "lower": 0.1190031948327876,
        "n_permutations": 300, "n_resamples": 300, "p_value": 0.006644518272425249, "seed": 7,
        "upper": 0.2148791724189973},
}


def test_deprecated_aliases_give_the_old_numbers():
    r = audit_local(FRAME, **KW)
    with pytest.warns(FutureWarning, match=r"AuditResult.gaps is deprecated.*result.gap\("):
        assert r.gaps == OLD_GAPS
    with pytest.warns(FutureWarning, match="result.finest.names"):
        assert r.groups == ["f", "m", "x"]
    with pytest.warns(FutureWarning, match="rows"):
        assert r.rows == [1529, 1169, 302]
    with pytest.warns(FutureWarning, match=r"result.finest.rate\(name\)"):
        assert r.rate("selection_rate") == {
            "f": 0.47939829954218444, "m": 0.6013686911890505, "x": 0.46357615894039733}
    with pytest.warns(FutureWarning):
        rates = r.rates
    assert rates["true_positive_rate"]["effective_n"] == [775.0, 610.0, 146.0]
    assert rates["selection_rate"]["lower"] == [
        g.rates["selection_rate"].lower for g in r.finest.groups]
    with pytest.warns(FutureWarning, match=r"result.score_slice\(\)"):
        scores = r.scores
    assert scores["auc_by_group"] == [0.7484666723710105, 0.7912856682014136, 0.7741921320688444]
    assert scores["ks_equal_opportunity"]["value"] == 0.15484928609201476
    assert scores["ks_equal_opportunity"]["worst_pair"] == ("f", "m")
    for name, new, value in [("total_rows", "result.input.rows", 3000),
                             ("weighted", "result.settings.weighted", False),
                             ("confidence", "result.settings.confidence", 0.95),
                             ("ci_method", "result.settings.rate_ci_method", "wilson"),
                             ("sensitive", "result.input.columns.sensitive", ("group",)),
                             ("partial_interval", "result.settings.interval", (0.0, 1.0))]:
        with pytest.warns(FutureWarning, match=f"AuditResult.{name} is deprecated.*{new}"):
            assert getattr(r, name) == value
    with pytest.warns(FutureWarning, match="result.report_json"):
        old = r.to_json()
    with pytest.warns(FutureWarning, match="result.document"):
        assert r.to_dict() == __import__("json").loads(old)
    assert __import__("json").loads(old)["gaps"] == OLD_GAPS
    # Several sensitive columns: the old keys were tuples of the finest groups' values.
    two = audit_local(FRAME, **dict(KW, sensitive=["group", "region"]))
    with pytest.warns(FutureWarning):
        assert two.groups[:3] == [("f", "0"), ("f", "1"), ("f", "2")]
        assert two.rate("selection_rate")[("f", "0")] == 0.4697855750487329
        assert two.scores["groups"] == two.groups


def test_check_runs_fail_if_expressions():
    r = audit_local(FRAME, **KW)
    dp = r.headline["dp_difference"].value
    out = r.check(f"dp_difference > {dp - 0.01}")
    assert out.failed and out
    (one,) = out.outcomes
    assert one["failed"] and one["comparisons"][0]["actual"] == dp
    assert not r.check(f"dp_difference > {dp + 0.01}")
    assert r.check([f"dp_difference > {dp + 0.01}", "ks_dp > 0"]).failed
    assert r.check(f"dp_difference > {dp + 0.01}", "ks_dp > 0").failed
    with pytest.raises(FairkitError, match="ks_dp"):
        audit_local(FRAME, label="label", pred="pred", sensitive=["group"]).check("ks_dp > 0.1")
    with pytest.raises(FairkitError, match="dp_diff"):
        r.check("dp_diff > 0.1")
    # The Python alias table is check's (fair_audit::fail_if::ALIASES): each name gates the
    # headline of its report key, and the gap accessor answers it with that key's gap.
    from fairkit.spark._result import GAP_ALIASES

    for name, key in GAP_ALIASES.items():
        (o,) = r.check(f"{name} > -1").outcomes
        assert o["comparisons"][0]["actual"] == r.headline[key].value, name
        assert r.finest.gap(name).key == key


def test_fairlearn_names_are_refused_where_fairlearn_differs():
    # Group "x" has no positives: the report's EO gap leaves it out, fairlearn counts its TPR
    # as 0. The report key answers (with the note); fairlearn's name is refused, as in check.
    pdf = FRAME.assign(label=np.where(FRAME["group"] == "x", 0, FRAME["label"]))
    r = audit_local(pdf, label="label", pred="pred", sensitive=["group"], n_resamples=300)
    eo = r.gap("eo_difference")
    assert [u.group for u in eo.undefined_groups] == ["x"]
    assert eo.fairlearn_value is not None and eo.fairlearn_value != eo.value
    with pytest.raises(FairkitError, match="'x'"):
        r.gap("equal_opportunity_difference")
    with pytest.raises(FairkitError):
        r.check("equal_opportunity_difference > 0.5")
    assert r.gap("demographic_parity_difference") == r.gap("dp_difference")


PANDAS_FREE_JOB = r'''
import os, sys
os.environ["PYSPARK_PYTHON"] = sys.argv[1]
import pyarrow as pa
from pyspark.sql import SparkSession, functions as F
import fairkit.spark as fs

spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .getOrCreate())
spark.sparkContext.setLogLevel("FATAL")

def probe(batches):
    try:
        import pandas  # noqa: F401
        msg = "pandas importable"
    except ImportError as e:
        msg = str(e)
    for _ in batches:
        pass
    yield pa.RecordBatch.from_arrays([pa.array([msg])], names=["m"])

df = spark.range(0, 5000, numPartitions=3).select(
    (F.col("id") % 2).cast("int").alias("y"), (F.col("id") % 3 == 0).cast("int").alias("p"),
    F.concat(F.lit("g"), (F.col("id") % 4).cast("string")).alias("g"),
    ((F.col("id") * 7919 % 1000) / 1000.0).alias("s"))
print("EXECUTOR", sorted({r.m for r in df.mapInArrow(probe, "m string").collect()}))
r = fs.audit(df, label="y", pred="p", sensitive=["g"], score="s", n_resamples=200)
import fairkit
want = fairkit.audit(df.toArrow(), label="y", pred="p", sensitive=["g"], score="s",
                      n_resamples=200)
print("EQUAL", r == want)

import numpy as np
from fairkit.estimators import FairProjection
df = spark.range(0, 5000, numPartitions=3).select(
    (F.col("id") % 2).cast("int").alias("y"),
    F.concat(F.lit("g"), (F.col("id") % 4).cast("string")).alias("g"),
    (((F.col("id") % 7) + 1) / 10.0 + F.when(F.col("id") % 4 == 1, 0.05).otherwise(0.0)).alias("p1"))
df = df.withColumn("p0", 1.0 - F.col("p1"))
fp = fs.fit(FairProjection(constraints="statistical_parity", alpha=0.01), df,
            proba=["p0", "p1"], sensitive="g", label="y")
t = df.toArrow()
local = FairProjection(constraints="statistical_parity", alpha=0.01).fit(
    np.column_stack([t["p0"].to_numpy(), t["p1"].to_numpy()]), t["y"].to_numpy(),
    sensitive_features=t["g"].to_numpy(zero_copy_only=False))
print("FIT", float(np.max(np.abs(fp.lambda_ - local.lambda_))) <= 1e-9)
print("TRANSFORMED", fs.transform(df, fp, proba=["p0", "p1"], sensitive="g").count())
'''


def test_executors_need_no_pandas(tmp_path):
    """Executors whose Python cannot import pandas run the audit with its score passes, the
    FairProjection fit and transform (a fresh Spark in a subprocess,
    its workers started through a wrapper that puts a pandas-blocking package first on the path)."""
    import subprocess

    blocker = tmp_path / "blocker" / "pandas"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ImportError("pandas is blocked on executors")\n')
    wrapper = tmp_path / "python-without-pandas"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'PYTHONPATH={blocker.parent}${{PYTHONPATH:+:$PYTHONPATH}} exec "{sys.executable}" "$@"\n'
    )
    wrapper.chmod(0o755)
    job = tmp_path / "job.py"
    job.write_text(PANDAS_FREE_JOB)
    out = subprocess.run([sys.executable, str(job), str(wrapper)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "EXECUTOR ['pandas is blocked on executors']" in out.stdout
    assert "EQUAL True" in out.stdout
    assert "FIT True" in out.stdout
    assert "TRANSFORMED 5000" in out.stdout


# -- transform: a fitted FairProjection applied per partition ---------------------------------

def _projection_frame(seed: int, n: int = 2000):
    from fairkit.estimators import FairProjection

    rng = np.random.default_rng(seed)
    g = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    region = rng.integers(0, 2, n)
    logits = rng.normal(size=(n, 3)) + 1.2 * (g == "m")[:, None] * np.array([1.0, 0.0, -1.0])
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    y = proba.argmax(axis=1)
    fp = FairProjection(constraints="statistical_parity", alpha=0.02).fit(
        proba, y, sensitive_features={"group": g, "region": region}
    )
    pdf = pd.DataFrame({"id": np.arange(n), "group": g, "region": region,
                        "p": list(proba), "p0": proba[:, 0], "p1": proba[:, 1],
                        "p2": proba[:, 2]})
    return fp, pdf, proba


@pytest.mark.parametrize("n_partitions", [1, 3, 17])
@pytest.mark.parametrize("columns", ["array", "separate"])
def test_transform_equals_predict_proba_bit_for_bit(spark, n_partitions, columns):
    from fairkit.spark import transform

    fp, pdf, proba = _projection_frame(5)
    sdf = partitioned(spark, pdf, n_partitions)
    proba_cols = "p" if columns == "array" else ["p0", "p1", "p2"]
    out = transform(sdf, fp, proba=proba_cols, sensitive=["group", "region"])
    rows = sorted(out.select("id", "fair_proba").collect())
    got = np.array([r[1] for r in rows])
    expected = fp.predict_proba(proba, sensitive_features={"group": pdf["group"].to_numpy(),
                                                           "region": pdf["region"].to_numpy()})
    assert got.tobytes() == expected.tobytes()
    assert out.columns == [*sdf.columns, "fair_proba"]


def test_transform_bad_input_fails_clearly(spark):
    from fairkit.estimators import FairProjection
    from fairkit.spark import transform
    from sklearn.exceptions import NotFittedError

    fp, pdf, _ = _projection_frame(6, n=300)
    sdf = spark.createDataFrame(pdf)
    with pytest.raises(FairkitError, match="'q' is not in the DataFrame"):
        transform(sdf, fp, proba="q", sensitive=["group", "region"])
    with pytest.raises(FairkitError, match="must be an array of numbers"):
        transform(sdf, fp, proba="group", sensitive=["group", "region"])
    with pytest.raises(FairkitError, match="fitted with 3 classes"):
        transform(sdf, fp, proba=["p0", "p1"], sensitive=["group", "region"])
    with pytest.raises(FairkitError, match="already exists"):
        transform(sdf, fp, proba="p", sensitive=["group", "region"], output="p0")
    with pytest.raises(NotFittedError):
        transform(sdf, FairProjection(), proba="p", sensitive=["group"])
    # A group unseen at fit: fairkit's message inside Spark's error when the action runs.
    unseen = spark.createDataFrame(pdf.assign(group="zz"))
    with pytest.raises(Exception, match="not seen at fit"):
        transform(unseen, fp, proba="p", sensitive=["group", "region"]).collect()


# -- fair regression: the Wasserstein-barycenter post-processor on Spark ------------------------

def _regression_frame(seed: int, n: int = 2000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    region = rng.choice(["n", "s"], n)
    yhat = np.round(rng.normal(2.0 * (g == "m") + 0.5 * (region == "s"), 1.0), 2)
    return pd.DataFrame({"id": np.arange(n), "group": g, "region": region, "yhat": yhat,
                         "w": rng.uniform(0.5, 2.0, n)})


@pytest.mark.parametrize("n_partitions", [1, 7])
def test_wasserstein_fit_and_transform_equal_the_local_ones_bit_for_bit(spark, n_partitions):
    """fit on Spark = fit on the collected rows (the same model bytes), weighted, two attributes
    in sequence; transform on Spark = transform of the collected rows, every row's bits, at the
    fitted level and at another alpha; ties (predictions rounded to 0.01) included."""
    from fairkit.estimators import WassersteinPostProcessor
    from fairkit.spark import fit, transform

    pdf = _regression_frame(31)
    sdf = partitioned(spark, pdf, n_partitions)
    post = WassersteinPostProcessor(alpha=[0.0, 0.3])
    sens = {"group": pdf["group"].to_numpy(dtype=object),
            "region": pdf["region"].to_numpy(dtype=object)}
    local = clone_fit = WassersteinPostProcessor(**post.get_params()).fit(
        pdf["yhat"].to_numpy(), sens, sample_weight=pdf["w"].to_numpy())
    fitted = fit(post, sdf, pred="yhat", sensitive=["group", "region"], weight="w")
    assert fitted is not post and not hasattr(post, "model_")
    assert fitted.model_.to_bytes() == clone_fit.model_.to_bytes()
    for alpha in (None, 0.5):
        out = transform(sdf, fitted, pred="yhat", sensitive=["group", "region"], alpha=alpha)
        got = np.array([r[1] for r in sorted(out.select("id", "fair_pred").collect())])
        want = local.transform(pdf["yhat"].to_numpy(), sens, alpha=alpha)
        assert got.tobytes() == np.asarray(want, dtype=np.float64).tobytes()
    assert out.columns == [*sdf.columns, "fair_pred"]


def test_wasserstein_on_spark_bad_input_fails_clearly(spark):
    from fairkit.estimators import FairProjection, WassersteinPostProcessor
    from fairkit.spark import fit, transform
    from sklearn.exceptions import NotFittedError

    pdf = _regression_frame(32, n=300)
    sdf = spark.createDataFrame(pdf)
    post = WassersteinPostProcessor()
    with pytest.raises(FairkitError, match="pass pred="):
        fit(post, sdf, proba="yhat", sensitive="group")
    with pytest.raises(FairkitError, match="'q' not found"):
        fit(post, sdf, pred="q", sensitive="group")
    with pytest.raises(FairkitError, match="must be numeric"):
        fit(post, sdf, pred="group", sensitive="region")
    with pytest.raises(NotFittedError):
        transform(sdf, post, pred="yhat", sensitive="group")
    fitted = fit(post, sdf, pred="yhat", sensitive="group")
    with pytest.raises(FairkitError, match="pass pred="):
        transform(sdf, fitted, proba="yhat", sensitive="group")
    with pytest.raises(FairkitError, match="already exists"):
        transform(sdf, fitted, pred="yhat", sensitive="group", output="w")
    with pytest.raises(FairkitError, match="fitted with 1"):
        transform(sdf, fitted, pred="yhat", sensitive=["group", "region"])
    with pytest.raises(FairkitError, match="pred= and weight= are for"):
        fit(FairProjection(), sdf, proba="yhat", sensitive="group", weight="w")
    jittered = fit(WassersteinPostProcessor(sigma=1e-4), sdf, pred="yhat", sensitive="group")
    with pytest.raises(FairkitError, match="sigma=0"):
        transform(sdf, jittered, pred="yhat", sensitive="group")
    # A group unseen at fit: the local message inside Spark's error when the action runs.
    unseen = spark.createDataFrame(pdf.assign(group="zz"))
    with pytest.raises(Exception, match="zz"):
        transform(unseen, fitted, pred="yhat", sensitive="group").collect()


# -- fit: FairProjection fitted on a Spark DataFrame (one Spark job per dual pass) ---------------

def _fit_frame(seed: int, n: int = 3000) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    g = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    region = rng.integers(0, 2, n)
    logits = rng.normal(size=(n, 3)) + 1.2 * (g == "m")[:, None] * np.array([1.0, 0.0, -1.0])
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    # Labels drawn from the probabilities (so every (class, group) cell has mass), as strings.
    u = rng.uniform(size=n)[:, None]
    y = np.array(["a", "b", "c"])[(u > proba.cumsum(axis=1)).sum(axis=1).clip(0, 2)]
    pdf = pd.DataFrame({"id": np.arange(n), "group": g, "region": region, "label": y,
                        "p": list(proba), "p0": proba[:, 0], "p1": proba[:, 1], "p2": proba[:, 2]})
    return pdf, proba


FIT_FRAME, FIT_PROBA = _fit_frame(21)


# Each fit runs one Spark job per data pass (≈ 10–20 jobs), so every case runs at one
# partitioning; together they cover 1, 3 and 17 partitions (17: empty ones, and a group that
# lives in one partition only).
@pytest.mark.parametrize(("case", "n_partitions"), [("eo-labels-array", 17),
                                                    ("sp-plugin-columns", 3),
                                                    ("ce-intersectional", 1)])
def test_fit_equals_the_single_machine_fit(spark, case, n_partitions):
    from fairkit.estimators import FairProjection
    from fairkit.spark import fit, transform

    sdf = partitioned(spark, FIT_FRAME, n_partitions)
    if case == "eo-labels-array":
        est = FairProjection(constraints="equalized_odds", alpha=0.02)
        kw = dict(proba="p", sensitive="group", label="label")
        local = est.fit(FIT_PROBA, FIT_FRAME["label"].to_numpy(),
                        sensitive_features=FIT_FRAME["group"].to_numpy())
    elif case == "sp-plugin-columns":
        est = FairProjection(constraints="statistical_parity", alpha=0.01)
        kw = dict(proba=["p0", "p1", "p2"], sensitive=["group"], label=None)
        local = est.fit(FIT_PROBA, sensitive_features=FIT_FRAME["group"].to_numpy())
    else:
        est = FairProjection(constraints=["statistical_parity"], alpha=0.02,
                             divergence="cross_entropy")
        kw = dict(proba="p", sensitive=["group", "region"], label="label")
        local = est.fit(FIT_PROBA, FIT_FRAME["label"].to_numpy(),
                        sensitive_features={"group": FIT_FRAME["group"].to_numpy(),
                                            "region": FIT_FRAME["region"].to_numpy()})
    local_lambda = local.lambda_.copy()
    if n_partitions == 17:
        # Hash-partitioned by group: ≥ 14 empty partitions, each group in one partition only.
        assert sdf.rdd.glom().map(len).collect().count(0) >= 14
    unfitted = FairProjection(**est.get_params())
    got = fit(unfitted, sdf, **kw)
    assert not hasattr(unfitted, "lambda_")  # the estimator passed in is cloned, not fitted
    assert got.report_["status"] == local.report_["status"]
    assert list(got.classes_) == list(local.classes_)
    assert got.groups_ == local.groups_
    assert got.lambda_.shape == local_lambda.shape
    assert np.max(np.abs(got.lambda_ - local_lambda)) <= 1e-9
    assert got.report_["n_rows"] == len(FIT_FRAME)
    if n_partitions == 3:
        # The same partitioning gives the same bits on every run (partition-ordered merges).
        again = fit(FairProjection(**est.get_params()), sdf, **kw)
        assert again.lambda_.tobytes() == got.lambda_.tobytes()
    # The Spark-fitted projector works on one machine and in transform.
    sens = kw["sensitive"]
    features = ({s: FIT_FRAME[s].to_numpy() for s in sens} if isinstance(sens, list) and len(sens) > 1
                else FIT_FRAME["group"].to_numpy())
    fair = got.predict_proba(FIT_PROBA, sensitive_features=features)
    assert np.max(np.abs(fair - local.predict_proba(FIT_PROBA, sensitive_features=features))) < 1e-7
    if n_partitions == 3:
        out = transform(sdf, got, proba=kw["proba"], sensitive=sens)
        rows = sorted(out.select("id", "fair_proba").collect())
        assert np.array([r[1] for r in rows]).tobytes() == fair.tobytes()


def test_ordered_reduce_keeps_partition_order(spark):
    """The fit's merges: concatenation is associative but not commutative, so the result shows
    the order — partition order, directly on the driver and through executor blocks."""
    from fairkit.spark._fit import ordered_reduce

    rdd = spark.sparkContext.parallelize([bytes([i]) for i in range(17)], 17)
    assert rdd.glom().map(len).collect() == [1] * 17
    for fan_in in (None, 4, 5):
        assert ordered_reduce(rdd, lambda a, b: a + b, fan_in=fan_in) == bytes(range(17))
    empty = spark.sparkContext.parallelize([], 3)
    assert ordered_reduce(empty, lambda a, b: a + b) is None


def test_fit_bad_input_fails_clearly(spark):
    from fairkit.estimators import FairProjection
    from fairkit.spark import fit
    from sklearn.linear_model import LogisticRegression

    pdf = FIT_FRAME.head(400)
    sdf = spark.createDataFrame(pdf)
    est = FairProjection(constraints="statistical_parity")
    with pytest.raises(FairkitError, match="'q' is not in the DataFrame"):
        fit(est, sdf, proba="q", sensitive="group")
    with pytest.raises(FairkitError, match="must be an array of numbers"):
        fit(est, sdf, proba="group", sensitive="group")
    with pytest.raises(FairkitError, match="sensitive column 'p0' has type double"):
        fit(est, sdf, proba="p", sensitive="p0")
    with pytest.raises(FairkitError, match="label column 'p1' has type double"):
        fit(est, sdf, proba="p", sensitive="group", label="p1")
    with pytest.raises(FairkitError, match="dual solver"):
        fit(FairProjection(solver="admm"), sdf, proba="p", sensitive="group")
    with pytest.raises(FairkitError, match="estimator=None"):
        fit(FairProjection(LogisticRegression()), sdf, proba="p", sensitive="group")
    with pytest.raises(FairkitError, match="must be a fairkit.estimators.FairProjection"):
        fit(LogisticRegression(), sdf, proba="p", sensitive="group")
    with pytest.raises(FairkitError, match="pyspark.sql.DataFrame"):
        fit(est, pdf, proba="p", sensitive="group")
    with pytest.raises(FairkitError, match="no rows"):
        fit(est, sdf.limit(0), proba="p", sensitive="group")
    # Bad values are found by the executor that reads them and re-raised on the driver.
    bad = pdf.assign(p0=pdf["p0"] + 0.5)
    with pytest.raises(FairkitError, match="in a Spark partition: .*sum"):
        fit(est, spark.createDataFrame(bad), proba=["p0", "p1", "p2"], sensitive="group")
    ragged = pdf.assign(p=[np.array([0.5, 0.5])] + list(pdf["p"][1:]))
    with pytest.raises(FairkitError, match="lengths \\[2, 3\\]"):
        fit(est, spark.createDataFrame(ragged), proba="p", sensitive="group")
    two_labels = pdf.assign(label=np.where(pdf["label"] == "c", "b", pdf["label"]))
    with pytest.raises(FairkitError, match="2 distinct labels"):
        fit(est, spark.createDataFrame(two_labels), proba="p", sensitive="group", label="label")


# -- the command's report (schema-v1 JSON, markdown, HTML) from Spark -----------------------------

def fairkit_binary():
    """The `fairkit` command of this checkout (one finder, shared with the conformance suite)."""
    from conformance_cases import fairkit_binary as find

    return find()


def command_report(tmp_path, pdf: pd.DataFrame, weighted: bool) -> dict:
    import json
    import subprocess

    csv = tmp_path / "preds.csv"
    pdf.to_csv(csv, index=False)
    out = tmp_path / "cli"
    args = [fairkit_binary(), "audit", str(csv), "--label", "label", "--pred", "pred",
            "--score", "score", "--sensitive", "group,region", "--interval", "0.1,0.6",
            "--resamples", "300", "--seed", "7", "--format", "json", "--out", str(out), "--quiet"]
    if weighted:
        args += ["--weight", "w"]
    subprocess.run(args, check=True, capture_output=True)
    return json.loads((out / "report.json").read_text())


@pytest.mark.parametrize("weighted", [False, True])
def test_report_equals_the_command_report(spark, tmp_path, weighted):
    import json

    pdf = FRAME.assign(region=FRAME["region"].map(lambda r: f"r{r}"))
    cli = command_report(tmp_path, pdf, weighted)
    kw = dict(KW, sensitive=["group", "region"], weight="w" if weighted else None,
              partial_interval=(0.1, 0.6))
    got = audit(partitioned(spark, pdf, 3), **kw).report(formats=["json"])
    ours = json.loads(got["json"])
    assert ours["input"]["format"] == "spark" and ours["input"]["rows"] == len(pdf)
    for d in (ours, cli):
        d.pop("input")
    # Two columns and their intersection, named as the command names them.
    assert [s["slice"] for s in ours["audits"][0]["slices"]] == ["group", "region",
                                                                 "group & region"]
    if weighted:
        # Weighted score metrics start each score range from exactly rounded totals: equal up
        # to rounding (docs/spark.md). Counts, rates, intervals and gaps stay bit for bit.
        assert_nested_close(ours.pop("score_metrics"), cli.pop("score_metrics"))
        for d in (ours, cli):
            d["headline"] = {k: v for k, v in d["headline"].items()
                             if k not in SPARK_WEIGHTED_SCORE_HEADLINE}
            d.pop("summary")
    assert ours == cli


def test_report_files_validate_against_the_schema(tmp_path):
    import subprocess

    r = audit_local(FRAME, **dict(KW, sensitive=["group", "region"]))
    text = r.report(tmp_path / "out")
    for name in ("report.json", "report.md", "report.html"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    assert text["figures"], "report.md links its SVG figures"
    for rel, svg in text["figures"].items():
        assert (tmp_path / "out" / rel).read_text() == svg and svg.startswith("<svg")
    assert "<svg" in text["html"] and "figures/roc-group---region.svg" in text["markdown"]
    assert "figures/ccdf-group---region.svg" in text["figures"]
    check = subprocess.run([fairkit_binary(), "validate-report", str(tmp_path / "out" / "report.json")],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    only_json = r.report(formats="json")
    assert only_json["markdown"] is None and only_json["html"] is None
    assert only_json["json"] == text["json"]


def test_report_bad_input():
    r = audit_local(FRAME, **KW)
    with pytest.raises(FairkitError, match='unknown report format "pdf"'):
        r.report(formats=["json", "pdf"])
    bare = AuditResult(r.report_json)
    assert bare == r
    with pytest.raises(FairkitError, match="no state to build the report from"):
        bare.report()


# -- fairness over time and the paired comparison (issue 26) -------------------------------------

def test_by_and_against_on_spark_equal_the_single_machine_audit(spark):
    from test_over_time_python import frame

    pdf = frame()
    kw = dict(label="y", pred="p", sensitive=["sex"], n_resamples=300, seed=3)
    by = dict(by="scored_at", window="week", baseline="previous")
    for path, extra in (("auto", by), ("auto", dict(against="new")), ("rows", by)):
        got = audit(partitioned(spark, pdf, 3), _path=path, **kw, **extra)
        want = audit_local(pdf, **kw, **extra)
        assert got.over_time == want.over_time
        strip = lambda c: c and {k: v for k, v in c.items()  # noqa: E731
                                 if k not in ("before", "after")}
        assert strip(got.comparison) == strip(want.comparison)
        assert got.document["headline"] == want.document["headline"]
    # A Spark date column reads as its day, as on one machine.
    from pyspark.sql import functions as F

    dated = spark.createDataFrame(pdf).withColumn("scored_at", F.to_date("scored_at"))
    got = audit(dated, by="scored_at", window="month", **kw)
    assert got.over_time == audit_local(pdf, by="scored_at", window="month", **kw).over_time
    with pytest.raises(FairkitError, match="not_there"):
        audit(spark.createDataFrame(pdf), by="not_there", **kw)
    # A Spark timestamp (an instant) falls on its day in timezone=, as on one machine.
    import pandas as pd

    utc = pd.to_datetime(pdf["scored_at"]).dt.tz_localize("UTC") + pd.Timedelta(hours=4, minutes=30)
    zoned = pdf.assign(scored_at=utc)
    stamped = spark.createDataFrame(pdf).withColumn(
        "scored_at", F.to_utc_timestamp(F.to_timestamp(F.concat("scored_at", F.lit(" 04:30:00"))),
                                        spark.conf.get("spark.sql.session.timeZone")))
    for tz in ("America/New_York", "Asia/Tokyo"):
        got = audit(stamped, by="scored_at", window="week", timezone=tz, **kw)
        want = audit_local(zoned, by="scored_at", window="week", timezone=tz, **kw)
        assert got.over_time == want.over_time, tz


def test_fairkit_audit_sends_a_spark_frame_to_the_cluster(spark):
    """``fairkit.audit`` at the top level audits a Spark DataFrame on the cluster, equal to
    ``fairkit.spark.audit`` and to one machine."""
    import fairkit
    from test_over_time_python import frame

    pdf = frame()
    kw = dict(label="y", pred="p", sensitive=["sex"], n_resamples=200, seed=3)
    got = fairkit.audit(partitioned(spark, pdf, 3), **kw)
    assert got.document["audits"] == audit(partitioned(spark, pdf, 3), **kw).document["audits"]
    assert got.document["audits"] == audit_local(pdf, **kw).document["audits"]


def test_regression_audit_of_a_spark_dataframe_equals_one_machine(spark):
    """``fairkit.audit(sdf, target=…)``: the same report as the pandas frame's (and so the
    command's), where the rows came from aside."""
    import json

    import numpy as np
    import pandas as pd

    import fairkit

    rng = np.random.default_rng(5)
    n = 3000
    g = rng.choice(["a", "b", "c"], size=n)
    y = rng.normal(10, 2, size=n)
    pdf = pd.DataFrame({"y": y, "yhat": np.round(y + rng.normal(0.3 * (g == "b"), 1, n), 2),
                        "g": g, "s": rng.choice(["F", "M"], size=n),
                        "w": rng.integers(1, 4, size=n).astype(float)})
    sdf = spark.createDataFrame(pdf).repartition(3)
    options = dict(target="y", pred="yhat", sensitive=["g", "s"], weight="w", n_resamples=200)
    on_spark = json.loads(fairkit.audit(sdf, **options).report_json)
    local = json.loads(fairkit.audit(pdf, **options).report_json)
    assert on_spark["input"]["format"] == "spark" and on_spark["input"]["rows"] == n
    on_spark.pop("input"), local.pop("input")
    # The rows' order differs (Spark shuffled them): sums are exact and the sweep sorts, so the
    # report is the same bit for bit.
    assert on_spark == local
    with pytest.raises(fairkit.FairkitError, match="tree_depth"):
        fairkit.audit(sdf, tree_depth=2, **options)


def test_rankings_of_a_spark_dataframe_are_the_tables_audit(spark):
    # fairkit.audit(..., query=) collects the audited columns to the driver (the per-query
    # states are not merged across executors yet): the table's audit exactly.
    rows = pd.DataFrame({"q": ["a", "a", "a", "b", "b"], "pos": [1, 2, 3, 1, 2],
                         "g": ["x", "x", "y", "y", "x"], "rel": [2.0, 0.0, 1.0, 1.0, 1.0]})
    df = spark.createDataFrame(rows)
    kwargs = dict(query="q", rank="pos", sensitive=["g"], relevance="rel", n_resamples=200)
    b = fairkit.audit(df, **kwargs)
    assert b.ranking == fairkit.audit(rows, **kwargs).ranking
    assert b.document["input"]["format"] == "spark"
    with pytest.raises(FairkitError, match="no column 'qq'"):
        fairkit.audit(df, **{**kwargs, "query": "qq"})
