"""Benchmark of fairkit.spark.audit on local Spark (docs/benchmarks.md, "Spark").

    target/py-venv/bin/python python/bench/spark_audit.py --rows 10000000 [--cores 2] [--cache]

Synthetic rows (seeded): label, pred ~ Bernoulli, 4 groups, weight ~ U(0.1, 3), a score with
1,000 distinct values (``floor(rand · 1000) / 1000``; ``--score-gen round`` gives the earlier
tables' ``round(rand, 3)``, 1,001 values, whose ``BigDecimal`` rounding in Spark costs ≈ 1.8 s of
the score aggregate at 1e7 — the generator's cost, not the audit's), and a continuous score.
Times, each the best of --repeat runs:

* ``fairkit``      fairkit.spark.audit (counts + weights, no score): rates, intervals, gap inference,
                   the rates counted by Spark SQL (exact mantissa sums; no row leaves the JVM);
* ``fairkit_rows`` the same audit on the row-by-row path (``_path="rows"``: mapInArrow + Rust
                   decoder on every row, the only path before issue 28);
* ``fairkit_unweighted`` / ``fairkit_rows_unweighted`` / ``groupby_unweighted``: the same three
                   without the weight column;
* ``fairkit_score`` the same with the score column (exact AUC / KS / partial SP; 1,000 distinct
                   scores, so the rates and score cells come from one Spark SQL aggregate);
* ``fairkit_score_continuous`` the same with a continuous score ``rand(5)`` (all distinct: the
                   range sweep — ranges' totals from the SQL count, one shuffle, one Arrow pass);
* ``groupBy``      the plain PySpark aggregation a user would write for the same per-group rates
                   (selection, TPR, FPR, weighted), collected to the driver;
* ``arrow only``   mapInArrow with a function that only touches every batch's columns (the JVM →
                   Arrow → Python transfer that fairkit pays, without fairkit);
* ``scan``         a count of the source (the cost of producing the rows at all).

Also measures, outside Spark, the Rust per-core update throughput and the merge cost of two
partition states, for the on-paper cluster estimate.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def best_of(repeat, fn):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cache", action="store_true", help="cache the rows in memory first")
    ap.add_argument("--no-score", action="store_true", help="skip the audit with a score column")
    ap.add_argument("--score-gen", choices=["floor", "round"], default="floor",
                    help="the few-distinct score: floor(rand*1000)/1000 or round(rand, 3)")
    args = ap.parse_args()

    import pyarrow as pa
    import fairkit.spark as fs
    from fairkit._core import spark as core
    from pyspark.sql import functions as F

    from _spark import local_session

    spark = local_session(args.cores, args.partitions, "6g")
    df = (
        spark.range(0, args.rows, numPartitions=args.partitions)
        .select(
            (F.rand(1) < 0.4).cast("int").alias("label"),
            (F.rand(2) < 0.3).cast("int").alias("pred"),
            F.concat(F.lit("g"), (F.col("id") % 4).cast("string")).alias("group"),
            (F.lit(0.1) + F.rand(3) * 2.9).alias("w"),
            (F.round(F.rand(4), 3) if args.score_gen == "round"
             else F.floor(F.rand(4) * 1000) / 1000).alias("score"),
            F.rand(5).alias("score_c"),
        )
    )
    if args.cache:
        df = df.cache()
        df.count()

    out = {"rows": args.rows, "cores": args.cores, "partitions": args.partitions,
           "cached": args.cache, "score_gen": args.score_gen}
    kw = dict(label="label", pred="pred", sensitive=["group"], weight="w", n_resamples=2000)
    result = {}

    def run_fairkit():
        result["r"] = fs.audit(df, **kw)

    def run_fairkit_rows():
        fs.audit(df, _path="rows", **kw)

    unweighted = dict(kw, weight=None)

    def run_fairkit_unweighted():
        fs.audit(df, **unweighted)

    def run_fairkit_rows_unweighted():
        fs.audit(df, _path="rows", **unweighted)

    def run_groupby_unweighted():
        y, p = F.col("label"), F.col("pred")
        df.groupBy("group").agg(
            F.count("*").alias("n"),
            F.avg(p).alias("selection_rate"),
            (F.sum(p * y) / F.sum(y)).alias("tpr"),
            (F.sum(p * (1 - y)) / F.sum(1 - y)).alias("fpr"),
        ).collect()

    def run_fairkit_score():
        fs.audit(df, score="score", **kw)

    def run_fairkit_score_continuous():
        fs.audit(df, score="score_c", **kw)

    def run_groupby():
        w, y, p = F.col("w"), F.col("label"), F.col("pred")
        agg = df.groupBy("group").agg(
            F.count("*").alias("n"),
            (F.sum(w * p) / F.sum(w)).alias("selection_rate"),
            (F.sum(w * p * y) / F.sum(w * y)).alias("tpr"),
            (F.sum(w * p * (1 - y)) / F.sum(w * (1 - y))).alias("fpr"),
        )
        agg.collect()

    def touch(batches):
        n = 0
        for b in batches:
            for name in ("label", "pred", "group", "w"):
                col = b.column(name)
                n += len(col.buffers())
        yield pa.RecordBatch.from_arrays([pa.array([n], pa.int64())], names=["n"])

    def run_arrow_only():
        df.select("label", "pred", "group", "w").mapInArrow(touch, "n long").collect()

    def run_scan():
        df.select("label", "pred", "group", "w").agg(F.sum("w")).collect()

    for name, fn in [("scan", run_scan), ("arrow_only", run_arrow_only),
                     ("groupby", run_groupby), ("fairkit", run_fairkit),
                     ("fairkit_rows", run_fairkit_rows),
                     ("groupby_unweighted", run_groupby_unweighted),
                     ("fairkit_unweighted", run_fairkit_unweighted),
                     ("fairkit_rows_unweighted", run_fairkit_rows_unweighted),
                     ("fairkit_score", run_fairkit_score),
                     ("fairkit_score_continuous", run_fairkit_score_continuous)]:
        if name.startswith("fairkit_score") and args.no_score:
            continue
        t = best_of(args.repeat, fn)
        out[name + "_s"] = round(t, 3)
        out[name + "_rows_per_s"] = round(args.rows / t)
        print(name, t, flush=True)
    assert result["r"].input.rows == args.rows

    # Outside Spark: the Rust decode + fold of one core (a pyarrow batch through the Arrow C
    # Data Interface into fair_audit::ingest), and the merge of two partition states.
    import pyarrow as pa

    n = 1_000_000
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n).astype(bool)
    p = rng.integers(0, 2, n).astype(bool)
    w = rng.uniform(0.1, 3.0, n)

    def batch(k, weights):
        cols = {"y": y, "p": p,
                "g": pa.DictionaryArray.from_arrays(pa.array(np.arange(n) % k, pa.int32()),
                                                     pa.array([f"g{i}" for i in range(k)]))}
        if weights is not None:
            cols["w"] = weights
        return pa.RecordBatch.from_pydict(cols)

    def fold(b, weighted):
        s = core.PartitionState("y", "p", ["g"], None, "w" if weighted else None, "true")
        s.update(b)
        return s

    b4, b4w = batch(4, None), batch(4, w)
    out["rust_update_rows_per_s_unweighted"] = round(n / best_of(5, lambda: fold(b4, False)))
    out["rust_update_rows_per_s_weighted"] = round(n / best_of(5, lambda: fold(b4w, True)))
    for k in (4, 100):
        b = fold(batch(k, w), True).to_bytes()
        out[f"state_bytes_weighted_{k}_groups"] = len(b)
        reps = 200
        t = best_of(3, lambda: [core.merge_states(b, b) for _ in range(reps)])
        out[f"merge_us_weighted_{k}_groups"] = round(t / reps * 1e6, 1)
    print(json.dumps(out, indent=1))
    spark.stop()


if __name__ == "__main__":
    main()
