"""FairProjection from Python vs the Rust fit on the same data (docs/benchmarks.md).

Data: N rows, 2 classes, 2 groups, base probabilities of a biased logistic model (the group
shifts the score), labels drawn from them; equalized odds at alpha = 0.05, KL, dual solver (the
defaults). The Rust side is ``python/examples/fair_projection_reference.rs`` (the crate's API
on a prebuilt matrix, built with ``--release``); the Python side is
``FairProjection(decision="argmax").fit(proba, y, sensitive_features=group)`` from numpy
arrays (the projection only, like the Rust side: the default ``decision="auto"`` also fits the
group-threshold rule of ``predict``, measured separately in docs/benchmarks.md), everything
included (group encoding, label encoding, the copy kept for pickling, the matrix conversion).
Runs alternate Rust and Python batches so machine load hits both alike; medians are printed.

Run (from the repository root, after ``maturin develop --release``):
    python python/bench/bench_fair_projection.py 1400000 --rounds 3 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from fairkit.estimators import FairProjection

REPO = Path(__file__).resolve().parents[2]


def data(n: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    score = rng.normal(size=n) + 0.8 * group
    p1 = 1 / (1 + np.exp(-score))
    y = (rng.random(n) < p1).astype(np.int64)
    return np.column_stack([1 - p1, p1]), y, group.astype(np.int64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=1_400_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    proba, y, group = data(args.n)
    cargo = os.environ.get("CARGO", "cargo")
    build = [cargo, "build", "-q", "--release", "-p", "fairkit-py", "--example",
             "fair_projection_reference"]
    subprocess.run(build, cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    exe = target / "release" / "examples" / "fair_projection_reference"
    rust, python = [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "settings.txt").write_text(f"{args.n} 2 equalized_odds 0.05 kl dual 1\n")
        (tmp / "group_names.txt").write_text("0\n1\n")
        proba.astype("<f8").tofile(tmp / "proba.f64")
        group.astype("<i8").tofile(tmp / "codes.i64")
        y.astype("<i8").tofile(tmp / "labels.i64")
        reference = None
        for _ in range(args.rounds):
            out = subprocess.run([exe, tmp, str(args.repeats)], check=True, capture_output=True,
                                 text=True).stdout
            rust += json.loads(out.strip().splitlines()[-1])["rust_fit_seconds"]
            for _ in range(args.repeats):
                start = time.perf_counter()
                fp = FairProjection(decision="argmax").fit(proba, y, sensitive_features=group)
                python.append(time.perf_counter() - start)
            if reference is None:
                reference = np.fromfile(tmp / "lambda.f64", dtype="<f8")
            assert np.array_equal(fp.lambda_, reference), "Python and Rust multipliers differ"
    r, p = statistics.median(rust), statistics.median(python)
    print(json.dumps({
        "rows": args.n, "report": fp.report_["summary"],
        "rust_fit_median_s": round(r, 4), "python_fit_median_s": round(p, 4),
        "ratio": round(p / r, 3), "rust_all_s": [round(v, 4) for v in rust],
        "python_all_s": [round(v, 4) for v in python],
        "loadavg": os.getloadavg(),
    }, indent=1))


if __name__ == "__main__":
    main()
