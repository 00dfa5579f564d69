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

/// Rows with an observed group column `g` and, as membership probabilities, either that same
/// group with certainty (`certain`) or a vague 0.7 / 0.3, through the decoder, the inferred
/// states and `fair_audit::run`, as `fairkit audit --sensitive g --sensitive-proba race=a,b`
/// runs them.
fn inferred_audit(certain: bool) -> fair_audit::Audit {
    use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
    use fair_audit::inferred::InferredStates;
    use fair_audit::ingest::{AuditState, Decoder, FlagStyle, LabelPair, Roles, Typing};
    use fair_audit::request::AuditRequest;
    use fair_core::ParamGuard;
    use std::sync::Arc;
    let n = 240;
    let g: Vec<&str> = (0..n).map(|i| if i % 3 == 0 { "b" } else { "a" }).collect();
    let y: Vec<i64> = (0..n).map(|i| i64::from(i % 5 < 2)).collect();
    let p: Vec<i64> = (0..n)
        .map(|i| i64::from(i % 7 < if g[i] == "a" { 4 } else { 2 }))
        .collect();
    let pa: Vec<f64> = g
        .iter()
        .map(|&v| match (certain, v) {
            (true, "a") => 1.0,
            (true, _) => 0.0,
            (false, "a") => 0.7,
            (false, _) => 0.3,
        })
        .collect();
    let pb: Vec<f64> = pa.iter().map(|v| 1.0 - v).collect();
    let request = AuditRequest {
        label: "y".into(),
        pred: Some("p".into()),
        sensitive: vec!["g".into()],
        sensitive_proba: [("race".to_string(), vec!["a".to_string(), "b".to_string()])].into(),
        resamples: 100,
        ..AuditRequest::default()
    };
    let checked = request.check_ref().unwrap();
    let mut roles = Roles::new("y", Some("p"), None, &["g"], None);
    roles.inferred = request.sensitive_proba.clone().into_iter().collect();
    let mut dec = Decoder::new(
        roles,
        LabelPair::new("1", None),
        "rows",
        Typing::Typed,
        FlagStyle::Command,
    )
    .unwrap();
    let batch = RecordBatch::try_from_iter([
        ("y", Arc::new(Int64Array::from(y)) as ArrayRef),
        ("p", Arc::new(Int64Array::from(p)) as ArrayRef),
        ("g", Arc::new(StringArray::from(g)) as ArrayRef),
        ("a", Arc::new(Float64Array::from(pa)) as ArrayRef),
        ("b", Arc::new(Float64Array::from(pb)) as ArrayRef),
    ])
    .unwrap();
    let decoded = dec.decode(&batch, None).unwrap();
    let mut state = AuditState::new("1", 1);
    state.add(&decoded, &dec, &[]).unwrap();
    let mut inferred = InferredStates::new(&request.sensitive_proba, &request.sensitive)
        .unwrap()
        .unwrap();
    inferred.add(&decoded, &dec).unwrap();
    fair_audit::run(
        &checked,
        fair_audit::Inputs {
            states: fair_audit::States {
                all_rows: &state,
                by: None,
                against: None,
            },
            scores: None::<fair_audit::NoScores>,
            origin: fair_audit::Origin {
                file: "rows".into(),
                format: "arrow".into(),
                rows: n as u64,
                positive_label: "1".into(),
                negative_label: Some("0".into()),
            },
            regression: None,
            ranking: None,
            inferred: Some(&inferred),
        },
        FlagStyle::Command,
    )
    .unwrap()
}

/// Certain membership: every rate of the inferred section (weighted, thresholded, both bounds)
/// is the ordinary audit's, bit for bit; vague membership gives bounds around the estimates.
/// Both reports validate and their views show the section.
#[test]
fn inferred_attributes_equal_the_ordinary_audit_when_membership_is_certain() {
    let schema: serde_json::Value =
        serde_json::from_str(fair_audit::schema::AUDIT_SCHEMA_V1).unwrap();
    for certain in [true, false] {
        let audit = inferred_audit(certain);
        let r = &audit.report;
        let inf = r.inferred.as_ref().unwrap();
        let race = &inf.attributes[0];
        assert_eq!(race.columns, ["a", "b"]);
        assert_eq!(
            race.slices
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>(),
            ["race", "g & race"]
        );
        let observed = &r.audits[0].slices[0];
        for group in &race.slices[0].groups {
            let ordinary = observed
                .groups
                .iter()
                .find(|g| g.group == group.group)
                .unwrap();
            for rate in &group.rates {
                let want = ordinary.rates[rate.rate.as_str()].as_ref().unwrap().value;
                if certain {
                    assert_eq!(rate.weighted.value.unwrap().to_bits(), want.to_bits());
                    assert_eq!(rate.thresholded.value.unwrap().to_bits(), want.to_bits());
                    if let Some([lo, hi]) = rate.bounds {
                        assert_eq!(
                            (lo.to_bits(), hi.to_bits()),
                            (want.to_bits(), want.to_bits())
                        );
                    }
                } else if let Some([lo, hi]) = rate.bounds {
                    let w = rate.weighted.value.unwrap();
                    assert!(
                        lo < w && w < hi,
                        "{} {}: {lo} {w} {hi}",
                        group.group,
                        rate.rate
                    );
                }
                let (lo, hi) = (rate.weighted.lower.unwrap(), rate.weighted.upper.unwrap());
                assert!(lo <= rate.weighted.value.unwrap() && rate.weighted.value.unwrap() <= hi);
            }
        }
        assert_eq!(race.slices[0].reference, "a");
        assert_eq!(race.slices[0].disparities.len(), 3);
        let json = serde_json::to_value(r).unwrap();
        let errors = fair_audit::schema::validate(&schema, &json).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        let views = render(
            &audit.report,
            &audit.charts,
            Views {
                json: false,
                markdown: true,
                html: true,
            },
        )
        .unwrap();
        let md = views.markdown.unwrap();
        assert!(md.contains("## Inferred sensitive attributes"), "{md}");
        assert!(md.contains("g × race (inferred from a, b)"), "{md}");
        assert!(md.contains("bounds (partial identification)"), "{md}");
        let gates = fair_audit::fail_if::gate_values(r);
        let bound = gates["selection_rate_disparity_bound"].clone().unwrap();
        let widest = race
            .slices
            .iter()
            .flat_map(|s| &s.disparities)
            .filter(|d| d.rate == "selection_rate")
            .map(|d| d.bounds.unwrap())
            .map(|b| b.lower.abs().max(b.upper.abs()))
            .fold(0.0, f64::max);
        assert_eq!(bound.to_bits(), widest.to_bits());
    }
}

/// A bad probability is refused by the decoder, naming the row, the attribute, its columns'
/// values and what is wrong.
#[test]
fn bad_membership_probabilities_name_the_row() {
    use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
    use fair_audit::ingest::{Decoder, FlagStyle, LabelPair, Roles, Typing};
    use std::sync::Arc;
    let mut roles = Roles::new("y", Some("p"), None, &["g"], None);
    roles.inferred = vec![("race".into(), vec!["a".into(), "b".into()])];
    let mut dec = Decoder::new(
        roles,
        LabelPair::new("1", None),
        "rows",
        Typing::Typed,
        FlagStyle::Command,
    )
    .unwrap();
    for (a, b, want) in [
        (
            0.5,
            0.4,
            "rows: row 2, membership probabilities of race (a=0.5, b=0.4): they sum to 0.9",
        ),
        (f64::NAN, 0.5, "(a=NaN, b=0.5): a is NaN"),
        (-0.5, 1.5, "a is negative (-0.5)"),
    ] {
        let batch = RecordBatch::try_from_iter([
            ("y", Arc::new(Int64Array::from(vec![1, 0])) as ArrayRef),
            ("p", Arc::new(Int64Array::from(vec![1, 0])) as ArrayRef),
            ("g", Arc::new(StringArray::from(vec!["x", "y"])) as ArrayRef),
            ("a", Arc::new(Float64Array::from(vec![1.0, a])) as ArrayRef),
            ("b", Arc::new(Float64Array::from(vec![0.0, b])) as ArrayRef),
        ])
        .unwrap();
        let msg = dec.decode(&batch, None).unwrap_err().to_string();
        assert!(msg.contains(want), "{msg}");
        assert!(msg.contains("summing to 1 within 1e-6"), "{msg}");
    }
}
