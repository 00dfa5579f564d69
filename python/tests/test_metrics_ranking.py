"""Rankings: FA*IR's tables and test, and each group's exposure (``fairkit.metrics``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fairkit._core import FairkitError
from fairkit.metrics import fair_mtable, group_exposure, ranked_group_fairness


def test_tables_and_test():
    # fairsearchcore 1.0.4's own test case (k = 20, p = 0.25, alpha = 0.1), unadjusted.
    t = fair_mtable(20, 0.25, 0.1, adjust=False)
    assert t["mtable"] == [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3]
    a = fair_mtable(20, 0.25, 0.1)
    assert a["alpha"] < 0.1 and abs(a["fail_probability"] - 0.1) < abs(t["fail_probability"] - 0.1)
    r = ranked_group_fairness([False] * 3 + [True] + [False] * 6, 0.5, 0.1, adjust=False)
    assert not r["passes"] and r["first_violation"] == 7
    with pytest.raises(FairkitError, match="alpha"):
        fair_mtable(10, 0.5, 1.5)
    with pytest.raises(FairkitError, match="p"):
        ranked_group_fairness([True], 0.0, 0.1)


def test_exposure_by_hand():
    rng = np.random.default_rng(0)
    q = np.repeat(np.arange(50), 10)
    r = np.tile(np.arange(1, 11), 50)
    g = rng.choice(["a", "b"], size=q.size, p=[0.3, 0.7])
    e = group_exposure(q, r, g, top_k=[3])
    disc = 1 / np.log2(1 + r)
    for name in ("a", "b"):
        m = g == name
        assert math.isclose(e.loc[name, "exposure"], disc[m].sum(), rel_tol=1e-12)
        assert math.isclose(e.loc[name, "item_share"], m.mean(), rel_tol=1e-12)
        share = disc[m].sum() / disc.sum()
        assert math.isclose(e.loc[name, "exposure_ratio"], share / m.mean(), rel_tol=1e-12)
        assert math.isclose(e.loc[name, "top_3_share"], (m & (r <= 3)).sum() / (r <= 3).sum())
    with pytest.raises(FairkitError, match="rank"):
        group_exposure([1, 1], [0, 1], ["a", "b"])
    with pytest.raises(FairkitError, match="length"):
        group_exposure([1], [1, 2], ["a", "b"])
