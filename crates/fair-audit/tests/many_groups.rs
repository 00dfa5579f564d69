//! Many small groups (issue 42): the multiple-comparison adjustment of the report's p-values
//! and the "distinguishable" calls that follow it, the empirical-Bayes shrunken rates beside the
//! raw ones, and the bias-corrected between-group variance, on hand-made data.

use fair_audit::model::AuditReport;
use fair_audit::schema::{AUDIT_SCHEMA_V1, validate};
use fair_audit::{ReportSpec, Stats, Views, apply_multiple_testing, build_report, render};
use fair_data::Groups;
use fair_metrics::ci::MultipleTesting;
use fair_metrics::state::ConfusionState;

/// 12 groups of 20 to 240 rows, selection rates 0.2 to 0.55 (group k selects the first
/// `n · (0.2 + 0.03 k)` rows), labels alternating.
fn state() -> ConfusionState {
    let (mut names, mut y, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..12usize {
        let n = 20 + 20 * k;
        let selected = (n as f64 * (0.2 + 0.03 * k as f64)).round() as usize;
        for i in 0..n {
            names.push(format!("g{k:02}"));
            y.push(i % 2);
            p.push(usize::from(i < selected));
        }
    }
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&names), None)
        .expect("valid rows");
    s
}

fn report() -> AuditReport {
    let s = state();
    let stats = Stats {
        resamples: 300,
        seed: 1,
        min_group_size: 0,
        ..Stats::default()
    };
    let spec = ReportSpec::binary("hand", "y", "p", "group", s.total_rows(), stats);
    build_report(&spec, &[vec![s]], None).expect("report").0
}

/// The number of gaps the summary's rule sentence says are listed.
fn listed(r: &AuditReport) -> usize {
    r.summary
        .iter()
        .find_map(|s| {
            let rest = s.strip_prefix("Listed above ")?;
            let rest = rest
                .strip_prefix("is the ")
                .or(rest.strip_prefix("are the "))?;
            rest.split(' ').next()?.parse().ok()
        })
        .unwrap_or(0)
}

#[test]
fn adjusted_p_values_sit_beside_the_raw_ones_and_decide() {
    let plain = report();
    let raw: Vec<f64> = plain.audits[0].slices[0]
        .gaps
        .iter()
        .filter_map(|g| g.p_value)
        .collect();
    assert!(raw.len() >= 6);
    // "none": the report is exactly the one built without the option, byte for byte.
    let mut none = plain.clone();
    apply_multiple_testing(&mut none, MultipleTesting::None);
    let json = |r: &AuditReport| serde_json::to_string_pretty(r).unwrap();
    assert_eq!(json(&none), json(&plain));
    assert!(!json(&plain).contains("multiple_testing"));
    let below = |ps: &[f64]| ps.iter().filter(|&&p| p < 0.05).count();
    assert_eq!(listed(&plain), below(&raw));
    for method in [
        MultipleTesting::Bh,
        MultipleTesting::By,
        MultipleTesting::Bonferroni,
        MultipleTesting::Holm,
    ] {
        let mut r = plain.clone();
        apply_multiple_testing(&mut r, method);
        assert_eq!(r.settings.multiple_testing, method.to_string());
        let adjusted: Vec<f64> = r.audits[0].slices[0]
            .gaps
            .iter()
            .filter_map(|g| g.p_value_adjusted)
            .collect();
        // The family is every gap with a p-value; the values are the method's.
        assert_eq!(adjusted, method.adjust(&raw).unwrap());
        // The rule uses the adjusted values; the raw ones are unchanged.
        assert_eq!(listed(&r), below(&adjusted), "{method}: {:?}", r.summary);
        let again: Vec<f64> = r.audits[0].slices[0]
            .gaps
            .iter()
            .filter_map(|g| g.p_value)
            .collect();
        assert_eq!(again, raw);
        let text = render(&r, &Default::default(), Views::default()).unwrap();
        let value: serde_json::Value = serde_json::from_str(text.json.as_deref().unwrap()).unwrap();
        let schema: serde_json::Value = serde_json::from_str(AUDIT_SCHEMA_V1).unwrap();
        assert_eq!(validate(&schema, &value).unwrap(), Vec::<String>::new());
        assert!(text.markdown.unwrap().contains("adjusted p-value"));
        // Round trip: the typed reader reads the added fields back.
        let back = AuditReport::from_json(text.json.as_deref().unwrap()).unwrap();
        assert_eq!(json(&back), json(&r));
    }
    // This data has gaps whose call an adjustment changes: Bonferroni keeps fewer than the raw rule.
    let mut bonferroni = plain.clone();
    apply_multiple_testing(&mut bonferroni, MultipleTesting::Bonferroni);
    assert!(
        listed(&bonferroni) < listed(&plain),
        "{:?}",
        bonferroni.summary
    );
}

#[test]
fn every_group_has_its_shrunken_rates_and_every_rate_its_spread() {
    let r = report();
    let slice = &r.audits[0].slices[0];
    assert!(slice.overall.shrunken.is_empty());
    let rates: Vec<(f64, f64)> = slice
        .groups
        .iter()
        .map(|g| (g.rates["selection_rate"].unwrap().value, g.rows as f64))
        .collect();
    let pooled =
        rates.iter().map(|(p, n)| p * n).sum::<f64>() / rates.iter().map(|x| x.1).sum::<f64>();
    for g in &slice.groups {
        assert_eq!(g.shrunken.len(), 8, "{}", g.group);
        let raw = g.rates["selection_rate"].unwrap().value;
        let s = g.shrunken["selection_rate"].unwrap();
        assert!(s.lower <= s.value && s.value <= s.upper);
        // The posterior mean lies between the raw rate and the prior mean (near the pooled
        // rate): never further from the pooled rate than the raw one.
        assert!(
            (s.value - pooled).abs() <= (raw - pooled).abs() + 0.02,
            "{}",
            g.group
        );
    }
    // The smallest group (20 rows) moves more than the largest (240 rows).
    let moved = |i: usize| {
        let g = &slice.groups[i];
        (g.shrunken["selection_rate"].unwrap().value - g.rates["selection_rate"].unwrap().value)
            .abs()
    };
    assert!(moved(0) > moved(11));
    // Between-group variance by hand: naive − mean of p(1 − p)/(n − 1).
    let b = slice.between_groups["selection_rate"].unwrap();
    let k = rates.len() as f64;
    let mean = rates.iter().map(|x| x.0).sum::<f64>() / k;
    let naive = rates.iter().map(|x| (x.0 - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let noise = rates
        .iter()
        .map(|(p, n)| p * (1.0 - p) / (n - 1.0))
        .sum::<f64>()
        / k;
    assert_eq!(b.groups, 12);
    assert!((b.naive_variance - naive).abs() < 1e-12);
    assert!((b.variance - (naive - noise)).abs() < 1e-12);
    assert!((b.sd - (naive - noise).max(0.0).sqrt()).abs() < 1e-12);
    assert!(b.lower <= b.variance && b.variance <= b.upper);
    let md = render(&r, &Default::default(), Views::default())
        .unwrap()
        .markdown
        .unwrap();
    assert!(md.contains("bias-corrected SD"));
    assert!(md.contains("shrunk toward the slice's other groups"));
}
