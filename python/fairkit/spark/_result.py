"""The audit result: a typed, read-only view of the schema-v1 report (docs/audit-json-schema.md).

There is one result model: the ``report.json`` that the ``fairkit audit`` command writes, built
by the Rust crate ``fair-audit``. :class:`AuditResult` parses it once and reads every number
from it; the small frozen classes below (:class:`Slice`, :class:`GroupRates`, :class:`Gap`, …)
carry the report's own field names and are built on access from the parsed document.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from fairkit._core import gap_aliases as _core_gap_aliases


class _AuditSource(NamedTuple):
    """What the report is built from: the merged state bytes (never the rows), the columns and
    the audit request (a dict of ``fair_audit::request::AuditRequest`` keys)."""

    confusion: bytes
    scores: Optional[tuple]
    cols: Any
    request: dict
    kind: str
    #: The rows' state led by the ``by`` column.
    over_time: Optional[bytes] = None
    #: The rows' state led by the second model's prediction column.
    against: Optional[bytes] = None


_FORMATS = ("json", "md", "html")

#: fairlearn's gap names accepted wherever a gap is named, and the report key each is: the one
#: table, ``fair_audit::fail_if::ALIASES`` (the one ``check`` uses), read from the extension.
GAP_ALIASES = MappingProxyType(dict(_core_gap_aliases()))

# The three gaps the old result model reported, by their old (fairlearn) names.
_OLD_GAPS = ("demographic_parity_difference", "equal_opportunity_difference",
             "equalized_odds_difference")


def gap_key(name: str) -> str:
    """The report key of a gap named by its report key or by fairlearn's name."""
    return GAP_ALIASES.get(name, name)


def _render(src: _AuditSource, views: Sequence[str], description: Optional[str] = None) -> dict:
    """The one call that builds the report from an audit's merged state (``fair_audit::run``,
    the ``fairkit audit`` command's path)."""
    from fairkit._core import spark as _core

    if hasattr(src, "render"):
        # Files audited by the command's readers: the report is already built, in Rust.
        return src.render([str(v).lower() for v in views])
    default = "Spark DataFrame" if src.kind == "spark" else "Arrow table"
    source = (description or default, src.kind)
    return _core.audit_document(src.confusion, src.scores, src.request, source,
                                [str(v).lower() for v in views], src.over_time, src.against)


# -- the report's parts ---------------------------------------------------------------------------
# Each part is built from the fields it names; a field the schema adds later (additive, optional:
# docs/audit-json-schema.md) is ignored until a part names it.

def _known(cls, d: dict) -> dict:
    return {f.name: d[f.name] for f in fields(cls) if f.name in d}


@dataclass(frozen=True)
class UndefinedGroup:
    """A group a gap left out, and why: a rate it compares is undefined there, or (in
    ``small_groups``) its rows in that rate's denominator are fewer than the minimum group size."""

    group: str
    rate: str
    reason: str


def _groups(d: dict, key: str) -> tuple:
    """The groups a gap left out, under ``key`` (absent from the JSON when none)."""
    return tuple(UndefinedGroup(**_known(UndefinedGroup, u)) for u in d.get(key, ()))


def _fairlearn(d: dict) -> Optional[float]:
    """fairlearn's value of a gap: the report writes it only where it differs (``null``:
    fairlearn gives NaN)."""
    if "fairlearn_value" not in d:
        return d.get("value")
    v = d["fairlearn_value"]
    return float("nan") if v is None else v


@dataclass(frozen=True)
class Estimate:
    """A value with its confidence interval (at ``settings.confidence``)."""

    value: float
    lower: float
    upper: float


@dataclass(frozen=True)
class Counts:
    """Confusion counts of a group (weighted sums when weighted)."""

    tp: float
    fp: float
    tn: float
    fn_: float


@dataclass(frozen=True)
class GroupRates:
    """One group of a slice (``group == "all"`` for the pooled rows): ``rows`` (unweighted),
    ``counts`` and ``rates`` — the eight rates by key, ``None`` where the rate's denominator is
    empty in the group."""

    group: str
    rows: int
    counts: Counts
    rates: Mapping[str, Optional[Estimate]]
    #: Rows with the positive label (the TPR's denominator), unweighted.
    positives: int = 0
    #: Rows with the negative label (the FPR's denominator), unweighted.
    negatives: int = 0
    #: Rows predicted positive (the precision's denominator), unweighted.
    predicted_positives: int = 0

    @classmethod
    def _of(cls, d: dict) -> "GroupRates":
        rates = {k: None if v is None else Estimate(v["value"], v["lower"], v["upper"])
                 for k, v in d["rates"].items()}
        return cls(d["group"], int(d["rows"]), Counts(**_known(Counts, d["counts"])),
                   MappingProxyType(rates), int(d.get("positives", 0)),
                   int(d.get("negatives", 0)), int(d.get("predicted_positives", 0)))

    def rate(self, name: str) -> Optional[float]:
        """The value of one rate (``None`` where undefined)."""
        e = _lookup(self.rates, name, "rate")
        return None if e is None else e.value


@dataclass(frozen=True)
class Gap:
    """One gap of a slice with its inference: ``value`` with a bootstrap interval
    ``lower``/``upper`` and a permutation ``p_value``; all ``None`` with an
    ``undefined_reason`` when the gap cannot be computed."""

    key: str
    name: str
    kind: str
    value: Optional[float]
    lower: Optional[float]
    upper: Optional[float]
    p_value: Optional[float]
    undefined_reason: Optional[str]
    #: The groups the gap left out (a rate undefined there, e.g. a TPR without positives).
    undefined_groups: tuple = ()
    #: fairlearn's value of the gap of the same name on the same rows (undefined TPR/FPR
    #: counted as 0; NaN where fairlearn gives NaN): equal to ``value`` unless the report says
    #: otherwise (docs/audit-json-schema.md).
    fairlearn_value: Optional[float] = None
    #: The groups kept out of the gap for having fewer rows in a compared rate's denominator
    #: than ``settings.min_group_size`` (their rates are still reported).
    small_groups: tuple = ()

    @classmethod
    def _of(cls, d: dict) -> "Gap":
        return cls(**dict(_known(cls, d), undefined_groups=_groups(d, "undefined_groups"),
                          small_groups=_groups(d, "small_groups"),
                          fairlearn_value=_fairlearn(d)))


@dataclass(frozen=True)
class Slice:
    """One slice: a sensitive column or, with several, their intersection (the last slice,
    named ``"a & b"``, groups named ``"x & y"``)."""

    slice: str
    attributes: tuple
    groups: tuple
    overall: GroupRates
    gaps: Mapping[str, Gap]

    @classmethod
    def _of(cls, d: dict) -> "Slice":
        return cls(d["slice"], tuple(d["attributes"]),
                   tuple(GroupRates._of(g) for g in d["groups"]), GroupRates._of(d["overall"]),
                   MappingProxyType({g["key"]: Gap._of(g) for g in d["gaps"]}))

    @property
    def names(self) -> list:
        """The group names, in the report's order (sorted)."""
        return [g.group for g in self.groups]

    def group(self, name: str) -> GroupRates:
        """One group by name."""
        for g in self.groups:
            if g.group == name:
                return g
        raise KeyError(f"no group {name!r} in slice {self.slice!r}: it has {self.names}")

    def rate(self, name: str) -> dict:
        """``{group: value}`` of one rate (``None`` where undefined)."""
        return {g.group: g.rate(name) for g in self.groups}

    def gap(self, key: str) -> Gap:
        """One gap by report key (``"dp_difference"``) or fairlearn name
        (``"demographic_parity_difference"``). A fairlearn name is refused (``FairkitError``,
        naming the groups) where fairlearn's value of the gap differs from the report's — a
        group without the rate's denominator, which the report skips and fairlearn counts as 0
        — as ``check`` and ``fairkit audit --fail-if`` refuse it; the report key always
        answers, with ``undefined_groups`` and ``fairlearn_value`` saying what differs."""
        gap = _lookup(self.gaps, gap_key(key), "gap")
        if key != gap.key and gap.value is not None and not _same(gap.fairlearn_value, gap.value):
            from fairkit._core import FairkitError

            groups = ", ".join(f"{u.group!r} ({u.reason})"
                               for u in gap.small_groups + gap.undefined_groups)
            raise FairkitError(
                f"{key} is fairlearn's name, and fairlearn's value ({gap.fairlearn_value}) differs "
                f"from the report's {gap.key} ({gap.value}) in slice {self.slice!r}"
                + (f": the report leaves out {groups}" if groups else "")
                + f"; ask for {gap.key!r} to get the report's value")
        return gap


@dataclass(frozen=True)
class Headline:
    """The worst value of one headline key over all slices, and where it occurred."""

    key: str
    value: float
    slice: str
    threshold: Optional[float]
    p_value: Optional[float]
    undefined_groups: tuple = ()
    fairlearn_value: Optional[float] = None
    small_groups: tuple = ()

    @classmethod
    def _of(cls, key: str, d: dict) -> "Headline":
        return cls(**dict(_known(cls, d), key=key,
                          undefined_groups=_groups(d, "undefined_groups"),
                          small_groups=_groups(d, "small_groups"),
                          fairlearn_value=_fairlearn(d)))


@dataclass(frozen=True)
class PairMax:
    """A pairwise maximum (KS, partial SP, AUC gap): the value, its two ``groups``, the
    interval and the p-value (``None`` when not computed)."""

    value: float
    groups: tuple
    lower: Optional[float]
    upper: Optional[float]
    p_value: Optional[float]

    @classmethod
    def _of(cls, d: Optional[dict]) -> Optional["PairMax"]:
        if d is None:
            return None
        return cls(d["value"], tuple(d["groups"]), d["lower"], d["upper"], d["p_value"])


@dataclass(frozen=True)
class GroupAuc:
    """One group's exact AUC with its Hanley–McNeil interval (``None`` without both labels)."""

    group: str
    auc: Optional[float]
    lower: Optional[float]
    upper: Optional[float]


@dataclass(frozen=True)
class ScoreSlice:
    """The score metrics of one slice; ``notes`` say why a metric is ``None``."""

    slice: str
    auc_overall: Optional[float]
    auc_by_group: tuple
    auc_difference: Optional[float]
    auc_gap: Optional[PairMax]
    ks_dp: Optional[PairMax]
    ks_eo: Optional[PairMax]
    psp: Optional[PairMax]
    notes: tuple
    #: Groups kept out of the score gaps for their size (``rate``: the metric, e.g. ``"ks_eo"``).
    small_groups: tuple = ()

    @classmethod
    def _of(cls, d: dict) -> "ScoreSlice":
        return cls(d["slice"], d["auc_overall"],
                   tuple(GroupAuc(**_known(GroupAuc, g)) for g in d["auc_by_group"]),
                   d["auc_difference"],
                   PairMax._of(d["auc_gap"]), PairMax._of(d["ks_dp"]), PairMax._of(d["ks_eo"]),
                   PairMax._of(d["psp"]), tuple(d["notes"]), _groups(d, "small_groups"))


@dataclass(frozen=True)
class Settings:
    """How the report was computed (``report.json``'s ``settings``)."""

    confidence: float
    rate_ci_method: str
    gap_method: str
    score_inference_method: str
    resamples: int
    seed: int
    thresholds: tuple
    interval: Optional[tuple]
    weighted: bool
    #: Groups with fewer rows in a gap's denominator are kept out of that gap (0: none).
    min_group_size: int = 0


@dataclass(frozen=True)
class Columns:
    """The audited columns by role."""

    label: str
    prediction: Optional[str]
    score: Optional[str]
    sensitive: tuple
    weight: Optional[str]


@dataclass(frozen=True)
class Input:
    """What was audited (``report.json``'s ``input``)."""

    file: str
    format: str
    rows: int
    columns: Columns
    positive_label: str
    negative_label: Optional[str]


@dataclass(frozen=True)
class CheckOutcome:
    """The verdict of ``--fail-if`` style expressions on a report: ``failed`` when any
    expression holds; ``outcomes`` is the report's ``fail_if`` entries (``expression``,
    ``failed``, ``comparisons`` with the ``actual`` headline value)."""

    failed: bool
    outcomes: tuple

    def __bool__(self) -> bool:
        return self.failed


def _same(a: Optional[float], b: Optional[float]) -> bool:
    return a == b or (a != a and b != b)  # NaN is NaN


def _lookup(mapping: Mapping, key: str, what: str):
    try:
        return mapping[key]
    except KeyError:
        raise KeyError(f"unknown {what} {key!r}: expected one of {sorted(mapping)}") from None


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"AuditResult.{old} is deprecated and will be removed in the next release; "
                  f"use {new}", FutureWarning, stacklevel=3)


# -- the result -----------------------------------------------------------------------------------

class AuditResult:
    """An exact fairness audit computed from merged per-partition states: a typed, read-only
    view of its schema-v1 report (docs/audit-json-schema.md), the report the ``fairkit audit``
    command writes for the same rows.

    The report is built once (by the Rust crate ``fair-audit``) and parsed once; every accessor
    reads from it, in the report's vocabulary.

    Attributes
    ----------
    report_json
        The report as JSON text (exactly ``report.json``).
    document
        The parsed report (a dict; do not modify it).
    input, settings
        What was audited and how (:class:`Input`, :class:`Settings`).
    slices
        One :class:`Slice` per sensitive column and, with several, their intersection (last,
        named ``"a & b"``): per group the rows, confusion counts and the eight rates with
        intervals, and the eight gaps (``dp_difference``, ``dp_ratio``, ``eo_difference``,
        ``eo_ratio``, ``eq_odds_difference``, ``eq_odds_ratio``, ``accuracy_difference``,
        ``accuracy_ratio``) with bootstrap intervals and permutation p-values.
    finest
        The slice of the finest groups: the intersection (or the one column's slice).
    headline
        The worst value of each headline key over the slices (:class:`Headline` by key; the
        keys ``check`` expressions use).
    score_metrics
        With a score column, one :class:`ScoreSlice` per slice (exact AUC per group, KS DP-Δ /
        EO-Δ, partial SP with intervals and p-values); ``None`` without one.
    summary
        The report's plain-language sentences.

    Two results are equal when their reports are equal apart from where the rows came from
    (``input.file`` and ``input.format``): ``fairkit.spark.audit(df) == fairkit.audit(df.toArrow())``.
    """

    __slots__ = ("report_json", "document", "_source")

    def __init__(self, report_json: str, source: Optional[_AuditSource] = None):
        self.report_json = report_json
        self.document = json.loads(report_json)
        self._source = source

    @classmethod
    def _from_source(cls, src: _AuditSource) -> "AuditResult":
        return cls(_render(src, ["json"])["json"], src)

    # -- the report's vocabulary ------------------------------------------------------------------

    @property
    def input(self) -> Input:
        d = self.document["input"]
        c = d["columns"]
        cols = Columns(c["label"], c["prediction"], c["score"], tuple(c["sensitive"]), c["weight"])
        return Input(d["file"], d["format"], int(d["rows"]), cols, d["positive_label"],
                     d["negative_label"])

    @property
    def settings(self) -> Settings:
        d = self.document["settings"]
        interval = None if d["interval"] is None else tuple(d["interval"])
        return Settings(d["confidence"], d["rate_ci_method"], d["gap_method"],
                        d["score_inference_method"], d["resamples"], d["seed"],
                        tuple(d["thresholds"]), interval, d["weighted"],
                        int(d.get("min_group_size", 0)))

    def _classifier_slices(self) -> list:
        if "ranking" in self.document:
            from fairkit._core import FairkitError

            raise FairkitError("this is the audit of rankings (query=): its slices, groups and "
                               "ratios are in .ranking (report.json's ranking)")
        if "regression" in self.document:
            from fairkit._core import FairkitError

            raise FairkitError("this is the audit of a numeric target (target=): its slices, "
                               "groups and gaps are in .regression (report.json's regression)")
        return self.document["audits"][0]["slices"]

    @property
    def slices(self) -> tuple:
        return tuple(Slice._of(s) for s in self._classifier_slices())

    @property
    def inferred(self) -> Optional[Mapping]:
        """The inferred sensitive attributes (``sensitive_proba=``), as report.json's
        ``inferred``: per attribute and slice each group's weighted and most-likely-group rates
        with intervals and their partial-identification bounds, and per group against the
        reference group the bounds of each disparity; ``note`` says what they assume. ``None``
        without inferred attributes (docs/inferred-groups.md)."""
        return self.document.get("inferred")

    @property
    def regression(self) -> Optional[Mapping]:
        """The audit of a numeric prediction (``target=``), as report.json's ``regression``:
        per slice each group's metrics with intervals, the gaps with intervals and p-values,
        and the distances between the groups' predictions; ``None`` for a classifier's audit."""
        return self.document.get("regression")

    @property
    def ranking(self) -> Optional[Mapping]:
        """The audit of rankings (``query=``), as report.json's ``ranking``: per slice each
        group's exposure share and ratio, exposure and impact per unit of relevance, NDCG,
        top-k shares and FA*IR pass rate with intervals, the ratios between the groups and a
        verdict; ``None`` for other audits."""
        return self.document.get("ranking")

    def slice(self, name: Optional[str] = None) -> Slice:
        """A slice by name (``"race"``, ``"race & sex"``); ``None``: the finest."""
        slices = self._classifier_slices()
        if name is None:
            return Slice._of(slices[-1])
        for s in slices:
            if s["slice"] == name:
                return Slice._of(s)
        raise KeyError(f"no slice {name!r}: the slices are {[s['slice'] for s in slices]}")

    @property
    def finest(self) -> Slice:
        return self.slice(None)

    def gap(self, key: str, slice: Optional[str] = None) -> Gap:
        """One gap by report key (``"dp_difference"``) or fairlearn name
        (``"demographic_parity_difference"``) on a slice (default: the finest)."""
        return self.slice(slice).gap(key)

    @property
    def headline(self) -> Mapping[str, Headline]:
        return MappingProxyType({k: Headline._of(k, v)
                                 for k, v in self.document["headline"].items()})

    @property
    def score_metrics(self) -> Optional[tuple]:
        s = self.document["score_metrics"]
        return None if s is None else tuple(ScoreSlice._of(d) for d in s)

    def score_slice(self, name: Optional[str] = None) -> Optional[ScoreSlice]:
        """The score metrics of a slice (default: the finest); ``None`` without a score."""
        s = self.document["score_metrics"]
        if s is None:
            return None
        name = self.document["audits"][0]["slices"][-1]["slice"] if name is None else name
        for d in s:
            if d["slice"] == name:
                return ScoreSlice._of(d)
        raise KeyError(f"no score slice {name!r}: the slices are {[d['slice'] for d in s]}")

    def disparities(self, threshold: Optional[float] = None, *, p_values: bool = False):
        """Aequitas' disparity frame of the audit: one row per (slice, group), the columns of
        :func:`fairkit.metrics.disparities` (Aequitas 1.1's names: ``fpr``,
        ``fpr_disparity``, ``fpr_ref_group_value``, ``fpr_significance``, …, ``FPR Parity``,
        ``Equalized Odds``, …), read from report.json's ``disparities`` (the reference rule and
        ``tau`` of the audit's ``disparity_reference=`` and ``tau=``). ``attribute_name`` is the
        slice (``"race & sex"`` for the intersection) and ``attribute_value`` the group's name as
        the report writes it. With several thresholds, every threshold's rows follow each other
        behind a ``score_threshold`` column (Aequitas' name), or only ``threshold``'s.
        ``p_values=True``: the ``*_significance`` columns hold p-values instead of booleans.

        Returns a pandas DataFrame (requires pandas).

        >>> import pandas as pd, fairkit
        >>> df = pd.DataFrame({"y": [1, 0, 1, 0] * 50, "p": [1, 0, 0, 0] * 50,
        ...                    "g": ["a", "a", "b", "b"] * 50})
        >>> r = fairkit.audit(df, label="y", pred="p", sensitive=["g"], n_resamples=200)
        >>> r.disparities()[["attribute_value", "pprev_disparity", "Impact Parity"]]
          attribute_value  pprev_disparity Impact Parity
        0               a              1.0          True
        1               b              0.0         False
        """
        from fairkit._core import FairkitError
        from fairkit import _validation as v
        from fairkit.metrics import _disparity

        if not v.has_pandas():
            raise FairkitError("disparities returns a pandas DataFrame: install pandas")
        self._classifier_slices()
        audits = self.document["audits"]
        if threshold is not None:
            audits = [a for a in audits if a["threshold"] == threshold]
            if not audits:
                known = [a["threshold"] for a in self.document["audits"]]
                raise FairkitError(f"no audit at threshold {threshold!r}; the report's: {known}")
        rows, thresholds, labels_of = [], [], {}
        for a in audits:
            for s in a["slices"]:
                d = s.get("disparities")
                if d is None and self.document["settings"].get("disparity") is not None:
                    raise FairkitError(
                        f"slice {s['slice']!r} has no disparities: its weighted counts are not "
                        "finite (weights summing beyond the largest float)")
                if d is None:
                    raise FairkitError(
                        "this report has no disparities (written by a fairkit before them): "
                        "audit again")
                counts = {g["group"]: g["counts"] for g in s["groups"]}
                labels_of[s["slice"]] = {g["group"]: g["group"] for g in d["groups"]}
                for g in d["groups"]:
                    rates = [g["rates"][k] for k in _disparity._RATES]
                    c = counts[g["group"]]
                    par = g["parity"]
                    rows.append({
                        "attribute_name": s["slice"], "attribute_value": g["group"],
                        "k": d["predicted_positives"], "total_entities": d["total"],
                        "tp": c["tp"], "fp": c["fp"], "tn": c["tn"], "fn": c["fn_"],
                        "group_size": g["size"], "accuracy": g["accuracy"],
                        "prev": g["prevalence"],
                        "values": [r["value"] for r in rates],
                        "ref_groups": [r["reference_group"] for r in rates],
                        "disparities": [r["disparity"] for r in rates],
                        "parities": [r["parity"] for r in rates],
                        "p_values": [r["p_value"] for r in rates],
                        "significant": [r["significant"] for r in rates],
                        "label_value_p": g["label_value_significance"]["p_value"],
                        "label_value_significant": g["label_value_significance"]["significant"],
                        "score_p": g["score_significance"]["p_value"],
                        "score_significant": g["score_significance"]["significant"],
                        **{k: par[k] for k in ("type_i", "type_ii", "equalized_odds",
                                               "unsupervised", "supervised")},
                    })
                    thresholds.append(a["threshold"])
        frame = _disparity._frame(v.pd, rows, labels_of, p_values)
        if self.document["settings"]["thresholds"]:
            frame.insert(0, "score_threshold", thresholds)
        return frame

    @property
    def summary(self) -> tuple:
        return tuple(self.document["summary"])

    @property
    def over_time(self) -> Optional[Mapping]:
        """The audit per window of ``by=`` (``column``, ``window``, ``baseline`` and
        ``windows[]`` with each window's ``rows`` and per-slice ``gaps``: value, interval,
        p-value, and the change against the baseline window with its interval and p-value), as
        report.json's ``over_time``; ``None`` without ``by=``."""
        return self.document.get("over_time")

    @property
    def comparison(self) -> Optional[Mapping]:
        """The paired comparison of ``pred`` with ``against=`` (every count gap of both models,
        the change, its interval and p-value), as report.json's ``comparison``; ``None``
        without ``against=``."""
        return self.document.get("comparison")

    def check(self, *expressions: str) -> CheckOutcome:
        """Evaluates ``--fail-if`` style expressions on the report's headline, exactly as
        ``fairkit audit --fail-if`` does (the same Rust code): e.g.
        ``result.check("dp_difference > 0.1")`` or ``result.check("ks_dp > 0.2 or
        eo_difference > 0.05")``. Returns a :class:`CheckOutcome`, true (``failed``) when any
        expression holds. A key the report does not define (``ks_dp`` without a score) or a
        malformed expression raises ``FairkitError``, never a silent pass."""
        from fairkit import _core
        from fairkit._core import FairkitError

        if len(expressions) == 1 and not isinstance(expressions[0], str):
            expressions = tuple(expressions[0])
        if not expressions or not all(isinstance(e, str) for e in expressions):
            raise FairkitError(f"check needs one or more expressions (str), got {expressions!r}")
        check_report = _core.check_report
        outcomes = tuple(check_report(self.report_json, list(expressions)))
        return CheckOutcome(any(o["failed"] for o in outcomes), outcomes)

    def compare(self, other: "AuditResult", *, n_resamples: int = 1000, seed: int = 0,
                confidence: float = 0.95, out: Optional[str | os.PathLike] = None,
                fail_if: Sequence[str] = (), allow_partial: bool = False) -> dict:
        """This audit (before) against ``other`` (after), gap by gap, as ``fairkit compare``
        does (the same Rust code): every count gap of every slice both audits have, before and
        after, the change, its two-sample bootstrap interval and the p-value of "the gap did not
        change", plus a sentence for every change distinguishable at ``1 - confidence``.

        Returns the parsed ``compare.json`` (``changes[].gaps[]`` with ``before``, ``after``,
        ``change``, ``lower``, ``upper``, ``p_value``, ``worse``; ``summary``; when both audits
        have a score, ``score_changes[].gaps[]`` for the AUC difference, KS and partial SP, from
        the two audits' own intervals, valid for two score columns of the same rows too); with ``out``,
        also writes ``compare.json``, ``compare.md`` (with ``figures/``: each slice's gaps before
        and after) and ``compare.html`` there. Both audits
        must be unweighted (the comparison redraws rows from the per-group counts).

        ``fail_if``: gates as ``fairkit compare --fail-if`` takes them, e.g.
        ``"change(dp_difference) > 0.02 and p < 0.01"`` (the terms of an ``and`` read one
        slice; a bare ``p`` is the p-value of its ``change``; plain keys read ``other``'s
        headline). Their verdicts are the result's ``fail_if`` list (``failed``, and each
        comparison with the slice it read).

        Audits whose slices, thresholds or groups do not match (``sex,race`` against
        ``gender,race``, or a group only in one) raise ``FairkitError`` naming the differences;
        ``allow_partial=True`` compares what they share and says what was left out.

        >>> import pyarrow as pa
        >>> import fairkit
        >>> t = lambda s: pa.table({"y": [0, 1] * 100, "p": [int(i < s) for i in range(100)]
        ...                         + [int(i < 50) for i in range(100)], "g": ["a"] * 100 + ["b"] * 100})
        >>> old, new = (fairkit.audit(t(s), label="y", pred="p", sensitive=["g"]) for s in (80, 50))
        >>> c = old.compare(new)
        >>> round(c["changes"][0]["gaps"][0]["change"], 3), c["changes"][0]["gaps"][0]["worse"]
        (-0.3, False)
        """
        import json

        from fairkit import _core

        if not isinstance(other, AuditResult):
            from fairkit._core import FairkitError
            raise FairkitError(f"compare needs another AuditResult, got {type(other).__name__}")
        if isinstance(fail_if, str):
            fail_if = (fail_if,)
        text = _core.compare_reports(self.report_json, other.report_json, float(confidence),
                                     int(n_resamples), int(seed), list(fail_if),
                                     bool(allow_partial))
        if out is not None:
            os.makedirs(os.fspath(out), exist_ok=True)
            for name, key in (("compare.json", "json"), ("compare.md", "markdown"),
                              ("compare.html", "html")):
                with open(os.path.join(os.fspath(out), name), "w", encoding="utf-8") as f:
                    f.write(text[key])
            for rel, svg in text["figures"].items():
                path = os.path.join(os.fspath(out), rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(svg)
        return json.loads(text["json"])

    def report(self, out: Optional[str | os.PathLike] = None, *,
               formats: Sequence[str] = _FORMATS, description: Optional[str] = None) -> dict:
        """The ``fairkit audit`` command's report of this audit: the schema-v1 ``report.json``
        (docs/audit-json-schema.md, the document this result views), ``report.md`` with its SVG
        figures, and a self-contained ``report.html``. Built from the merged state bytes, never
        the rows, by the same Rust code as the command, so a file audited by ``fairkit audit``
        and the same rows audited here give the same report (its ``input`` block aside).

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

        src = self._source
        if src is None:
            raise FairkitError("this AuditResult was not computed by fairkit.spark.audit or "
                               "fairkit.audit, so it has no state to build the report from")
        if isinstance(formats, str):
            formats = (formats,)
        text = _render(src, formats, description)
        if out is not None:
            _write_report(os.fspath(out), text)
        return text

    def _comparable(self) -> dict:
        d = dict(self.document)
        d["input"] = {k: v for k, v in d["input"].items() if k not in ("file", "format")}
        return d

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AuditResult):
            return NotImplemented
        return self._comparable() == other._comparable()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        i = self.document["input"]
        return (f"AuditResult({i['format']}, {i['rows']} rows, slices "
                f"{[s['slice'] for s in self.document['audits'][0]['slices']]})")

    # -- deprecated: the old result model (one release) ------------------------------------------

    def _finest_keys(self) -> list:
        """The finest groups' names as the old model keyed them: a string for one sensitive
        column, a tuple of strings for several."""
        slices = self.document["audits"][0]["slices"]
        finest = [g["group"] for g in slices[-1]["groups"]]
        n = len(self.document["input"]["columns"]["sensitive"])
        if n == 1:
            return finest
        values = [{g["group"] for g in s["groups"]} for s in slices[:n]]
        return [_split_group(name, values) for name in finest]

    def _old_groups(self) -> list:
        return self._finest_keys()

    @property
    def groups(self) -> list:
        _deprecated("groups", "result.finest.names (group names as in the report, 'x & y')")
        return self._old_groups()

    @property
    def rows(self) -> list:
        _deprecated("rows", "[g.rows for g in result.finest.groups]")
        return [g["rows"] for g in self.document["audits"][0]["slices"][-1]["groups"]]

    @property
    def total_rows(self) -> int:
        _deprecated("total_rows", "result.input.rows")
        return int(self.document["input"]["rows"])

    @property
    def weighted(self) -> bool:
        _deprecated("weighted", "result.settings.weighted")
        return bool(self.document["settings"]["weighted"])

    @property
    def confidence(self) -> float:
        _deprecated("confidence", "result.settings.confidence")
        return float(self.document["settings"]["confidence"])

    @property
    def ci_method(self) -> str:
        _deprecated("ci_method", "result.settings.rate_ci_method")
        return str(self.document["settings"]["rate_ci_method"])

    @property
    def sensitive(self) -> tuple:
        _deprecated("sensitive", "result.input.columns.sensitive")
        return tuple(self.document["input"]["columns"]["sensitive"])

    @property
    def partial_interval(self) -> tuple:
        _deprecated("partial_interval", "result.settings.interval")
        interval = self.document["settings"]["interval"]
        if interval is None and self._source is not None:
            interval = self._source.request.get("interval")
        return tuple(interval) if interval is not None else (0.0, 1.0)

    def _old_rates(self) -> dict:
        weighted = self.document["settings"]["weighted"]
        s = self.document["audits"][0]["slices"][-1]
        out = {}
        for name in s["overall"]["rates"]:
            def one(g, field):
                e = g["rates"][name]
                return None if e is None else e[field]
            by, over = s["groups"], s["overall"]
            out[name] = {
                "by_group": [one(g, "value") for g in by],
                "lower": [one(g, "lower") for g in by],
                "upper": [one(g, "upper") for g in by],
                "effective_n": [_effective_n(name, g, weighted) for g in by],
                "overall": {"estimate": one(over, "value"), "lower": one(over, "lower"),
                            "upper": one(over, "upper"),
                            "effective_n": _effective_n(name, over, weighted)},
            }
        return out

    @property
    def rates(self) -> dict:
        _deprecated("rates", "result.finest.groups[i].rates[name] (value, lower, upper)")
        return self._old_rates()

    def _old_gaps(self) -> dict:
        s = self.document["audits"][0]["slices"][-1]
        if len(s["groups"]) < 2:
            return {}
        settings = self.document["settings"]
        by_key = {g["key"]: g for g in s["gaps"]}
        out = {}
        for old in _OLD_GAPS:
            g = by_key[GAP_ALIASES[old]]
            if g["value"] is None:
                out[old] = {"error": g["undefined_reason"]}
            else:
                out[old] = {"estimate": g["value"], "lower": g["lower"], "upper": g["upper"],
                            "p_value": g["p_value"], "n_resamples": settings["resamples"],
                            "n_permutations": settings["resamples"], "seed": settings["seed"],
                            "approximate": settings["weighted"]}
        return out

    @property
    def gaps(self) -> dict:
        _deprecated("gaps", "result.gap('dp_difference') / result.finest.gaps "
                            "(report keys: dp_difference, eo_difference, eq_odds_difference, …)")
        return self._old_gaps()

    def _old_scores(self) -> Optional[dict]:
        if self.document["score_metrics"] is None:
            return None
        name = self.document["audits"][0]["slices"][-1]["slice"]
        d = next(s for s in self.document["score_metrics"] if s["slice"] == name)
        keys = self._finest_keys()
        key_of = dict(zip((g["group"] for g in self.document["audits"][0]["slices"][-1]["groups"]),
                          keys))
        out = {"groups": [key_of[g["group"]] for g in d["auc_by_group"]],
               "auc_by_group": [g["auc"] for g in d["auc_by_group"]]}
        for old, new, what in (("ks_demographic_parity", "ks_dp", "KS (DP-Δ): "),
                               ("ks_equal_opportunity", "ks_eo", "KS on positives (EO-Δ): "),
                               ("partial_statistical_parity", "psp", "partial SP: ")):
            m = d[new]
            if m is None:
                why = [n[len(what):] for n in d["notes"] if n.startswith(what)]
                out[old] = {"error": "; ".join(why) or "undefined"}
            else:
                out[old] = {"value": m["value"],
                            "worst_pair": tuple(key_of[g] for g in m["groups"])}
        return out

    @property
    def scores(self) -> Optional[dict]:
        _deprecated("scores", "result.score_slice() (auc_by_group, ks_dp, ks_eo, psp)")
        return self._old_scores()

    def rate(self, name: str) -> dict:
        """Deprecated: ``{group: estimate}`` of one rate over the finest groups."""
        _deprecated("rate()", "result.finest.rate(name)")
        s = self.document["audits"][0]["slices"][-1]
        if name not in s["overall"]["rates"]:
            raise KeyError(f"unknown rate {name!r}: expected one of {sorted(s['overall']['rates'])}")
        values = [None if g["rates"][name] is None else g["rates"][name]["value"]
                  for g in s["groups"]]
        return dict(zip(self._finest_keys(), values))

    def _old_json(self, indent: Optional[int] = None) -> str:
        data = {
            "sensitive": list(self.document["input"]["columns"]["sensitive"]),
            "groups": [list(g) if isinstance(g, tuple) else g for g in self._finest_keys()],
            "rows": [g["rows"] for g in self.document["audits"][0]["slices"][-1]["groups"]],
            "total_rows": int(self.document["input"]["rows"]),
            "weighted": bool(self.document["settings"]["weighted"]),
            "confidence": float(self.document["settings"]["confidence"]),
            "ci_method": str(self.document["settings"]["rate_ci_method"]),
            "rates": self._old_rates(),
            "gaps": self._old_gaps(),
            "partial_interval": list(self._partial_interval()),
            "scores": self._old_scores(),
        }
        return json.dumps(data, indent=indent, sort_keys=True)

    def _partial_interval(self) -> tuple:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return self.partial_interval

    def to_dict(self) -> dict:
        """Deprecated: the old result model as plain data."""
        _deprecated("to_dict()", "result.document (the schema-v1 report)")
        return json.loads(self._old_json())

    def to_json(self, indent: Optional[int] = None) -> str:
        """Deprecated: the old result model as JSON."""
        _deprecated("to_json()", "result.report_json (the schema-v1 report)")
        return self._old_json(indent)


def _effective_n(rate: str, g: dict, weighted: bool) -> Optional[float]:
    """The old model's ``effective_n``: the rows in the rate's denominator. Unweighted it is a
    count the report holds; weighted it was Kish's effective size, which needs the sum of
    squared weights that the report does not carry (``None``)."""
    if weighted:
        return None
    c = g["counts"]
    den = {
        "selection_rate": ("tp", "fp", "tn", "fn_"),
        "accuracy": ("tp", "fp", "tn", "fn_"),
        "error_rate": ("tp", "fp", "tn", "fn_"),
        "true_positive_rate": ("tp", "fn_"),
        "false_negative_rate": ("tp", "fn_"),
        "false_positive_rate": ("fp", "tn"),
        "true_negative_rate": ("fp", "tn"),
        "precision": ("tp", "fp"),
    }[rate]
    return float(sum(c[k] for k in den))


def _split_group(name: str, values: list) -> tuple:
    """An intersection group name ``"x & y"`` back into its column values, using each column's
    group names to place the separators when a value itself contains ``" & "``."""
    parts = name.split(" & ")
    n = len(values)
    if len(parts) == n:
        return tuple(parts)

    def place(i: int, col: int):
        if col == n - 1:
            v = " & ".join(parts[i:])
            return (v,) if v in values[col] else None
        for j in range(i + 1, len(parts) - (n - col - 1) + 1):
            v = " & ".join(parts[i:j])
            if v in values[col]:
                rest = place(j, col + 1)
                if rest is not None:
                    return (v, *rest)
        return None

    return place(0, 0) or tuple(parts)


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
