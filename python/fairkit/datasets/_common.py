"""What every loader shares: the Bunch, pandas, the embedded files' text and digests."""

from __future__ import annotations

from typing import Any

from fairkit._core import FairkitError
from fairkit._core import datasets as _core


class Bunch(dict):
    """A dict whose keys are also attributes (scikit-learn's ``Bunch``, without needing it).

    >>> b = Bunch(data=[1, 2])
    >>> b.data
    [1, 2]
    """

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError as e:
            raise AttributeError(key) from e

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __dir__(self):
        return list(self.keys())


def _pandas():
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - exercised only without pandas
        raise FairkitError("fairkit.datasets needs pandas to parse the files: pip install pandas") from e
    return pd


def _sha(name: str) -> str:
    return dict(_core.embedded_files())[name]


def _text(name: str) -> str:
    return _core.embedded_text(name)


def _finish(frame, target: str, as_frame: bool, return_X_y: bool, descr: str, files: list[str]):
    """The Bunch (or ``(X, y)``) of ``frame`` with ``target`` as the target column."""
    pd = _pandas()
    feature_names = [str(c) for c in frame.columns if c != target]
    X = frame.drop(columns=[target])
    y = frame[target]
    categorical = isinstance(y.dtype, pd.CategoricalDtype)
    target_names = [str(c) for c in y.cat.categories] if categorical else [target]
    if not as_frame:
        numeric = all(
            not isinstance(dt, pd.CategoricalDtype) and dt.kind in "iufb" for dt in X.dtypes
        )
        X = X.to_numpy(dtype=None if numeric else object)
        y = y.to_numpy(dtype=object) if categorical else y.to_numpy()
        frame = None
    if return_X_y:
        return X, y
    return Bunch(
        data=X,
        target=y,
        frame=frame,
        feature_names=feature_names,
        target_names=target_names,
        DESCR=descr,
        sha256={f: _sha(f) for f in files},
    )


def _categorize(frame, columns):
    for c in columns:
        frame[c] = frame[c].astype("category")
    return frame
