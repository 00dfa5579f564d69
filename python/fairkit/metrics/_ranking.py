"""Fairness of rankings: FA*IR's ranked group fairness test (Zehlike et al., CIKM 2017) and each
group's exposure over rankings, computed in Rust (``fair_metrics::ranking``)."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from fairkit._core import FairkitError
from fairkit._core import metrics as _core


def fair_mtable(k: int, p: float, alpha: float = 0.1, *, adjust: bool = True) -> dict:
    """FA*IR's table: the fewest protected items each prefix ``1..k`` of a fair ranking must
    hold, at target proportion ``p`` and significance ``alpha``.

    ``adjust=True`` corrects the per-prefix level for the ``k`` tests (the paper's correction,
    the failure probability of a fair ranking over all ``k`` prefixes as close to ``alpha`` as
    the tables allow). Returns ``{"mtable": [...], "alpha": level, "fail_probability": …}``.

    Examples
    --------
    >>> fair_mtable(10, 0.5, 0.1, adjust=False)["mtable"]
    [0, 0, 0, 1, 1, 1, 2, 2, 3, 3]
    """
    return dict(_core.fair_mtable(int(k), float(p), float(alpha), bool(adjust)))


def ranked_group_fairness(protected: Sequence[bool], p: float, alpha: float = 0.1, *,
                          adjust: bool = True) -> dict:
    """FA*IR's test of one ranking: ``protected[i]`` says whether the item at position ``i + 1``
    belongs to the protected group. Returns ``{"passes", "first_violation" (1-based prefix or
    None), "mtable", "alpha"}``.

    Examples
    --------
    >>> ranked_group_fairness([False] * 10, 0.5, 0.1)["passes"]
    False
    """
    return dict(_core.fair_test([bool(x) for x in protected], float(p), float(alpha),
                                bool(adjust)))


def group_exposure(query: Any, rank: Any, group: Any, *, top_k: Optional[Sequence[int]] = None):
    """Each group's exposure over rankings given one row per item (its query id, its 1-based
    rank in the query, its group): exposure ``Σ 1 / log2(1 + rank)``, its share beside the
    group's share of the items and their ratio, and its share of the top ``k`` positions for
    each ``k`` in ``top_k``. Returns a pandas DataFrame indexed by group.

    Examples
    --------
    >>> e = group_exposure([1, 1, 1], [1, 2, 3], ["a", "b", "b"], top_k=[1])
    >>> round(float(e.loc["a", "exposure"]), 3), float(e.loc["a", "top_1_share"])
    (1.0, 1.0)
    """
    import numpy as np
    import pandas as pd

    q = np.asarray(query)
    r = np.asarray(rank)
    g = np.asarray(group, dtype=object)
    if not (len(q) == len(r) == len(g)):
        raise FairkitError(f"query, rank and group must have the same length, got {len(q)}, "
                           f"{len(r)} and {len(g)}")
    names, codes = np.unique(g.astype(str), return_inverse=True)
    _, qcodes = np.unique(q, return_inverse=True)
    if len(r) and (not np.issubdtype(r.dtype, np.integer) or (r < 1).any()):
        raise FairkitError("rank must hold 1-based integer ranks (1 = the top)")
    ks = [int(k) for k in (top_k or [])]
    rows = _core.exposure(qcodes.astype(np.uint64).tolist(), r.astype(np.uint64).tolist(),
                          codes.tolist(), len(names), ks)
    frame = pd.DataFrame([{k: v for k, v in row.items() if k not in ("group", "top_k_share")}
                          for row in rows], index=pd.Index(names, name="group"))
    for j, k in enumerate(ks):
        frame[f"top_{k}_share"] = [row["top_k_share"][j] for row in rows]
    return frame
