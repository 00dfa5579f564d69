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
