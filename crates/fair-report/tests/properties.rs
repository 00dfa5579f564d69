//! Property test (issue 18): any input to the chart builders gives `Ok` with a well-formed SVG
//! document or a typed `ReportError` — never a panic — including NaN/infinite/huge coordinates,
//! empty or mismatched series, out-of-range KS marks and hostile group names.

use fair_report::frontier::{Axes, Series as FrontierSeries, multi_series};
use fair_report::lines::{Marker, Series as LineSeries, line_plot};
use fair_report::palette::BLUE;
use fair_report::panels::{Dots, Line, Panel, panel_grid};
use fair_report::tradeoff::{Curve, tradeoff};
use fair_report::trajectory::{Series as TrajectorySeries, stacked_lines};
use fair_report::{
    BarSeries, GroupCurve, GroupRate, KsMark, LabelledPoint, back_to_back, downsample,
    group_rate_bars, labelled_scatter, roc_curves, score_ccdf,
};
use proptest::prelude::*;

/// Mostly ordinary values, sometimes the corners (non-finite, huge, subnormal, negative zero).
fn num() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.0f64..=1.0,
        1 => -2.0f64..3.0,
        1 => prop::sample::select(vec![
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, -f64::MAX, 1e-310, -0.0, 1e300,
        ]),
    ]
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-c]{1,3}",
        1 => ".{0,12}",
        1 => Just("<script>&\"'".to_string()),
    ]
}

fn curve() -> impl Strategy<Value = GroupCurve> {
    (
        name(),
        prop::collection::vec((num(), num()), 0..30),
        prop::option::of(num()),
    )
        .prop_map(|(group, mut points, auc)| {
            // Sorted x half of the time, so the deeper drawing code (not only the checks) runs.
            if points.len() % 2 == 0 {
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            GroupCurve { group, points, auc }
        })
}

fn is_svg(svg: &str) -> bool {
    svg.contains("<svg") && svg.trim_end().ends_with("</svg>")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn curves_are_svg_or_typed_errors(
        title in name(),
        curves in prop::collection::vec(curve(), 0..4),
        ks in prop::option::of((num(), 0usize..6, 0usize..6, num())),
    ) {
        if let Ok(svg) = roc_curves(&title, &curves) {
            prop_assert!(is_svg(&svg));
        }
        let mark = ks.map(|(threshold, a, b, statistic)| KsMark { threshold, groups: (a, b), statistic });
        if let Ok(svg) = score_ccdf(&title, &curves, mark) {
            prop_assert!(is_svg(&svg));
        }
    }

    /// The bar and scatter builders once panicked (back_to_back on f64::MAX) or hung
    /// (group_rate_bars and labelled_scatter on f64::MAX: an axis span of ∞ sent plotters'
    /// tick search into an endless loop); now values beyond ±1e15 are a typed error.
    #[test]
    fn bars_and_scatter_are_svg_or_typed_errors(
        title in name(),
        categories in prop::collection::vec(name(), 0..4),
        series in prop::collection::vec((name(), prop::collection::vec((num(), num()), 0..5)), 0..3),
        rates in prop::collection::vec(
            (name(), prop::option::of(num()), prop::option::of((num(), num()))),
            0..5,
        ),
        overall in prop::option::of(num()),
        points in prop::collection::vec((num(), num(), name()), 0..6),
    ) {
        let series: Vec<BarSeries> = series
            .into_iter()
            .map(|(name, values)| BarSeries { name, values })
            .collect();
        if let Ok(svg) = back_to_back(&title, &categories, &series, ("up", "down")) {
            prop_assert!(is_svg(&svg));
        }
        let rates: Vec<GroupRate> = rates
            .into_iter()
            .map(|(group, rate, interval)| GroupRate { group, rate, interval })
            .collect();
        if let Ok(svg) = group_rate_bars(&title, "rate", &rates, overall, "95 % interval") {
            prop_assert!(is_svg(&svg));
        }
        let points: Vec<LabelledPoint> = points
            .into_iter()
            .map(|(x, y, label)| LabelledPoint { x, y, label })
            .collect();
        if let Ok(svg) = labelled_scatter(&title, "x", "y", &points) {
            prop_assert!(is_svg(&svg));
        }
    }

    /// The line, trade-off, frontier, panel and trajectory charts hung (axes fitted to
    /// f64::MAX; a log axis ending at a subnormal) or panicked in plotters ("attempt to add with
    /// overflow" for a point a million axis spans outside a caller-given range).
    #[test]
    fn line_charts_are_svg_or_typed_errors(
        title in name(),
        points in prop::collection::vec((num(), num()), 0..6),
        more in prop::collection::vec((num(), num()), 0..6),
        x in (num(), num()),
        y in (num(), num()),
        log_y: bool,
        band in prop::option::of((num(), num())),
    ) {
        let line = LineSeries { label: "a".into(), points: points.clone(), marker: Marker::Circle, color: 0 };
        let curve = Curve { label: "b".into(), points: points.clone(), dashed: false, color: 1 };
        let trajectory = TrajectorySeries { label: "c".into(), points: points.clone() };
        let frontier = FrontierSeries { name: "d".into(), points: points.clone(), line: true };
        let axes = Axes { title: &title, x_desc: "x", y_desc: "y", x, y, log_y };
        let panel = Panel {
            title: title.clone(), x_desc: "x".into(), y_desc: "y".into(), x_range: x, y_range: y,
            lines: vec![Line { label: "l".into(), points, color: BLUE, dashed: log_y, markers: true }],
            dots: vec![Dots { label: "d".into(), points: more, color: BLUE, cross: log_y }],
        };
        for svg in [
            line_plot(&title, "x", "y", &[line], log_y),
            tradeoff(&title, "x", &[curve]),
            stacked_lines(&title, "x", &[("y", vec![trajectory])]),
            multi_series(&axes, &[frontier], band),
            panel_grid(&title, 1, 1, &[panel]),
        ]
        .into_iter()
        .flatten()
        {
            prop_assert!(is_svg(&svg));
        }
    }

    #[test]
    fn downsample_keeps_ends_and_bounds_length(
        points in prop::collection::vec((num(), num()), 0..200),
        max in prop::sample::select(vec![0usize, 1, 2, 3, 10, 50, usize::MAX]),
        keep in prop::collection::vec(prop::sample::select(vec![0usize, 1, 7, 150, usize::MAX]), 0..4),
    ) {
        let out = downsample(&points, max, &keep);
        if points.len() <= max.max(2) {
            prop_assert_eq!(out.len(), points.len());
        } else {
            prop_assert!(out.len() <= max.max(2) + keep.len());
            prop_assert_eq!(out.first().map(|p| p.0.to_bits()), points.first().map(|p| p.0.to_bits()));
            prop_assert_eq!(out.last().map(|p| p.0.to_bits()), points.last().map(|p| p.0.to_bits()));
        }
    }
}

/// The two hangs the wider property found, pinned: an axis fitted to `f64::MAX` spans ∞ and
/// plotters' tick search never ended. Now a typed error naming the value; ordinary negative
/// scatter points still draw (the axis extends below 0).
#[test]
fn huge_values_are_typed_errors_not_hangs() {
    let rates = [GroupRate {
        group: "a".into(),
        rate: Some(f64::MAX),
        interval: None,
    }];
    let e = group_rate_bars("t", "rate", &rates, None, "CI").unwrap_err();
    assert!(e.to_string().contains("beyond the ±1e15"), "{e}");
    let far = [LabelledPoint {
        x: f64::MAX,
        y: 0.5,
        label: "p".into(),
    }];
    let e = labelled_scatter("t", "x", "y", &far).unwrap_err();
    assert!(e.to_string().contains("x of point \"p\""), "{e}");
    let negative = [
        LabelledPoint {
            x: -0.2,
            y: -3.0,
            label: "below".into(),
        },
        LabelledPoint {
            x: 1e15,
            y: 0.5,
            label: "far but drawable".into(),
        },
    ];
    let svg = labelled_scatter("t", "x", "y", &negative).unwrap();
    assert!(is_svg(&svg) && svg.contains("below") && svg.contains("far but drawable"));
}
