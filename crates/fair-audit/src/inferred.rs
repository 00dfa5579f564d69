//! The audit of **inferred** sensitive attributes (issue 43): an attribute given as membership
//! probabilities (`--sensitive-proba race=p_white,p_black,p_other`, Python's
//! `sensitive_proba={"race": [...]}`) instead of an observed column.
//!
//! The decoder reads the probability columns (and the optional `--proxy` column) and checks
//! every row's probabilities ([`Decoder`]); [`InferredStates`] folds the decoded batches into
//! [`fair_metrics::inferred::InferredState`]s — the attribute alone, and the attribute within
//! each value of every observed sensitive column (the intersections: a row's membership of
//! `(sex = f, race = g)` is `1{sex = f} · p_g`) — and [`attach`] writes the report's `inferred`
//! section: per group the weighted and thresholded estimates of every confusion rate with
//! bootstrap intervals and the partial-identification bounds of the selection rate, TPR and FPR,
//! and per group against the slice's reference group (the largest) the bounds of the
//! difference beside the two estimators' differences. The statistics and their assumptions:
//! [`fair_metrics::inferred`] and docs/inferred-groups.md.

use crate::error::AuditError;
use crate::ingest::{Decoded, Decoder};
use fair_metrics::Rate;
use fair_metrics::inferred::{BootstrapSettings, Estimator, InferredState, RateIntervals};
use fair_report::{HtmlReport, Table};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The rates with partial-identification bounds (and the disparities reported).
pub const BOUNDED_RATES: [Rate; 3] = [Rate::Selection, Rate::TruePositive, Rate::FalsePositive];

/// What the bounds mean and what each number assumes, for the report's readers.
pub const NOTE: &str = "These groups were inferred from proxies (membership probabilities), not observed. The weighted and most-likely-group figures are best guesses: they are right only if, among people who share a proxy cell (e.g. the same surname and area), decisions and outcomes do not differ by group. The bounds need no such assumption: if the probabilities are accurate on average within each proxy cell, the true rate or difference lies between them, however decisions relate to group within a cell. Wide bounds mean the data cannot tell how large the disparity is; bounds that exclude 0 show a disparity whatever that relation.";

/// The caveat added when most proxy cells hold a single row.
pub const SINGLETON_NOTE: &str = "Most proxy cells hold a single row, so each cell's decisions look certain and the bounds come out too narrow (close to the weighted estimate): give the proxy column (--proxy / proxy=) that the probabilities were inferred from, binned if it is continuous.";

/// The states of one inferred attribute.
#[derive(Debug, Clone)]
struct Attribute {
    name: String,
    columns: Vec<String>,
    /// Index of its first column among [`Decoded::proba`].
    first: usize,
    alone: InferredState,
    /// Per observed sensitive column: value → the state of its rows.
    by_observed: Vec<(String, BTreeMap<String, InferredState>)>,
}

/// The inferred attributes' mergeable states, fed with the decoder's batches.
///
/// # Example
/// ```
/// use arrow_array::{Float64Array, Int64Array, RecordBatch, StringArray};
/// use fair_audit::inferred::InferredStates;
/// use fair_audit::ingest::{Decoder, FlagStyle, LabelPair, Roles, Typing};
/// use std::collections::BTreeMap;
/// use std::sync::Arc;
///
/// let inferred = BTreeMap::from([("race".to_string(), vec!["pw".to_string(), "pb".to_string()])]);
/// let mut roles = Roles::new("y", Some("p"), None, &["sex"], None);
/// roles.inferred = inferred.clone().into_iter().collect();
/// let mut dec = Decoder::new(roles, LabelPair::new("1", None), "example", Typing::Typed, FlagStyle::Command)?;
/// let batch = RecordBatch::try_from_iter([
///     ("y", Arc::new(Int64Array::from(vec![1, 0, 1])) as _),
///     ("p", Arc::new(Int64Array::from(vec![1, 1, 0])) as _),
///     ("sex", Arc::new(StringArray::from(vec!["f", "m", "f"])) as _),
///     ("pw", Arc::new(Float64Array::from(vec![0.9, 0.5, 0.2])) as _),
///     ("pb", Arc::new(Float64Array::from(vec![0.1, 0.5, 0.8])) as _),
/// ]).unwrap();
/// let mut states = InferredStates::new(&inferred, &["sex".to_string()])?.unwrap();
/// states.add(&dec.decode(&batch, None)?, &dec)?;
/// assert_eq!(states.rows(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct InferredStates {
    attributes: Vec<Attribute>,
    /// Number of sensitive columns (of [`Decoded::sensitive`]) the intersections are with.
    observed: usize,
}

fn metric(what: &str, source: fair_metrics::MetricError) -> AuditError {
    AuditError::Metric {
        what: what.to_string(),
        source,
    }
}

impl InferredStates {
    /// Empty states of the inferred attributes (`None` without any), intersected with each of
    /// the `observed` sensitive columns.
    ///
    /// # Errors
    /// [`AuditError::Metric`] for an attribute with fewer than two columns or a repeated one.
    pub fn new(
        inferred: &BTreeMap<String, Vec<String>>,
        observed: &[String],
    ) -> Result<Option<Self>, AuditError> {
        if inferred.is_empty() {
            return Ok(None);
        }
        let mut first = 0;
        let mut attributes = Vec::with_capacity(inferred.len());
        for (name, columns) in inferred {
            attributes.push(Attribute {
                name: name.clone(),
                columns: columns.clone(),
                first,
                alone: InferredState::new(columns.clone())
                    .map_err(|e| metric("inferred attribute", e))?,
                by_observed: observed
                    .iter()
                    .map(|c| (c.clone(), BTreeMap::new()))
                    .collect(),
            });
            first += columns.len();
        }
        Ok(Some(Self {
            attributes,
            observed: observed.len(),
        }))
    }

    /// Rows added so far.
    pub fn rows(&self) -> u64 {
        self.attributes.first().map_or(0, |a| a.alone.total_rows())
    }

    /// Adds one decoded batch (its rows' membership already checked by the decoder).
    ///
    /// # Errors
    /// [`AuditError::Input`] for a batch without predictions or probabilities (the request
    /// check refuses such audits), [`AuditError::Metric`] if a state refuses the rows.
    pub fn add(&mut self, batch: &Decoded, decoder: &Decoder) -> Result<(), AuditError> {
        let n = batch.len();
        if n == 0 {
            return Ok(());
        }
        let Some(preds) = &batch.preds else {
            return Err(AuditError::Input {
                name: "inferred attributes",
                reason: "a prediction column (pred): the inferred audit reads predicted labels, not thresholds".into(),
            });
        };
        let proxy: Option<Vec<&str>> = batch
            .proxy
            .as_ref()
            .map(|z| z.iter().map(String::as_str).collect());
        let weights = batch.weights.as_deref();
        let lead = batch.sensitive.len().saturating_sub(self.observed);
        for a in &mut self.attributes {
            let Some(cols) = batch.proba.get(a.first..a.first + a.columns.len()) else {
                return Err(AuditError::Input {
                    name: "inferred attributes",
                    reason: format!("the probability columns of {} were not decoded", a.name),
                });
            };
            let cols: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            a.alone
                .update(&batch.labels, preds, &cols, proxy.as_deref(), weights)
                .map_err(|e| metric("inferred attribute", e))?;
            for (j, (_, strata)) in a.by_observed.iter_mut().enumerate() {
                let codes = &batch.sensitive[lead + j];
                let names = decoder.groups()[lead + j].names();
                // The rows of each observed value, in batch order.
                let mut rows_of: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
                for (i, &c) in codes.iter().enumerate() {
                    rows_of.entry(c).or_default().push(i);
                }
                for (code, rows) in rows_of {
                    let pick_u = |v: &[usize]| rows.iter().map(|&i| v[i]).collect::<Vec<_>>();
                    let pick_f = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<_>>();
                    let sub_cols: Vec<Vec<f64>> = cols.iter().map(|c| pick_f(c)).collect();
                    let sub_cols: Vec<&[f64]> = sub_cols.iter().map(Vec::as_slice).collect();
                    let sub_proxy: Option<Vec<&str>> =
                        proxy.as_ref().map(|z| rows.iter().map(|&i| z[i]).collect());
                    let sub_w = weights.map(pick_f);
                    let name = &names[code as usize];
                    let state = match strata.get_mut(name) {
                        Some(s) => s,
                        None => strata.entry(name.clone()).or_insert(
                            InferredState::new(a.columns.clone())
                                .map_err(|e| metric("inferred attribute", e))?,
                        ),
                    };
                    state
                        .update(
                            &pick_u(&batch.labels),
                            &pick_u(preds),
                            &sub_cols,
                            sub_proxy.as_deref(),
                            sub_w.as_deref(),
                        )
                        .map_err(|e| metric("inferred attribute", e))?;
                }
            }
        }
        Ok(())
    }

    /// Adds another part's states (same attributes and observed columns).
    ///
    /// # Errors
    /// [`AuditError::Input`] for states of other attributes, [`AuditError::Metric`] when the
    /// states do not merge (one weighted, the other not).
    pub fn merge(&mut self, other: &InferredStates) -> Result<(), AuditError> {
        let same = self.attributes.len() == other.attributes.len()
            && self
                .attributes
                .iter()
                .zip(&other.attributes)
                .all(|(a, b)| a.name == b.name && a.columns == b.columns);
        if !same {
            return Err(AuditError::Input {
                name: "inferred states",
                reason: "states of other inferred attributes: merge the parts of one audit".into(),
            });
        }
        for (a, b) in self.attributes.iter_mut().zip(&other.attributes) {
            a.alone
                .merge(&b.alone)
                .map_err(|e| metric("inferred attribute", e))?;
            for ((_, mine), (_, theirs)) in a.by_observed.iter_mut().zip(&b.by_observed) {
                for (value, state) in theirs {
                    match mine.get_mut(value) {
                        Some(s) => s
                            .merge(state)
                            .map_err(|e| metric("inferred attribute", e))?,
                        None => {
                            mine.insert(value.clone(), state.clone());
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The report's `inferred` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredReport {
    /// What the numbers mean and assume (one paragraph for the committee).
    pub note: String,
    /// One entry per inferred attribute, by name.
    pub attributes: Vec<InferredAttribute>,
}

/// One inferred attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredAttribute {
    /// The attribute's name.
    pub attribute: String,
    /// Its probability columns, which name its groups.
    pub columns: Vec<String>,
    /// The proxy column whose values are the cells of the bounds (`None`: rows with the same
    /// probabilities form a cell).
    pub proxy: Option<String>,
    /// Number of proxy cells (the attribute alone).
    pub cells: u64,
    /// Share of the proxy cells that hold a single row (near 1, the bounds are too narrow).
    pub singleton_cells: f64,
    /// The attribute alone, then its intersection with each observed sensitive column.
    pub slices: Vec<InferredSlice>,
}

/// One slice of an inferred attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredSlice {
    /// `race`, or `sex & race`.
    pub name: String,
    /// The group every other group is compared with: the largest by membership weight.
    pub reference: String,
    /// Per group.
    pub groups: Vec<InferredGroup>,
    /// Per group other than the reference, per bounded rate.
    pub disparities: Vec<InferredDisparity>,
}

/// One group's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredGroup {
    /// The group (its probability column; `value & column` in an intersection).
    pub group: String,
    /// Its membership weight: the sum over rows of weight × probability.
    pub weight: f64,
    /// Per confusion rate, in the ordinary audit's order.
    pub rates: Vec<InferredRate>,
}

/// An estimate with its bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The point estimate (`None`: undefined, its denominator is zero).
    pub value: Option<f64>,
    /// The interval's lower end (`None`: undefined in most resamples).
    pub lower: Option<f64>,
    /// The interval's upper end.
    pub upper: Option<f64>,
}

/// One rate of one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredRate {
    /// The rate's name (`selection_rate`, …).
    pub rate: String,
    /// Weighted estimator (each row in each group with its probability).
    pub weighted: Estimate,
    /// Thresholded estimator (each row in its most likely group).
    pub thresholded: Estimate,
    /// Partial-identification bounds `[lower, upper]` (selection rate, TPR and FPR only).
    pub bounds: Option<[f64; 2]>,
}

/// The bounds of a difference, with their sampling uncertainty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DisparityBounds {
    /// The smallest difference consistent with the data.
    pub lower: f64,
    /// The largest.
    pub upper: f64,
    /// Whether `[lower, upper]` is the smallest such set (false: valid but possibly wider; TPR
    /// or FPR within a slice of more than two groups).
    pub sharp: bool,
    /// The bootstrap's lower quantile of `lower` (`None`: undefined in most resamples).
    pub ci_lower: Option<f64>,
    /// The bootstrap's upper quantile of `upper`.
    pub ci_upper: Option<f64>,
}

/// `rate(group) − rate(reference)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferredDisparity {
    /// The rate's name.
    pub rate: String,
    /// The group.
    pub group: String,
    /// The slice's reference group.
    pub reference: String,
    /// The weighted estimators' difference.
    pub weighted: Estimate,
    /// The thresholded estimators' difference.
    pub thresholded: Estimate,
    /// The bounds of the true difference (`None` when a rate is undefined under every
    /// coupling).
    pub bounds: Option<DisparityBounds>,
}

/// Everything [`attach`] takes besides the states.
#[derive(Debug, Clone)]
pub struct InferredSettings {
    /// The proxy column, if given.
    pub proxy: Option<String>,
    /// The bootstrap.
    pub bootstrap: BootstrapSettings,
}

fn estimate(value: Option<f64>, interval: Option<(f64, f64)>) -> Estimate {
    Estimate {
        value,
        lower: interval.map(|i| i.0),
        upper: interval.map(|i| i.1),
    }
}

/// One slice's figures from its state.
fn slice(
    name: &str,
    state: &InferredState,
    bootstrap: &BootstrapSettings,
) -> Result<InferredSlice, AuditError> {
    let groups = state.groups();
    let weights: Vec<f64> = state
        .cell_sums(Estimator::Weighted)
        .iter()
        .map(|s| s.0[15])
        .collect();
    // The largest group (the first of the largest on ties).
    let reference = (0..groups.len()).fold(
        0,
        |best, g| if weights[g] > weights[best] { g } else { best },
    );
    let pairs: Vec<(usize, usize)> = (0..groups.len())
        .filter(|&g| g != reference && weights[g] > 0.0)
        .map(|g| (g, reference))
        .collect();
    let rates = Rate::ALL;
    let intervals: Vec<RateIntervals> = if state.total_rows() == 0 {
        Vec::new()
    } else {
        state
            .bootstrap(&rates, &pairs, bootstrap)
            .map_err(|e| metric("inferred bootstrap", e))?
    };
    let mut per_rate = Vec::with_capacity(rates.len());
    for (ri, &rate) in rates.iter().enumerate() {
        let bounds = if BOUNDED_RATES.contains(&rate) {
            Some(
                state
                    .rate_bounds(rate)
                    .map_err(|e| metric("inferred bounds", e))?,
            )
        } else {
            None
        };
        per_rate.push((
            rate,
            state.estimate(Estimator::Weighted, rate),
            state.estimate(Estimator::Thresholded, rate),
            bounds,
            intervals.get(ri),
        ));
    }
    let out_groups = groups
        .iter()
        .enumerate()
        .map(|(g, name)| InferredGroup {
            group: name.clone(),
            weight: weights[g],
            rates: per_rate
                .iter()
                .map(|(rate, w, t, b, iv)| InferredRate {
                    rate: rate.as_str().to_string(),
                    weighted: estimate(w[g], iv.and_then(|iv| iv.weighted[g])),
                    thresholded: estimate(t[g], iv.and_then(|iv| iv.thresholded[g])),
                    bounds: b.as_ref().and_then(|b| b[g]).map(|(lo, hi)| [lo, hi]),
                })
                .collect(),
        })
        .collect();
    let mut disparities = Vec::new();
    for (rate, w, t, _, iv) in &per_rate {
        if !BOUNDED_RATES.contains(rate) {
            continue;
        }
        for (pi, &(g, r)) in pairs.iter().enumerate() {
            let p = iv.map(|iv| &iv.pairs[pi]);
            let diff = |v: &[Option<f64>]| Some(v[g]? - v[r]?);
            let bounds = state
                .disparity_bounds(*rate, g, r)
                .map_err(|e| metric("inferred bounds", e))?
                .map(|d| DisparityBounds {
                    lower: d.lo,
                    upper: d.hi,
                    sharp: d.sharp,
                    ci_lower: p.and_then(|p| p.bounds).map(|b| b.0),
                    ci_upper: p.and_then(|p| p.bounds).map(|b| b.1),
                });
            disparities.push(InferredDisparity {
                rate: rate.as_str().to_string(),
                group: groups[g].clone(),
                reference: groups[r].clone(),
                weighted: estimate(diff(w), p.and_then(|p| p.weighted)),
                thresholded: estimate(diff(t), p.and_then(|p| p.thresholded)),
                bounds,
            });
        }
    }
    Ok(InferredSlice {
        name: name.to_string(),
        reference: groups[reference].clone(),
        groups: out_groups,
        disparities,
    })
}

/// The report's `inferred` section from the merged states.
///
/// # Errors
/// [`AuditError::Metric`] if a bootstrap setting is refused (the request check prevents it).
pub fn report(
    states: &InferredStates,
    settings: &InferredSettings,
) -> Result<InferredReport, AuditError> {
    let mut attributes = Vec::with_capacity(states.attributes.len());
    let mut singletons_warned = false;
    for a in &states.attributes {
        let mut slices = vec![slice(&a.name, &a.alone, &settings.bootstrap)?];
        for (column, strata) in &a.by_observed {
            let parts: Vec<(&str, &InferredState)> =
                strata.iter().map(|(v, s)| (v.as_str(), s)).collect();
            if parts.is_empty() {
                continue;
            }
            let joint =
                InferredState::intersect(&parts).map_err(|e| metric("inferred intersection", e))?;
            slices.push(slice(
                &format!("{column} & {}", a.name),
                &joint,
                &settings.bootstrap,
            )?);
        }
        let (cells, singles) = a.alone.cell_sizes();
        let singleton_cells = if cells == 0 {
            0.0
        } else {
            singles as f64 / cells as f64
        };
        singletons_warned |= singleton_cells > 0.5;
        attributes.push(InferredAttribute {
            attribute: a.name.clone(),
            columns: a.columns.clone(),
            proxy: settings.proxy.clone(),
            cells,
            singleton_cells,
            slices,
        });
    }
    let mut note = NOTE.to_string();
    if singletons_warned {
        note.push(' ');
        note.push_str(SINGLETON_NOTE);
    }
    Ok(InferredReport { note, attributes })
}

/// The glossary's meaning of each key, as a table's header hover text.
fn titles(keys: &[&str]) -> Vec<Option<String>> {
    keys.iter()
        .map(|k| {
            crate::glossary::INFERRED_ENTRIES
                .iter()
                .find(|e| e.key == *k)
                .map(|e| e.meaning.to_string())
        })
        .collect()
}

/// A rate's plain name from the glossary ("selection rate"), else its key.
fn rate_name(key: &str) -> String {
    crate::glossary::ENTRIES
        .iter()
        .find(|e| e.key == key)
        .map_or_else(|| key.to_string(), |e| e.name.to_string())
}

/// Three decimals, without a minus sign on a value that rounds to zero ("-0.000").
fn dec3(v: f64) -> String {
    let s = format!("{v:.3}");
    if s == "-0.000" { "0.000".into() } else { s }
}

fn fmt(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_string(), dec3)
}

fn with_interval(e: &Estimate) -> String {
    match (e.value, e.lower, e.upper) {
        (Some(v), Some(lo), Some(hi)) => format!("{} [{}, {}]", dec3(v), dec3(lo), dec3(hi)),
        (v, _, _) => fmt(v),
    }
}

/// The views' section: the note, then per attribute and slice a table of the bounded rates per
/// group and a table of the disparities.
pub fn section(doc: &mut HtmlReport, r: &InferredReport, level: &str) {
    doc.heading("Inferred sensitive attributes");
    doc.paragraph(&r.note);
    for a in &r.attributes {
        let cells_by = match &a.proxy {
            Some(z) => format!("the values of {z}"),
            None => "rows with the same probabilities".to_string(),
        };
        for s in &a.slices {
            doc.subheading(&format!(
                "{} (inferred from {})",
                s.name.replace(" & ", " × "),
                a.columns.join(", ")
            ));
            doc.paragraph(&format!(
                "{} proxy cells ({cells_by}); estimates with their {level} bootstrap intervals; bounds: every value consistent with the data when the probabilities are calibrated within each cell.",
                a.cells
            ));
            let mut t = Table::new(&[
                "group",
                "weight",
                "rate",
                "weighted",
                "most likely group",
                "bounds",
            ]);
            t.header_titles(titles(&[
                "",
                "inferred_weight",
                "",
                "inferred_weighted",
                "inferred_thresholded",
                "inferred_bounds",
            ]));
            for g in &s.groups {
                for rate in g.rates.iter().filter(|r| r.bounds.is_some()) {
                    t.text_row(vec![
                        g.group.clone(),
                        format!("{:.1}", g.weight),
                        rate_name(&rate.rate),
                        with_interval(&rate.weighted),
                        with_interval(&rate.thresholded),
                        rate.bounds.map_or_else(
                            || "—".into(),
                            |[lo, hi]| format!("[{}, {}]", dec3(lo), dec3(hi)),
                        ),
                    ]);
                }
            }
            doc.table(&t);
            let mut d = Table::new(&[
                "difference",
                "weighted",
                "most likely group",
                "bounds",
                "bounds with sampling",
            ]);
            d.header_titles(titles(&[
                "",
                "inferred_weighted",
                "inferred_thresholded",
                "inferred_bounds",
                "inferred_bounds_sampling",
            ]));
            for x in &s.disparities {
                let (b, ci) = match &x.bounds {
                    None => ("—".to_string(), "—".to_string()),
                    Some(b) => (
                        format!(
                            "[{}, {}]{}",
                            dec3(b.lower),
                            dec3(b.upper),
                            if b.sharp { "" } else { " (outer)" }
                        ),
                        match (b.ci_lower, b.ci_upper) {
                            (Some(lo), Some(hi)) => format!("[{}, {}]", dec3(lo), dec3(hi)),
                            _ => "—".into(),
                        },
                    ),
                };
                d.text_row(vec![
                    format!("{}: {} − {}", rate_name(&x.rate), x.group, x.reference),
                    with_interval(&x.weighted),
                    with_interval(&x.thresholded),
                    b,
                    ci,
                ]);
            }
            doc.table(&d);
        }
    }
}

/// The `--fail-if` keys of the inferred attributes, one per bounded rate: the largest absolute
/// difference between two groups that the bounds allow, over every inferred attribute, slice
/// and group (`selection_rate_disparity_bound > 0.2` fails when the data cannot rule out a
/// selection-rate difference above 0.2).
pub const GATE_KEYS: [&str; 3] = [
    "selection_rate_disparity_bound",
    "true_positive_rate_disparity_bound",
    "false_positive_rate_disparity_bound",
];

/// The values of [`GATE_KEYS`] on `report` (`Err` with the reason when it has no inferred
/// attributes, or no bound of that rate is defined).
pub fn gate_values(report: &crate::model::AuditReport) -> Vec<(&'static str, Result<f64, String>)> {
    BOUNDED_RATES
        .iter()
        .zip(GATE_KEYS)
        .map(|(rate, key)| {
            let Some(inf) = &report.inferred else {
                return (
                    key,
                    Err("it needs an inferred attribute (--sensitive-proba race=p_white,p_black,…)".into()),
                );
            };
            let worst = inf
                .attributes
                .iter()
                .flat_map(|a| &a.slices)
                .flat_map(|s| &s.disparities)
                .filter(|d| d.rate == rate.as_str())
                .filter_map(|d| d.bounds)
                .map(|b| b.lower.abs().max(b.upper.abs()))
                .reduce(f64::max);
            (
                key,
                worst.ok_or_else(|| {
                    format!(
                        "the {} bounds are undefined for every pair of groups (see inferred in report.json)",
                        rate.as_str()
                    )
                }),
            )
        })
        .collect()
}
