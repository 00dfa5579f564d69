"""holisticai's regression bias metrics on the benchmark's Parquet file, for the benchmark
``bench_regression_audit.py`` (run in a venv with holisticai, which compares two groups at a
time and takes no weights): groups g0 and g1, ``regression_bias_metrics(..., metric_type="group")``.
Prints one JSON line: the best wall time of ``--repeat`` calls (the file read excluded) and the
numbers the audit is checked against."""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np
import pyarrow.parquet as pq
from holisticai.bias.metrics import regression_bias_metrics

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--repeat", type=int, default=2)
args = ap.parse_args()
t = pq.read_table(args.file, columns=["y", "yhat", "g"])
y, p = t["y"].to_numpy(), t["yhat"].to_numpy()
g = t["g"].to_numpy(zero_copy_only=False).astype(str)
a, b = g == "g0", g == "g1"
best = float("inf")
for _ in range(args.repeat):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = regression_bias_metrics(a, b, p, y, metric_type="group")
    best = min(best, time.perf_counter() - start)
value = m["Value"]
print(json.dumps({
    "seconds": best,
    "average_score_difference": float(value["Average Score Difference"]),
    "mae_ratio": float(value["MAE Ratio"]),
    "rmse_ratio": float(value["RMSE Ratio"]),
    "rows": int(a.sum() + b.sum()),
}))
