//! The report's views for many groups and swept thresholds (issue 30): bar charts draw the
//! highest and lowest groups with each group's colour kept across charts, the per-group table is
//! sorted and capped (report.json keeps every group), and a sweep gets a gap-vs-threshold chart.

use fair_audit::{ReportSpec, Stats, Views, build_report, render};
use fair_data::Groups;
use fair_metrics::state::ConfusionState;
use fair_report::palette::group_colour;

/// `groups` groups of 40 rows each; group k selects 10 + (k mod 20) of its rows; the first
/// 20 rows are positive.
fn state(groups: usize, shift: usize) -> ConfusionState {
    let (mut names, mut y, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..groups {
        for i in 0..40 {
            names.push(format!("g{k:03}"));
            y.push(usize::from(i < 20));
            p.push(usize::from(i < 10 + (k + shift) % 20));
        }
    }
    let labels: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&labels), None)
        .unwrap();
    s
}

fn stats() -> Stats {
    Stats {
        resamples: 100,
        ..Stats::default()
    }
}

#[test]
fn many_groups_draw_the_extremes_with_stable_colours() {
    let s = state(60, 0);
    let spec = ReportSpec::binary("many", "y", "p", "group", s.total_rows(), stats());
    let (report, charts) = build_report(&spec, &[vec![s]], None).unwrap();
    assert_eq!(report.audits[0].slices[0].groups.len(), 60);
    let text = render(&report, &charts, Views::default()).unwrap();
    let md = text.markdown.unwrap();
    assert!(
        md.contains(
            "selection rate by group — the 15 highest and 15 lowest of 60 groups (all in the table)"
        ),
        "{md}"
    );
    assert!(md.contains(
        "Sorted by selection rate, highest first; the 25 highest and 25 lowest of 60 groups (report.json lists every group)."
    ));
    // 50 group rows and the overall row in the first table.
    let table_rows = md
        .lines()
        .skip_while(|l| !l.starts_with("| group | rows"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .count();
    assert_eq!(table_rows, 51);
    // Group g019 (selection 29/40, among the highest) is drawn in its own colour: its index
    // among the 60, not its position among the drawn bars.
    let (_, svg) = text
        .figures
        .iter()
        .find(|(f, _)| f.starts_with("figures/selection_rate-"))
        .unwrap();
    let own = group_colour(19, 60).hex().to_uppercase();
    assert!(
        svg.to_uppercase().contains(&own),
        "g019's colour {own} is not drawn"
    );
}

#[test]
fn a_threshold_sweep_draws_each_gap_against_the_threshold() {
    let sources = vec![vec![state(3, 0)], vec![state(3, 5)], vec![state(3, 9)]];
    let mut spec = ReportSpec::binary("sweep", "y", "p", "group", 120, stats());
    spec.thresholds = vec![0.3, 0.5, 0.7];
    let (report, charts) = build_report(&spec, &sources, None).unwrap();
    let text = render(&report, &charts, Views::default()).unwrap();
    let (_, svg) = text
        .figures
        .iter()
        .find(|(f, _)| f == "figures/gaps-by-threshold-group.svg")
        .expect("the gap-vs-threshold chart");
    for key in [
        "dp_difference",
        "eo_difference",
        "eq_odds_difference",
        "accuracy_difference",
    ] {
        assert!(svg.contains(key), "{key}");
    }
    assert!(text.markdown.unwrap().contains("## Gaps across thresholds"));
}

#[test]
fn disparities_of_many_groups_list_those_furthest_from_parity_and_chart_the_band() {
    use fair_audit::disparity::{DisparitySpec, attach, gate_values};
    let s = state(60, 0);
    let spec = ReportSpec::binary("many", "y", "p", "group", s.total_rows(), stats());
    let (mut report, charts) = build_report(&spec, &[vec![s.clone()]], None).unwrap();
    let sensitive = vec!["group".to_string()];
    let d = DisparitySpec::parse(&["group=g005".into()], 0.9, 0.95, &sensitive).unwrap();
    attach(&mut report, &[vec![s]], &d).unwrap();
    let slice = report.audits[0].slices[0].disparities.as_ref().unwrap();
    assert_eq!(
        (slice.reference.as_str(), slice.groups.len()),
        ("named", 60)
    );
    // g005 selects 15 of 40; g000 10 of 40: pprev disparity 10/15, outside [0.9, 1/0.9].
    let g0 = &slice.groups[0].rates["pprev"];
    assert_eq!(g0.reference_group, "g005");
    assert!((g0.disparity.unwrap() - 10.0 / 15.0).abs() < 1e-12);
    assert_eq!(g0.parity, Some(false));
    let text = render(&report, &charts, Views::default()).unwrap();
    let md = text.markdown.unwrap();
    assert!(
        md.contains("## Disparities against a reference group (Aequitas)"),
        "{md}"
    );
    assert!(md.contains(
        "groups fail parity on at least one rate — the 50 of 60 groups furthest from parity (report.json lists every group)."
    ));
    // The reference row and 50 groups.
    let rows = md
        .lines()
        .skip_while(|l| !l.starts_with("| group | size | ppr"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .count();
    assert_eq!(rows, 51);
    let (_, svg) = text
        .figures
        .iter()
        .find(|(f, _)| f == "figures/disparity-group.svg")
        .expect("the disparity chart");
    assert!(svg.contains("<polygon"), "the parity band is drawn");
    for label in ["pprev disparity", "fpr disparity", "fnr disparity"] {
        assert!(svg.contains(label), "{label}");
    }
    let html = text.html.unwrap();
    assert!(html.contains("Disparities of group"));
    // Gates: the worst pprev disparity folded below 1 (g000's 10/15 against g019's 29/15: 15/29),
    // and the parity failures counted.
    let gates: std::collections::BTreeMap<_, _> = gate_values(&report).into_iter().collect();
    let pprev = gates["pprev_disparity"].clone().unwrap();
    let folded = slice
        .groups
        .iter()
        .filter_map(|g| g.rates["pprev"].disparity)
        .map(|d| d.min(1.0 / d))
        .fold(f64::INFINITY, f64::min);
    assert_eq!(pprev.to_bits(), folded.to_bits());
    assert!((pprev - 15.0 / 29.0).abs() < 1e-12);
    assert!(gates["parity_failures"].clone().unwrap() > 0.0);
}
