"""The audit result: one object for Spark and for one machine, with a stable JSON form."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional, Sequence

from fairkit.spark._arrow import GROUP_SEPARATOR


class _AuditSource(NamedTuple):
    """What :meth:`AuditResult.report` rebuilds the command's report from: the merged state
    bytes (never the rows), the columns and the statistics settings."""

    confusion: bytes
    scores: Optional[tuple]
    cols: Any
    settings: tuple
    kind: str


_FORMATS = ("json", "md", "html")


def _group_key(name: str, n_features: int) -> Any:
    return tuple(name.split(GROUP_SEPARATOR)) if n_features > 1 else name


@dataclass(frozen=True)
class AuditResult:
    """An exact fairness audit computed from merged per-partition states.

    :meth:`report` writes the ``fairkit audit`` command's report of it (schema-v1 JSON,
    markdown with SVG figures, HTML), every sensitive column and their intersection as slices.

    Attributes
    ----------
    groups
        Group keys in the report's order (sorted by name): the sensitive value as a string, or a
        tuple of strings for several sensitive features.
    rows
        Rows per group (unweighted), and ``total_rows``.
    rates
        For each rate (``selection_rate``, ``true_positive_rate``, ``false_positive_rate``,
        ``true_negative_rate``, ``false_negative_rate``, ``precision``, ``accuracy``,
        ``error_rate``): ``by_group`` estimates (``None`` where the group has no row in the rate's
        denominator), their ``lower``/``upper`` confidence bounds (Wilson or Clopper-Pearson),
        ``effective_n`` (rows, or Kish's effective rows when weighted) and ``overall``.
    gaps
        ``demographic_parity_difference``, ``equal_opportunity_difference``,
        ``equalized_odds_difference`` (fairlearn's definitions) with a seeded stratified-bootstrap
        interval and a permutation p-value; ``{"error": message}`` where undefined; empty with a
        single group.
    scores
        With a score column: exact ``auc_by_group``, ``ks_demographic_parity`` (DP-Δ),
        ``ks_equal_opportunity`` (EO-Δ) and ``partial_statistical_parity`` on
        ``partial_interval``; ``None`` without one.
    """

    groups: list
    rows: list
    total_rows: int
    weighted: bool
    confidence: float
    ci_method: str
    rates: dict
    gaps: dict
    scores: Optional[dict]
    sensitive: tuple
    partial_interval: tuple = field(default=(0.0, 1.0))
    _source: Optional[_AuditSource] = field(default=None, compare=False, repr=False)

    @classmethod
    def _from_core(cls, d: dict, sensitive: tuple, partial_interval: tuple,
                   source: Optional[_AuditSource] = None) -> "AuditResult":
        n = len(sensitive)
        scores = d["scores"]
        if scores is not None:
            scores = dict(scores)
            scores["groups"] = [_group_key(g, n) for g in scores["groups"]]
            for key in ("ks_demographic_parity", "ks_equal_opportunity", "partial_statistical_parity"):
                m = scores[key]
                if "worst_pair" in m:
                    m = dict(m)
                    m["worst_pair"] = tuple(_group_key(g, n) for g in m["worst_pair"])
                    scores[key] = m
        return cls(
            groups=[_group_key(g, n) for g in d["groups"]],
            rows=list(d["rows"]),
            total_rows=int(d["total_rows"]),
            weighted=bool(d["weighted"]),
            confidence=float(d["confidence"]),
            ci_method=str(d["ci_method"]),
            rates=d["rates"],
            gaps=d["gaps"],
            scores=scores,
            sensitive=tuple(sensitive),
            partial_interval=tuple(partial_interval),
            _source=source,
        )

    def report(self, out: Optional[str | os.PathLike] = None, *,
               formats: Sequence[str] = _FORMATS, description: Optional[str] = None) -> dict:
        """The ``fairkit audit`` command's report of this audit: the schema-v1 ``report.json``
        (docs/audit-json-schema.md), ``report.md`` with its SVG figures, and a self-contained
        ``report.html`` — every sensitive column and their intersection as slices, rates with
        intervals, the eight count gaps with bootstrap intervals and permutation p-values, and
        with a score the exact AUC / KS / partial SP with their inference and the ROC / CCDF
        charts. Built from the merged state bytes, never the rows, by the same Rust code as the
        command, so a file audited by ``fairkit audit`` and the same rows audited here give the
        same report (its ``input`` block aside).

        Parameters
        ----------
        out
            Directory to write ``report.json`` / ``report.md`` (+ ``figures/``) / ``report.html``
            into (created if missing); ``None`` writes nothing.
        formats
            Any of ``"json"``, ``"md"``, ``"html"``.
        description
            What ``input.file`` says (default: ``"Spark DataFrame"`` or ``"Arrow table"``).

        Returns
        -------
        dict
            ``{"json": str | None, "markdown": str | None, "html": str | None,
            "figures": {relative path: SVG}}``.
        """
        from fairkit._core import FairkitError
        from fairkit._core import spark as _core

        src = self._source
        if src is None:
            raise FairkitError("this AuditResult was not computed by fairkit.spark.audit or "
                               "audit_arrow, so it has no state to build the report from")
        if isinstance(formats, str):
            formats = (formats,)
        cols = src.cols
        roles = (cols.label, cols.pred, cols.score, cols.weight, list(cols.sensitive))
        default = "Spark DataFrame" if src.kind == "spark" else "Arrow table"
        source = (description or default, src.kind, str(cols.pos_label))
        text = _core.audit_document(src.confusion, src.scores, roles, src.settings, source,
                                    [str(f).lower() for f in formats])
        if out is not None:
            _write_report(os.fspath(out), text)
        return text

    def rate(self, name: str) -> dict:
        """``{group: estimate}`` for one rate (``None`` where undefined)."""
        try:
            values = self.rates[name]["by_group"]
        except KeyError:
            raise KeyError(f"unknown rate {name!r}: expected one of {sorted(self.rates)}") from None
        return dict(zip(self.groups, values))

    def to_dict(self) -> dict:
        """Plain JSON-ready data (tuples become lists)."""
        return json.loads(self.to_json())

    def to_json(self, indent: Optional[int] = None) -> str:
        """The result as JSON (``null`` for undefined values); stable key order."""
        data = {
            "sensitive": list(self.sensitive),
            "groups": [list(g) if isinstance(g, tuple) else g for g in self.groups],
            "rows": self.rows,
            "total_rows": self.total_rows,
            "weighted": self.weighted,
            "confidence": self.confidence,
            "ci_method": self.ci_method,
            "rates": self.rates,
            "gaps": self.gaps,
            "partial_interval": list(self.partial_interval),
            "scores": self.scores,
        }
        return json.dumps(data, indent=indent, sort_keys=True)


def _write_report(out: str, text: dict) -> None:
    os.makedirs(out, exist_ok=True)
    for name, key in (("report.json", "json"), ("report.md", "markdown"), ("report.html", "html")):
        if text[key] is not None:
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text[key])
    for rel, svg in text["figures"].items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
