"""DataFrame front end of ``fairkit._core.ranking``: column lookup, encoding of groups and
queries, and the ranked rows out. Settings are validated in Rust."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from fairkit._core import FairkitError
from fairkit._core import ranking as _core


def _column(items: Any, name: Any, what: str):
    if name not in items.columns:
        raise FairkitError(f"{what} column {name!r} is not in the DataFrame (columns: "
                           f"{list(items.columns)})")
    return items[name]


def _scores(items: Any, score: Any):
    import numpy as np

    col = _column(items, score, "score")
    try:
        return np.ascontiguousarray(col.to_numpy(dtype=np.float64))
    except (TypeError, ValueError) as e:
        raise FairkitError(f"score column {score!r} must be numeric: {e}") from None


def _queries(items: Any, query: Any):
    import numpy as np
    import pandas as pd

    if query is None:
        return np.zeros(len(items), dtype=np.int64), ["(the only query)"]
    codes, uniques = pd.factorize(_column(items, query, "query"), sort=False)
    if (codes < 0).any():
        raise FairkitError(f"query column {query!r} has missing values at rows "
                           f"{list(np.flatnonzero(codes < 0)[:5])}: fill or drop them")
    return np.ascontiguousarray(codes, dtype=np.int64), [repr(u) for u in uniques]


def _ranked(items: Any, rows: Any, k: int, rank: Optional[str]):
    import numpy as np

    out = items.iloc[rows]
    if rank is not None:
        out = out.assign(**{rank: np.tile(np.arange(1, k + 1), len(rows) // k)})
    return out


def fair_topk(items: Any, *, score: Any, protected: Any, k: int, p: float, alpha: float = 0.1,
              adjust: bool = True, query: Any = None, rank: Optional[str] = "rank"):
    """FA*IR's fair top ``k`` of each query.

    At each position, when the protected items placed so far are fewer than FA*IR's table asks
    (:func:`fairkit.metrics.fair_mtable` with ``k``, ``p``, ``alpha``, ``adjust``), the best
    remaining protected item is placed, else the best remaining item. Equal scores keep the
    DataFrame's row order.

    Parameters
    ----------
    items : pandas.DataFrame
        One row per item.
    score : column name
        Higher is better; finite numbers.
    protected : column name
        Booleans (or 0/1): whether the item is in the protected group.
    k, p, alpha, adjust
        Positions per query; the target minimum share of protected items, in (0, 1); the
        test's significance level, in (0, 1); whether ``alpha`` gets the paper's correction
        for the ``k`` tests.
    query : column name, optional
        Re-rank each query's items separately (queries in order of first appearance).
    rank : str or None
        Name of a column added with the 1-based position in the query (``None``: none).

    Returns
    -------
    pandas.DataFrame
        The ``k`` chosen rows of each query in ranked order (index kept).

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5],
    ...                       "woman": [False, False, False, False, True]})
    >>> fair_topk(items, score="score", protected="woman", k=4, p=0.5, adjust=False).index.tolist()
    [0, 1, 2, 4]
    """
    import numpy as np

    s = _scores(items, score)
    col = _column(items, protected, "protected")
    values = col.to_numpy()
    if values.dtype != np.bool_:
        if col.isna().any() or not col.isin([0, 1]).all():
            raise FairkitError(f"protected column {protected!r} must hold booleans or 0/1")
        values = values.astype(np.bool_)
    q, names = _queries(items, query)
    rows = _core.fair_topk(s, np.ascontiguousarray(values), q, names, k=int(k), p=float(p),
                           alpha=float(alpha), adjust=bool(adjust))
    return _ranked(items, rows, int(k), rank)


def deterministic_rerank(items: Any, *, score: Any, group: Any, k: int,
                         target: Mapping[Any, float], method: str = "greedy",
                         query: Any = None, rank: Optional[str] = "rank"):
    """Geyik et al.'s deterministic fair re-ranking of each query (AIF360's
    ``DeterministicReranking(...).fit_predict``).

    Parameters
    ----------
    items : pandas.DataFrame
        One row per item.
    score : column name
        Higher is better; finite numbers.
    group : column name
        Each item's group; every value must be a key of ``target``.
    k : int
        Positions per query.
    target : dict
        Target share of each group (``{group value: share}``, shares in [0, 1] summing to 1).
        Its key order is the order groups are scanned in, which decides ties between groups
        (AIF360: the unprivileged groups, then the privileged).
    method : str
        ``"greedy"``, ``"cons"`` (AIF360's ``"Conservative"``), ``"relaxed"`` or
        ``"constsort"`` (``"Constrained"``).
    query : column name, optional
        Re-rank each query's items separately (queries in order of first appearance).
    rank : str or None
        Name of a column added with the 1-based position in the query (``None``: none).

    Returns
    -------
    pandas.DataFrame
        The ``k`` chosen rows of each query in ranked order (index kept).

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
    ...                       "g": ["a", "a", "a", "b", "b", "b"]})
    >>> deterministic_rerank(items, score="score", group="g", k=4,
    ...                      target={"a": 0.5, "b": 0.5}).index.tolist()
    [0, 3, 1, 4]
    """
    import numpy as np
    import pandas as pd

    s = _scores(items, score)
    col = _column(items, group, "group")
    keys = list(target.keys())
    codes = pd.Index(keys).get_indexer(col)
    if (codes < 0).any():
        bad = col[codes < 0].unique()[:5].tolist()
        raise FairkitError(f"group column {group!r} has values without a target share: {bad}; "
                           f"add them to target (keys: {keys})")
    q, names = _queries(items, query)
    rows = _core.det_rerank(s, np.ascontiguousarray(codes, dtype=np.int64), q, names, k=int(k),
                            target=[float(target[key]) for key in keys], method=str(method))
    return _ranked(items, rows, int(k), rank)
