//! Headline numbers (the worst of each gap over slices and thresholds) and the plain-language
//! summary of the largest gaps that are statistically distinguishable from zero.

use crate::compute::rate_key;
use crate::model::{AuditReport, ConfusionSlice, Gap, Headline, PairMax, UndefinedGroup};
use fair_metrics::Rate;
use std::collections::BTreeMap;

/// Whether a larger value of the key is worse (differences, distances) or a smaller one
/// (ratios).
fn larger_is_worse(key: &str) -> bool {
    !key.ends_with("_ratio")
}

fn consider(out: &mut BTreeMap<String, Headline>, key: &str, h: Headline) {
    let worse = |new: f64, old: f64| {
        if larger_is_worse(key) {
            new > old
        } else {
            new < old
        }
    };
    match out.get(key) {
        Some(old) if !worse(h.value, old.value) => {}
        _ => {
            out.insert(key.to_string(), h);
        }
    }
}

/// The worst value of every headline key.
pub fn headline(r: &AuditReport) -> BTreeMap<String, Headline> {
    let mut out = BTreeMap::new();
    for audit in &r.audits {
        for slice in &audit.slices {
            for gap in &slice.gaps {
                if let Some(value) = gap.value {
                    consider(
                        &mut out,
                        gap.key,
                        Headline {
                            value,
                            slice: slice.slice.clone(),
                            threshold: audit.threshold,
                            p_value: gap.p_value,
                            undefined_groups: gap.undefined_groups.clone(),
                            fairlearn_value: gap.fairlearn_value,
                        },
                    );
                }
            }
        }
    }
    for s in r.score_metrics.iter().flatten() {
        let pairs: [(&str, Option<&PairMax>); 3] = [
            ("ks_dp", s.ks_dp.as_ref()),
            ("ks_eo", s.ks_eo.as_ref()),
            ("psp", s.psp.as_ref()),
        ];
        let values = pairs
            .iter()
            .map(|(k, p)| (*k, p.map(|p| (p.value, p.p_value))))
            .chain([(
                "auc_difference",
                s.auc_difference
                    .map(|v| (v, s.auc_gap.as_ref().and_then(|g| g.p_value))),
            )]);
        for (key, v) in values {
            if let Some((value, p_value)) = v {
                consider(
                    &mut out,
                    key,
                    Headline {
                        value,
                        slice: s.slice.clone(),
                        threshold: None,
                        p_value,
                        undefined_groups: Vec::new(),
                        fairlearn_value: None,
                    },
                );
            }
        }
    }
    out
}

/// fairlearn's name for the gap of a headline key: the first alias of the one table,
/// [`fail_if::ALIASES`](crate::fail_if::ALIASES) (a key without one: "fairlearn").
pub fn fairlearn_name(key: &str) -> &'static str {
    crate::fail_if::ALIASES
        .iter()
        .find(|a| a.key == key)
        .map_or("fairlearn", |a| a.name)
}

fn fairlearn_number(v: Option<f64>) -> String {
    v.map_or("NaN".to_string(), |v| format!("{v:.3}"))
}

/// The note shown beside a gap that left groups out or whose fairlearn value differs: which
/// groups and why, and fairlearn's number. `None` when there is nothing to say.
pub fn gap_note(
    key: &str,
    undefined: &[UndefinedGroup],
    fairlearn_value: Option<Option<f64>>,
) -> Option<String> {
    if undefined.is_empty() && fairlearn_value.is_none() {
        return None;
    }
    let mut parts = Vec::new();
    if !undefined.is_empty() {
        let list = undefined
            .iter()
            .map(|u| format!("\"{}\" ({})", u.group, u.reason))
            .collect::<Vec<_>>()
            .join(", ");
        parts.push(format!("leaves out {list}"));
    }
    let fl = fairlearn_name(key);
    parts.push(match fairlearn_value {
        Some(v) if undefined.is_empty() => format!(
            "fairlearn's {fl} gives {} (it takes 0 / 0 as NaN; the audit takes it as 1)",
            fairlearn_number(v)
        ),
        Some(v) => format!(
            "fairlearn's {fl} counts an undefined TPR/FPR as 0 and so differs: it gives {} on the same rows",
            fairlearn_number(v)
        ),
        None => format!("fairlearn's {fl}, which counts an undefined TPR/FPR as 0, gives the same value here"),
    });
    Some(parts.join("; "))
}

fn gap_clause(gap: &Gap) -> String {
    gap_note(gap.key, &gap.undefined_groups, gap.fairlearn_value)
        .map_or(String::new(), |n| format!(" Note: this gap {n}."))
}

/// One sentence per headline count gap that left a group out or differs from fairlearn's value:
/// the value, the groups and why, and fairlearn's number under the same name.
fn headline_sentences(r: &AuditReport) -> Vec<String> {
    let mut out = Vec::new();
    for (key, _, _, _) in super::compute::GAPS {
        let Some(h) = r.headline.get(key) else {
            continue;
        };
        let Some(note) = gap_note(key, &h.undefined_groups, h.fairlearn_value) else {
            continue;
        };
        let at = h
            .threshold
            .map_or(String::new(), |t| format!(" at threshold {t}"));
        out.push(format!(
            "The headline {key} ({:.3}, across {}{at}) {note}.",
            h.value, h.slice
        ));
    }
    out
}

fn rate_of_gap(key: &str) -> Option<Rate> {
    match key {
        "dp_difference" => Some(Rate::Selection),
        "eo_difference" => Some(Rate::TruePositive),
        "accuracy_difference" => Some(Rate::Accuracy),
        _ => None,
    }
}

fn extremes(slice: &ConfusionSlice, rate: Rate) -> Option<((String, f64), (String, f64))> {
    let key = rate_key(rate);
    let vals: Vec<(String, f64)> = slice
        .groups
        .iter()
        .filter_map(|g| {
            g.rates
                .get(key)
                .copied()
                .flatten()
                .map(|e| (g.group.clone(), e.value))
        })
        .collect();
    let hi = vals.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.clone();
    let lo = vals.iter().min_by(|a, b| a.1.total_cmp(&b.1))?.clone();
    Some((hi, lo))
}

/// Up to five sentences on the largest difference-type gaps with p < 1 − confidence.
pub fn sentences(r: &AuditReport) -> Vec<String> {
    let alpha = 1.0 - r.settings.confidence;
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let mut found = Vec::new();
    for audit in &r.audits {
        let at = match audit.threshold {
            Some(t) => format!(" at threshold {t}"),
            None => String::new(),
        };
        for slice in &audit.slices {
            for gap in slice.gaps.iter().filter(|g| g.kind == "difference") {
                let (Some(v), Some(p), Some(lo), Some(hi)) =
                    (gap.value, gap.p_value, gap.lower, gap.upper)
                else {
                    continue;
                };
                if p >= alpha {
                    continue;
                }
                let who = rate_of_gap(gap.key)
                    .and_then(|rate| extremes(slice, rate).map(|e| (rate, e)))
                    .map(|(rate, ((hg, hv), (lg, lv)))| {
                        format!(
                            ": {} is highest for {hg} ({hv:.3}) and lowest for {lg} ({lv:.3})",
                            rate.name()
                        )
                    })
                    .unwrap_or_default();
                found.push((
                    v,
                    format!(
                        "The {} across {}{at} is {v:.3} ({level} interval {lo:.3}–{hi:.3}, permutation p = {p:.3}){who}.{}",
                        gap.name,
                        slice.slice,
                        gap_clause(gap)
                    ),
                ));
            }
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<String> = found.into_iter().take(5).map(|f| f.1).collect();
    if out.is_empty() {
        out.push(format!(
            "No count-based gap is statistically distinguishable from zero at the {level} level (every permutation p-value is at least {alpha:.3})."
        ));
    }
    out.extend(headline_sentences(r));
    out.extend(score_sentences(r, alpha, &level));
    out
}

/// One sentence per score gap (KS DP-Δ, KS EO-Δ, partial SP, AUC difference): its largest value
/// over the slices, with interval and p-value, saying whether it is distinguishable from zero.
fn score_sentences(r: &AuditReport, alpha: f64, level: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(slices) = &r.score_metrics else {
        return out;
    };
    type Pick = fn(&super::model::ScoreSlice) -> Option<&PairMax>;
    let what: [(&str, Pick); 4] = [
        (
            "difference between two groups' score distributions (exact KS over all thresholds)",
            |s| s.ks_dp.as_ref(),
        ),
        (
            "difference between two groups' score distributions of positives (KS, equal opportunity over all thresholds)",
            |s| s.ks_eo.as_ref(),
        ),
        (
            "partial statistical parity gap on the score interval",
            |s| s.psp.as_ref(),
        ),
        ("AUC difference between groups", |s| s.auc_gap.as_ref()),
    ];
    for (name, get) in what {
        let worst = slices
            .iter()
            .filter_map(|s| get(s).map(|p| (s, p)))
            .max_by(|a, b| a.1.value.total_cmp(&b.1.value));
        let Some((s, p)) = worst else { continue };
        let stats = match (p.lower, p.upper, p.p_value) {
            (Some(lo), Some(hi), Some(pv)) => {
                let verdict = if pv < alpha {
                    "distinguishable from zero"
                } else {
                    "not distinguishable from zero"
                };
                let p = if pv < 0.001 {
                    "p < 0.001".to_string()
                } else {
                    format!("p = {pv:.3}")
                };
                format!(" ({level} interval {lo:.3}–{hi:.3}, {p}: {verdict})")
            }
            _ => String::new(),
        };
        out.push(format!(
            "The largest {name} is {:.3}, between {} and {} across {}{stats}.",
            p.value, p.groups[0], p.groups[1], s.slice
        ));
    }
    out
}
