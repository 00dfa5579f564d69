"""Benchmark: ``fairkit.metrics.regression_metrics`` against what a user writes today for the
same per-group regression numbers, in the same run.

Work: 8 groups (sensitive feature: strings "g0".."g7", as a numpy object array), a continuous
target and prediction, row weights; per group and overall the weighted MAE, MSE, RMSE, R² and
mean prediction, and each metric's difference between groups. Three ways:

* ``fairkit``          ``regression_metrics(..., sample_weight=w)`` (also: W1 and KS between
                       the groups' predictions, the median and the LL144 scoring rate, which
                       the others do not compute);
* ``fairlearn``        ``MetricFrame`` with scikit-learn's ``mean_absolute_error``,
                       ``mean_squared_error``, ``root_mean_squared_error``, ``r2_score`` and
                       fairlearn's ``mean_prediction`` (``sample_params`` for the weights),
                       then ``by_group`` and ``difference()``;
* ``pandas``           a hand-written ``groupby`` of the weighted sums (the fastest a pandas
                       user would write; no R² edge cases).

Each result is checked against fairlearn's at rtol 1e-9 before timing is reported. Run from
the repository root in the venv ``cargo xtask test`` builds (release extension):

    target/py-venv/bin/python python/bench/bench_regression.py [--rows 1000000 10000000]

Prints a markdown table: the best of --repeat runs per tool.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from fairlearn.metrics import MetricFrame, mean_prediction
from sklearn.metrics import (mean_absolute_error, mean_squared_error, r2_score,
                             root_mean_squared_error)

from fairkit.metrics import regression_metrics

METRICS = ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error", "r2_score",
           "mean_prediction"]


def data(n: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 8, n)
    g = np.array([f"g{i}" for i in range(8)], dtype=object)[codes]
    y = rng.normal(50 + codes, 10, n)
    p = y + rng.normal(0.5 * (codes % 3), 3.0, n)
    w = rng.uniform(0.2, 3.0, n)
    return y, p, g, w


def run_fairkit(y, p, g, w):
    m = regression_metrics(y, p, sensitive_features=g, sample_weight=w)
    return m.by_group[METRICS], {k: m.difference(k) for k in METRICS}


def run_fairlearn(y, p, g, w):
    fns = {"mean_absolute_error": mean_absolute_error, "mean_squared_error": mean_squared_error,
           "root_mean_squared_error": root_mean_squared_error, "r2_score": r2_score,
           "mean_prediction": mean_prediction}
    mf = MetricFrame(metrics=fns, y_true=y, y_pred=p, sensitive_features=g,
                     sample_params={k: {"sample_weight": w} for k in fns})
    return mf.by_group[METRICS], mf.difference().to_dict()


def run_pandas(y, p, g, w):
    r = p - y
    df = pd.DataFrame({"g": g, "w": w, "wy": w * y, "wp": w * p, "wabs": w * np.abs(r),
                       "wr2": w * r * r, "wy2": w * y * y})
    s = df.groupby("g").sum()
    out = pd.DataFrame(index=s.index)
    out["mean_absolute_error"] = s["wabs"] / s["w"]
    out["mean_squared_error"] = s["wr2"] / s["w"]
    out["root_mean_squared_error"] = np.sqrt(out["mean_squared_error"])
    ybar = s["wy"] / s["w"]
    out["r2_score"] = 1 - s["wr2"] / (s["wy2"] - ybar * s["wy"])
    out["mean_prediction"] = s["wp"] / s["w"]
    return out[METRICS], (out.max() - out.min()).to_dict()


def best(fn, repeat, *args):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("| rows | fairkit `regression_metrics` | fairlearn `MetricFrame` + scikit-learn | "
          "pandas `groupby` by hand | fairlearn ÷ fairkit |")
    print("|---|---|---|---|---|")
    for n in args.rows:
        y, p, g, w = data(n)
        tk, (kb, kd) = best(run_fairkit, args.repeat, y, p, g, w)
        tf, (fb, fd) = best(run_fairlearn, args.repeat, y, p, g, w)
        tp, (pb, pd_) = best(run_pandas, args.repeat, y, p, g, w)
        np.testing.assert_allclose(kb.to_numpy(), fb.to_numpy(dtype=float), rtol=1e-9)
        np.testing.assert_allclose(pb.to_numpy(), fb.to_numpy(dtype=float), rtol=1e-9)
        for k in METRICS:
            np.testing.assert_allclose(kd[k], fd[k], rtol=1e-9, atol=1e-12)
        print(f"| {n:,} | {tk:.3f} s | {tf:.3f} s | {tp:.3f} s | {tf / tk:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
