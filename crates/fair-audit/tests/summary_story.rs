//! One statistical story per gap (issue 30): the summary lists exactly the gaps whose p-value is
//! below 1 − confidence, count and score gaps alike, largest first; a permutation p-value at its
//! floor reads "p < 1/(R+1)"; a score gap whose interval excludes 0 but whose union-bounded
//! p-value does not pass is explained, never called "not distinguishable" beside that interval.
//! Golden wording on hand-made confusion states.

use fair_audit::model::{AuditReport, GroupAuc, PairMax, ScoreSlice};
use fair_audit::summary::{distinguishable, p_cell, sentences};
use fair_audit::{ReportSpec, Stats, Views, build_report, render};
use fair_data::Groups;
use fair_metrics::state::ConfusionState;

/// Confusion cells of one group: (name, tp, fp, tn, fn).
type Cells<'a> = (&'a str, usize, usize, usize, usize);

fn report(groups: &[Cells], resamples: usize) -> AuditReport {
    let (mut g, mut y, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for &(name, tp, fp, tn, fn_) in groups {
        for (label, pred, n) in [(1, 1, tp), (0, 1, fp), (0, 0, tn), (1, 0, fn_)] {
            g.extend(std::iter::repeat_n(name.to_string(), n));
            y.extend(std::iter::repeat_n(label, n));
            p.extend(std::iter::repeat_n(pred, n));
        }
    }
    let names: Vec<&str> = g.iter().map(String::as_str).collect();
    let mut state = ConfusionState::new();
    state
        .update(&y, &p, &Groups::from_labels(&names), None)
        .expect("valid rows");
    let stats = Stats {
        resamples,
        seed: 11,
        min_group_size: 0,
        ..Stats::default()
    };
    let spec = ReportSpec::binary("hand", "y", "p", "group", y.len() as u64, stats);
    build_report(&spec, &[vec![state]], None).expect("report").0
}

/// The summary's list: the sentences before the one that states the rule (or says none passed).
fn listed(summary: &[String]) -> Vec<&str> {
    summary
        .iter()
        .take_while(|s| !s.starts_with("Listed above") && !s.starts_with("No gap"))
        .map(String::as_str)
        .collect()
}

/// Where the gap named `name` is listed (the index of its sentence), if it is.
fn position(list: &[&str], name: &str) -> Option<usize> {
    list.iter().position(|s| s.contains(&format!("{name} ")))
}

/// Every count gap is listed exactly when its p-value passes the one rule.
fn assert_rule(r: &AuditReport) {
    let list = listed(&r.summary);
    for g in &r.audits[0].slices[0].gaps {
        let listed = position(&list, &g.name).is_some();
        let passes = g.p_value.is_some_and(|p| distinguishable(p, 0.95));
        assert_eq!(
            listed, passes,
            "{} (p = {:?}): {list:#?}",
            g.name, g.p_value
        );
    }
}

// a: selection 0.7, TPR 0.8, FPR 0.6, accuracy 0.6. b: selection 0.16, TPR 0.8, FPR 0,
// accuracy 0.96. Equal TPRs: the equal opportunity gaps are 0 and p = 1.
const BIG: [Cells; 2] = [("a", 200, 150, 100, 50), ("b", 80, 0, 400, 20)];

#[test]
fn a_large_gap_between_two_big_groups_is_listed_with_the_floor() {
    let r = report(&BIG, 999);
    assert_rule(&r);
    let list = listed(&r.summary);
    let dp = list[position(&list, "demographic parity difference").expect("dp listed")];
    assert!(
        dp.starts_with("The demographic parity difference across group is 0.540 (95 % interval "),
        "{dp}"
    );
    assert!(dp.contains("permutation p < 0.001)"), "{dp}");
    assert!(
        dp.contains("; the demographic parity ratio is 0.229"),
        "{dp}"
    );
    assert!(
        dp.ends_with(": selection rate is highest for a (0.700) and lowest for b (0.160)."),
        "{dp}"
    );
    // The floor is never printed as a number beside "p < 0.001".
    let all = r.summary.join("\n");
    assert!(!all.contains("p = 0.001"), "{all}");
    assert!(!all.contains("0.0010"), "{all}");
    let md = render(&r, &Default::default(), Views::default())
        .unwrap()
        .markdown
        .unwrap();
    assert!(
        md.contains("| demographic parity difference | 0.5400 | \\[0."),
        "{md}"
    );
    assert!(md.contains("| &lt; 0.001 |"), "{md}");
    assert!(!md.contains("| 0.0010 |"), "{md}");
    // An exact 0 (the equalized odds ratio: b's FPR is 0) is "0", not "0.0000".
    assert!(
        md.contains("| equalized odds ratio | 0 | \\[0, 0\\] |"),
        "{md}"
    );
    assert!(md.contains("Distinguishable from zero: one rule for every gap"));
    assert!(md.contains("\"p &lt; 0.001\" is its floor"));
}

#[test]
fn a_gap_whose_p_value_is_not_below_alpha_is_not_listed() {
    let r = report(&BIG, 200);
    assert_rule(&r);
    let eo = r.audits[0].slices[0]
        .gaps
        .iter()
        .find(|g| g.key == "eo_difference")
        .unwrap();
    assert_eq!(eo.value, Some(0.0));
    assert!(eo.p_value.unwrap() >= 0.05);
    let all = r.summary.join("\n");
    assert!(!all.contains("equal opportunity"), "{all}");
    // Floor at 200 permutations: the exact fraction.
    assert!(all.contains("permutation p < 1/201"), "{all}");
    assert!(!all.contains("not distinguishable"), "{all}");
}

#[test]
fn the_rule_is_strict_and_applies_to_the_printed_p_value() {
    let mut r = report(&BIG, 200);
    let gaps = &mut r.audits[0].slices[0].gaps;
    let dp = gaps.iter().position(|g| g.key == "dp_difference").unwrap();
    let ratio = gaps.iter().position(|g| g.key == "dp_ratio").unwrap();
    gaps[dp].p_value = Some(0.05);
    gaps[ratio].p_value = Some(0.05);
    r.summary = sentences(&r);
    assert_rule(&r);
    assert!(position(&listed(&r.summary), "demographic parity").is_none());
    r.audits[0].slices[0].gaps[dp].p_value = Some(0.0499);
    r.summary = sentences(&r);
    assert_rule(&r);
    let list = listed(&r.summary);
    let s = list[position(&list, "demographic parity difference").unwrap()];
    assert!(s.contains("permutation p = 0.0499)"), "{s}");
    // The ratio, at p = 0.05, is left out of the difference's sentence.
    assert!(!s.contains("ratio"), "{s}");
}

#[test]
fn gaps_are_listed_largest_first() {
    // Equalized odds 0.6 (FPR), demographic parity 0.54, accuracy 0.36.
    let r = report(&BIG, 200);
    let list = listed(&r.summary);
    let at = |name| position(&list, name).unwrap_or_else(|| panic!("{name}: {list:#?}"));
    let order = [
        at("equalized odds difference"),
        at("demographic parity difference"),
        at("accuracy difference"),
    ];
    assert_eq!(order, [0, 1, 2], "{list:#?}");
    assert_eq!(list.len(), 3, "{list:#?}");
    // Five gaps: the three differences and the ratios of dp and equalized odds (the accuracy
    // ratio, 0.625, and the equal opportunity gaps are named only if they pass).
    let passing = r.audits[0].slices[0]
        .gaps
        .iter()
        .filter(|g| g.p_value.is_some_and(|p| distinguishable(p, 0.95)))
        .count();
    let rule = r
        .summary
        .iter()
        .find(|s| s.starts_with("Listed above"))
        .unwrap();
    assert!(
        rule.starts_with(&format!(
            "Listed above are the {passing} gaps whose p-value is below 0.05 (1 − confidence)"
        )),
        "{rule}"
    );
}

fn pair(value: f64, lower: f64, upper: f64, p: f64) -> PairMax {
    PairMax {
        value,
        groups: ["a".into(), "e".into()],
        lower: Some(lower),
        upper: Some(upper),
        p_value: Some(p),
        p_value_adjusted: None,
    }
}

#[test]
fn score_gaps_follow_the_same_rule_and_the_same_order() {
    let mut r = report(&BIG, 999);
    let groups = ["a", "b", "c", "d", "e"];
    r.score_metrics = Some(vec![ScoreSlice {
        slice: "group".into(),
        auc_overall: Some(0.8),
        auc_by_group: groups
            .iter()
            .map(|g| GroupAuc {
                group: g.to_string(),
                auc: Some(0.8),
                lower: None,
                upper: None,
            })
            .collect(),
        auc_difference: Some(0.108),
        // The AUC difference's interval and p-value are one Bonferroni family (they agree);
        // KS EO-Δ's DKW interval can leave 0 while its Kolmogorov p-value does not pass.
        auc_gap: Some(pair(0.108, 0.0, 0.183, 1.0)),
        ks_dp: Some(pair(0.57, 0.2, 0.9, 1.2e-6)),
        ks_eo: Some(pair(0.3, 0.05, 0.7, 0.2)),
        psp: None,
        notes: vec![],
        small_groups: vec![],
        scoring_rate: None,
    }]);
    r.summary = sentences(&r);
    let list = listed(&r.summary);
    // KS DP-Δ (0.57) between equalized odds (0.6) and demographic parity (0.54).
    let ks = position(&list, "demographic parity difference over all thresholds").unwrap();
    assert_eq!(ks, 1, "{list:#?}");
    assert_eq!(
        list[ks],
        "The demographic parity difference over all thresholds across group is 0.570, between a and e (the KS distance between their score distributions; 95 % interval 0.200–0.900, simultaneous over the 5 groups (DKW), conservative; p = 1.20e-6, union-bounded over all 10 pairs)."
    );
    assert!(
        !list
            .iter()
            .any(|s| s.contains("AUC") || s.contains("equal opportunity"))
    );
    let all = r.summary.join("\n");
    assert!(!all.contains("not distinguishable"), "{all}");
    let note = r
        .summary
        .iter()
        .find(|s| s.starts_with("Not listed: the equal opportunity difference over all"))
        .expect("the KS interval away from 0 is explained");
    assert_eq!(
        note,
        "Not listed: the equal opportunity difference over all thresholds across group (0.300, between a and e); its 95 % interval 0.050–0.700, simultaneous over the 5 groups (DKW), conservative, excludes 0, but its p-value (0.200) tests whether any of the 10 pairs of groups differ (union bound) and is not below 0.05."
    );
    // AUC difference: p = 1 and an interval containing 0: neither listed nor noted.
    assert!(!all.contains("AUC difference"));
}

#[test]
fn no_distinguishable_gap_is_one_sentence() {
    let r = report(&[("a", 30, 10, 40, 20), ("b", 30, 10, 40, 20)], 200);
    assert_rule(&r);
    assert_eq!(
        r.summary,
        [
            "No gap is distinguishable from zero at the 95 % level: every p-value, of the count gaps and the score gaps alike, is at least 0.05 (1 − confidence)."
        ]
    );
}

#[test]
fn p_values_print_the_floor_as_a_bound_and_others_with_three_digits() {
    assert_eq!(p_cell(1.0 / 1000.0, Some(999)), "< 0.001");
    assert_eq!(p_cell(1.0 / 1001.0, Some(1000)), "< 1/1001");
    assert_eq!(p_cell(1.0 / 201.0, Some(200)), "< 1/201");
    assert_eq!(p_cell(2.0 / 1000.0, Some(999)), "0.00200");
    assert_eq!(p_cell(0.024_875, Some(200)), "0.0249");
    assert_eq!(p_cell(0.104_477, Some(200)), "0.104");
    assert_eq!(p_cell(1.0, Some(200)), "1.00");
    assert_eq!(p_cell(7.644_68e-6, None), "7.64e-6");
    assert_eq!(p_cell(0.0, None), "< 1e-300");
    // An analytic p-value is never read as a permutation floor.
    assert_eq!(p_cell(0.001, None), "0.00100");
}
