"""Benchmark: Geyik et al.'s DetGreedy over many queries, ``fairkit.ranking.
deterministic_rerank`` (crate fair-ranking, one call for all queries) against AIF360 0.6.1's
``DeterministicReranking(...).fit_predict`` (one dataset and one call per query, as AIF360
re-ranks one candidate list at a time), plus ``fairkit.ranking.fair_topk`` (FA*IR; AIF360 has
no FA*IR re-ranker).

Work: ``--queries`` queries of ``--items`` items each, two groups (the second's scores shifted
up), continuous scores, top ``--k`` at target shares 0.5/0.5. AIF360 runs with the group-index
correction the test suite applies (python/tests/test_ranking.py), so both outputs are checked
equal before the times are printed. One run of each. From the repository root, in the venv
``cargo xtask test`` builds (release extension):

    target/py-venv/bin/python python/bench/bench_ranking.py [--queries 10000] [--items 30] [--k 10]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from fairkit.ranking import deterministic_rerank, fair_topk


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--items", type=int, default=30)
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    rng = np.random.default_rng(11)
    n = args.queries * args.items
    s = rng.integers(0, 2, n).astype(float)
    items = pd.DataFrame({"q": np.repeat(np.arange(args.queries), args.items), "s": s,
                          "score": rng.random(n) + 0.3 * s})

    t0 = time.perf_counter()
    ours = deterministic_rerank(items, score="score", group="s", k=args.k,
                                target={0.0: 0.5, 1.0: 0.5}, method="greedy", query="q")
    t_det = time.perf_counter() - t0
    t0 = time.perf_counter()
    fair_topk(items.assign(p=s == 0), score="score", protected="p", k=args.k, p=0.5, alpha=0.1,
              query="q")
    t_fair = time.perf_counter() - t0

    logging.getLogger().setLevel(logging.ERROR)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import pytest  # noqa: F401  (test_ranking imports it)
    from aif360.datasets import RegressionDataset
    from test_ranking import _aif360_classes

    _, fixed = _aif360_classes()
    theirs = []
    t0 = time.perf_counter()
    for _, one in items.groupby("q", sort=False):
        ds = RegressionDataset(one[["s", "score"]], dep_var_name="score",
                               protected_attribute_names=["s"], privileged_classes=[[1.0]])
        out = fixed([{"s": 0.0}], [{"s": 1.0}]).fit_predict(ds, rec_size=args.k,
                                                             target_prop=[0.5, 0.5],
                                                             rerank_type="Greedy")
        theirs.extend(int(i) for i in out.convert_to_dataframe()[0].index)
    t_aif = time.perf_counter() - t0
    assert ours.index.tolist() == theirs, "outputs differ"

    print(f"{args.queries} queries x {args.items} items, top {args.k}, one run each "
          "(outputs equal)\n")
    print("| tool | time (s) |\n|---|---|")
    print(f"| fairkit deterministic_rerank (greedy) | {t_det:.3f} |")
    print(f"| fairkit fair_topk (FA*IR) | {t_fair:.3f} |")
    print(f"| AIF360 0.6.1 DeterministicReranking (Greedy), a loop over queries | {t_aif:.1f} |")


if __name__ == "__main__":
    main()
