"""``MetricFrame``: fairlearn 0.15's disaggregated view, for any metric.

The rows are grouped once: every row gets a *cell* (its combination of control and sensitive
feature values, mixed-radix code over the sorted distinct values of each feature) and one
stable sort gives the rows of each cell as a contiguous slice of an index array. Then

- the recognised rates (``selection_rate``, ``true_positive_rate``, ..., scikit-learn's
  ``accuracy_score``, ``precision_score``, ``recall_score``, ``zero_one_loss``) are counted per
  cell in one pass in Rust (``fairkit._core.metrics.group_rates``); with ``sample_weight`` each
  cell is the exact sum of its weights, rounded once, so the counts do not depend on the order
  of the rows and equal those of ``RunningMetrics`` fed the same rows in any batches;
- any other callable is called once per cell on numpy slices of ``y_true``, ``y_pred`` and the
  ``sample_params`` arrays (no pandas groupby).

The per-cell table is then shaped and aggregated as fairlearn does (same pandas index, names,
dtypes and NaN rules), on the small table of cells, never on the rows.
"""

from __future__ import annotations

import hashlib
import pickle

import numbers
import warnings
from typing import Any, Callable

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v

# -- fairlearn's message texts (its tests compare them word for word) ------------------------
_SF_DICT_CONVERSION_FAILURE = (
    "DataFrame.from_dict() failed on sensitive features. "
    "Please ensure each array is strictly 1-D. "
    "The __cause__ field of this exception may contain further information."
)
_FEATURE_LIST_NONSCALAR = "Feature lists must be of scalar types"
_FEATURE_DF_COLUMN_BAD_NAME = "DataFrame column names must be strings. Name '{0}' is of type {1}"
_SERIES_NAME_NOT_STRING = "Series name must be a string. Value '{0}' was of type {1}"
_FEATURE_HAS_MISSING_VALUES = (
    "Feature '{0}' contains missing values. Remove or replace them before "
    "constructing a MetricFrame"
)
_DUPLICATE_FEATURE_NAME = "Detected duplicate feature name: '{0}'"
_TOO_MANY_FEATURE_DIMS = "Feature array has too many dimensions"
_SAMPLE_PARAMS_NOT_DICT = "Sample parameters must be a dictionary"
_SAMPLE_PARAM_KEYS_NOT_IN_FUNC_DICT = "Keys in 'sample_params' do not match those in 'metric'"
_METRIC_FUNCTION_NONE = "Found 'None' instead of metric function"
_METRIC_FUNCTION_NOT_CALLABLE = "Object passed as metric function not callable"
_COMPARE_METHODS = ["between_groups", "to_overall"]
_INVALID_COMPARE_METHOD = "Unrecognised comparison method: {0}"
_VALID_ERROR_STRING = ["raise", "coerce"]
_INVALID_ERRORS_VALUE_ERROR_MESSAGE = (
    f"Invalid error value specified. Valid values are {_VALID_ERROR_STRING}"
)
_MF_CONTAINS_NON_SCALAR_ERROR_MESSAGE = (
    "Metric frame contains non-scalar cells. Please remove non-scalar columns from your"
    " metric frame or use parameter errors='coerce'."
)
_BOOTSTRAP_NEED_N_AND_CI = "Must specify both n_boot and ci_quantiles"
_BOOTSTRAP_N_BOOT_INT_GT_ZERO = "Must have n_boot be a positive integer"
_BOOTSTRAP_CI_INVALID = "Must have all ci_quantiles be floats in (0, 1)"
_BOOTSTRAP_NOT_INITIALIZED = (
    "Could not compute confidence intervals:"
    " Bootstrapping parameters n_boot and ci_quantiles were not specified"
    " in the MetricFrame constructor."
)
_DEFAULT_NAME = "metric"

# Function names fairkit counts in Rust (fairkit's, fairlearn's or scikit-learn's function of
# that name, or the name as a string) → the core's rate name.
_RATE_OF_FUNCTION = {
    "selection_rate": "selection_rate",
    "true_positive_rate": "true_positive_rate",
    "recall_score": "true_positive_rate",
    "false_positive_rate": "false_positive_rate",
    "true_negative_rate": "true_negative_rate",
    "false_negative_rate": "false_negative_rate",
    "precision_score": "precision",
    "accuracy_score": "accuracy",
    "zero_one_loss": "error_rate",
}
_KNOWN_MODULES = ("fairkit", "fairlearn", "sklearn")


def _recognised_rate(metric: Any) -> str | None:
    """The core rate computed by ``metric`` (a recognised function or its name), else None."""
    if isinstance(metric, str):
        return _RATE_OF_FUNCTION.get(metric)
    name = getattr(metric, "__name__", None)
    module = getattr(metric, "__module__", "") or ""
    if name in _RATE_OF_FUNCTION and module.startswith(_KNOWN_MODULES):
        return _RATE_OF_FUNCTION[name]
    return None


def _string_metric(name: str) -> Callable:
    """The fairkit function behind a rate given by name (``metrics="selection_rate"``)."""
    from fairkit.metrics import _functions as f

    ours = {
        "selection_rate": f.selection_rate,
        "true_positive_rate": f.true_positive_rate,
        "false_positive_rate": f.false_positive_rate,
        "true_negative_rate": f.true_negative_rate,
        "false_negative_rate": f.false_negative_rate,
    }
    if name in ours:
        # The gap functions name their rate this way: they must work with numpy alone.
        return ours[name]
    import sklearn.metrics as skm  # only for these names: fairkit does not require it

    return {
        "recall_score": skm.recall_score,
        "precision_score": skm.precision_score,
        "accuracy_score": skm.accuracy_score,
        "zero_one_loss": skm.zero_one_loss,
    }[name]


def _takes(func: Callable, name: str) -> bool:
    """Whether ``func`` has a parameter ``name``."""
    import inspect

    try:
        return name in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def _check_method(method: str) -> None:
    if method not in _COMPARE_METHODS:
        raise FairkitError(_INVALID_COMPARE_METHOD.format(method))


def _check_errors(errors: str) -> None:
    if errors not in _VALID_ERROR_STRING:
        raise FairkitError(_INVALID_ERRORS_VALUE_ERROR_MESSAGE)


def _squeeze(target: Any) -> np.ndarray:
    """fairlearn's ``_convert_to_ndarray_and_squeeze`` (a 1-element input stays 1-D)."""
    result = np.asarray(target)
    if result.size > 1:
        result = np.squeeze(result)
    elif result.size == 1:
        result = result.reshape(1)
    return result


def _n_samples(x: Any) -> int:
    if hasattr(x, "shape") and len(getattr(x, "shape")) > 0:
        return int(x.shape[0])
    try:
        return len(x)
    except TypeError as e:
        raise FairkitError(
            f"Expected sequence or array-like, got {type(x)}"
        ) from e


def _check_consistent_length(*arrays: Any) -> None:
    """scikit-learn's ``check_consistent_length`` message."""
    lengths = [_n_samples(x) for x in arrays if x is not None]
    if len(set(lengths)) > 1:
        raise FairkitError(
            "Found input variables with inconsistent numbers of samples: %r" % lengths
        )


def _check_rows(arr: Any, n: int, name: str) -> None:
    """fairkit's length message (naming the input), with scikit-learn's text after it."""
    got = _n_samples(arr)
    if got != n:
        raise FairkitError(
            f"length mismatch for {name}: expected {n} rows (as y_true), got {got}; pass one "
            f"value per row (Found input variables with inconsistent numbers of samples: "
            f"{[n, got]!r})"
        )


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return True


class _Feature:
    """One sensitive or control feature: name, values (a list, as fairlearn keeps them).

    A pandas categorical is kept as its codes: its groups come from the categories (``_ids``
    and ``_factorized`` without a pass over the values), and the per-row values are only
    materialised when something reads ``values``."""

    def __init__(self, base_name: str, vector: Any, index: int, name: Any = None) -> None:
        self.name = f"{base_name}{index}"
        if name is not None:
            if not isinstance(name, str):
                raise FairkitError(_SERIES_NAME_NOT_STRING.format(name, type(name)))
            self.name = name
        self.name_ = self.name  # fairlearn's GroupFeature attribute names
        self._ids = None  # (int64 ids, levels of the ids) for the one-pass count
        categorical = v.pd is not None and isinstance(
            getattr(vector, "dtype", None), v.pd.CategoricalDtype)
        if categorical:
            self._values = None
            self._categorical = vector
            missing = _categorical_codes(self, vector)
        else:
            self._values = vector
            self._categorical = None
            missing = _first_missing(vector)
        if missing is not None:
            raise FairkitError(
                _FEATURE_HAS_MISSING_VALUES.format(self.name)
                + f" (sensitive feature {self.name!r} has a missing value at row {missing})"
            )

    @property
    def values(self) -> np.ndarray:
        if self._values is None:
            self._values = np.asarray(self._categorical, dtype=object)
        return self._values

    @values.setter
    def values(self, value: np.ndarray) -> None:
        self._values = value

    @property
    def raw_feature_(self) -> np.ndarray:
        return self.values


def _categorical_codes(f: _Feature, cat: Any) -> int | None:
    """Sets ``f._ids`` / ``f._factorized`` of a pandas categorical (Series or Categorical)
    from its codes; returns the first missing row, if any. fairlearn's groups are the categories
    that occur, ordered by value."""
    cat = cat.array if isinstance(cat, v.pd.Series) else cat
    codes = np.asarray(cat.codes)
    if len(codes) and codes.min() < 0:
        return int(np.argmax(codes < 0))
    cats = np.asarray(cat.categories, dtype=object)
    try:
        order = np.argsort(cats, kind="stable")
    except TypeError:
        order = np.array(sorted(range(len(cats)), key=lambda i: (type(cats[i]).__name__, cats[i])),
                         dtype=np.int64)
    if (order == np.arange(len(cats))).all():
        # Categories in value order (pandas' default for strings and numbers): the codes are the
        # ranks already, read by the count at their own width; the count finds which occur.
        f._ids = (np.ascontiguousarray(codes), cats)
        return None
    ids = codes.astype(np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    f._ids = (rank[ids], cats[order])
    return None


def _first_missing(arr: np.ndarray) -> int | None:
    """The first row holding NaN/None/NA, or None."""
    if arr.dtype.kind in "iubUS":
        return None
    if arr.dtype.kind in "fc":
        mask = np.isnan(arr)
    elif v.pd is not None:
        # pandas' C loop: None, NaN, NaT and pd.NA, as _is_missing reads them.
        mask = np.asarray(v.pd.isna(arr), dtype=bool)
    else:
        mask = np.fromiter((_is_missing(x) for x in arr), dtype=bool, count=len(arr))
    return int(np.argmax(mask)) if mask.any() else None


def _series_values(s: Any) -> np.ndarray:
    """A pandas/polars Series' values as a numpy array (categoricals as their values)."""
    if v.pd is not None and isinstance(s, v.pd.Series):
        if isinstance(s.dtype, v.pd.CategoricalDtype):
            return s  # kept as codes by _Feature; values materialised on demand
        if s.dtype.kind in "iufb" and not hasattr(s.dtype, "na_value"):
            return s.to_numpy()
        arr = s.to_numpy(dtype=object)
        return arr
    return np.asarray(s.to_numpy())


def _is_polars_frame(x: Any) -> bool:
    mod = type(x).__module__ or ""
    return mod.startswith("polars") and type(x).__name__ == "DataFrame"


def _is_polars_series(x: Any) -> bool:
    mod = type(x).__module__ or ""
    return mod.startswith("polars") and type(x).__name__ == "Series"


def _process_features(base_name: str, features: Any, n: int) -> list[_Feature]:
    """fairlearn's ``_process_features``: one ``_Feature`` per column, named as fairlearn."""
    pd = v.pd
    result: list[_Feature] = []

    what = "sensitive feature" if base_name.startswith("sensitive") else "control feature"

    def checked(arr: np.ndarray, i: int = 0, name: Any = None) -> np.ndarray:
        _check_rows(arr, n, f"{what} {name or base_name + str(i)!r}")
        return arr

    if pd is not None and isinstance(features, pd.Series):
        checked(features, 0, features.name)
        result.append(_Feature(base_name, _series_values(features), 0, features.name))
    elif _is_polars_series(features):
        name = features.name or None
        checked(features, 0, name)
        result.append(_Feature(base_name, np.asarray(features.to_list(), dtype=object), 0, name))
    elif (pd is not None and isinstance(features, pd.DataFrame)) or _is_polars_frame(features):
        if _is_polars_frame(features):
            features = features.to_pandas()
        for i in range(len(features.columns)):
            col_name = features.columns[i]
            if not isinstance(col_name, str):
                raise FairkitError(_FEATURE_DF_COLUMN_BAD_NAME.format(col_name, type(col_name)))
            column = features.iloc[:, i]
            checked(column, i, col_name)
            result.append(_Feature(base_name, _series_values(column), i, col_name))
    elif pd is not None and isinstance(features, pd.Categorical):
        result.append(_Feature(base_name, checked(features), 0))
    elif isinstance(features, list):
        is_scalar = (lambda x: pd.api.types.is_scalar(x)) if pd is not None else np.isscalar
        if all(x is None or is_scalar(x) for x in features):
            f_arr = np.atleast_1d(np.squeeze(np.asarray(features, dtype=object)))
            result.append(_Feature(base_name, checked(f_arr), 0))
        else:
            raise FairkitError(_FEATURE_LIST_NONSCALAR)
    elif isinstance(features, dict):
        if pd is None:
            cols = list(features.items())
        else:
            try:
                df = pd.DataFrame.from_dict(features)
            except ValueError as ve:
                raise FairkitError(_SF_DICT_CONVERSION_FAILURE) from ve
            cols = [(df.columns[i], df.iloc[:, i]) for i in range(len(df.columns))]
        for i, (col_name, column) in enumerate(cols):
            if not isinstance(col_name, str):
                raise FairkitError(_FEATURE_DF_COLUMN_BAD_NAME.format(col_name, type(col_name)))
            arr = _series_values(column) if pd is not None else np.asarray(column)
            result.append(_Feature(base_name, checked(arr, i, col_name), i, col_name))
    else:
        f_arr = np.asarray(features)
        if f_arr.dtype.kind not in "iufbUS":
            f_arr = np.asarray(features, dtype=object)
        f_arr = np.squeeze(f_arr)
        if f_arr.ndim == 0:
            f_arr = f_arr.reshape(1)
        if f_arr.ndim == 1:
            result.append(_Feature(base_name, checked(f_arr), 0))
        elif f_arr.ndim == 2:
            for i in range(f_arr.shape[1]):
                result.append(_Feature(base_name, checked(f_arr[:, i], i), i))
        else:
            raise FairkitError(
                f"{_TOO_MANY_FEATURE_DIMS} ({f_arr.ndim}): pass one 1-D array per feature or a "
                "2-D array with one column per feature"
            )
    return result


#: The id widths the one-pass count reads as they are (int64 columns; a categorical's codes).
_ID_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.int16), np.dtype(np.int8))


def _plain(u: Any) -> Any:
    """A numpy scalar as its Python value (levels are Python objects)."""
    return u.item() if isinstance(u, np.generic) else u


def _factorized(f: _Feature) -> tuple[list, np.ndarray]:
    """Sorted levels and codes of a feature (a categorical's from its codes: only the
    categories that occur, in value order)."""
    if f._ids is None:
        return _levels_and_codes(f.values)
    ids, levels = f._ids
    counts = np.bincount(ids, minlength=len(levels))
    used = np.flatnonzero(counts)
    if len(used) == len(levels):
        return [_plain(u) for u in list(levels)], ids
    remap = np.full(len(levels), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return [_plain(levels[i]) for i in used], remap[ids]


def _levels_and_codes(values: np.ndarray) -> tuple[list, np.ndarray]:
    """Sorted distinct values (as Python objects, for pandas' dtype inference) and codes."""
    if values.dtype == np.int64 and values.flags.c_contiguous:
        uniques, codes = _core.factorize_int(values)
        return uniques.tolist(), (values if codes is None else codes)
    if values.dtype.kind == "O" and v.pd is not None:
        # Hash the rows once (pandas' factorize, C), then sort only the distinct values: the
        # order np.unique gives, without sorting every row's object.
        codes, uniques = v.pd.factorize(values, sort=False)
        uniques = np.asarray(uniques, dtype=object)
        try:
            order = np.argsort(uniques, kind="stable")
        except TypeError:
            order = np.array(sorted(range(len(uniques)),
                                    key=lambda i: (type(uniques[i]).__name__, uniques[i])),
                             dtype=np.int64)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return uniques[order].tolist(), rank[codes]
    try:
        uniques, codes = np.unique(values, return_inverse=True)
    except TypeError:
        # Mixed types numpy cannot order: order by (type name, value) like a stable key.
        objs = values.astype(object)
        keyed = sorted(set(objs.tolist()), key=lambda x: (type(x).__name__, x))
        pos = {u: i for i, u in enumerate(keyed)}
        return keyed, np.fromiter((pos[x] for x in objs), dtype=np.int64, count=len(objs))
    return uniques.tolist(), codes.reshape(-1).astype(np.int64, copy=False)


class _Cells:
    """Rows grouped once: per-row cell code over (control..., sensitive...) features, and the
    rows of every cell as a slice of one stably sorted index."""

    def __init__(
        self, features: list[_Feature], n: int, counts: np.ndarray | None = None
    ) -> None:
        """``counts``: the rows per cell when already known (the control groups' counts are
        sums of the cells' counts), saving a pass over the rows."""
        self.names = [f.name for f in features]
        self.levels: list[list] = []
        code = None
        size = 1
        for f in features:
            if getattr(f, "_factorized", None) is None:
                f._factorized = _factorized(f)
            levels, codes = f._factorized
            self.levels.append(levels)
            if size * max(len(levels), 1) > 10_000_000:
                raise FairkitError(
                    f"the features {self.names} have more than 10,000,000 combinations of "
                    "values: too many groups"
                )
            if code is None:
                code = codes
            else:  # one new array, then in place
                code = code * len(levels)
                code += codes
            size *= len(levels)
        self.size = size
        self.code = np.zeros(n, dtype=np.int64) if code is None else np.ascontiguousarray(
            code, dtype=np.int64
        )
        if counts is not None:
            self.counts = counts
        elif n:
            self.counts = np.bincount(self.code, minlength=size)
        else:
            self.counts = np.zeros(size, dtype=np.int64)
        self._order = None

    def rows(self, cell: int) -> np.ndarray:
        """The rows of ``cell`` (the sort is done on first use: the Rust counts need none)."""
        if self._order is None:
            self._order = np.argsort(self.code, kind="stable")
            self._starts = np.concatenate(([0], np.cumsum(self.counts)))
        return self._order[self._starts[cell] : self._starts[cell + 1]]

    def present(self) -> np.ndarray:
        return np.flatnonzero(self.counts)

    def keys(self) -> list:
        """Every cell's key: its value for one feature, the tuple of values for several."""
        if len(self.levels) == 1:
            return list(self.levels[0])
        import itertools

        return list(itertools.product(*self.levels))

    def labels(self) -> list[str]:
        """Every cell's name in messages (``a`` or ``(a, x)``)."""
        if len(self.levels) == 1:
            return [str(k) for k in self.levels[0]]
        return ["(" + ", ".join(map(str, k)) + ")" for k in self.keys()]

    def index(self):
        pd = v.pd
        if len(self.names) == 1:
            return pd.Index(self.levels[0], name=self.names[0])
        return pd.MultiIndex.from_product(self.levels, names=self.names)


class _IdCells(_Cells):
    """One ``int64`` sensitive feature counted in one pass (``group_rates_ids``): its groups are
    the ids that occur, known from the count; the per-row codes (and the counts) are made only
    when something needs them (a callable, the bootstrap)."""

    def __init__(self, feature: _Feature, uniques: np.ndarray) -> None:
        self.names = [feature.name]
        self.levels = [[_plain(u) for u in uniques.tolist()]]
        self.size = len(uniques)
        self._feature = feature
        self._code = None
        self._order = None

    @property
    def code(self) -> np.ndarray:  # type: ignore[override]
        if self._code is None:
            f = self._feature
            if getattr(f, "_factorized", None) is None:
                f._factorized = _factorized(f)
            self._code = np.ascontiguousarray(f._factorized[1], dtype=np.int64)
        return self._code

    @property
    def counts(self) -> np.ndarray:  # type: ignore[override]
        return np.bincount(self.code, minlength=self.size)

    def present(self) -> np.ndarray:
        return np.arange(self.size)


class _Metric:
    """One metric: name, callable, its per-row sample parameters, and its recognised rate."""

    def __init__(
        self, func: Any, name: str | None, params: dict, n: int, pos_label: Any = None
    ) -> None:
        if func is None:
            raise FairkitError(_METRIC_FUNCTION_NONE)
        given_name = isinstance(func, str)
        if given_name:
            rate = _RATE_OF_FUNCTION.get(func)
            if rate is None:
                raise FairkitError(
                    f"metric {func!r} is not a function name fairkit knows: "
                    f"{', '.join(sorted(_RATE_OF_FUNCTION))}; pass a callable"
                )
            self.rate: str | None = rate
            if name is None:
                name = func
            func = _string_metric(func)
            if pos_label is not None and _takes(func, "pos_label"):
                import functools

                func = functools.partial(func, pos_label=pos_label)
        else:
            if not callable(func):
                raise FairkitError(_METRIC_FUNCTION_NOT_CALLABLE)
            self.rate = _recognised_rate(func)
        # fairkit's own rate functions (or a name): errors of the Rust counts are theirs.
        self.own = self.rate is not None and (
            given_name
            or (getattr(func, "__module__", "") or "").startswith("fairkit")
        )
        if name is None:
            if hasattr(func, "__name__"):
                name = func.__name__
            else:
                warnings.warn("Supplied 'func' had no __name__ attribute", stacklevel=4)
                name = _DEFAULT_NAME
        self.name = name
        self.func = func
        if not isinstance(params, dict):
            raise FairkitError(_SAMPLE_PARAMS_NOT_DICT)
        self.params = {k: np.asarray(p) for k, p in params.items() if p is not None}
        for k, p in self.params.items():
            if p.ndim == 0 or len(p) != n:
                raise FairkitError(
                    f"sample_params[{k!r}] for metric {name!r} must have one value per row "
                    f"({n}), got {'a scalar' if p.ndim == 0 else len(p)}"
                )
        extra = set(self.params) - {"sample_weight"}
        if extra:
            self.rate = None  # the Rust counts know only sample_weight

    def call(self, yt: np.ndarray, yp: np.ndarray, rows: np.ndarray | None) -> Any:
        if rows is None:
            return self.func(yt, yp, **self.params)
        kw = {k: p[rows] for k, p in self.params.items()}
        return self.func(yt[rows], yp[rows], **kw)


def _rate_labels(yt_raw, yp_raw, rate, pos_label):
    """0/1 labels for the Rust counts (fairlearn's binary rules); raises naming the bad row."""
    if rate == "selection_rate":
        yp = v.selected(yp_raw, 1 if pos_label is None else pos_label)
        return yp, yp
    return v.binary_labels(yt_raw, yp_raw, pos_label)


def _rate_inputs(yt_raw, yp_raw, rate, pos_label):
    """0/1 labels for the Rust counts, or None when the labels do not fit fairlearn's binary
    rules (the metric is then called like any callable, which raises its own error)."""
    if yt_raw.ndim != 1 or yp_raw.ndim != 1:
        return None
    try:
        return _rate_labels(yt_raw, yp_raw, rate, pos_label)
    except FairkitError:
        return None


class MetricFrame:
    """Metrics overall and per group, with fairlearn 0.15 ``MetricFrame``'s interface and results.

    Parameters are fairlearn's: ``metrics`` is one callable ``f(y_true, y_pred, **params)``
    (any result: scalar, array, confusion matrix...) or a dict ``{name: callable}``;
    ``sensitive_features`` and ``control_features`` one or several features (pandas Series or
    DataFrame, polars Series or DataFrame, numpy 1-D/2-D arrays, lists, dicts of 1-D arrays);
    ``sample_params`` the per-row arguments of the metric (``{"sample_weight": w}``, or
    ``{name: {...}}`` for a dict of metrics). ``pos_label`` (fairkit's addition) names the
    positive label of the recognised rates when they are given by name.

    How it computes:

    - the rows are grouped once (a cell code per row, one stable sort); the recognised rates
      (``selection_rate``, the four confusion rates, scikit-learn's ``accuracy_score``,
      ``precision_score``, ``recall_score``, ``zero_one_loss``, from fairkit, fairlearn or
      scikit-learn) are counted per cell in Rust, any other callable is called on the numpy
      slices of each cell;
    - ``n_boot``/``ci_quantiles``/``random_state`` add bootstrap intervals (``overall_ci``,
      ``by_group_ci``, ``group_min_ci()``, ``group_max_ci()``, ``difference_ci()``,
      ``ratio_ci()``: one result per quantile, shaped like the point result). For a frame of
      recognised rates only and without sample weights, each resample's per-cell counts of
      (label, prediction) are drawn from the multinomial over the observed cells
      (in Rust, sequential binomials from a ChaCha8 generator seeded with ``random_state``):
      the same distribution as
      resampling the rows with replacement, at a cost independent of the row count. Otherwise
      the rows are resampled as fairlearn does (``numpy.random.default_rng(random_state)``
      draws one 32-bit seed per resample, ``RandomState(seed).choice(n, n)`` the rows), so the
      resamples, and the intervals, are fairlearn's own. The same ``random_state`` gives the
      same bits.

    Results are fairlearn's: ``overall`` a scalar (one callable) or Series (dict), a Series or
    DataFrame per control group with control features; ``by_group`` a Series (one callable) or
    DataFrame indexed by the feature values (a MultiIndex over the product of the values for
    several features, NaN for absent combinations); ``group_min``, ``group_max``,
    ``difference`` and ``ratio`` with ``method=`` and ``errors=`` as in fairlearn.

    Examples
    --------
    >>> from fairkit.metrics import MetricFrame, selection_rate
    >>> from sklearn.metrics import balanced_accuracy_score
    >>> mf = MetricFrame(metrics={"sel": selection_rate, "bal": balanced_accuracy_score},
    ...                  y_true=[1, 0, 1, 1, 0, 0], y_pred=[1, 0, 0, 1, 1, 0],
    ...                  sensitive_features=["a", "a", "a", "b", "b", "b"])
    >>> mf.by_group["sel"].tolist()
    [0.3333333333333333, 0.6666666666666666]
    >>> float(mf.difference()["bal"])
    0.0
    """

    def __init__(
        self,
        *,
        metrics: Callable | str | dict[str, Callable | str],
        y_true: Any,
        y_pred: Any,
        sensitive_features: Any,
        control_features: Any = None,
        sample_params: dict | None = None,
        n_boot: int | None = None,
        ci_quantiles: list[float] | None = None,
        random_state: Any = None,
        pos_label: Any = None,
    ) -> None:
        yt = _squeeze(y_true)
        _check_rows(y_pred, _n_samples(y_true), "y_pred")
        yp = _squeeze(y_pred)
        if yt.dtype.kind in "US":
            yt = yt.astype(object)
        if yp.dtype.kind in "US":
            yp = yp.astype(object)
        n = len(yt)
        self._yt, self._yp, self._n = yt, yp, n
        self._pos_label = pos_label

        if sample_params is not None and not isinstance(sample_params, dict):
            raise FairkitError(_SAMPLE_PARAMS_NOT_DICT)
        sample_params = sample_params or {}
        if not isinstance(metrics, dict):
            self._user_supplied_callable = True
            m = _Metric(metrics, None, sample_params, n, pos_label)
            self._metrics = [m]
        else:
            self._user_supplied_callable = False
            if not set(sample_params).issubset(set(metrics)):
                unknown = sorted(set(sample_params) - set(metrics))
                raise FairkitError(
                    f"keys in sample_params ({unknown}) do not match those in metrics: "
                    + _SAMPLE_PARAM_KEYS_NOT_IN_FUNC_DICT
                )
            self._metrics = [
                _Metric(func, name, sample_params.get(name, {}), n, pos_label)
                for name, func in metrics.items()
            ]

        sf = _process_features("sensitive_feature_", sensitive_features, n)
        cf = (
            None
            if control_features is None
            else _process_features("control_feature_", control_features, n)
        )
        self._sf_names = [f.name for f in sf]
        self._cf_names = None if cf is None else [f.name for f in cf]
        seen: set[str] = set()
        for name in self._sf_names + (self._cf_names or []):
            if name in seen:
                raise FairkitError(_DUPLICATE_FEATURE_NAME.format(name))
            seen.add(name)

        self._counted: dict = {}
        self._only_selection = all(m.rate == "selection_rate" for m in self._metrics)
        if not (cf is None and len(sf) == 1 and self._one_pass(sf[0], yt, yp)):
            self._cells = _Cells((cf or []) + sf, n)
            self._cf_cells = None
            if cf:
                n_cf = int(np.prod([len(f._factorized[0]) for f in cf]))
                per_cf = self._cells.counts.reshape(n_cf, -1).sum(axis=1)
                self._cf_cells = _Cells(cf, n, counts=per_cf)
            # Per metric: the value of every (control x sensitive) cell (None = no rows) and
            # of every control cell (or the one overall value).
            self._values: list[list] = []
            self._overall_values: list[list] = []
            for m in self._metrics:
                cell_vals, overall_vals = self._compute(m, yt, yp)
                self._values.append(cell_vals)
                self._overall_values.append(overall_vals)
        self._build_results()

        self._n_boot = n_boot
        self._ci_quantiles = ci_quantiles
        has_q = ci_quantiles is not None and len(ci_quantiles) > 0
        if n_boot is not None and has_q:
            if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) or n_boot < 1:
                raise FairkitError(_BOOTSTRAP_N_BOOT_INT_GT_ZERO)
            for q in ci_quantiles:
                if not isinstance(q, float) or q <= 0 or q >= 1:
                    raise FairkitError(_BOOTSTRAP_CI_INVALID)
            from fairkit.metrics._bootstrap import bootstrap

            self._ci = bootstrap(self, int(n_boot), list(ci_quantiles), random_state)
        elif (n_boot is not None) ^ has_q:
            raise FairkitError(_BOOTSTRAP_NEED_N_AND_CI)
        else:
            self._ci = None

    # -- computing -------------------------------------------------------------------------

    def _compute(self, m: _Metric, yt: np.ndarray, yp: np.ndarray) -> tuple[list, list]:
        cells = self._cells
        if m.rate is not None:
            counted = self._count_rate(m, yt, yp)
            if counted is not None:
                return counted
        present = cells.present()
        cell_vals: list = [None] * cells.size
        for c in present:
            cell_vals[c] = m.call(yt, yp, cells.rows(c))
        if self._cf_cells is None:
            overall = [m.call(yt, yp, None)]
        else:
            overall = [None] * self._cf_cells.size
            for c in self._cf_cells.present():
                overall[c] = m.call(yt, yp, self._cf_cells.rows(c))
        return cell_vals, overall

    def _one_pass(self, feature: _Feature, yt_raw, yp_raw) -> bool:
        """The common case in one read of the rows: recognised rates only, 0/1 ``int64`` or
        ``bool`` labels, fairlearn's default positive label, one ``int64`` sensitive feature of
        small non-negative ids. The core checks labels and ids while it counts and declines
        (False: the general path, which re-encodes or reports the bad row) when they do not
        fit. Same results as the general path, without its factorization and label passes."""
        if not self._metrics or not v.is_default_pos_label(self._pos_label):
            return False
        if any(m.rate is None or set(m.params) - {"sample_weight"} for m in self._metrics):
            return False
        id_levels = None
        if feature._ids is not None:
            ids, id_levels = feature._ids
        else:
            ids = feature.values
        if not isinstance(ids, np.ndarray) or ids.ndim != 1 or ids.dtype not in _ID_DTYPES:
            return False
        yp = v.one_pass_labels(yp_raw) if yp_raw.ndim == 1 else None
        yt = yp if self._only_selection else (
            v.one_pass_labels(yt_raw) if yt_raw.ndim == 1 else None
        )
        if yt is None or yp is None:
            return False
        ids = np.ascontiguousarray(ids)
        counted: dict[int, Any] = {}
        for m in self._metrics:
            w_obj = m.params.get("sample_weight")
            if id(w_obj) not in counted:
                w = None if w_obj is None else v.weights(w_obj, self._n)
                try:
                    got = _core.group_rates_ids(yt, yp, ids, w)
                except FairkitError:
                    if m.own:
                        raise
                    return False
                if got is None:
                    return False
                counted[id(w_obj)] = got
        uniques = next(iter(counted.values()))[0]
        if id_levels is not None:
            uniques = np.asarray(id_levels, dtype=object)[uniques]
        self._values, self._overall_values = [], []
        for m in self._metrics:
            summary = counted[id(m.params.get("sample_weight"))][1].summary(m.rate)
            self._values.append(summary["by_group"].tolist())
            self._overall_values.append([float(summary["overall"])])
        self._cells = _IdCells(feature, uniques)
        self._cf_cells = None
        return True

    def _labels_for(self, kind: str, yt_raw, yp_raw):
        """0/1 labels for the counts of ``kind`` (cached), the error, or None (not 1-D)."""
        key = ("labels", kind)
        if key not in self._counted:
            if yt_raw.ndim != 1 or yp_raw.ndim != 1:
                self._counted[key] = None
            else:
                try:
                    self._counted[key] = _rate_labels(yt_raw, yp_raw, kind, self._pos_label)
                except FairkitError as e:
                    self._counted[key] = e
        return self._counted[key]

    def _count_rate(self, m: _Metric, yt_raw, yp_raw) -> tuple[list, list] | None:
        """The rate per cell and per control cell (or overall) from Rust counts; None when the
        labels do not fit (the callable path then reports the metric's own error)."""
        # All selection rates: predictions only; otherwise the (label, prediction) counts serve
        # every rate (a selection rate from them is the same fraction, fairlearn's rule).
        kind = m.rate
        if m.rate == "selection_rate" and not self._only_selection:
            kind = "accuracy"
            if isinstance(self._labels_for(kind, yt_raw, yp_raw), FairkitError):
                kind = "selection_rate"  # y_true is not binary: a selection rate ignores it
        elif m.rate != "selection_rate":
            kind = "accuracy"
        labels = self._labels_for(kind, yt_raw, yp_raw)
        if isinstance(labels, FairkitError):
            if m.own:
                # fairkit's own function: its error, with row numbers of the whole input.
                raise labels
            return None
        if labels is None:
            return None
        yt, yp = labels
        w_obj = m.params.get("sample_weight")
        w = None if w_obj is None else v.weights(w_obj, self._n)
        cells = self._cells
        # One counting pass per (label kind, weight array), shared by the metrics.
        key = (kind, id(w_obj))
        try:
            if key not in self._counted:
                by_cells = _core.group_rates(yt, yp, cells.code, cells.labels(), w)
                by_cf = None
                if self._cf_cells is not None:
                    cf = self._cf_cells
                    by_cf = _core.group_rates(yt, yp, cf.code, cf.labels(), w)
                self._counted[key] = (by_cells, by_cf)
            by_cells, by_cf = self._counted[key]
            per_cell = by_cells.summary(m.rate)
            if by_cf is None:
                overall = [float(per_cell["overall"])]
            else:
                cf = self._cf_cells
                overall = [
                    float(x) if cf.counts[i] else None
                    for i, x in enumerate(by_cf.summary(m.rate)["by_group"].tolist())
                ]
        except FairkitError:
            if m.own:
                raise
            return None
        by_cell = [
            float(x) if cells.counts[i] else None
            for i, x in enumerate(per_cell["by_group"].tolist())
        ]
        return by_cell, overall

    # -- shaping (as fairlearn) -------------------------------------------------------------

    def _table(self, values_per_metric: list[list], cells: _Cells | None):
        """fairlearn's per-group DataFrame: one column per metric, rows = cells (the product
        of the levels for several features, NaN rows for absent combinations; only the
        present values for one feature, as pandas' groupby gives)."""
        pd = v.pd
        names = [m.name for m in self._metrics]
        present = cells.present()
        if len(cells.names) == 1:
            index = pd.Index([cells.levels[0][i] for i in present], name=cells.names[0])
            rows = present
        else:
            index = cells.index()
            rows = np.arange(cells.size)
        if all(
            vals[i] is None or type(vals[i]) is float or type(vals[i]) is np.float64
            for vals in values_per_metric
            for i in rows
        ):
            # Every value a float: the float64 table pandas' combination would give, built at
            # once (the general path below builds one Series per cell).
            data = np.array(
                [[np.nan if vals[i] is None else vals[i] for vals in values_per_metric]
                 for i in rows],
                dtype=np.float64,
            ).reshape(len(rows), len(names))
            return pd.DataFrame(data, index=index, columns=names)
        series = []
        for i in rows:
            if cells.counts[i]:
                series.append(pd.Series({nm: vals[i] for nm, vals in zip(names, values_per_metric)}))
            else:
                series.append(None)
        present_series = [s for s in series if s is not None]
        if not present_series:
            return pd.DataFrame(index=index, columns=names, dtype=float)
        # groupby.apply's combination of per-group Series (dtype inferred as pandas does),
        # then reindexed (NaN rows for absent combinations).
        frame = pd.DataFrame(present_series)
        frame.index = pd.RangeIndex(len(present_series))
        if frame.shape[1] != len(names):
            frame = frame.reindex(columns=names)
        positions = [k for k, s in enumerate(series) if s is not None]
        if len(positions) == len(series):
            frame.index = index
            return frame
        frame.index = index[positions]
        return frame.reindex(index=index)

    def _build_results(self) -> None:
        pd = v.pd
        self._cache: dict = {}
        if pd is None:
            if self._cf_names is not None:
                raise FairkitError(
                    "control_features need pandas (the results are indexed by two kinds of "
                    "feature): pip install pandas"
                )
            return
        names = [m.name for m in self._metrics]
        self._by_group_df = self._table(self._values, self._cells)
        if self._cf_cells is None:
            vals = {nm: ov[0] for nm, ov in zip(names, self._overall_values)}
            self._overall_raw = pd.Series(vals) if vals else pd.Series(dtype=float)
        else:
            self._overall_raw = self._table(self._overall_values, self._cf_cells)
        self._cache: dict = {}

    def _extract(self, result, no_control_levels: bool):
        if self._user_supplied_callable:
            if self._cf_names or no_control_levels:
                return result.iloc[:, 0]
            return result.iloc[0]
        return result

    # -- aggregates on the per-group table (fairlearn's DisaggregatedResult rules) ----------

    @staticmethod
    def _coerced(df):
        return df.apply(lambda x: x.apply(lambda y: y if np.isscalar(y) else np.nan))

    def _apply_grouping(self, by_group, func: str, errors: str):
        cf = self._cf_names
        if errors == "raise":
            try:
                if not cf:
                    return by_group.agg(func, axis=0)
                return by_group.groupby(level=cf).agg(func)
            except (ValueError, TypeError) as ve:
                raise FairkitError(_MF_CONTAINS_NON_SCALAR_ERROR_MESSAGE) from ve
        mf = self._coerced(by_group)
        if not cf:
            return mf.agg(func, axis=0)
        return mf.groupby(level=cf).agg(func)

    def _difference_raw(self, by_group, overall, method: str, errors: str):
        cf = self._cf_names
        if method == "between_groups":
            subtrahend = self._apply_grouping(by_group, "min", errors)
        else:
            subtrahend = overall
        mf = self._coerced(by_group)
        if cf is None:
            return (mf - subtrahend).abs().max()
        return (mf - subtrahend).abs().groupby(level=cf).max()

    def _ratio_raw(self, by_group, overall, method: str, errors: str):
        cf = self._cf_names
        if method == "between_groups":
            return self._apply_grouping(by_group, "min", errors) / self._apply_grouping(
                by_group, "max", errors
            )

        def sub_one(x):
            return 1 / x if x > 1 else x

        if cf is not None:
            ratios = by_group.unstack(level=cf) / overall.unstack(level=cf)
        else:
            ratios = by_group / overall
        ratios = ratios.apply(lambda x: x.transform(sub_one))
        return ratios.min() if not cf else ratios.min().unstack(0)

    def _float_table(self) -> bool:
        """True when every per-group value is a float (the aggregates can then be computed on
        the numbers directly, with pandas' NaN-skipping rules)."""
        if "float_table" not in self._cache:
            df = self._by_group_df
            self._cache["float_table"] = len(self._metrics) > 0 and all(
                dt == np.float64 for dt in df.dtypes
            ) and (
                self._cf_names is None or isinstance(self._overall_raw, v.pd.DataFrame)
            )
        return self._cache["float_table"]

    def _numeric_aggregate(self, what: str, method: str):
        """``group_min``/``group_max``/``difference``/``ratio`` of a float table, computed on a
        (control cells x sensitive cells x metrics) array: the same numbers and the same
        result objects as the pandas operations (checked against them in
        ``python/tests/test_metricframe_control.py``); None where only pandas' own operation
        gives the shape (``ratio(method="to_overall")`` with control features)."""
        pd = v.pd
        cf = self._cf_names
        if cf and what == "ratio" and method == "to_overall":
            return None
        names = [m.name for m in self._metrics]
        n_cf = self._cf_cells.size if self._cf_cells is not None else 1
        table = self._by_group_df.to_numpy()
        if len(self._cells.names) == 1:  # only the present levels are rows
            full = np.full((self._cells.size, len(names)), np.nan)
            full[self._cells.present()] = table
            table = full
        bg = table.reshape(n_cf, -1, len(names))
        if cf:
            ov = self._overall_raw.to_numpy()
            if len(self._cf_cells.names) == 1:
                full = np.full((n_cf, len(names)), np.nan)
                full[self._cf_cells.present()] = ov
                ov = full
        else:
            ov = self._overall_raw.to_numpy(dtype=np.float64).reshape(1, len(names))
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanmin(bg, axis=1), np.nanmax(bg, axis=1)
            if what == "group_min":
                out = lo
            elif what == "group_max":
                out = hi
            elif what == "difference":
                sub = lo if method == "between_groups" else ov
                out = np.nanmax(np.abs(bg - sub[:, None, :]), axis=1)
            elif method == "between_groups":
                out = lo / hi
            else:
                r = bg / ov[:, None, :]
                out = np.nanmin(np.where(r > 1, 1 / r, r), axis=1)
        if not cf:
            return pd.Series(out[0], index=names, dtype=np.float64)
        index = self._overall_raw.index
        if len(self._cf_cells.names) == 1:
            out = out[self._cf_cells.present()]
        return pd.DataFrame(out, index=index, columns=names)

    def _aggregate(self, what: str, method: str, errors: str, compute):
        if self._float_table():
            fast = self._numeric_aggregate(what, method)
            if fast is not None:
                return fast
        return compute()

    def _cached(self, key, compute):
        if key not in self._cache:
            try:
                self._cache[key] = compute()
            except Exception as e:  # noqa: BLE001 - replayed on every call, as fairlearn
                self._cache[key] = e
        value = self._cache[key]
        if isinstance(value, Exception):
            raise value
        return value

    @staticmethod
    def _none_to_nan(target):
        return target.where(target.notna(), np.nan)

    # -- pickling ----------------------------------------------------------------------------

    def __reduce_ex__(self, protocol):
        """pickle's hook: the frame's state pickled on its own and checksummed, so a damaged
        pickle is a ``FairkitError`` naming the cause rather than a frame of wrong numbers. When
        the standard pickle cannot serialise the state (a lambda metric, which cloudpickle can),
        the state is handed to the outer pickler as it is and only its shape is checked."""
        state = dict(self.__dict__)
        try:
            payload = pickle.dumps(state, protocol=max(int(protocol), 2))
        except (pickle.PicklingError, TypeError, AttributeError):
            return (_restore_metricframe, (_PICKLE_FORMAT, None, None), state)
        digest = hashlib.sha256(payload).hexdigest()
        return (_restore_metricframe, (_PICKLE_FORMAT, payload, digest))

    def __setstate__(self, state) -> None:
        missing = _STATE_KEYS - set(state) if isinstance(state, dict) else _STATE_KEYS
        if missing or not isinstance(state.get("_yt"), np.ndarray) or len(state["_yt"]) != state["_n"]:
            raise FairkitError(
                "this pickled MetricFrame is damaged (its state lacks "
                f"{sorted(missing) or 'consistent rows'}); compute the MetricFrame again"
            )
        self.__dict__.update(state)

    # -- public results ----------------------------------------------------------------------

    @property
    def overall(self):
        """The metrics on all rows (per control group with control features): a scalar for
        one callable, a Series (dict of metrics); a Series/DataFrame indexed by the control
        groups with control features. Without pandas: the value, or ``{metric: value}``."""
        if v.pd is None:
            return self._plain({m.name: ov[0] for m, ov in zip(self._metrics, self._overall_values)})
        return self._extract(self._overall_raw, no_control_levels=False)

    @property
    def by_group(self):
        """The metrics per group: a Series (one callable) or DataFrame indexed by the
        (control and) sensitive feature values. Without pandas: ``{group: value}`` (or
        ``{metric: {group: value}}``), NaN for absent combinations of several features."""
        if v.pd is None:
            keys = self._cells.keys()
            per = {
                m.name: {k: (np.nan if val is None else val) for k, val in zip(keys, vals)}
                for m, vals in zip(self._metrics, self._values)
            }
            return self._plain(per)
        return self._extract(self._by_group_df, no_control_levels=True)

    def _plain(self, per_metric: dict):
        return next(iter(per_metric.values())) if self._user_supplied_callable else per_metric

    def _plain_aggregate(self, what: str, method: str = "between_groups", errors: str = "raise"):
        """``group_min``/``group_max``/``difference``/``ratio`` without pandas (scalar metrics,
        fairlearn's NaN-skipping rules)."""
        out = {}
        for m, vals, ov in zip(self._metrics, self._values, self._overall_values):
            arr = []
            for x in vals:
                if x is None:
                    arr.append(np.nan)
                elif np.isscalar(x):
                    arr.append(float(x))
                elif errors == "raise" and what in ("group_min", "group_max"):
                    raise FairkitError(_MF_CONTAINS_NON_SCALAR_ERROR_MESSAGE)
                else:
                    arr.append(np.nan)
            a = np.asarray(arr, dtype=float)
            overall = float(ov[0]) if np.isscalar(ov[0]) else np.nan
            with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                lo, hi = np.nanmin(a), np.nanmax(a)
                if what == "group_min":
                    r = lo
                elif what == "group_max":
                    r = hi
                elif what == "difference":
                    r = hi - lo if method == "between_groups" else np.nanmax(np.abs(a - overall))
                elif method == "between_groups":
                    r = lo / hi
                else:
                    q = a / overall
                    r = np.nanmin(np.where(q > 1, 1 / q, q))
            out[m.name] = float(r)
        return self._plain(out)

    @property
    def control_levels(self) -> list[str] | None:
        """Names of the control features (None without them)."""
        return self._cf_names

    @property
    def sensitive_levels(self) -> list[str]:
        """Names of the sensitive features (fairlearn's naming rules)."""
        return self._sf_names

    @property
    def n_boot(self) -> int | None:
        """Number of bootstrap resamples (None without bootstrap)."""
        return self._n_boot

    @property
    def ci_quantiles(self) -> list[float] | None:
        """Quantiles of the bootstrap intervals (None without bootstrap)."""
        return self._ci_quantiles

    def group_min(self, errors: str = "raise"):
        """Smallest group value of each metric (per control group); ``errors="coerce"`` turns
        non-scalar values into NaN instead of raising."""
        _check_errors(errors)
        if v.pd is None:
            return self._plain_aggregate("group_min", errors=errors)
        return self._cached(
            ("group_min", errors),
            lambda: self._extract(
                self._aggregate(
                    "group_min", "", errors,
                    lambda: self._apply_grouping(self._by_group_df, "min", errors),
                ),
                no_control_levels=False,
            ),
        )

    def group_max(self, errors: str = "raise"):
        """Largest group value of each metric (per control group); see :meth:`group_min`."""
        _check_errors(errors)
        if v.pd is None:
            return self._plain_aggregate("group_max", errors=errors)
        return self._cached(
            ("group_max", errors),
            lambda: self._extract(
                self._aggregate(
                    "group_max", "", errors,
                    lambda: self._apply_grouping(self._by_group_df, "max", errors),
                ),
                no_control_levels=False,
            ),
        )

    def difference(self, method: str = "between_groups", errors: str = "coerce"):
        """``max - min`` over groups (``method="between_groups"``) or the largest
        ``|group - overall|`` (``"to_overall"``), per metric (and control group)."""
        _check_errors(errors)
        _check_method(method)
        if v.pd is None:
            return self._plain_aggregate("difference", method, errors)
        return self._cached(
            ("difference", method, errors),
            lambda: self._extract(
                self._aggregate(
                    "difference", method, errors,
                    lambda: self._none_to_nan(
                        self._difference_raw(self._by_group_df, self._overall_raw, method, errors)
                    ),
                ),
                no_control_levels=False,
            ),
        )

    def ratio(self, method: str = "between_groups", errors: str = "coerce"):
        """``min / max`` over groups (``"between_groups"``) or the smallest of
        ``min(group / overall, overall / group)`` (``"to_overall"``)."""
        _check_errors(errors)
        _check_method(method)
        if v.pd is None:
            return self._plain_aggregate("ratio", method, errors)
        return self._cached(
            ("ratio", method, errors),
            lambda: self._extract(
                self._aggregate(
                    "ratio", method, errors,
                    lambda: self._none_to_nan(
                        self._ratio_raw(self._by_group_df, self._overall_raw, method, errors)
                    ),
                ),
                no_control_levels=False,
            ),
        )

    # -- bootstrap results -------------------------------------------------------------------

    def _check_bootstrap(self) -> dict:
        if self._ci is None:
            raise FairkitError(_BOOTSTRAP_NOT_INITIALIZED)
        return self._ci

    @property
    def overall_ci(self) -> list:
        """``overall`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        return self._check_bootstrap()["overall"]

    @property
    def by_group_ci(self) -> list:
        """``by_group`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        return self._check_bootstrap()["by_group"]

    def group_min_ci(self) -> list:
        """``group_min()`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        return self._check_bootstrap()["group_min"]

    def group_max_ci(self) -> list:
        """``group_max()`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        return self._check_bootstrap()["group_max"]

    def difference_ci(self, method: str = "between_groups") -> list:
        """``difference(method)`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        _check_method(method)
        return self._check_bootstrap()[("difference", method)]

    def ratio_ci(self, method: str = "between_groups") -> list:
        """``ratio(method)`` at each of ``ci_quantiles`` over the bootstrap resamples."""
        _check_method(method)
        return self._check_bootstrap()[("ratio", method)]

    # -- plotting ---------------------------------------------------------------------------

    def plot(self, **kwargs):
        """Bar charts of ``by_group`` (one subplot per metric), with the bootstrap interval
        as whiskers when the frame has one; needs matplotlib. See
        :func:`fairkit.metrics.plot_metric_frame` for the arguments."""
        from fairkit.metrics._plot import plot_metric_frame

        return plot_metric_frame(self, **kwargs)

    def _process_features(self, base_name: str, features: Any, sample_array: Any) -> list:
        """The features as fairlearn's ``MetricFrame._process_features`` names and splits
        them (one object per column, with ``name_`` and ``raw_feature_``)."""
        return _process_features(base_name, features, _n_samples(sample_array))

    def _n_present_groups(self) -> int:
        return len(self._cells.present())


def _rate_of(metric: Any) -> str:
    """The core rate computed by ``metric`` (a recognised function or its name); raises for
    anything else (the interval functions know only these rates)."""
    rate = _recognised_rate(metric)
    if rate is None:
        raise FairkitError(
            f"metric {metric!r} is not one of the rates fairkit computes in Rust: "
            f"{', '.join(sorted(_RATE_OF_FUNCTION))} (fairkit, fairlearn or scikit-learn "
            "functions of these names, or the names as strings)"
        )
    return rate


_PICKLE_FORMAT = 1
# Attributes every MetricFrame has after __init__ (checked when one is unpickled).
_STATE_KEYS = frozenset({
    "_yt", "_yp", "_n", "_pos_label", "_metrics", "_user_supplied_callable", "_sf_names",
    "_cf_names", "_counted", "_only_selection", "_n_boot", "_ci_quantiles", "_ci",
})


def _restore_metricframe(fmt, payload, digest):
    """Rebuilds a pickled :class:`MetricFrame` (see ``MetricFrame.__reduce_ex__``)."""
    if fmt != _PICKLE_FORMAT:
        raise FairkitError(
            f"this pickled MetricFrame has format {fmt!r}, this fairkit reads format "
            f"{_PICKLE_FORMAT}; compute the MetricFrame again with this version"
        )
    frame = MetricFrame.__new__(MetricFrame)
    if payload is None:
        return frame  # the state follows, checked by __setstate__
    if not isinstance(payload, bytes) or hashlib.sha256(payload).hexdigest() != digest:
        raise FairkitError(
            "this pickled MetricFrame is damaged (its checksum does not match its contents); "
            "compute the MetricFrame again"
        )
    try:
        state = pickle.loads(payload)
    except Exception as e:  # noqa: BLE001 - any failure of a checksummed payload is damage
        raise FairkitError(f"this pickled MetricFrame is damaged ({e}); compute it again") from e
    frame.__setstate__(state)
    return frame
