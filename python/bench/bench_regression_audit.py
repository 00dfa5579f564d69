"""Benchmark: ``fairkit audit --target`` (the regression audit of a Parquet file) beside what a
user runs today for the same per-group numbers, and beside fairkit's own classification audit
with scores on the same file, in the same run.

The file: ``--rows`` rows, 8 groups (``g0``..``g7``), a continuous target ``y``, a prediction
``yhat`` (rounded to 3 decimals, so values repeat as real scores do), weights ``w``, and for the
classification audit a binary label ``ybin`` (y above its median), a predicted label
``yhat_bin`` and the score ``yhat``. Timed, each the best of ``--repeat`` runs:

* ``fairkit audit --target`` — the command (the wheel's, compiled in release) on the file:
  every group's metrics with intervals, the gaps with intervals and p-values, the quantiles,
  the LL144 scoring rate, W1 and KS between every pair of groups, report.json only;
* ``fairkit audit --label --score`` — the classification audit with scores of the same file;
* ``pandas + scikit-learn + scipy`` — read the file, then per group scikit-learn's weighted
  MAE, MSE, R², numpy's weighted mean and median, and scipy's ``wasserstein_distance`` between
  every pair of groups (what the audit's numbers equal; no intervals, no KS weights in scipy).

Before timing is reported, the per-group MAE, MSE, R² and the pairwise W1 of the audit are
checked against pandas + scikit-learn + scipy (relative 1e-9). Run from the repository root in
the venv ``cargo xtask test`` builds:

    target/py-venv/bin/python python/bench/bench_regression_audit.py --rows 10000000
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def write_file(path: str, n: int, seed: int = 7) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    chunk = 2_000_000
    writer = None
    names = np.array([f"g{i}" for i in range(8)])
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        codes = rng.integers(0, 8, m)
        y = rng.normal(50 + codes, 10, m)
        yhat = np.round(y + rng.normal(0.5 * (codes % 3), 3.0, m), 3)
        table = pa.table({
            "y": y, "yhat": yhat, "g": names[codes], "w": rng.uniform(0.2, 3.0, m),
            "ybin": (y > 53.5).astype(np.int64), "yhat_bin": (yhat > 53.5).astype(np.int64),
        })
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema, compression="zstd")
        writer.write_table(table)
    writer.close()


# Runs the command in a child of its own and prints that child's peak RSS: the parent's
# RUSAGE_CHILDREN would be the largest of every command run so far.
_PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
         "sys.exit(r.returncode)")


def command(*args: str) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one `python -m fairkit` run."""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "fairkit", *args],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    return wall, int(p.stderr.strip().splitlines()[-1])


def pandas_sklearn(path: str):
    import pandas as pd
    from scipy.stats import wasserstein_distance
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    df = pd.read_parquet(path, columns=["y", "yhat", "g", "w"])
    out, values = {}, {}
    for name, part in df.groupby("g", sort=True):
        y, p, w = part["y"].to_numpy(), part["yhat"].to_numpy(), part["w"].to_numpy()
        out[name] = {
            "mean_absolute_error": mean_absolute_error(y, p, sample_weight=w),
            "mean_squared_error": mean_squared_error(y, p, sample_weight=w),
            "r2_score": r2_score(y, p, sample_weight=w),
            "mean_prediction": np.average(p, weights=w),
            "median": np.quantile(p, 0.5, method="inverted_cdf", weights=w),
        }
        values[name] = (p, w)
    per_group = time.perf_counter()
    w1 = {(a, b): wasserstein_distance(values[a][0], values[b][0], values[a][1], values[b][1])
          for a, b in itertools.combinations(sorted(values), 2)}
    return out, w1, per_group


def floor(path: str) -> tuple[float, float]:
    """What any exact audit of the file must at least do: read the four columns (pyarrow, all
    cores) and sort the predictions (numpy). Seconds each."""
    import pyarrow.parquet as pq

    t = time.perf_counter()
    table = pq.read_table(path, columns=["y", "yhat", "g", "w"])
    read = time.perf_counter() - t
    yhat = table.column("yhat").to_numpy()
    t = time.perf_counter()
    np.sort(yhat, kind="stable")
    return read, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--file", default=None, help="reuse (or keep) the generated file here")
    ap.add_argument("--holisticai-python", default=None,
                    help="a Python with holisticai: time its regression_bias_metrics too")
    args = ap.parse_args()
    d = tempfile.mkdtemp(prefix="fairkit-bench-")
    path = args.file or os.path.join(d, "rows.parquet")
    if not os.path.exists(path):
        write_file(path, args.rows)
    size = os.path.getsize(path) / 2**20
    out = os.path.join(d, "out")
    common = ["--sensitive", "g", "--weight", "w", "--format", "json", "--quiet", "--out", out]
    reg = min(command("audit", path, "--target", "y", "--pred", "yhat", *common)
              for _ in range(args.repeat))
    report = json.load(open(os.path.join(out, "report.json")))
    cls = min(command("audit", path, "--label", "ybin", "--pred", "yhat_bin", "--score", "yhat",
                      *common) for _ in range(args.repeat))
    best_pd, best_groups = float("inf"), float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        ref, w1, per_group = pandas_sklearn(path)
        best_pd = min(best_pd, time.perf_counter() - t)
        best_groups = min(best_groups, per_group - t)
    read_s, sort_s = (min(x) for x in zip(*(floor(path) for _ in range(args.repeat))))
    groups = {g["group"]: g for g in report["regression"]["slices"][0]["groups"]}
    for name, want in ref.items():
        for key in ("mean_absolute_error", "mean_squared_error", "r2_score", "mean_prediction"):
            got = groups[name]["metrics"][key]["value"]
            assert abs(got - want[key]) <= 1e-9 * max(1.0, abs(want[key])), (name, key)
        assert groups[name]["prediction_quantile"] == want["median"], name
    for pair in report["regression"]["slices"][0]["pairs"]:
        want = w1[tuple(pair["groups"])]
        assert abs(pair["wasserstein"] - want) <= 1e-9 * max(1.0, want), pair["groups"]
    print(f"{args.rows:,} rows, {size:.0f} MiB Parquet (zstd), 8 groups, weighted; "
          f"results checked equal (MAE, MSE, R², mean, median, pairwise W1)\n")
    print("| tool | wall (s) | peak RSS (MiB) |")
    print("|---|---:|---:|")
    print(f"| fairkit audit --target (regression) | {reg[0]:.2f} | {reg[1] / 1024:.0f} |")
    print(f"| fairkit audit --label --score (classification, same file) | {cls[0]:.2f} | "
          f"{cls[1] / 1024:.0f} |")
    print(f"| pandas + scikit-learn (read, per-group MAE/MSE/R²/mean/median) | "
          f"{best_groups:.2f} | — |")
    print(f"| pandas + scikit-learn + scipy (the same and pairwise W1) | {best_pd:.2f} | — |")
    if args.holisticai_python:
        here = os.path.dirname(os.path.abspath(__file__))
        h = json.loads(subprocess.run(
            [args.holisticai_python, os.path.join(here, "bench_regression_holisticai.py"), path,
             "--repeat", str(args.repeat)], capture_output=True, text=True, check=True).stdout)
        # The same two groups, unweighted (holisticai takes no weights), in the audit.
        plain = os.path.join(d, "plain")
        unweighted = min(command("audit", path, "--target", "y", "--pred", "yhat",
                                 "--sensitive", "g", "--format", "json", "--quiet", "--out",
                                 plain) for _ in range(args.repeat))
        doc = json.load(open(os.path.join(plain, "report.json")))
        gr = {x["group"]: x["metrics"] for x in doc["regression"]["slices"][0]["groups"]}
        v = lambda name, key: gr[name][key]["value"]  # noqa: E731
        checks = {
            "average_score_difference": v("g0", "mean_prediction") - v("g1", "mean_prediction"),
            "mae_ratio": v("g0", "mean_absolute_error") / v("g1", "mean_absolute_error"),
            "rmse_ratio": v("g0", "root_mean_squared_error") / v("g1", "root_mean_squared_error"),
        }
        for key, want in checks.items():
            assert abs(h[key] - want) <= 1e-9 * max(1.0, abs(want)), (key, h[key], want)
        print(f"| fairkit audit --target, unweighted (all 8 groups) | {unweighted[0]:.2f} | "
              f"{unweighted[1] / 1024:.0f} |")
        print(f"| holisticai regression_bias_metrics (2 groups, g0 vs g1, {h['rows']:,} rows; "
              f"file read excluded) | {h['seconds']:.2f} | — |")
    print(f"| floor: pyarrow reads the 4 columns | {read_s:.2f} | — |")
    print(f"| floor: numpy sorts the {args.rows:,} predictions | {sort_s:.2f} | — |")
    print(f"\nregression ÷ classification with scores: {reg[0] / cls[0]:.2f}×; "
          f"pandas + scikit-learn ÷ fairkit: {best_groups / reg[0]:.1f}× (per group), "
          f"{best_pd / reg[0]:.1f}× (with W1); 100× pandas + scikit-learn would be "
          f"{best_groups / 100:.3f} s, against {read_s + sort_s:.2f} s to read and sort")


if __name__ == "__main__":
    main()
