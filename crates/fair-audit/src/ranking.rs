//! The ranking audit (`--query`): the decoded rows of every query, kept in memory
//! ([`RankingInput`]; the command peaks at 130 MB on 1e6 rows in 1e5 queries), each slice's
//! [`RankingState`] from them, the query bootstrap, and report.json's `ranking` section.
//!
//! The query column is decoded as the first group column (text, integer or boolean ids), so
//! the decoder's rules for group values (nulls, types) apply to it; the positions come from
//! the rank column (smallest first) or the score (highest first), and ties share their
//! positions (see [`fair_metrics::ranking_state`]).

use crate::compute::SliceDef;
use crate::error::AuditError;
use crate::ingest::{Decoded, Decoder, FlagStyle};
use crate::keys::Key;
use crate::model::ranking::{RankingAudit, RankingGap, RankingGroup, RankingSlice, TopKShare};
use crate::model::regression::Measured;
use crate::request::CheckedRequest;
use crate::summary::value_text;
use fair_metrics::ci::Interval;
use fair_metrics::ranking_state::{
    Discount, RankingInference, RankingRows, RankingSettings, RankingState, RankingSummary,
};
use std::collections::HashMap;

/// The rows of a ranking audit, as decoded: the query (the decoder's first group column), the
/// position key, each sensitive column's group code, relevance and weight.
#[derive(Debug, Clone, Default)]
pub struct RankingInput {
    query: Vec<u32>,
    key: Vec<f64>,
    attrs: Vec<Vec<u32>>,
    relevance: Option<Vec<f64>>,
    weight: Option<Vec<f64>>,
    /// The group names of each decoded group column (the query first).
    names: Vec<Vec<String>>,
    /// Each query's weight and the (1-based) row it was first seen on.
    query_weight: HashMap<u32, (f64, u64)>,
}

impl RankingInput {
    /// Adds one decoded batch (decoded with the query as the first sensitive column, the
    /// rank or the score, and optionally the relevance and the weight).
    ///
    /// # Errors
    /// [`AuditError::Input`] for a batch without positions, a negative relevance or a weight
    /// that differs within a query (naming the row).
    pub fn add(&mut self, batch: &Decoded, decoder: &Decoder) -> Result<(), AuditError> {
        // The batch's rows are its positions' (a ranking batch has no finest groups).
        let row = |i: usize| batch.first_row + i as u64 + 1;
        let n = match (&batch.ranks, &batch.scores) {
            (Some(r), _) => {
                self.key.extend_from_slice(r);
                r.len()
            }
            // Highest score first: the key is its negation (-0.0 and 0.0 tie).
            (None, Some(s)) => {
                self.key.extend(s.iter().map(|&x| -x));
                s.len()
            }
            (None, None) => {
                return Err(AuditError::Input {
                    name: "rankings",
                    reason: "a batch without a rank or a score column".into(),
                });
            }
        };
        let Some((query, attrs)) = batch.sensitive.split_first() else {
            return Err(AuditError::Input {
                name: "rankings",
                reason: "a batch without the query column".into(),
            });
        };
        if self.attrs.is_empty() {
            self.attrs = vec![Vec::new(); attrs.len()];
        }
        self.query.extend_from_slice(query);
        for (a, codes) in self.attrs.iter_mut().zip(attrs) {
            a.extend_from_slice(codes);
        }
        let roles = decoder.roles();
        if let Some(rel) = &batch.relevance {
            if let Some(i) = rel.iter().position(|&u| u < 0.0) {
                return Err(AuditError::Input {
                    name: "relevance",
                    reason: format!(
                        "column {:?} has {} at row {}: a relevance must be at least 0",
                        roles.relevance.clone().unwrap_or_default(),
                        rel[i],
                        row(i)
                    ),
                });
            }
            self.relevance
                .get_or_insert_with(Vec::new)
                .extend_from_slice(rel);
        }
        if let Some(w) = &batch.weights {
            for i in 0..n {
                let (first, at) = *self.query_weight.entry(query[i]).or_insert((w[i], row(i)));
                #[allow(clippy::float_cmp)] // the same weight repeated on a query's rows
                if w[i] != first {
                    return Err(AuditError::Input {
                        name: "weight",
                        reason: format!(
                            "column {:?} has {} at row {} and {} at row {at}, both of query {:?}: a ranking audit weighs queries, so every row of a query carries the same weight",
                            roles.weight.clone().unwrap_or_default(),
                            w[i],
                            row(i),
                            first,
                            decoder.groups()[0].names()[query[i] as usize]
                        ),
                    });
                }
            }
            self.weight
                .get_or_insert_with(Vec::new)
                .extend_from_slice(w);
        }
        self.names = decoder
            .groups()
            .iter()
            .map(|g| g.names().to_vec())
            .collect();
        Ok(())
    }

    /// Rows added.
    pub fn rows(&self) -> usize {
        self.key.len()
    }

    /// Each slice's groups (named by their values joined with " & ", sorted) and the group
    /// code of every row.
    fn slice_groups(&self, slice: &SliceDef) -> (Vec<String>, Vec<usize>, Vec<u64>) {
        let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut combos: Vec<Vec<u32>> = Vec::new();
        let mut codes = Vec::with_capacity(self.rows());
        for i in 0..self.rows() {
            let combo: Vec<u32> = slice.attributes.iter().map(|&a| self.attrs[a][i]).collect();
            let next = combos.len();
            let c = *index.entry(combo.clone()).or_insert(next);
            if c == next {
                combos.push(combo);
            }
            codes.push(c);
        }
        let name = |combo: &Vec<u32>| {
            combo
                .iter()
                .zip(&slice.attributes)
                .map(|(&v, &a)| self.names[a + 1][v as usize].as_str())
                .collect::<Vec<_>>()
                .join(" & ")
        };
        let mut order: Vec<usize> = (0..combos.len()).collect();
        order.sort_by_key(|&c| name(&combos[c]));
        let mut rank = vec![0; combos.len()];
        for (place, &c) in order.iter().enumerate() {
            rank[c] = place;
        }
        let names = order.iter().map(|&c| name(&combos[c])).collect();
        let codes: Vec<usize> = codes.into_iter().map(|c| rank[c]).collect();
        let mut rows = vec![0_u64; combos.len()];
        for &c in &codes {
            rows[c] += 1;
        }
        (names, codes, rows)
    }
}

/// The method the intervals are computed by.
pub const INFERENCE_METHOD: &str = "percentile bootstrap over queries (each resample draws as many queries as there are, with replacement, and recomputes every number)";

/// The tie rule, as the report states it.
pub const TIE_RULE: &str = "items with equal positions in a query share them: each gets the mean discount of the tied positions and an equal share of those inside the top k (exact, whatever the rows' order); FA*IR's test puts the tested group's tied items last";

/// The ranking audit of every slice: the group guard, each slice's state, summary and
/// resamples, and the report's section with a verdict per slice.
///
/// # Errors
/// [`AuditError::Groups`] from the group guard, [`AuditError::Metric`] for rows the metrics
/// refuse.
pub fn ranking_audit(
    request: &CheckedRequest,
    settings: &RankingSettings,
    input: &RankingInput,
    style: FlagStyle,
) -> Result<RankingAudit, AuditError> {
    let r = &request.request;
    if input.rows() == 0 {
        return Err(AuditError::Input {
            name: "rankings",
            reason: "no rows were read".into(),
        });
    }
    let slices = SliceDef::all(&r.sensitive);
    let grouped: Vec<_> = slices.iter().map(|s| input.slice_groups(s)).collect();
    let named: Vec<Vec<(String, u64)>> = grouped
        .iter()
        .map(|(names, _, rows)| names.iter().cloned().zip(rows.iter().copied()).collect())
        .collect();
    crate::guard::check_group_rows(&slices, &named, &request.limits, style)?;
    let query_names = &input.names[0];
    let query: Vec<&str> = input
        .query
        .iter()
        .map(|&q| query_names[q as usize].as_str())
        .collect();
    let confidence = r.confidence;
    let mut out = Vec::with_capacity(slices.len());
    let mut queries = 0;
    for (slice, (names, codes, _)) in slices.iter().zip(&grouped) {
        let state = RankingState::from_rows(
            RankingRows {
                query: &query,
                key: &input.key,
                group: codes,
                relevance: input.relevance.as_deref(),
                weight: input.weight.as_deref(),
            },
            names.len(),
            settings,
        )
        .map_err(|source| AuditError::Metric {
            what: format!("rankings by {}", slice.name),
            source,
        })?;
        queries = state.len() as u64;
        let summary = state.summary();
        let draws = state.resample(r.resamples, r.seed);
        out.push(slice_section(
            &slice.name,
            names,
            &summary,
            &draws,
            confidence,
            settings,
            r.tau,
        ));
    }
    let (discount, persistence) = match settings.discount {
        Discount::Log2 => ("log2", None),
        Discount::Geometric { persistence } => ("geometric", Some(persistence)),
    };
    Ok(RankingAudit {
        query: r.query.clone().unwrap_or_default(),
        rank: r.rank.clone(),
        score: r.score.clone(),
        relevance: r.relevance.clone(),
        discount: discount.into(),
        persistence,
        top_k: settings.top_k.iter().map(|&k| k as u64).collect(),
        fair_p: settings.fair_p,
        fair_alpha: settings.fair_alpha,
        fair_k: settings.fair_k as u64,
        queries,
        tie_rule: TIE_RULE.into(),
        inference_method: INFERENCE_METHOD.into(),
        slices: out,
    })
}

fn measured(
    value: Option<f64>,
    draws: &RankingInference,
    confidence: f64,
    f: impl Fn(&RankingSummary) -> Option<f64>,
) -> Measured {
    let ci: Option<Interval> = value.and(draws.interval(confidence, f));
    Measured {
        value,
        lower: ci.map(|c| c.lower),
        upper: ci.map(|c| c.upper),
    }
}

/// The keys of a ranking audit, in report order.
pub const KEYS: [Key; 5] = [
    Key::ExposureRatio,
    Key::DisparateTreatmentRatio,
    Key::DisparateImpactRatio,
    Key::NdcgRatio,
    Key::FairTestPassRate,
];

fn headline_value(s: &RankingSummary, key: Key) -> Option<f64> {
    match key {
        Key::ExposureRatio => s.exposure_ratio,
        Key::DisparateTreatmentRatio => s.disparate_treatment_ratio,
        Key::DisparateImpactRatio => s.disparate_impact_ratio,
        Key::NdcgRatio => s.ndcg_ratio,
        Key::FairTestPassRate => s.fair_pass_rate,
        _ => None,
    }
}

fn slice_section(
    slice: &str,
    names: &[String],
    s: &RankingSummary,
    draws: &RankingInference,
    confidence: f64,
    settings: &RankingSettings,
    tau: f64,
) -> RankingSlice {
    let groups: Vec<RankingGroup> = names
        .iter()
        .enumerate()
        .map(|(g, name)| {
            let x = &s.groups[g];
            let m = |v: Option<f64>, f: &dyn Fn(&RankingSummary) -> Option<f64>| {
                measured(v, draws, confidence, f)
            };
            RankingGroup {
                group: name.clone(),
                items: x.items,
                item_share: x.item_share,
                exposure_share: m(Some(x.exposure_share), &|d| {
                    Some(d.groups[g].exposure_share)
                }),
                exposure_ratio: m(x.exposure_ratio, &|d| d.groups[g].exposure_ratio),
                exposure_per_relevance: m(x.exposure_per_relevance, &|d| {
                    d.groups[g].exposure_per_relevance
                }),
                impact_per_relevance: m(x.impact_per_relevance, &|d| {
                    d.groups[g].impact_per_relevance
                }),
                ndcg: m(x.ndcg, &|d| d.groups[g].ndcg),
                top_k_share: settings
                    .top_k
                    .iter()
                    .enumerate()
                    .map(|(j, &k)| TopKShare {
                        k: k as u64,
                        share: m(Some(x.top_k_share[j]), &|d| {
                            Some(d.groups[g].top_k_share[j])
                        }),
                    })
                    .collect(),
                fair_tested: x.fair_tested,
                fair_pass_rate: m(x.fair_pass_rate, &|d| d.groups[g].fair_pass_rate),
            }
        })
        .collect();
    let gaps: Vec<RankingGap> = KEYS
        .iter()
        .map(|&key| RankingGap {
            key,
            value: measured(headline_value(s, key), draws, confidence, |d| {
                headline_value(d, key)
            }),
        })
        .collect();
    let verdict = verdict(slice, &groups, &gaps, confidence, tau);
    RankingSlice {
        slice: slice.to_string(),
        verdict,
        groups,
        gaps,
    }
}

/// One sentence per slice: the exposure ratio with its interval against the parity band
/// `[tau, 1]`, the group seen least per item and the most, and the lowest FA*IR pass rate.
fn verdict(
    slice: &str,
    groups: &[RankingGroup],
    gaps: &[RankingGap],
    confidence: f64,
    tau: f64,
) -> String {
    let gap = |k: Key| gaps.iter().find(|g| g.key == k).map(|g| g.value);
    let Some(ratio) = gap(Key::ExposureRatio).filter(|m| m.value.is_some()) else {
        return format!("{slice}: fewer than two groups with items, so no exposure ratio.");
    };
    let value = ratio.value.unwrap_or(f64::NAN);
    let by_ratio = |g: &&RankingGroup| g.exposure_ratio.value.unwrap_or(f64::NAN);
    let least = groups
        .iter()
        .filter(|g| g.exposure_ratio.value.is_some())
        .min_by(|a, b| by_ratio(a).total_cmp(&by_ratio(b)));
    let most = groups
        .iter()
        .filter(|g| g.exposure_ratio.value.is_some())
        .max_by(|a, b| by_ratio(a).total_cmp(&by_ratio(b)));
    let interval = match (ratio.lower, ratio.upper) {
        (Some(l), Some(u)) => format!(
            " ({:.0} % interval {}–{})",
            confidence * 100.0,
            value_text(l),
            value_text(u)
        ),
        _ => String::new(),
    };
    let band = if value < tau {
        if ratio.upper.is_some_and(|u| u < tau) {
            format!("below the parity band (≥ {tau}), beyond the noise")
        } else {
            format!("below the parity band (≥ {tau}), within the noise")
        }
    } else {
        format!("within the parity band (≥ {tau})")
    };
    let mut out = format!(
        "{slice}: exposure ratio {}{interval}, {band}",
        value_text(value)
    );
    if let (Some(l), Some(m)) = (least, most) {
        out.push_str(&format!(
            "; {} gets {} of its share of exposure per item, {} gets {}",
            l.group,
            value_text(by_ratio(&l)),
            m.group,
            value_text(by_ratio(&m))
        ));
    }
    if let Some(p) = gap(Key::FairTestPassRate).and_then(|m| m.value) {
        let worst = groups
            .iter()
            .filter(|g| g.fair_pass_rate.value == Some(p))
            .map(|g| g.group.as_str())
            .next()
            .unwrap_or("");
        out.push_str(&format!(
            "; FA*IR's test passes in {:.1} % of the queries tested for {worst} (the lowest group)",
            p * 100.0
        ));
    }
    out.push('.');
    out
}

/// The headline entries of a ranking audit: per key, the worst (smallest) value over the
/// slices.
pub fn headline(a: &RankingAudit) -> Vec<(Key, f64, String)> {
    let mut out: Vec<(Key, f64, String)> = Vec::new();
    for key in KEYS {
        let worst = a
            .slices
            .iter()
            .filter_map(|s| {
                s.gaps
                    .iter()
                    .find(|g| g.key == key)
                    .and_then(|g| g.value.value)
                    .map(|v| (v, s.slice.clone()))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0));
        if let Some((v, slice)) = worst {
            out.push((key, v, slice));
        }
    }
    out
}

/// The report of a ranking audit: `ranking` filled, `audits` empty, the headline from the
/// slices' ratios and one summary sentence (the verdict) per slice.
pub fn build_report(
    request: &CheckedRequest,
    audit: RankingAudit,
    origin: crate::run::Origin,
) -> crate::model::AuditReport {
    use crate::model::{self, AuditReport, Columns, InputInfo, Settings, Tool};
    let r = &request.request;
    let mut report = AuditReport {
        schema: model::SCHEMA_NAME,
        schema_version: model::SCHEMA_VERSION,
        tool: Tool {
            name: "fairkit".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        input: InputInfo {
            file: origin.file,
            format: origin.format,
            rows: origin.rows,
            columns: Columns {
                label: String::new(),
                prediction: None,
                score: r.score.clone(),
                sensitive: r.sensitive.clone(),
                weight: r.weight.clone(),
            },
            positive_label: String::new(),
            negative_label: None,
        },
        settings: Settings {
            confidence: r.confidence,
            rate_ci_method: "wilson".into(),
            gap_method: INFERENCE_METHOD.into(),
            score_inference_method: "not applicable: a ranking audit ranks by the score".into(),
            resamples: r.resamples,
            seed: r.seed,
            thresholds: Vec::new(),
            interval: None,
            weighted: r.weight.is_some(),
            min_group_size: r.min_group_size,
            multiple_testing: fair_metrics::ci::MultipleTesting::None.to_string(),
            disparity: None,
        },
        headline: Default::default(),
        audits: Vec::new(),
        score_metrics: None,
        summary: audit.slices.iter().map(|s| s.verdict.clone()).collect(),
        fail_if: Vec::new(),
        over_time: None,
        comparison: None,
        regression: None,
        ranking: Some(audit),
        unknowns: None,
        inferred: None,
    };
    report.headline = crate::summary::headline(&report);
    report
}
