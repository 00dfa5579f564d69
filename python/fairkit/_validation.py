"""Input conversion shared by the metrics and the estimators.

Everything user-facing arrives here first: numpy arrays, pandas Series/DataFrames (categoricals
included) and lists are turned into C-contiguous 1-D numpy arrays of the few dtypes the Rust core
reads (``int64``, ``bool``, ``float64``). numpy inputs that already have such a dtype are passed
through without a copy. Problems raise :class:`fairkit.FairkitError` (a ``ValueError``) naming the
input and what to fix; the Rust core validates values (0/1 labels, finite non-negative weights,
group sizes) and its messages are passed on unchanged.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core_metrics

try:  # pandas is optional: results are pandas objects when it is installed.
    import pandas as pd
except ImportError:  # pragma: no cover - exercised only without pandas
    pd = None

# Largest number of intersectional groups (product of the features' distinct values).
_MAX_GROUPS = 10_000_000


def has_pandas() -> bool:
    """True when pandas can be imported (results are then pandas objects)."""
    return pd is not None


def _is_pandas(x: Any) -> bool:
    return pd is not None and isinstance(x, (pd.Series, pd.DataFrame, pd.Index))


def as_1d(x: Any, name: str) -> np.ndarray:
    """``x`` as a 1-D numpy array (a view when possible); a column vector is squeezed."""
    if x is None:
        raise FairkitError(f"{name} is missing: pass one value per row")
    if _is_pandas(x):
        if isinstance(x, pd.DataFrame):
            if x.shape[1] != 1:
                raise FairkitError(
                    f"{name} must be 1-D, got a DataFrame with {x.shape[1]} columns"
                )
            x = x.iloc[:, 0]
        arr = x.to_numpy()
    else:
        try:
            arr = np.asarray(x)
        except (ValueError, TypeError) as e:
            raise FairkitError(f"{name} could not be read as an array: {e}") from e
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise FairkitError(f"{name} must be 1-D (one value per row), got shape {arr.shape}")
    return arr


def check_length(arr: np.ndarray, n: int, name: str) -> None:
    """Raises unless ``arr`` has ``n`` rows."""
    if len(arr) != n:
        raise FairkitError(
            f"length mismatch for {name}: expected {n} rows (as y_true), got {len(arr)}; "
            "pass one value per row"
        )


def _missing_mask(arr: np.ndarray) -> np.ndarray | None:
    """Boolean mask of missing values (NaN, None, pd.NA), or None when the dtype cannot hold any."""
    if arr.dtype.kind in "iub":
        return None
    if arr.dtype.kind in "fc":
        return np.isnan(arr)
    if pd is not None:
        return np.asarray(pd.isna(arr))
    return np.array([v is None or (v != v) for v in arr], dtype=bool)


def check_no_missing(arr: np.ndarray, name: str) -> None:
    """Raises naming the first row holding NaN/None."""
    mask = _missing_mask(arr)
    if mask is not None and mask.any():
        row = int(np.argmax(mask))
        raise FairkitError(
            f"{name} has a missing value (NaN/None) at row {row}: remove or impute it first"
        )


def weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """``sample_weight`` as contiguous float64 (no copy when it already is), length-checked.

    Values (finite, ``>= 0``, positive total) are checked by the Rust core.
    """
    if sample_weight is None:
        return None
    w = as_1d(sample_weight, "sample_weight")
    if w.dtype.kind not in "fiub":
        raise FairkitError(f"sample_weight must be numeric, got dtype {w.dtype}")
    check_length(w, n, "sample_weight")
    return np.ascontiguousarray(w, dtype=np.float64)


def _is_zero_one_int(arr: np.ndarray) -> bool:
    return arr.dtype == np.int64 and bool(_core_metrics.is_zero_one(arr))


def _fast_binary(arr: np.ndarray) -> np.ndarray | None:
    """``arr`` itself when the core can read it as 0/1 labels without re-encoding."""
    if arr.dtype == np.bool_:
        return np.ascontiguousarray(arr)
    if arr.dtype.kind in "iu" and arr.dtype != np.int64:
        arr = arr.astype(np.int64)
    if arr.dtype == np.int64:
        arr = np.ascontiguousarray(arr)
        if _is_zero_one_int(arr):
            return arr
    return None


def is_default_pos_label(pos_label: Any) -> bool:
    """True for fairlearn's default positive label (None, or a number equal to 1)."""
    return pos_label is None or (isinstance(pos_label, numbers.Number) and pos_label == 1)


def one_pass_labels(arr: np.ndarray) -> np.ndarray | None:
    """``arr`` as the core's one-pass counting can take it (contiguous ``int64`` or ``bool``,
    checked for 0/1 while counting), or None."""
    if arr.dtype == np.int64 or arr.dtype == np.bool_:
        return np.ascontiguousarray(arr)
    return None


def one_pass_ids(sensitive_features: Any, n: int) -> tuple[str, np.ndarray] | None:
    """The name and contiguous ``int64`` values of a single integer sensitive feature (a numpy
    array or a pandas Series; not bool, not categorical), which the core may use directly as
    group codes; None for anything else (the general encoding path applies)."""
    # Decide on the dtype first: converting a categorical or string column to numpy only to
    # find it is not int64 would cost more than the counting itself.
    if isinstance(sensitive_features, np.ndarray):
        if sensitive_features.ndim != 1 or sensitive_features.dtype != np.int64:
            return None
    elif pd is None or not isinstance(sensitive_features, pd.Series):
        return None
    elif sensitive_features.dtype != np.int64:
        return None
    columns = _feature_columns(sensitive_features)
    if len(columns) != 1:
        return None
    name, column = columns[0]
    arr = as_1d(column, f"sensitive feature {name!r}")
    if arr.dtype != np.int64:
        return None
    check_length(arr, n, f"sensitive feature {name!r}")
    return name, np.ascontiguousarray(arr)


def _describe(values: np.ndarray) -> str:
    return ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values)


def _unique_labels(arrays: list[tuple[np.ndarray, str]]) -> np.ndarray:
    for arr, name in arrays:
        check_no_missing(arr, name)
    try:
        return np.unique(np.concatenate([a.astype(object) if a.dtype.kind == "O" else a for a, _ in arrays]))
    except TypeError as e:
        names = " and ".join(n for _, n in arrays)
        raise FairkitError(f"{names} mix label types that cannot be compared: {e}") from e


def binary_labels(
    y_true: Any, y_pred: Any, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Labels and predictions as 0/1 arrays (1 = ``pos_label``), fairlearn's rules.

    Like fairlearn's confusion-matrix rates: at most two distinct values over ``y_true`` and
    ``y_pred`` together; without ``pos_label`` they must be a subset of {0, 1} or {-1, 1} and 1
    is positive; with ``pos_label`` it must be one of the two values (when there are two).
    0/1 ``int64`` and ``bool`` arrays are passed through without a copy.
    """
    yt = as_1d(y_true, "y_true")
    yp = as_1d(y_pred, "y_pred")
    check_length(yp, len(yt), "y_pred")
    if len(yt) == 0:
        raise FairkitError("y_true is empty: at least one row is needed")
    if is_default_pos_label(pos_label):
        ft, fp = _fast_binary(yt), _fast_binary(yp)
        if ft is not None and fp is not None:
            return ft, fp
    uniq = _unique_labels([(yt, "y_true"), (yp, "y_pred")])
    if len(uniq) > 2:
        raise FairkitError(
            f"y_true and y_pred together have {len(uniq)} distinct values ({_describe(uniq[:5])}"
            f"{', ...' if len(uniq) > 5 else ''}); these metrics need binary labels (at most "
            "two values)"
        )
    if pos_label is None:
        vals = set(uniq.tolist())
        if vals <= {0, 1} or vals <= {-1, 1}:
            pos_label = 1
        else:
            raise FairkitError(
                f"labels are ({_describe(uniq)}): without pos_label they must be a subset of "
                "{0, 1} or {-1, 1}; pass pos_label= to say which value is positive"
            )
    elif len(uniq) == 2 and pos_label not in uniq.tolist():
        raise FairkitError(
            f"pos_label={pos_label!r} is not one of the label values ({_describe(uniq)})"
        )
    return _equals(yt, pos_label), _equals(yp, pos_label)


def selected(y_pred: Any, pos_label: Any = 1) -> np.ndarray:
    """``y_pred == pos_label`` as a 0/1 array (fairlearn's ``selection_rate``: any values)."""
    yp = as_1d(y_pred, "y_pred")
    if len(yp) == 0:
        raise FairkitError("y_pred is empty: at least one row is needed")
    if isinstance(pos_label, numbers.Number) and pos_label == 1:
        fast = _fast_binary(yp)
        if fast is not None:
            return fast
    check_no_missing(yp, "y_pred")
    return _equals(yp, pos_label)


def _equals(arr: np.ndarray, value: Any) -> np.ndarray:
    out = np.asarray(arr == value)
    if out.shape != arr.shape or out.dtype != np.bool_:
        out = np.array([v == value for v in arr], dtype=bool)
    return np.ascontiguousarray(out)


@dataclass
class GroupEncoding:
    """Sensitive features encoded for the core.

    ``codes`` index the Cartesian product of the features' sorted distinct values (fairlearn's
    group order); ``levels`` are those values per feature, ``feature_names`` fairlearn's names.
    """

    codes: np.ndarray | None  # None when the core counted straight from the raw ids
    n_groups: int
    feature_names: list[str]
    levels: list[np.ndarray]

    def group_labels(self) -> list[Any]:
        """One label per group: the value (one feature) or a tuple of values (several)."""
        if len(self.levels) == 1:
            return [_py(v) for v in self.levels[0]]
        grids = np.meshgrid(*[np.arange(len(lv)) for lv in self.levels], indexing="ij")
        flat = [g.reshape(-1) for g in grids]
        return [
            tuple(_py(self.levels[f][flat[f][k]]) for f in range(len(self.levels)))
            for k in range(self.n_groups)
        ]

    def group_names(self) -> list[str]:
        """Group labels as strings for error messages (``"F & B"`` for intersections)."""
        labels = self.group_labels()
        if len(self.levels) == 1:
            return [str(v) for v in labels]
        return [" & ".join(str(p) for p in t) for t in labels]

    def index(self):
        """The pandas index fairlearn's ``by_group`` has (requires pandas)."""
        if len(self.levels) == 1:
            return pd.Index(list(self.group_labels()), name=self.feature_names[0])
        return pd.MultiIndex.from_product(
            [list(map(_py, lv)) for lv in self.levels], names=self.feature_names
        )


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _feature_columns(sensitive_features: Any) -> list[tuple[str, Any]]:
    """(name, column) pairs following fairlearn's ``MetricFrame._process_features``."""
    base = "sensitive_feature_"
    if sensitive_features is None:
        raise FairkitError("sensitive_features is missing: pass one group label per row")
    if pd is not None and isinstance(sensitive_features, pd.Series):
        name = sensitive_features.name
        if name is not None and not isinstance(name, str):
            raise FairkitError(f"Series name must be a string, got {name!r} ({type(name).__name__})")
        return [(name if name is not None else f"{base}0", sensitive_features)]
    if pd is not None and isinstance(sensitive_features, pd.DataFrame):
        return _frame_columns(sensitive_features)
    if isinstance(sensitive_features, dict):
        if pd is not None:
            try:
                frame = pd.DataFrame.from_dict(sensitive_features)
            except ValueError as e:
                raise FairkitError(
                    f"sensitive_features dict could not be read as columns (each must be 1-D): {e}"
                ) from e
            return _frame_columns(frame)
        return [(str(k), v) for k, v in sensitive_features.items()]
    if isinstance(sensitive_features, list) and all(
        np.isscalar(v) or v is None for v in sensitive_features
    ):
        return [(f"{base}0", np.asarray(sensitive_features, dtype=object))]
    if isinstance(sensitive_features, np.ndarray):
        arr = sensitive_features
    else:
        try:
            arr = np.asarray(sensitive_features, dtype=object)
        except ValueError as e:
            raise FairkitError(f"sensitive_features could not be read as an array: {e}") from e
    arr = np.squeeze(arr) if arr.ndim > 1 else arr
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim == 1:
        return [(f"{base}0", arr)]
    if arr.ndim == 2:
        return [(f"{base}{i}", arr[:, i]) for i in range(arr.shape[1])]
    raise FairkitError(f"sensitive_features has too many dimensions ({arr.ndim}); pass 1-D or 2-D")


def _frame_columns(frame) -> list[tuple[str, Any]]:
    out = []
    for i, col in enumerate(frame.columns):
        if not isinstance(col, str):
            raise FairkitError(
                f"DataFrame column names must be strings, got {col!r} ({type(col).__name__})"
            )
        out.append((col, frame.iloc[:, i]))
    names = [n for n, _ in out]
    for n in names:
        if names.count(n) > 1:
            raise FairkitError(f"duplicate sensitive feature name {n!r}")
    return out


def _factorize(column: Any, name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and int64 codes of one sensitive feature."""
    if pd is not None and isinstance(column, pd.Series) and isinstance(
        column.dtype, pd.CategoricalDtype
    ):
        cat_codes = np.asarray(column.cat.codes, dtype=np.int64)
        check_length(cat_codes, n, f"sensitive feature {name!r}")
        if (cat_codes < 0).any():
            row = int(np.argmax(cat_codes < 0))
            raise FairkitError(
                f"sensitive feature {name!r} has a missing value at row {row}: remove or replace it"
            )
        # fairlearn groups by value (sorted), listing only categories that occur.
        used, codes = _core_metrics.factorize_int(cat_codes)
        codes = cat_codes if codes is None else codes
        cats = np.asarray(column.cat.categories, dtype=object)[used]
        try:
            order = np.argsort(cats, kind="stable")
        except TypeError as e:
            raise FairkitError(f"sensitive feature {name!r} mixes incomparable values: {e}") from e
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return cats[order], rank[codes]
    arr = as_1d(column, f"sensitive feature {name!r}")
    check_length(arr, n, f"sensitive feature {name!r}")
    if arr.dtype.kind in "iub":
        ints = np.ascontiguousarray(arr, dtype=np.int64)
        uniques, codes = _core_metrics.factorize_int(ints)
        if arr.dtype.kind == "b":  # keep the labels False/True, as fairlearn's index has them
            uniques = uniques.astype(bool)
        return uniques, ints if codes is None else codes
    mask = _missing_mask(arr)
    if mask is not None and mask.any():
        row = int(np.argmax(mask))
        raise FairkitError(
            f"sensitive feature {name!r} has a missing value (NaN/None) at row {row}: remove or "
            "replace it before computing group metrics"
        )
    try:
        if pd is not None:
            codes, uniques = pd.factorize(arr, sort=True)
            return np.asarray(uniques, dtype=arr.dtype if arr.dtype.kind != "O" else object), codes.astype(np.int64)
        uniques, codes = np.unique(arr, return_inverse=True)
        return uniques, codes.astype(np.int64)
    except TypeError as e:
        raise FairkitError(f"sensitive feature {name!r} mixes incomparable values: {e}") from e


def encode_groups(sensitive_features: Any, n: int) -> GroupEncoding:
    """Encodes one or several sensitive features (intersectional groups) for ``n`` rows."""
    columns = _feature_columns(sensitive_features)
    if not columns:
        raise FairkitError("sensitive_features has no columns")
    names, levels, codes = [], [], None
    total = 1
    for name, column in columns:
        uniques, c = _factorize(column, name, n)
        names.append(name)
        levels.append(uniques)
        total *= max(len(uniques), 1)
        if total > _MAX_GROUPS:
            raise FairkitError(
                f"the sensitive features span {total} or more intersectional groups (limit "
                f"{_MAX_GROUPS}); combine fewer features or coarser values"
            )
        codes = c if codes is None else codes * len(uniques) + c
    return GroupEncoding(
        codes=np.ascontiguousarray(codes, dtype=np.int64),
        n_groups=total,
        feature_names=names,
        levels=levels,
    )
