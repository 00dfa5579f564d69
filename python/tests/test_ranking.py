"""Fair re-ranking (``fairkit.ranking``): FA*IR's output passes FA*IR's test, Geyik et al.'s
re-rankers equal AIF360 0.6.1's ``DeterministicReranking`` on seeded data, bad input raises."""

from __future__ import annotations

import inspect
import logging

import numpy as np
import pandas as pd
import pytest

from fairkit._core import FairkitError
from fairkit.metrics import ranked_group_fairness
from fairkit.ranking import deterministic_rerank, fair_topk


def _items(seed: int, n_groups: int, per_group: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = n_groups * per_group
    # Group shift in the scores so that re-ranking has something to do; continuous scores (no
    # ties: AIF360 sorts with an unstable quicksort, so its order among tied items is arbitrary).
    s = np.repeat(np.arange(n_groups), per_group)
    shift = rng.permutation(np.linspace(0.0, 0.4, n_groups))  # which group leads varies by seed
    return pd.DataFrame({"s": s.astype(float), "score": rng.random(n) + shift[s]})


# --- FA*IR ------------------------------------------------------------------------------------

def test_fair_topk_passes_the_test_and_keeps_group_order():
    items = _items(0, 2, 30)
    items["protected"] = items["s"] == 0  # the lower-scored group
    for k, p, alpha in [(10, 0.5, 0.1), (25, 0.4, 0.05), (40, 0.7, 0.2)]:
        top = fair_topk(items, score="score", protected="protected", k=k, p=p, alpha=alpha)
        assert len(top) == k and top["rank"].tolist() == list(range(1, k + 1))
        assert ranked_group_fairness(top["protected"].tolist(), p, alpha)["passes"]
        # Not fair by score alone (so the re-ranker did something), and each group is its
        # best items in score order.
        by_score = items.sort_values("score", ascending=False, kind="stable").head(k)
        assert not ranked_group_fairness(by_score["protected"].tolist(), p, alpha)["passes"]
        for flag in (True, False):
            group = items[items["protected"] == flag].sort_values("score", ascending=False,
                                                                   kind="stable")
            placed = top[top["protected"] == flag]
            assert placed.index.tolist() == group.index[: len(placed)].tolist()


def test_fair_topk_many_queries_equal_one_at_a_time():
    items = pd.concat([_items(seed, 2, 12).assign(q=f"q{seed}") for seed in range(4)],
                      ignore_index=True).sample(frac=1.0, random_state=1)
    items["protected"] = (items["s"] == 0).astype(int)
    many = fair_topk(items, score="score", protected="protected", k=8, p=0.5, query="q")
    one = pd.concat([fair_topk(items[items["q"] == q], score="score", protected="protected",
                               k=8, p=0.5) for q in items["q"].unique()])
    pd.testing.assert_frame_equal(many, one)


def test_fair_topk_bad_inputs():
    items = _items(0, 2, 5)
    items["protected"] = items["s"] == 0
    with pytest.raises(FairkitError, match=r"k = 11 positions but only 10 candidates"):
        fair_topk(items, score="score", protected="protected", k=11, p=0.5)
    for p in (0.0, 1.0, 1.5):
        with pytest.raises(FairkitError, match=r"invalid parameter p"):
            fair_topk(items, score="score", protected="protected", k=5, p=p)
    few = items.assign(protected=[True] + [False] * 9)
    with pytest.raises(FairkitError, match=r"only 1 candidates are protected"):
        fair_topk(few, score="score", protected="protected", k=10, p=0.9)
    nan = items.assign(score=items["score"].where(items.index != 3))
    with pytest.raises(FairkitError, match=r"score of candidate 3 is NaN"):
        fair_topk(nan, score="score", protected="protected", k=5, p=0.5)
    two = pd.concat([items.assign(q="a"), items.head(3).assign(q="b")], ignore_index=True)
    with pytest.raises(FairkitError, match=r"query 'b': k = 5 positions but only 3"):
        fair_topk(two, score="score", protected="protected", k=5, p=0.5, query="q")
    with pytest.raises(FairkitError, match=r"booleans or 0/1"):
        fair_topk(items.assign(two=items["s"] * 2), score="score", protected="two", k=5, p=0.5)


# --- Geyik et al. against AIF360 --------------------------------------------------------------

def _aif360_classes():
    """AIF360's class as shipped, and the same code with the group-index slip corrected.

    AIF360 0.6.1 picks the best item among the groups below their floor (and, in DetGreedy,
    below their ceiling) with ``max(enumerate(sub_list))``: the index it gets is a position in
    the sub-list, which it then counts as the group. The corrected copy takes the group from
    the sub-list; every other line, tie rule included (Python's max keeps the first), is
    AIF360's.
    """
    pytest.importorskip("aif360")
    logging.getLogger().setLevel(logging.ERROR)  # AIF360 warns about optional extras on import
    from aif360.algorithms.postprocessing import deterministic_reranking as mod

    source = inspect.getsource(mod)
    fixed = source
    for sub in ("bmin", "bmax"):
        below = "below_min" if sub == "bmin" else "below_max"
        slip = (f"next_group, next_item = max(enumerate(candidates_{sub}), "
                "key = lambda x: x[1][score_label])")
        assert fixed.count(slip) == 1, "AIF360's source changed: review the comparison"
        fixed = fixed.replace(slip, f"next_group, next_item = max(((g, candidates[g]) for g in "
                                    f"{below}), key = lambda x: x[1][score_label])")
    namespace: dict = {"__name__": "aif360_fixed"}
    exec(compile(fixed, "aif360_deterministic_reranking_fixed", "exec"), namespace)
    return mod.DeterministicReranking, namespace["DeterministicReranking"]


def _aif360_rerank(cls, items: pd.DataFrame, n_groups: int, k: int, target, rerank_type: str):
    from aif360.datasets import RegressionDataset

    # RegressionDataset min-max scales every column (scores keep their order) after it has
    # recorded the protected values: group codes go in as c / (G - 1), already in [0, 1].
    scaled = items[["s", "score"]].assign(s=items["s"] / (n_groups - 1))
    ds = RegressionDataset(scaled, dep_var_name="score", protected_attribute_names=["s"],
                           privileged_classes=[[1.0]])
    codes = [{"s": c / (n_groups - 1)} for c in range(n_groups)]
    out = cls(unprivileged_groups=codes[:-1], privileged_groups=codes[-1:]).fit_predict(
        ds, rec_size=k, target_prop=list(target), rerank_type=rerank_type)
    return [int(i) for i in out.convert_to_dataframe()[0].index]


AIF360_NAMES = {"greedy": "Greedy", "cons": "Conservative", "relaxed": "Relaxed",
                "constsort": "Constrained"}


# Data sets on which the four methods give three different rankings (so each method's own
# rule is compared), two of them where AIF360 as shipped differs from the corrected code.
@pytest.mark.parametrize("seed, target, k", [
    (0, (0.7, 0.3), 12),
    (3, (0.3, 0.7), 15),
    (0, (0.2, 0.3, 0.5), 12),
    (1, (0.5, 0.3, 0.2), 15),
])
def test_deterministic_rerank_equals_aif360(seed, target, k):
    _, fixed = _aif360_classes()
    n_groups = len(target)
    items = _items(seed, n_groups, per_group=k + 3)
    rankings = set()
    for method, name in AIF360_NAMES.items():
        ours = deterministic_rerank(items, score="score", group="s", k=k,
                                    target={float(g): t for g, t in enumerate(target)},
                                    method=method)
        theirs = _aif360_rerank(fixed, items, n_groups, k, target, name)
        assert ours.index.tolist() == theirs, method
        # Also by AIF360's own name.
        again = deterministic_rerank(items, score="score", group="s", k=k, method=name,
                                     target={float(g): t for g, t in enumerate(target)})
        assert again.index.tolist() == theirs
        rankings.add(tuple(theirs))
    assert len(rankings) >= 3


def test_aif360_as_shipped_repeats_an_item_where_this_does_not():
    shipped, fixed = _aif360_classes()
    # Group 0 holds the best item: at position 2 only group 1 is below its floor, AIF360 places
    # group 1's best but counts it for group 0, and places it again at positions 3 and 4.
    items = pd.DataFrame({"s": [0.0] * 5 + [1.0] * 5,
                          "score": [0.9, 0.8, 0.7, 0.65, 0.62, 0.6, 0.5, 0.4, 0.3, 0.2]})
    as_shipped = _aif360_rerank(shipped, items, 2, 4, (0.5, 0.5), "Greedy")
    assert as_shipped == [0, 5, 5, 5]
    ours = deterministic_rerank(items, score="score", group="s", k=4, target={0.0: 0.5, 1.0: 0.5})
    assert ours.index.tolist() == _aif360_rerank(fixed, items, 2, 4, (0.5, 0.5), "Greedy")
    assert ours.index.tolist() == [0, 5, 1, 6]


def test_deterministic_rerank_bad_inputs():
    items = _items(0, 2, 5)
    t = {0.0: 0.5, 1.0: 0.5}
    with pytest.raises(FairkitError, match=r"invalid parameter method"):
        deterministic_rerank(items, score="score", group="s", k=4, target=t, method="best")
    with pytest.raises(FairkitError, match=r"sum to 1"):
        deterministic_rerank(items, score="score", group="s", k=4, target={0.0: 0.5, 1.0: 0.6})
    with pytest.raises(FairkitError, match=r"without a target share: \[1.0\]"):
        deterministic_rerank(items, score="score", group="s", k=4, target={0.0: 1.0})
    with pytest.raises(FairkitError, match=r"k = 11 positions but only 10"):
        deterministic_rerank(items, score="score", group="s", k=11, target=t)
    with pytest.raises(FairkitError, match=r"score column 'nope' is not in the DataFrame"):
        deterministic_rerank(items, score="nope", group="s", k=4, target=t)


def test_docs_example_runs():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "ranking.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "docs/ranking.md has no python code block"
    exec(compile(blocks[0], "docs/ranking.md", "exec"), {})


# -- exposure-fair probabilistic rankings (Singh & Joachims 2018) -------------------------------

def _linprog_utility(rel, codes, constraint, v):
    """The same linear program solved by scipy's HiGHS: the optimum utility."""
    from scipy.optimize import linprog

    n = len(rel)
    c = -np.outer(rel, v).ravel()
    a_eq, b_eq = [], []
    for i in range(n):
        row = np.zeros((n, n)); row[i, :] = 1; a_eq.append(row.ravel()); b_eq.append(1.0)
        col = np.zeros((n, n)); col[:, i] = 1; a_eq.append(col.ravel()); b_eq.append(1.0)
    sizes = np.bincount(codes)
    mean_rel = np.bincount(codes, weights=rel) / sizes
    coef = 1.0 / sizes[codes]
    if constraint != "demographic_parity":
        coef = coef / mean_rel[codes]
        if constraint == "disparate_impact":
            coef = coef * rel
    for k in range(1, len(sizes)):
        sign = np.where(codes == 0, 1.0, np.where(codes == k, -1.0, 0.0))
        a_eq.append(np.outer(sign * coef, v).ravel()); b_eq.append(0.0)
    res = linprog(c, A_eq=np.array(a_eq), b_eq=np.array(b_eq), bounds=(0, 1), method="highs")
    assert res.status == 0, res.message
    return -res.fun


@pytest.mark.parametrize("constraint", ["demographic_parity", "disparate_treatment",
                                        "disparate_impact"])
def test_exposure_fair_ranking_meets_its_constraint_and_equals_scipys_optimum(constraint):
    from fairkit.ranking import exposure_fair_ranking

    rel = np.array([0.9, 0.8, 0.7, 0.5, 0.6, 0.5, 0.4, 0.3])
    groups = np.array(["m", "m", "m", "m", "w", "w", "w", "w"])
    r = exposure_fair_ranking(rel, groups, constraint=constraint, n_samples=5000,
                              random_state=3)
    p, e, codes = r.probabilities, r.exposure, (groups == "w").astype(int)
    assert np.allclose(p.sum(axis=0), 1, atol=1e-9) and np.allclose(p.sum(axis=1), 1, atol=1e-9)
    quantity = e if constraint != "disparate_impact" else rel * e
    per_group = [quantity[codes == g].mean() for g in (0, 1)]
    if constraint != "demographic_parity":
        per_group = [q / rel[codes == g].mean() for g, q in enumerate(per_group)]
    assert abs(per_group[0] - per_group[1]) < 1e-9
    v = 1.0 / np.log2(2.0 + np.arange(len(rel)))
    assert abs(r.utility - _linprog_utility(rel, codes, constraint, v)) < 1e-9
    # The decomposition rebuilds P; the draws repeat with the seed and converge to P's exposure.
    rebuilt = np.zeros_like(p)
    for theta, ranking in zip(r.weights, r.rankings):
        rebuilt[ranking, np.arange(len(rel))] += theta
    assert np.abs(rebuilt - p).max() < 1e-9
    again = exposure_fair_ranking(rel, groups, constraint=constraint, n_samples=5000,
                                  random_state=3)
    assert np.array_equal(r.samples, again.samples)
    drawn = np.zeros(len(rel))
    for ranking in r.samples:
        drawn[ranking] += v
    assert np.abs(drawn / len(r.samples) - e).max() < 0.02


def test_exposure_fair_ranking_bad_inputs_fail_clearly():
    from fairkit.ranking import exposure_fair_ranking

    with pytest.raises(FairkitError, match="constraint="):
        exposure_fair_ranking([0.5, 0.4], ["a", "b"], constraint="parity")
    with pytest.raises(FairkitError, match="one label per item"):
        exposure_fair_ranking([0.5, 0.4], ["a"])
    with pytest.raises(FairkitError, match="missing label"):
        exposure_fair_ranking([0.5, 0.4], ["a", None])
    with pytest.raises(FairkitError, match="finite"):
        exposure_fair_ranking([0.5, np.nan], ["a", "b"])
    with pytest.raises(FairkitError, match="g >= 2"):
        exposure_fair_ranking([0.5, 0.4], ["a", "a"])
    with pytest.raises(FairkitError, match="relax the constraint"):
        exposure_fair_ranking([1.0, 1.0, 0.02, 0.02], ["a", "a", "b", "b"],
                              constraint="disparate_treatment")
    with pytest.raises(FairkitError, match="persistence"):
        exposure_fair_ranking([0.5, 0.4], ["a", "b"], persistence=1.5)
