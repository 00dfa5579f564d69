//! Small groups and the group guard (issue 30): a group with fewer rows in a gap's denominator
//! than the minimum group size keeps its rates but is kept out of that gap and the headline,
//! named at the gap, in the summary and in the "Small groups" section; a sensitive column with
//! one value, too many values, or a value per row is refused with the setting that allows it.
//! Hand-computed cases.

use fair_audit::guard::{GroupLimits, check_groups};
use fair_audit::ingest::FlagStyle;
use fair_audit::model::{AuditReport, Gap};
use fair_audit::schema::{AUDIT_SCHEMA_V1, validate};
use fair_audit::{ReportSpec, SliceDef, Stats, Views, build_report, render};
use fair_data::Groups;
use fair_metrics::state::ConfusionState;

/// Rows of one group: `n` rows, `pos` of them positive; predictions positive on the first
/// `sel_pos` positives and the first `sel_neg` negatives.
struct G {
    name: &'static str,
    n: usize,
    pos: usize,
    sel_pos: usize,
    sel_neg: usize,
}

fn state(groups: &[G]) -> ConfusionState {
    let (mut names, mut y, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for g in groups {
        for i in 0..g.n {
            names.push(g.name);
            let positive = i < g.pos;
            y.push(usize::from(positive));
            let selected = if positive {
                i < g.sel_pos
            } else {
                i - g.pos < g.sel_neg
            };
            p.push(usize::from(selected));
        }
    }
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&names), None)
        .expect("valid rows");
    s
}

fn report(groups: &[G], min_group_size: u64) -> AuditReport {
    let s = state(groups);
    let stats = Stats {
        resamples: 200,
        seed: 3,
        min_group_size,
        ..Stats::default()
    };
    let spec = ReportSpec::binary("hand", "y", "p", "group", s.total_rows(), stats);
    build_report(&spec, &[vec![s]], None).expect("report").0
}

fn gap<'a>(r: &'a AuditReport, key: &str) -> &'a Gap {
    r.audits[0].slices[0]
        .gaps
        .iter()
        .find(|g| g.key == key)
        .expect("gap")
}

/// a and b: 100 rows, 50 positives; selection 0.5 and 0.3. c: 10 rows (3 positives), all
/// selected. d: 200 rows but 5 positives, selection 0.4.
fn data() -> Vec<G> {
    vec![
        G {
            name: "a",
            n: 100,
            pos: 50,
            sel_pos: 30,
            sel_neg: 20,
        },
        G {
            name: "b",
            n: 100,
            pos: 50,
            sel_pos: 20,
            sel_neg: 10,
        },
        G {
            name: "c",
            n: 10,
            pos: 3,
            sel_pos: 3,
            sel_neg: 7,
        },
        G {
            name: "d",
            n: 200,
            pos: 5,
            sel_pos: 2,
            sel_neg: 78,
        },
    ]
}

#[test]
fn a_small_group_keeps_its_rates_but_not_the_gap() {
    let r = report(&data(), 30);
    let slice = &r.audits[0].slices[0];
    // Rates and denominators of every group are reported, c's included.
    let c = slice.groups.iter().find(|g| g.group == "c").unwrap();
    assert_eq!(
        (c.rows, c.positives, c.negatives, c.predicted_positives),
        (10, 3, 7, 10)
    );
    assert!((c.rates["selection_rate"].unwrap().value - 1.0).abs() < 1e-15);
    let d = slice.groups.iter().find(|g| g.group == "d").unwrap();
    assert_eq!((d.rows, d.positives, d.negatives), (200, 5, 195));
    assert_eq!(slice.overall.positives, 108);
    // DP: c (10 rows) out, d (200 rows) in: max 0.5 (a) − min 0.3 (b) = 0.2.
    let dp = gap(&r, "dp_difference");
    assert!((dp.value.unwrap() - 0.2).abs() < 1e-12, "{dp:?}");
    assert_eq!(dp.small_groups.len(), 1);
    assert_eq!(dp.small_groups[0].group, "c");
    assert_eq!(dp.small_groups[0].rate, "selection_rate");
    assert_eq!(
        dp.small_groups[0].reason,
        "10 rows, fewer than the minimum group size 30"
    );
    // fairlearn keeps every group: c's selection rate 1.0 − b's 0.3.
    assert_eq!(dp.fairlearn_value, Some(Some(0.7)));
    // EO: c (3 positives) and d (5 positives) out: TPR a 0.6 − b 0.4.
    let eo = gap(&r, "eo_difference");
    assert!((eo.value.unwrap() - 0.2).abs() < 1e-12);
    let out: Vec<(&str, &str)> = eo
        .small_groups
        .iter()
        .map(|u| (u.group.as_str(), u.reason.as_str()))
        .collect();
    assert_eq!(
        out,
        [
            ("c", "3 positive rows, fewer than the minimum group size 30"),
            ("d", "5 positive rows, fewer than the minimum group size 30"),
        ]
    );
    // Equalized odds: c is small in both rates, d in the TPR only; one entry per rate.
    let eq = gap(&r, "eq_odds_difference");
    let rates: Vec<(&str, &str)> = eq
        .small_groups
        .iter()
        .map(|u| (u.group.as_str(), u.rate))
        .collect();
    assert_eq!(
        rates,
        [
            ("c", "true_positive_rate"),
            ("c", "false_positive_rate"),
            ("d", "true_positive_rate"),
        ]
    );
    // The headline carries the groups and says so in the summary.
    assert_eq!(r.headline["dp_difference"].small_groups.len(), 1);
    let summary = r.summary.join("\n");
    assert!(
        summary.contains(
            "2 groups are below the minimum group size (30 rows in a rate's denominator)"
        ),
        "{summary}"
    );
    assert!(summary.contains("keeps out \"c\" (10 rows, fewer than the minimum group size 30)"));
    assert!(summary.contains("which keeps every group, gives 0.700 on the same rows"));
    // Valid against the schema; the HTML has the section, the denominators and hover text.
    let text = render(&r, &Default::default(), Views::default()).unwrap();
    let json: serde_json::Value = serde_json::from_str(text.json.as_deref().unwrap()).unwrap();
    let schema: serde_json::Value = serde_json::from_str(AUDIT_SCHEMA_V1).unwrap();
    assert_eq!(validate(&schema, &json).unwrap(), Vec::<String>::new());
    let html = text.html.unwrap();
    assert!(html.contains("Small groups"));
    assert!(html.contains("<th title=\"rows of the group whose true label is the positive one"));
    assert!(html.contains("What the numbers mean"));
    let md = text.markdown.unwrap();
    assert!(md.contains("| group | rows | positives | negatives |"));
    assert!(
        md.contains("| group | c | 10 | 3 | 7 | 10 rows: dp\\_difference, dp\\_ratio, accuracy\\_difference, accuracy\\_ratio; 3 positive rows: eo\\_difference, eo\\_ratio, eq\\_odds\\_difference, eq\\_odds\\_ratio; 7 negative rows: eq\\_odds\\_difference, eq\\_odds\\_ratio |"),
        "{md}"
    );
}

#[test]
fn zero_keeps_every_group_in() {
    let r = report(&data(), 0);
    let dp = gap(&r, "dp_difference");
    assert!((dp.value.unwrap() - 0.7).abs() < 1e-12);
    assert!(dp.small_groups.is_empty() && dp.fairlearn_value.is_none());
    assert!(!r.summary.join(" ").contains("minimum group size"));
}

#[test]
fn too_few_large_groups_leave_the_gap_undefined_with_the_reason() {
    let r = report(&data(), 150);
    // Only d has 150 rows: no gap, and the reason names the minimum group size.
    let dp = gap(&r, "dp_difference");
    assert!(dp.value.is_none());
    assert!(
        dp.undefined_reason
            .as_deref()
            .unwrap()
            .starts_with("fewer than two groups have at least 150 rows")
    );
    assert_eq!(dp.small_groups.len(), 3);
}

fn limits(max: usize, given: bool, single: bool) -> GroupLimits {
    GroupLimits {
        max_groups: max,
        max_groups_given: given,
        allow_single_group: single,
    }
}

fn guard(names: &[String], l: GroupLimits, style: FlagStyle) -> Result<(), String> {
    let labels: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut s = ConfusionState::new();
    let zeros = vec![0; names.len()];
    s.update(&zeros, &zeros, &Groups::from_labels(&labels), None)
        .unwrap();
    let slices = SliceDef::all(&["id".to_string()]);
    check_groups(&slices, &[s], &l, style).map_err(|e| e.to_string())
}

#[test]
fn the_guard_names_the_column_and_the_setting() {
    let one = vec!["x".to_string(); 5];
    let e = guard(&one, GroupLimits::default(), FlagStyle::Command).unwrap_err();
    assert_eq!(
        e,
        "the sensitive column \"id\" has a single value, \"x\", on all 5 rows: a fairness audit compares groups, so there is no gap to measure; check the column (a filter upstream may have kept one group), or pass --allow-single-group to report its rates without gaps"
    );
    let e = guard(&one, GroupLimits::default(), FlagStyle::Python).unwrap_err();
    assert!(e.contains("allow_single_group=True"));
    assert!(guard(&one, limits(1000, false, true), FlagStyle::Command).is_ok());

    // 40 distinct values, each twice: over a limit of 30.
    let many: Vec<String> = (0..80).map(|i| format!("v{}", i / 2)).collect();
    let e = guard(&many, limits(30, true, false), FlagStyle::Command).unwrap_err();
    assert_eq!(
        e,
        "the sensitive column \"id\" has 40 distinct values among 80 rows, more than the limit of 30 groups: bucket it into fewer groups (e.g. age bands), check it is the column you meant, or pass --max-groups 40 to audit every value as a group"
    );
    assert!(guard(&many, GroupLimits::default(), FlagStyle::Command).is_ok());

    // A value per row: refused under the default limit, audited when the limit is given.
    let ids: Vec<String> = (0..25).map(|i| format!("u{i}")).collect();
    let e = guard(&ids, GroupLimits::default(), FlagStyle::Python).unwrap_err();
    assert!(
        e.contains("25 distinct values among 25 rows, 25 of them on a single row: it looks like an identifier"),
        "{e}"
    );
    assert!(e.contains("max_groups= 25"), "{e}");
    assert!(guard(&ids, limits(1000, true, false), FlagStyle::Command).is_ok());
    // Fewer than 20 groups is never taken for an identifier.
    assert!(guard(&ids[..19], GroupLimits::default(), FlagStyle::Command).is_ok());
}
