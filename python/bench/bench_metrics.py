"""Benchmark: fairkit.metrics vs fairlearn's MetricFrame vs the Rust-only time.

The work, as in the issue: selection rate, TPR, FPR and accuracy by group with 8 groups, then
``by_group`` and ``difference()``, on 1e5, 1e6 and 1e7 rows. Inputs are int64 numpy columns
(sensitive feature = group codes 0..7); fairkit is also timed with the sensitive feature as a
pandas Categorical of strings. The Rust-only figures come from the example
``python/examples/rust_metrics_baseline.rs`` (run through cargo in the same session).

Run from the repository root, in the venv that ``cargo xtask test`` builds:

    target/py-venv/bin/python python/bench/bench_metrics.py

Prints a markdown table (median wall time; fairkit over 7 runs, fairlearn over 3 runs at 1e5
and 1 run above, since one run takes minutes there).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn.metrics as skm

import fairkit.metrics as fk

ROOT = Path(__file__).resolve().parents[2]


def data(n: int, seed: int = 0x5EEDFA11):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 8, n)
    y = (rng.random(n) < 0.2 + 0.05 * g).astype(np.int64)
    p = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int64)
    return y, p, g.astype(np.int64)


def timed(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def fairkit_run(y, p, sf):
    mf = fk.MetricFrame(
        metrics={"sr": fk.selection_rate, "tpr": fk.true_positive_rate,
                 "fpr": fk.false_positive_rate, "acc": skm.accuracy_score},
        y_true=y, y_pred=p, sensitive_features=sf,
    )
    return mf.by_group, mf.difference()


def fairlearn_run(y, p, sf):
    import fairlearn.metrics as fl

    mf = fl.MetricFrame(
        metrics={"sr": fl.selection_rate, "tpr": fl.true_positive_rate,
                 "fpr": fl.false_positive_rate, "acc": skm.accuracy_score},
        y_true=y, y_pred=p, sensitive_features=sf,
    )
    return mf.by_group, mf.difference()


def rust_only(sizes: list[int]) -> dict[int, dict]:
    cargo = os.environ.get("CARGO", "cargo")
    out = subprocess.run(
        [cargo, "run", "--quiet", "--release", "-p", "fairkit-py", "--example",
         "rust_metrics_baseline", "--", *map(str, sizes)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {r["rows"]: r for r in rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6, 1e7])
    ap.add_argument("--skip-fairlearn-above", type=float, default=float("inf"),
                    help="do not time fairlearn above this many rows")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes]
    rust = rust_only(sizes)
    print("| rows | Rust crate only (ms) | Rust binding path (ms) | fairkit from numpy (ms) "
          "| fairkit, pandas Categorical (ms) | fairlearn MetricFrame (ms) | fairkit / Rust crate "
          "| fairlearn / fairkit |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        y, p, g = data(n)
        cat = pd.Series(pd.Categorical.from_codes(g, [f"group {k}" for k in range(8)]), name="g")
        ours_bg, ours_diff = fairkit_run(y, p, g)
        t_fk = timed(lambda: fairkit_run(y, p, g), 7)
        t_cat = timed(lambda: fairkit_run(y, p, cat), 7)
        if n <= args.skip_fairlearn_above:
            start = time.perf_counter()
            theirs_bg, theirs_diff = fairlearn_run(y, p, g)
            t_first = (time.perf_counter() - start) * 1e3
            err = float(np.nanmax(np.abs(ours_bg.to_numpy() - theirs_bg.to_numpy())))
            assert err < 1e-12, f"fairkit and fairlearn disagree by {err}"
            # One run takes minutes above 1e5 rows: time the checked run there.
            t_fl = timed(lambda: fairlearn_run(y, p, g), 3) if n <= 100_000 else t_first
            fl_cell, ratio_fl = f"{t_fl:.1f}", f"{t_fl / t_fk:,.0f}×"
        else:
            fl_cell, ratio_fl = "not run", "–"
        r = rust[n]
        print(f"| {n:,} | {r['crate_ms']:.2f} | {r['binding_ms']:.2f} | {t_fk:.2f} | {t_cat:.2f} "
              f"| {fl_cell} | {t_fk / r['crate_ms']:.1f}× | {ratio_fl} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
