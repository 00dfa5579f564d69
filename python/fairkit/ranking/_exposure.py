"""Exposure-fair probabilistic rankings (Singh & Joachims, KDD 2018), computed in Rust."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import ranking as _core


@dataclass(frozen=True)
class ExposureRanking:
    """The result of :func:`exposure_fair_ranking` for one query of ``n`` items.

    Attributes
    ----------
    probabilities : ndarray (n, n)
        ``P[i, j]``: the probability that item ``i`` (input order) is shown at position ``j``
        (0 = top); doubly stochastic.
    weights : ndarray (n,)
        The decomposition's weights θ (summing to 1).
    rankings : ndarray (len(weights), n)
        The decomposition's rankings, each listing the items from the top: ``P = Σ θ_k Π_k``.
    utility : float
        The expected utility ``Σ_ij relevance_i P_ij v_j`` (``v`` the position weights).
    samples : ndarray (n_samples, n)
        Rankings drawn from the decomposition with ``random_state``.
    groups : ndarray (n_groups,)
        The group labels, in the order of the codes (the first is the reference group).
    exposure : ndarray (n,)
        Each item's expected exposure ``Σ_j P_ij v_j``.
    """

    probabilities: np.ndarray
    weights: np.ndarray
    rankings: np.ndarray
    utility: float
    samples: np.ndarray
    groups: np.ndarray
    exposure: np.ndarray


def exposure_fair_ranking(relevance: Any, groups: Any, *, constraint: str = "demographic_parity",
                          persistence: Optional[float] = None, tolerance: float = 0.0,
                          max_items: int = 100, n_samples: int = 0,
                          random_state: int = 0) -> ExposureRanking:
    """The ranking policy of highest expected utility that gives the groups fair exposure
    (Singh & Joachims, "Fairness of Exposure in Rankings", KDD 2018, §4), for one query.

    A linear program over doubly stochastic matrices ``P`` (``P[i, j]``: item ``i`` at position
    ``j``) maximises ``Σ relevance_i P_ij v_j`` with position weights ``v_j = 1/log2(1 + j)``
    (1-based; ``persistence=γ`` uses ``γ^(j−1)`` instead), under one constraint between every
    group and the first (labels sorted):

    * ``"demographic_parity"``: equal mean exposure per item (always feasible);
    * ``"disparate_treatment"``: mean exposure ÷ mean relevance equal;
    * ``"disparate_impact"``: mean relevance × exposure ÷ mean relevance equal;

    each within ``tolerance`` (the paper's δ). ``P`` is decomposed into rankings (Birkhoff–von
    Neumann) and ``n_samples`` rankings are drawn from them with ``random_state`` (same seed,
    same rankings).

    Examples
    --------
    >>> from fairkit.ranking import exposure_fair_ranking
    >>> r = exposure_fair_ranking([0.9, 0.8, 0.3, 0.2], ["a", "a", "b", "b"], n_samples=3)
    >>> e = r.exposure
    >>> bool(abs(e[:2].mean() - e[2:].mean()) < 1e-9)
    True
    >>> r.samples.shape
    (3, 4)
    """
    rel = np.ascontiguousarray(relevance, dtype=np.float64)
    if rel.ndim != 1:
        raise FairkitError(f"relevance must be 1-D (one per item), got shape {rel.shape}")
    labels = np.asarray(groups, dtype=object)
    if labels.ndim != 1 or len(labels) != len(rel):
        raise FairkitError(f"groups must hold one label per item: {len(rel)} items, "
                           f"got shape {labels.shape}")
    if any(v is None or (isinstance(v, float) and np.isnan(v)) for v in labels):
        raise FairkitError("groups has a missing label: give every item its group")
    names, codes = np.unique(labels.astype(str), return_inverse=True)
    matrix, n, thetas, rankings, utility, drawn = _core.exposure_ranking(
        rel, codes.astype(np.int64), constraint=constraint, persistence=persistence,
        tolerance=float(tolerance), max_items=int(max_items), n_samples=int(n_samples),
        seed=int(random_state))
    p = np.asarray(matrix).reshape(n, n)
    v = (np.asarray([persistence ** j for j in range(n)]) if persistence is not None
         else 1.0 / np.log2(2.0 + np.arange(n)))
    return ExposureRanking(
        probabilities=p, weights=np.asarray(thetas),
        rankings=np.asarray(rankings, dtype=np.int64).reshape(len(thetas), n),
        utility=float(utility),
        samples=np.asarray(drawn, dtype=np.int64).reshape(int(n_samples), n),
        groups=names, exposure=p @ v)
