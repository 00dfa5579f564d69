"""``fairkit.spark.ll144``: the NYC Local Law 144 tables of a Spark DataFrame are
``fairkit.ll144``'s on the same rows — and the ``fairkit ll144`` command's CSVs — bit for bit,
at 1, 3 and 7 partitions, selecting and scoring, with and without weights (an excluded < 2 %
category and unknowns included), and bad input raises the same messages."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import fairkit
import fairkit.spark
from fairkit._core import FairkitError
from test_ll144 import _command, applicants
from test_spark import spark  # noqa: F401  (the module's local[2] Spark session fixture)

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")

KW = dict(sex="sex", race="race", unknown_values=["", "Unknown"])


def frame() -> pd.DataFrame:
    """The applicants of test_ll144 (Asian 1 %: excluded; unknown sex and race) with real-valued
    weights (their sums round differently in another order) and a continuous score."""
    df = applicants()
    rng = np.random.default_rng(7)
    df["w"] = 0.1 + rng.random(len(df)) * 3.7
    df["cont"] = np.round(rng.random(len(df)), 3)  # some ties
    return df


def same(spark_result, local) -> None:
    for name in ("sex", "race", "intersection"):
        assert spark_result.csv[name] == local.csv[name], name
    a, b = dict(spark_result.json), dict(local.json)
    assert a.pop("input") == "Spark DataFrame"
    b.pop("input")
    assert a == b


@pytest.mark.parametrize("weight", [None, "w"])
@pytest.mark.parametrize("tool", [("selected", "hired"), ("score", "score"), ("score", "cont")])
def test_tables_equal_fairkit_ll144_at_any_partitioning(spark, tool, weight):
    df = frame()
    kw = {tool[0]: tool[1], "weight": weight, **KW}
    local = fairkit.ll144(df, **kw)
    sdf = spark.createDataFrame(df)
    for n in (1, 3, 7):
        same(fairkit.spark.ll144(sdf.repartition(n), **kw), local)
    if tool[1] == "cont":
        # Ranges refined until the median's order statistics are single scores (a cells limit
        # of 5 forces two rounds at least), from 3 and 7 first ranges.
        for n in (3, 7):
            same(fairkit.spark.ll144(sdf.repartition(n), score_partitions=n, _cells_limit=5,
                                     **kw), local)


@pytest.mark.parametrize("tool", [("selected", "hired"), ("score", "cont")])
def test_tables_equal_the_commands_csvs(spark, tmp_path, tool):
    df = frame()
    path = tmp_path / "applicants.parquet"
    df.to_parquet(path, index=False)
    out = tmp_path / "cmd"
    p = _command("ll144", str(path), "--sex", "sex", "--race", "race", f"--{tool[0]}", tool[1],
                 "--weight", "w", "--unknown-values", ",Unknown", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    r = fairkit.spark.ll144(spark.createDataFrame(df).repartition(3), weight="w",
                            **{tool[0]: tool[1]}, **KW)
    for name in ("sex", "race", "intersection"):
        assert r.csv[name] == (out / f"ll144_{name}.csv").read_text()
    race = r.race.set_index("category")
    assert race.loc["Asian", "excluded"] and pd.isna(race.loc["Asian", "impact_ratio"])


def test_bad_input_gives_the_same_messages(spark):
    df = frame()
    sdf = spark.createDataFrame(df)

    def both(data, pattern, **kw):
        with pytest.raises(FairkitError, match=pattern) as local:
            fairkit.ll144(data, **KW, **kw)
        with pytest.raises(FairkitError, match=pattern) as remote:
            fairkit.spark.ll144(spark.createDataFrame(data).repartition(2), **KW, **kw)
        return str(local.value), str(remote.value)

    with pytest.raises(FairkitError, match="exactly one of selected="):
        fairkit.spark.ll144(sdf, **KW)
    with pytest.raises(FairkitError, match="exclude_below="):
        fairkit.spark.ll144(sdf, selected="hired", exclude_below=0.5, **KW)
    with pytest.raises(FairkitError, match="audit_date="):
        fairkit.spark.ll144(sdf, selected="hired", audit_date="2026-02-30", **KW)
    with pytest.raises(FairkitError, match=r"'ethnicity'.*race="):
        fairkit.spark.ll144(sdf, sex="sex", race="ethnicity", selected="hired")
    with pytest.raises(FairkitError, match="weight"):
        fairkit.spark.ll144(sdf.withColumn("w", sdf["w"].cast("string")), selected="hired",
                            weight="w", **KW)
    neg = df.copy()
    neg.loc[5, "w"] = -1.0
    local, remote = both(neg, "negative", selected="hired", weight="w")
    assert remote.startswith("Spark partition") and "column 'w'" in remote
    assert local.split(": ", 1)[1].split(",", 1)[1] == remote.split(": ", 1)[1].split(",", 1)[1]
    three = df.copy()
    three.loc[3, "hired"] = 2
    local, remote = both(three, "selected=", selected="hired")
    assert local.split(": ", 1)[1].split(",", 1)[1] == remote.split(": ", 1)[1].split(",", 1)[1]
    # A missing sex or race value is the unknown category "", as in a file.
    nulls = df.copy()
    nulls.loc[:4, "sex"] = None
    local = fairkit.ll144(nulls, selected="hired", **KW)
    same(fairkit.spark.ll144(spark.createDataFrame(nulls), selected="hired", **KW), local)
    assert local.sex.set_index("category").loc["", "unknown"]
