//! Headline numbers (the worst of each gap over slices and thresholds) and the plain-language
//! summary: exactly the gaps that are distinguishable from zero by the report's one rule
//! ([`distinguishable`]: p-value < 1 − confidence), largest first.

use crate::compute::rate_key;
use crate::keys::Key;
use crate::model::{
    AuditReport, ConfusionSlice, Gap, Headline, PairMax, ScoreSlice, UndefinedGroup,
};
use fair_metrics::Rate;
use std::collections::BTreeMap;

fn consider(out: &mut BTreeMap<Key, Headline>, key: Key, h: Headline) {
    let worse = |new: f64, old: f64| {
        if key.larger_is_worse() {
            new > old
        } else {
            new < old
        }
    };
    match out.get(&key) {
        Some(old) if !worse(h.value, old.value) => {}
        _ => {
            out.insert(key, h);
        }
    }
}

/// The worst value of every headline key.
pub fn headline(r: &AuditReport) -> BTreeMap<Key, Headline> {
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
                            small_groups: gap.small_groups.clone(),
                        },
                    );
                }
            }
        }
    }
    // Regression gaps, and the scoring-rate gaps of a classifier's score (LL144).
    let gap_lists = r
        .regression
        .iter()
        .flat_map(|g| &g.slices)
        .map(|s| (&s.slice, &s.gaps))
        .chain(
            r.score_metrics
                .iter()
                .flatten()
                .filter_map(|s| s.scoring_rate.as_ref().map(|sr| (&s.slice, &sr.gaps))),
        );
    for (slice_name, gaps) in gap_lists {
        for gap in gaps {
            if let Some(value) = gap.value {
                consider(
                    &mut out,
                    gap.key,
                    Headline {
                        value,
                        slice: slice_name.clone(),
                        threshold: None,
                        p_value: gap.p_value,
                        undefined_groups: Vec::new(),
                        fairlearn_value: None,
                        small_groups: gap.small_groups.clone(),
                    },
                );
            }
        }
    }
    for (key, value, slice) in r.ranking.iter().flat_map(crate::ranking::headline) {
        consider(
            &mut out,
            key,
            Headline {
                value,
                slice,
                threshold: None,
                p_value: None,
                undefined_groups: Vec::new(),
                fairlearn_value: None,
                small_groups: Vec::new(),
            },
        );
    }
    for s in r.score_metrics.iter().flatten() {
        let pairs: [(Key, Option<&PairMax>); 3] = [
            (Key::KsDp, s.ks_dp.as_ref()),
            (Key::KsEo, s.ks_eo.as_ref()),
            (Key::Psp, s.psp.as_ref()),
        ];
        let values = pairs
            .iter()
            .map(|(k, p)| (*k, p.map(|p| (p.value, p.p_value))))
            .chain([(
                Key::AucDifference,
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
                        small_groups: s
                            .small_groups
                            .iter()
                            .filter(|g| g.rate == score_metric(key))
                            .cloned()
                            .collect(),
                    },
                );
            }
        }
    }
    out
}

/// The score metric key of a headline key in [`ScoreSlice::small_groups`].
fn score_metric(key: Key) -> &'static str {
    match key {
        Key::AucDifference => "auc",
        other => other.as_str(),
    }
}

/// fairlearn's name for the gap of a headline key: the first alias of the one table,
/// [`fail_if::ALIASES`](crate::fail_if::ALIASES) (a key without one: "fairlearn").
pub fn fairlearn_name(key: Key) -> &'static str {
    key.aliases().next().map_or("fairlearn", |a| a.name)
}

fn fairlearn_number(v: Option<f64>) -> String {
    v.map_or("NaN".to_string(), |v| format!("{v:.3}"))
}

/// The note shown beside a gap that left groups out (undefined rates, or groups below the
/// minimum group size) or whose fairlearn value differs: which groups and why, and fairlearn's
/// number. `None` when there is nothing to say.
pub fn gap_note(
    key: Key,
    undefined: &[UndefinedGroup],
    small: &[UndefinedGroup],
    fairlearn_value: Option<Option<f64>>,
) -> Option<String> {
    if undefined.is_empty() && small.is_empty() && fairlearn_value.is_none() {
        return None;
    }
    let list = |groups: &[UndefinedGroup]| {
        groups
            .iter()
            .map(|u| format!("\"{}\" ({})", u.group, u.reason))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !small.is_empty() {
        parts.push(format!("keeps out {}", list(small)));
    }
    if !undefined.is_empty() {
        parts.push(format!("leaves out {}", list(undefined)));
    }
    let fl = fairlearn_name(key);
    match fairlearn_value {
        Some(v) if !small.is_empty() => parts.push(format!(
            "fairlearn's {fl}, which keeps every group, gives {} on the same rows",
            fairlearn_number(v)
        )),
        Some(v) if undefined.is_empty() => parts.push(format!(
            "fairlearn's {fl} gives {} (it takes 0 / 0 as NaN; the audit takes it as 1)",
            fairlearn_number(v)
        )),
        Some(v) => parts.push(format!(
            "fairlearn's {fl} counts an undefined TPR/FPR as 0 and so differs: it gives {} on the same rows",
            fairlearn_number(v)
        )),
        None if !undefined.is_empty() => parts.push(format!(
            "fairlearn's {fl}, which counts an undefined TPR/FPR as 0, gives the same value here"
        )),
        None => {}
    }
    Some(parts.join("; "))
}

fn gap_clause(gap: &Gap) -> String {
    gap_note(
        gap.key,
        &gap.undefined_groups,
        &gap.small_groups,
        gap.fairlearn_value,
    )
    .map_or(String::new(), |n| format!(" Note: this gap {n}."))
}

/// One sentence per headline count gap that left a group out or differs from fairlearn's value:
/// the value, the groups and why, and fairlearn's number under the same name.
fn headline_sentences(r: &AuditReport) -> Vec<String> {
    let mut out = Vec::new();
    for (key, _, _, _) in super::compute::GAPS {
        let Some(h) = r.headline.get(&key) else {
            continue;
        };
        let Some(note) = gap_note(key, &h.undefined_groups, &h.small_groups, h.fairlearn_value)
        else {
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

fn rate_of_gap(key: Key) -> Option<Rate> {
    match key {
        Key::DpDifference => Some(Rate::Selection),
        Key::EoDifference => Some(Rate::TruePositive),
        Key::AccuracyDifference => Some(Rate::Accuracy),
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

/// At most this many gaps are written out in the summary; the rest (all smaller) are counted.
pub const MAX_LISTED: usize = 12;

/// 1 − `confidence`, the significance level of the report's one rule, rounded to 12 decimals so
/// that 1 − 0.95 is 0.05 and a p-value of exactly 0.05 is not below it.
pub fn alpha(confidence: f64) -> f64 {
    ((1.0 - confidence) * 1e12).round() / 1e12
}

/// The report's one rule: a gap is distinguishable from zero when its p-value is below
/// 1 − confidence. The summary lists exactly these gaps.
pub fn distinguishable(p_value: f64, confidence: f64) -> bool {
    p_value < alpha(confidence)
}

/// A number with three significant digits ("0.0249", "0.104", "1.00"; "7.64e-6" below 0.001),
/// exactly 0 as "0".
pub fn sig3(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    if x.abs() < 1e-3 {
        return format!("{x:.2e}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A gap's or rate's value in a sentence: three decimals, exactly 0 as "0", a tiny non-zero value
/// with three significant digits (never "0.000" for a number that is not 0).
pub fn value_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() < 5e-4 {
        sig3(x)
    } else {
        format!("{x:.3}")
    }
}

/// A p-value as a table cell. `resamples`, for a permutation p-value, is the number of
/// permutations R: at the floor 1/(R+1) (no permutation gave a gap as large) it reads
/// "< 1/(R+1)", as a decimal when R+1 is a power of ten ("< 0.001" for 999) and as the exact
/// fraction otherwise ("< 1/1001"). Any other p-value has three significant digits; an analytic
/// p-value that underflowed to 0 reads "< 1e-300".
pub fn p_cell(p: f64, resamples: Option<usize>) -> String {
    if let Some(r) = resamples {
        let n = r as f64 + 1.0;
        if p * n <= 1.0 + 1e-9 {
            let power = n.log10().round();
            return if (10f64.powf(power) - n).abs() < 0.5 {
                format!("< {}", 1.0 / n)
            } else {
                format!("< 1/{}", r + 1)
            };
        }
    }
    if p == 0.0 {
        return "< 1e-300".into();
    }
    sig3(p)
}

/// A p-value in a sentence: "p < 0.001", "p < 1/1001", "p = 0.0249" (see [`p_cell`]).
pub fn p_text(p: f64, resamples: Option<usize>) -> String {
    let cell = p_cell(p, resamples);
    if cell.starts_with('<') {
        format!("p {cell}")
    } else {
        format!("p = {cell}")
    }
}

/// One gap of the summary's list: its size (the order key) and its sentence.
struct Item {
    size: f64,
    /// The gaps it reports (a difference and its ratio: 2).
    gaps: usize,
    text: String,
}

/// Whether a gap is distinguishable under the report's rule: its adjusted p-value when the
/// report adjusts for multiple comparisons, else its p-value.
fn decides(gap: &Gap, confidence: f64) -> bool {
    gap.p_value_adjusted
        .or(gap.p_value)
        .is_some_and(|p| distinguishable(p, confidence))
}

/// The p-value of a gap that has one, with its value and interval.
fn tested(gap: &Gap) -> Option<(f64, f64, f64, f64)> {
    Some((gap.value?, gap.p_value?, gap.lower?, gap.upper?))
}

/// The count gaps of one slice that are distinguishable, a difference and the ratio of the same
/// rates in one sentence (ordered by the difference).
fn count_items(
    r: &AuditReport,
    slice: &ConfusionSlice,
    at: &str,
    level: &str,
    out: &mut Vec<Item>,
) {
    let conf = r.settings.confidence;
    let perm = Some(r.settings.resamples);
    let method = &r.settings.multiple_testing;
    let stats = |lo: f64, hi: f64, p: f64, adjusted: Option<f64>| {
        let adjusted = adjusted.map_or(String::new(), |q| {
            format!(", {method}-adjusted {}", p_text(q, None))
        });
        format!(
            "{level} interval {}–{}, permutation {}{adjusted}",
            value_text(lo),
            value_text(hi),
            p_text(p, perm)
        )
    };
    for diff in slice.gaps.iter().filter(|g| g.kind == "difference") {
        let ratio_key = diff.key.ratio();
        let ratio = slice.gaps.iter().find(|g| Some(g.key) == ratio_key);
        let d = tested(diff).filter(|_| decides(diff, conf));
        let q = ratio
            .and_then(|g| tested(g).map(|t| (g, t)))
            .filter(|(g, _)| decides(g, conf));
        if d.is_none() && q.is_none() {
            continue;
        }
        let who = rate_of_gap(diff.key)
            .and_then(|rate| extremes(slice, rate).map(|e| (rate, e)))
            .map(|(rate, ((hg, hv), (lg, lv)))| {
                format!(
                    ": {} is highest for {hg} ({}) and lowest for {lg} ({})",
                    rate.name(),
                    value_text(hv),
                    value_text(lv)
                )
            })
            .unwrap_or_default();
        let (size, text) = match (d, q) {
            (Some((v, p, lo, hi)), q) => {
                let ratio_part = q.map_or(String::new(), |(g, (rv, rp, rlo, rhi))| {
                    format!(
                        "; the {} is {} ({})",
                        g.name,
                        value_text(rv),
                        stats(rlo, rhi, rp, g.p_value_adjusted)
                    )
                });
                let ratio_note = q.map_or(String::new(), |(g, _)| {
                    gap_note(
                        g.key,
                        &g.undefined_groups,
                        &g.small_groups,
                        g.fairlearn_value,
                    )
                    .filter(|_| g.fairlearn_value.is_some())
                    .map_or(String::new(), |n| format!(" Note: the ratio {n}."))
                });
                (
                    v,
                    format!(
                        "The {} across {}{at} is {} ({}){ratio_part}{who}.{}{ratio_note}",
                        diff.name,
                        slice.slice,
                        value_text(v),
                        stats(lo, hi, p, diff.p_value_adjusted),
                        gap_clause(diff)
                    ),
                )
            }
            (None, Some((g, (rv, rp, rlo, rhi)))) => (
                diff.value.unwrap_or(1.0 - rv),
                format!(
                    "The {} across {}{at} is {} ({}){who}.{}",
                    g.name,
                    slice.slice,
                    value_text(rv),
                    stats(rlo, rhi, rp, g.p_value_adjusted),
                    gap_clause(g)
                ),
            ),
            (None, None) => continue,
        };
        let gaps = usize::from(d.is_some()) + usize::from(q.is_some());
        out.push(Item { size, gaps, text });
    }
}

/// What one score gap is, for the summary: (name before "across", what its two groups are,
/// what its interval covers).
fn score_words(key: Key, r: &AuditReport, groups: usize) -> (String, &'static str, String) {
    let simultaneous = format!("simultaneous over the {groups} groups (DKW), conservative");
    match key {
        Key::KsDp => (
            "demographic parity difference over all thresholds".into(),
            "the KS distance between their score distributions",
            simultaneous,
        ),
        Key::KsEo => (
            "equal opportunity difference over all thresholds".into(),
            "the KS distance between their positives' score distributions",
            simultaneous,
        ),
        Key::Psp => (
            match r.settings.interval {
                Some([a, b]) => {
                    format!("partial statistical parity gap on the score interval [{a}, {b})")
                }
                None => "partial statistical parity gap".into(),
            },
            "the pair with the largest gap",
            simultaneous,
        ),
        _ => (
            "AUC difference".into(),
            "the highest and the lowest AUC",
            format!("simultaneous over the {} pairs (Bonferroni)", pairs(groups)),
        ),
    }
}

fn score_gaps(s: &ScoreSlice) -> [(Key, Option<&PairMax>); 4] {
    [
        (Key::KsDp, s.ks_dp.as_ref()),
        (Key::KsEo, s.ks_eo.as_ref()),
        (Key::Psp, s.psp.as_ref()),
        (Key::AucDifference, s.auc_gap.as_ref()),
    ]
}

/// Groups a score gap compares: every group for KS and partial SP, those with an AUC for the AUC
/// difference.
fn score_groups(key: Key, s: &ScoreSlice) -> usize {
    if key == Key::AucDifference {
        s.auc_by_group.iter().filter(|g| g.auc.is_some()).count()
    } else {
        s.auc_by_group.len()
    }
}

fn pairs(groups: usize) -> usize {
    groups * groups.saturating_sub(1) / 2
}

/// The score gaps that are distinguishable (listed), and a note for each that is not although its
/// interval excludes 0 (the interval and the p-value then answer different questions).
fn score_items(r: &AuditReport, level: &str, out: &mut Vec<Item>, notes: &mut Vec<String>) {
    let conf = r.settings.confidence;
    for s in r.score_metrics.iter().flatten() {
        for (key, gap) in score_gaps(s) {
            let Some(g) = gap else { continue };
            let (Some(lo), Some(hi), Some(p)) = (g.lower, g.upper, g.p_value) else {
                continue;
            };
            let n = score_groups(key, s);
            let m = pairs(n);
            let (name, pair, covers) = score_words(key, r, n);
            let adjusted = g.p_value_adjusted.map_or(String::new(), |q| {
                format!(
                    "; {}-adjusted {}",
                    r.settings.multiple_testing,
                    p_text(q, None)
                )
            });
            let union = if m > 1 {
                format!(", union-bounded over all {m} pairs{adjusted}")
            } else {
                adjusted
            };
            let (a, b) = (&g.groups[0], &g.groups[1]);
            if distinguishable(g.p_value_adjusted.unwrap_or(p), conf) {
                let zero = if lo <= 0.0 {
                    ", so it may contain 0 where the test does not"
                } else {
                    ""
                };
                out.push(Item {
                    size: g.value,
                    gaps: 1,
                    text: format!(
                        "The {name} across {} is {}, between {a} and {b} ({pair}; {level} interval {}–{}, {covers}{zero}; {}{union}).",
                        s.slice,
                        value_text(g.value),
                        value_text(lo),
                        value_text(hi),
                        p_text(p, None)
                    ),
                });
            } else if lo > 0.0 {
                let tests = if m > 1 {
                    format!("tests whether any of the {m} pairs of groups differ (union bound)")
                } else {
                    "comes from another approximation (see Method)".into()
                };
                notes.push(format!(
                    "Not listed: the {name} across {} ({}, between {a} and {b}); its {level} interval {}–{}, {covers}, excludes 0, but its p-value ({}) {tests} and is not below {}.",
                    s.slice,
                    value_text(g.value),
                    value_text(lo),
                    value_text(hi),
                    sig3(p),
                    alpha(conf)
                ));
            }
        }
    }
}

/// Whether any gap of the report has a p-value (so the rule could be applied at all).
fn any_tested(r: &AuditReport) -> bool {
    let count = r
        .audits
        .iter()
        .flat_map(|a| &a.slices)
        .flat_map(|s| &s.gaps)
        .any(|g| g.p_value.is_some());
    let score = r
        .score_metrics
        .iter()
        .flatten()
        .flat_map(|s| score_gaps(s).map(|(_, g)| g.and_then(|g| g.p_value)))
        .any(|p| p.is_some());
    count || score
}

/// The summary: one sentence per gap that is distinguishable from zero (p-value < 1 − confidence:
/// [`distinguishable`]), count and score gaps alike, largest first (a ratio listed with, or in
/// the place of, the difference of the same rates), at most [`MAX_LISTED`] (the rest counted), or
/// one sentence saying none is; then a sentence stating the rule, a note for each score gap that
/// is not listed although its interval excludes 0, and one sentence per count-gap headline that
/// left a group out or differs from fairlearn's value.
pub fn sentences(r: &AuditReport) -> Vec<String> {
    let conf = r.settings.confidence;
    let a = alpha(conf);
    let level = format!("{:.0} %", conf * 100.0);
    let mut items = Vec::new();
    for audit in &r.audits {
        let at = match audit.threshold {
            Some(t) => format!(" at threshold {t}"),
            None => String::new(),
        };
        for slice in &audit.slices {
            count_items(r, slice, &at, &level, &mut items);
        }
    }
    let mut notes = Vec::new();
    score_items(r, &level, &mut items, &mut notes);
    // Stable: equal sizes keep report order (count gaps before score gaps).
    items.sort_by(|x, y| y.size.total_cmp(&x.size));
    let total = items.len();
    let gap_count: usize = items.iter().map(|i| i.gaps).sum();
    let mut out: Vec<String> = items.into_iter().take(MAX_LISTED).map(|i| i.text).collect();
    if total == 0 {
        out.push(if any_tested(r) {
            format!(
                "No gap is distinguishable from zero at the {level} level: every {}p-value, of the count gaps and the score gaps alike, is at least {a} (1 − confidence).",
                adjusted_words(r)
            )
        } else {
            "No gap could be tested: none has a p-value (a gap needs at least two groups with the rate defined).".into()
        });
    } else {
        let more = if total > MAX_LISTED {
            format!(
                " The {MAX_LISTED} largest sentences are written out; {} more, each about a smaller gap, are left to the gap tables.",
                total - MAX_LISTED
            )
        } else {
            String::new()
        };
        let (gaps, is) = if gap_count == 1 {
            ("gap", "is")
        } else {
            ("gaps", "are")
        };
        out.push(format!(
            "Listed above {is} the {gap_count} {gaps} whose {}p-value is below {a} (1 − confidence), the report's one rule for \"distinguishable from zero\", largest first; a ratio is written beside (or in the place of) the difference of the same rates (see Method).{more}",
            adjusted_words(r)
        ));
    }
    out.extend(notes);
    out.extend(small_sentence(r));
    out.extend(headline_sentences(r));
    out
}

/// "" without a multiple-comparison adjustment, else e.g. "bh-adjusted (over all 24 gaps of
/// the report) ", the words before "p-value" in the rule's sentence.
fn adjusted_words(r: &AuditReport) -> String {
    let method = &r.settings.multiple_testing;
    if method == "none" {
        return String::new();
    }
    let count = r
        .audits
        .iter()
        .flat_map(|a| &a.slices)
        .flat_map(|s| &s.gaps)
        .filter(|g| g.p_value_adjusted.is_some())
        .count()
        + r.score_metrics
            .iter()
            .flatten()
            .flat_map(|s| {
                score_gaps(s)
                    .into_iter()
                    .filter_map(|(_, g)| g?.p_value_adjusted)
            })
            .count();
    format!("{method}-adjusted (over all {count} gaps of the report) ")
}

/// One sentence when groups were kept out of gaps for their size: how many, and the rule.
fn small_sentence(r: &AuditReport) -> Option<String> {
    let mut groups: Vec<(&str, &str)> = Vec::new();
    let audit = r.audits.first()?;
    for slice in &audit.slices {
        for g in slice.gaps.iter().flat_map(|g| &g.small_groups) {
            groups.push((&slice.slice, &g.group));
        }
    }
    for s in r.score_metrics.iter().flatten() {
        for g in &s.small_groups {
            groups.push((&s.slice, &g.group));
        }
    }
    groups.sort();
    groups.dedup();
    let n = groups.len();
    (n > 0).then(|| {
        let (word, are) = if n == 1 { ("group is", "it is") } else { ("groups are", "they are") };
        format!(
            "{n} {word} below the minimum group size ({} rows in a rate's denominator): {are} shown with their rates but kept out of the gaps they are small for and out of the headline (see Small groups).",
            r.settings.min_group_size
        )
    })
}
