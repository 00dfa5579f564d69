"""Benchmark: the Wasserstein-barycenter post-processor (``fairkit.estimators.
WassersteinPostProcessor``, crate fair-regression) against equipy's ``FairWasserstein`` in the
same run.

Work: continuous predictions of ``--rows`` rows, one sensitive feature of ``--groups`` groups
(strings, a numpy object array, unequal shares); fit on all rows, then transform all rows at
``alpha = epsilon = 0``. Both outputs are checked equal (atol 1e-9, equipy at ``sigma=0``)
before the times are printed; equipy is also timed at its default ``sigma=1e-4`` (its jitter),
whose output differs by construction. Run from the repository root in the venv
``cargo xtask test`` builds (release extension):

    target/py-venv/bin/python python/bench/bench_wasserstein.py [--rows 1000000] [--repeat 3]

Prints a markdown table: the best of --repeat runs per tool.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd
from equipy.fairness import FairWasserstein

from fairkit.estimators import WassersteinPostProcessor


def data(n: int, groups: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    shares = np.arange(1, groups + 1, dtype=float)
    codes = rng.choice(groups, size=n, p=shares / shares.sum())
    g = np.array([f"g{i}" for i in range(groups)], dtype=object)[codes]
    y = rng.normal(size=n) * (1.0 + 0.3 * codes) + codes
    return y, g


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    y, g = data(a.rows, a.groups)
    frame = pd.DataFrame({"g": g})

    def fairkit():
        return WassersteinPostProcessor().fit(y, g).transform(y, g)

    def equipy(sigma):
        def run():
            fw = FairWasserstein(sigma=sigma)
            fw.fit(y, frame)
            return fw.transform(y.copy(), frame, epsilon=0.0)
        return run

    t_f, out_f = best(fairkit, a.repeat)
    t_e, out_e = best(equipy(0.0), a.repeat)
    np.testing.assert_allclose(out_f, out_e, rtol=0, atol=1e-9)
    t_j, _ = best(equipy(1e-4), a.repeat)
    print(f"rows {a.rows:,}, {a.groups} groups, best of {a.repeat}, load {os.getloadavg()[0]:.1f}; "
          "outputs equal to 1e-9 (equipy sigma=0)")
    print("| tool | fit + transform | ÷ fairkit |")
    print("|---|---|---|")
    for name, t in [("fairkit `WassersteinPostProcessor`", t_f),
                    ("equipy `FairWasserstein(sigma=0)`", t_e),
                    ("equipy `FairWasserstein()` (sigma=1e-4)", t_j)]:
        print(f"| {name} | {t:.3f} s | {t / t_f:.1f}× |")


if __name__ == "__main__":
    main()
