"""Group encoding that is remembered at fit and replayed at predict.

The estimators see sensitive features twice: at ``fit`` (where the groups are learned) and at
``predict`` (where each row must be mapped to one of *those* groups). :class:`GroupIndex` encodes
the fit-time features with :func:`fairkit._validation.encode_groups` (fairlearn's rules: several
features = intersectional groups), keeps only the combinations that occur, and maps later rows
through the same levels; a value or combination never seen at fit is an error naming the row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core_metrics
from fairkit._validation import (
    _feature_columns,
    as_1d,
    check_length,
    check_no_missing,
    encode_groups,
    pd,
)


@dataclass
class GroupIndex:
    """The groups seen at fit: per-feature sorted levels and the occurring combinations."""

    feature_names: list[str]
    levels: list[np.ndarray]
    # Product codes (over the features' levels) of the combinations that occur, sorted.
    present: np.ndarray
    # One label per group: the value (one feature) or a tuple of values (several features).
    labels: list[Any]

    @classmethod
    def fit(cls, sensitive_features: Any, n: int) -> tuple["GroupIndex", np.ndarray]:
        """Learns the groups of ``n`` rows; returns the index and the rows' group codes."""
        enc = encode_groups(sensitive_features, n)
        present, dense = _core_metrics.factorize_int(enc.codes)
        codes = enc.codes if dense is None else dense
        all_labels = enc.group_labels()
        labels = [all_labels[int(k)] for k in present]
        index = cls(enc.feature_names, enc.levels, np.asarray(present, dtype=np.int64), labels)
        return index, np.ascontiguousarray(codes, dtype=np.int64)

    @property
    def names(self) -> list[str]:
        """Group names as strings (``"F & B"`` for intersections), for the core's messages."""
        if len(self.levels) == 1:
            return [str(v) for v in self.labels]
        return [" & ".join(str(p) for p in t) for t in self.labels]

    def transform(self, sensitive_features: Any, n: int) -> np.ndarray:
        """Group codes of ``n`` new rows; raises on a value or combination unseen at fit."""
        columns = _feature_columns(sensitive_features)
        if len(columns) != len(self.levels):
            raise FairkitError(
                f"sensitive_features has {len(columns)} feature(s) but the estimator was fitted "
                f"with {len(self.levels)} ({', '.join(self.feature_names)}): pass the same features"
            )
        product = np.zeros(n, dtype=np.int64)
        for (name, column), levels in zip(columns, self.levels):
            if pd is not None and isinstance(column, pd.Series) and isinstance(
                column.dtype, pd.CategoricalDtype
            ):
                column = column.astype(object)
            arr = as_1d(column, f"sensitive feature {name!r}")
            check_length(arr, n, f"sensitive feature {name!r}")
            check_no_missing(arr, f"sensitive feature {name!r}")
            product = product * len(levels) + _lookup(levels, arr, name)
        pos = np.searchsorted(self.present, product)
        pos_c = np.minimum(pos, len(self.present) - 1)
        unseen = self.present[pos_c] != product
        if unseen.any():
            row = int(np.argmax(unseen))
            raise FairkitError(
                f"sensitive_features at row {row} is a group combination not seen at fit: the "
                "estimator can only handle groups it was fitted on"
            )
        return np.ascontiguousarray(pos_c, dtype=np.int64)


def _lookup(levels: np.ndarray, arr: np.ndarray, name: str) -> np.ndarray:
    """Index of every value of ``arr`` in the sorted ``levels``; unseen values raise."""
    if levels.dtype.kind in "iufb" and arr.dtype.kind in "iufb":
        pos = np.minimum(np.searchsorted(levels, arr), len(levels) - 1)
        unseen = levels[pos] != arr
    else:
        where = {_key(v): i for i, v in enumerate(levels)}
        pos = np.fromiter((where.get(_key(v), -1) for v in arr), dtype=np.int64, count=len(arr))
        unseen = pos < 0
    if unseen.any():
        row = int(np.argmax(unseen))
        known = ", ".join(repr(_key(v)) for v in levels[:10])
        raise FairkitError(
            f"sensitive feature {name!r} has value {_key(arr[row])!r} at row {row}, which was not "
            f"seen at fit (known: {known}{', ...' if len(levels) > 10 else ''}): the estimator can "
            "only handle groups it was fitted on"
        )
    return pos.astype(np.int64)


def _key(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v
