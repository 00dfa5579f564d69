"""The audit result: one object for Spark and for one machine, with a stable JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from fairkit.spark._arrow import GROUP_SEPARATOR


def _group_key(name: str, n_features: int) -> Any:
    return tuple(name.split(GROUP_SEPARATOR)) if n_features > 1 else name


@dataclass(frozen=True)
class AuditResult:
    """An exact fairness audit computed from merged per-partition states.

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

    @classmethod
    def _from_core(cls, d: dict, sensitive: tuple, partial_interval: tuple) -> "AuditResult":
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
        )

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
