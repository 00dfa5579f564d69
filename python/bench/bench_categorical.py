"""Benchmark of issue 28's categorical goal: a pandas Categorical (or string) sensitive feature
against int64 ids in ``fairkit.metrics.demographic_parity_difference`` (the MetricFrame path),
same rows, same run.

Workload: N rows (default 1e7), 8 groups, 0/1 labels and predictions; the sensitive feature as
int64 ids, as a pandas Categorical of strings (bare and in a Series) and as an object array of
the same strings. Median of ``--reps`` calls each.

Run from the repository root in the venv of ``cargo xtask test``::

    target/py-venv/bin/python python/bench/bench_categorical.py [--rows 10000000]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd

import fairkit.metrics as fkm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    n = args.rows
    rng = np.random.default_rng(0)
    y, p, g = rng.integers(0, 2, n), rng.integers(0, 2, n), rng.integers(0, 8, n)
    names = [f"group{i}" for i in range(8)]
    cat = pd.Categorical.from_codes(g, names)
    inputs = {
        "int64 ids": g,
        "pandas Categorical": cat,
        "Series of a Categorical": pd.Series(cat),
        "object strings": np.asarray(names, dtype=object)[g],
    }
    want = fkm.demographic_parity_difference(y, p, sensitive_features=g)
    base = None
    print(f"| sensitive feature ({n:,} rows) | median of {args.reps} | × int64 |")
    print("|---|---|---|")
    for name, sf in inputs.items():
        times = []
        for _ in range(args.reps):
            t = time.perf_counter()
            got = fkm.demographic_parity_difference(y, p, sensitive_features=sf)
            times.append(time.perf_counter() - t)
        assert got == want, (name, got, want)
        med = statistics.median(times)
        base = base or med
        print(f"| {name} | {med * 1e3:.1f} ms | {med / base:.2f}× |")


if __name__ == "__main__":
    main()
