"""Benchmark of issue 25: fairkit's MetricFrame against fairlearn's, any metric, control features
and bootstrap, measured in one run on the same arrays.

Workload (the issue's): N rows (default 1e6), a sensitive feature of 8 groups and a control
feature of 2 groups (int64 codes), 0/1 labels and predictions.

1. **Recognised rates**: selection rate, TPR, FPR, accuracy (``by_group`` + ``difference()``
   with the control feature): counted in Rust by fairkit.
2. **Arbitrary callables**: ``balanced_accuracy_score`` and ``f1_score``: fairkit groups the
   rows once and calls them on numpy slices; fairlearn runs a pandas group-by.
3. **Bootstrap**: ``n_boot=1000`` of the four rates, ``ci_quantiles=[0.025, 0.975]``. fairkit
   draws per-cell counts (multinomial). fairlearn takes minutes per few resamples at 1e6 rows, so
   it is timed with ``--fairlearn-boot`` resamples (default 3); its time per resample (that
   time minus the same frame's time without bootstrap, over the resamples) × 1000 is the
   fairlearn column (an extrapolation, marked as such).
4. **Agreement of the intervals** (at ``--agree-rows`` rows, default 20,000, both with
   ``n_boot=1000``): fairkit's multinomial intervals against fairlearn's row-resampling
   intervals, as the largest difference of any interval end divided by the bootstrap standard
   deviation of that statistic (Monte-Carlo error of a 2.5 % quantile from 1000 resamples is
   about 0.1–0.15 SD, so values of that size are agreement).

Every fairkit result is first checked against fairlearn's (point values to 1e-12).

Run from the repository root in the venv of ``cargo xtask test``::

    target/py-venv/bin/python python/bench/bench_metricframe.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd
import sklearn.metrics as skm
from fairlearn import metrics as flm

import fairkit.metrics as fkm


def data(n: int, seed: int = 0x5EEDFA11):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 8, n).astype(np.int64)
    c = rng.integers(0, 2, n).astype(np.int64)
    y = (rng.random(n) < 0.2 + 0.05 * g).astype(np.int64)
    p = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int64)
    return y, p, g, c


def timed(fn, reps: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(reps):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def rates(mod):
    return {
        "sr": mod.selection_rate,
        "tpr": mod.true_positive_rate,
        "fpr": mod.false_positive_rate,
        "acc": skm.accuracy_score,
    }


def frame(mod, metrics, y, p, g, c, **kw):
    mf = mod.MetricFrame(
        metrics=metrics,
        y_true=y,
        y_pred=p,
        sensitive_features=pd.Series(g, name="g"),
        control_features=pd.Series(c, name="c"),
        **kw,
    )
    return mf, mf.by_group, mf.difference()


def check_same(a, b, what):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or not np.allclose(a, b, rtol=0, atol=1e-12, equal_nan=True):
        raise SystemExit(f"{what}: fairkit and fairlearn differ\n{a}\n{b}")


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--fairlearn-reps", type=int, default=1)
    ap.add_argument("--fairlearn-boot", type=int, default=3)
    ap.add_argument("--agree-rows", type=int, default=20_000)
    args = ap.parse_args()
    n = args.rows
    y, p, g, c = data(n)
    rows = []

    # 1. recognised rates
    t_fk, (_, bg_fk, d_fk) = timed(lambda: frame(fkm, rates(fkm), y, p, g, c), args.reps)
    t_fl, (_, bg_fl, d_fl) = timed(lambda: frame(flm, rates(flm), y, p, g, c), args.fairlearn_reps)
    t_fl_point = t_fl
    check_same(bg_fk, bg_fl, "rates by_group")
    check_same(d_fk, d_fl, "rates difference")
    rows.append(("4 recognised rates (by_group + difference)", t_fk, t_fl, ""))

    # 2. arbitrary callables
    for func in (skm.balanced_accuracy_score, skm.f1_score):
        t_fk, (_, bg_fk, _) = timed(lambda: frame(fkm, func, y, p, g, c), args.reps)
        t_fl, (_, bg_fl, _) = timed(lambda: frame(flm, func, y, p, g, c), args.fairlearn_reps)
        check_same(bg_fk, bg_fl, func.__name__)
        rows.append((f"`{func.__name__}` (by_group + difference)", t_fk, t_fl, ""))

    # 3. bootstrap of the four rates
    q = [0.025, 0.975]
    t_fk, _ = timed(
        lambda: frame(fkm, rates(fkm), y, p, g, c, n_boot=1000, ci_quantiles=q, random_state=1),
        args.reps,
    )
    t_fl, _ = timed(
        lambda: frame(
            flm, rates(flm), y, p, g, c, n_boot=args.fairlearn_boot, ci_quantiles=q,
            random_state=1,
        ),
        1,
    )
    per = (t_fl - t_fl_point) / args.fairlearn_boot
    rows.append(
        (
            "n_boot=1000 of the 4 rates",
            t_fk,
            per * 1000,
            f"fairlearn: {fmt(t_fl)} with {args.fairlearn_boot} resamples, minus its "
            f"{fmt(t_fl_point)} without, × 1000 / {args.fairlearn_boot}",
        )
    )

    print(f"rows = {n:,}, 8 sensitive groups × 2 control groups; fairkit median of {args.reps}")
    print()
    print("| workload | fairkit | fairlearn 0.15 | fairlearn / fairkit | note |")
    print("|---|---|---|---|---|")
    for name, a, b, note in rows:
        print(f"| {name} | {fmt(a)} | {fmt(b)} | {b / a:,.0f}× | {note} |")

    # 4. agreement of the intervals with fairlearn's (smaller data, full n_boot on both)
    m = args.agree_rows
    y2, p2, g2, c2 = data(m, seed=7)
    kw = dict(n_boot=1000, ci_quantiles=q)
    start = time.perf_counter()
    mf_fk, *_ = frame(fkm, rates(fkm), y2, p2, g2, c2, random_state=11, **kw)
    t_fk = time.perf_counter() - start
    start = time.perf_counter()
    mf_fl, *_ = frame(flm, rates(flm), y2, p2, g2, c2, random_state=12, **kw)
    t_fl = time.perf_counter() - start
    # The bootstrap SD of each statistic, from fairkit's own resamples at a third seed: the
    # interval (2.5 %, 97.5 %) spans about 3.92 SD.
    worst = {}
    for what, get in (
        ("by_group", lambda mf: mf.by_group_ci),
        ("difference", lambda mf: mf.difference_ci()),
        ("ratio", lambda mf: mf.ratio_ci()),
        ("overall", lambda mf: mf.overall_ci),
    ):
        lo_a, hi_a = (np.asarray(x, dtype=float) for x in get(mf_fk))
        lo_b, hi_b = (np.asarray(x, dtype=float) for x in get(mf_fl))
        sd = (hi_b - lo_b) / 3.92
        with np.errstate(invalid="ignore", divide="ignore"):
            dev = np.nanmax(np.maximum(np.abs(lo_a - lo_b), np.abs(hi_a - hi_b)) / sd)
        worst[what] = dev
    print()
    print(
        f"Interval agreement at {m:,} rows, n_boot=1000 each (fairkit {fmt(t_fk)}, fairlearn "
        f"{fmt(t_fl)}): largest |end difference| / bootstrap SD: "
        + ", ".join(f"{k} {v:.2f}" for k, v in worst.items())
    )


if __name__ == "__main__":
    main()
