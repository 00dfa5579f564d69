//! Every chart is rendered with a pure-Rust SVG renderer (usvg + resvg) and must draw: it parses,
//! a meaningful fraction of its pixels is not background, and its axis labels and legend
//! entries are present as text nodes. (resvg is built without its text feature, which needs
//! system fonts, so text is checked by parsing the SVG.)

use fair_report::frontier::{self, Axes};
use fair_report::lines::{self, Marker, line_plot};
use fair_report::palette::{BLUE, GREY, RED};
use fair_report::panels::{Dots, Line, Panel, panel_grid};
use fair_report::tradeoff::{Curve, tradeoff};
use fair_report::trajectory::{self, stacked_lines};
use fair_report::*;
use resvg::tiny_skia::{Pixmap, Transform};

/// The text nodes of `svg`, trimmed.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// Renders `svg` and asserts that at least `min_ink` of its pixels are not white and that
/// every `expected` string is the text of some text node. Returns the ink fraction.
fn assert_draws(svg: &str, min_ink: f64, expected: &[&str]) -> f64 {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .expect("usvg parses the chart");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("non-empty canvas");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    let total = pixmap.pixels().len() as f64;
    let ink = pixmap
        .pixels()
        .iter()
        .filter(|p| !(p.red() >= 250 && p.green() >= 250 && p.blue() >= 250))
        .count() as f64
        / total;
    assert!(
        ink >= min_ink,
        "only {:.3} % of the pixels are drawn",
        ink * 100.0
    );
    let found = texts(svg);
    for e in expected {
        assert!(
            found.iter().any(|t| t == e),
            "no text node {e:?}; text nodes: {found:?}"
        );
    }
    ink
}

fn rates(names: &[&str]) -> Vec<GroupRate> {
    names
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let r = 0.1 + 0.05 * (i % 10) as f64;
            GroupRate {
                group: g.to_string(),
                rate: Some(r),
                interval: Some((r - 0.03, r + 0.04)),
            }
        })
        .collect()
}

fn roc(group: &str, bend: f64, n: usize) -> GroupCurve {
    let points = (0..=n)
        .map(|k| {
            let x = k as f64 / n as f64;
            (x, x.powf(bend))
        })
        .collect();
    GroupCurve {
        group: group.into(),
        points,
        auc: Some(1.0 / (1.0 + bend)),
    }
}

fn ccdf(group: &str, shift: f64, n: usize) -> GroupCurve {
    let points = (0..n)
        .map(|k| {
            let t = k as f64 / (n - 1) as f64;
            (t + shift, 1.0 - t)
        })
        .collect();
    GroupCurve {
        group: group.into(),
        points,
        auc: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Audit charts

#[test]
fn group_rate_bars_draw_bars_whiskers_axes_and_legend() {
    let svg = group_rate_bars(
        "Selection rate by sex",
        "selection rate",
        &rates(&["female", "male"]),
        Some(0.2),
        "95 % Wilson interval",
    )
    .unwrap();
    assert_draws(
        &svg,
        0.03,
        &[
            "Selection rate by sex",
            "selection rate",
            "group",
            "female",
            "male",
            "95 % Wilson interval",
            "overall = 0.200",
        ],
    );
}

#[test]
fn group_rate_bars_with_one_group() {
    let svg = group_rate_bars("t", "TPR", &rates(&["only"]), None, "95 % interval").unwrap();
    assert_draws(&svg, 0.03, &["TPR", "group", "only"]);
}

#[test]
fn group_rate_bars_with_fifty_long_named_groups() {
    let names: Vec<String> = (0..50)
        .map(|i| format!("race=group number {i}, sex=unspecified"))
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let svg = group_rate_bars("t", "FPR", &rates(&refs), Some(0.3), "CI").unwrap();
    // Long names are shortened to 28 characters with an ellipsis, every group still labelled.
    let short = "race=group number 7, sex=un…";
    assert_draws(&svg, 0.03, &["FPR", "group", short]);
    let labels = texts(&svg)
        .into_iter()
        .filter(|t| t.starts_with("race=group number"))
        .count();
    assert_eq!(labels, 50);
    assert!(svg.contains("rotate(270"), "many labels are drawn vertical");
}

#[test]
fn an_undefined_rate_is_a_gap_with_a_note() {
    let mut groups = rates(&["a", "b", "c"]);
    groups[1].rate = None;
    groups[1].interval = None;
    let svg = group_rate_bars("t", "PPV", &groups, None, "CI").unwrap();
    assert_draws(
        &svg,
        0.02,
        &[
            "n/a",
            "n/a: undefined in 1 group(s)",
            "(no rows in denominator)",
        ],
    );
}

#[test]
fn bad_rates_are_typed_errors() {
    let mut groups = rates(&["a", "b"]);
    groups[0].rate = Some(f64::NAN);
    assert!(matches!(
        group_rate_bars("t", "r", &groups, None, "CI"),
        Err(ReportError::NotFinite {
            chart: "group_rate_bars",
            ..
        })
    ));
    let mut groups = rates(&["a", "b"]);
    groups[1].interval = Some((0.1, f64::INFINITY));
    assert!(matches!(
        group_rate_bars("t", "r", &groups, None, "CI"),
        Err(ReportError::NotFinite { .. })
    ));
    let mut groups = rates(&["a", "b"]);
    groups[1].interval = Some((0.5, 0.4));
    let e = group_rate_bars("t", "r", &groups, None, "CI").unwrap_err();
    assert!(e.to_string().contains("\"b\""), "{e}");
    assert!(matches!(
        group_rate_bars("t", "r", &rates(&["a"]), Some(f64::NAN), "CI"),
        Err(ReportError::NotFinite { .. })
    ));
    assert!(matches!(
        group_rate_bars("t", "r", &[], None, "CI"),
        Err(ReportError::BadInput { .. })
    ));
}

#[test]
fn roc_curves_draw_one_line_per_group_with_auc_in_the_legend() {
    let svg = roc_curves("ROC by group", &[roc("a", 0.5, 40), roc("b", 0.3, 40)]).unwrap();
    assert_draws(
        &svg,
        0.02,
        &[
            "ROC by group",
            "false positive rate",
            "true positive rate",
            "a (AUC 0.667)",
            "b (AUC 0.769)",
            "chance (diagonal)",
        ],
    );
}

#[test]
fn roc_curves_with_an_empty_curve_and_fifty_groups() {
    let mut curves: Vec<GroupCurve> = (0..50)
        .map(|i| roc(&format!("g{i}"), 0.2 + 0.015 * i as f64, 20))
        .collect();
    curves[3].points.clear();
    curves[4].auc = None;
    let svg = roc_curves("t", &curves).unwrap();
    assert_draws(
        &svg,
        0.02,
        &["g3: no curve", "g4 (AUC n/a)", "g49 (AUC 0.517)"],
    );
}

#[test]
fn roc_curves_reject_bad_points() {
    let mut c = roc("a", 0.5, 10);
    c.points[3].1 = f64::NAN;
    assert!(matches!(
        roc_curves("t", &[c]),
        Err(ReportError::NotFinite { .. })
    ));
    let mut c = roc("a", 0.5, 10);
    c.points[3].0 = 1.5;
    assert!(matches!(
        roc_curves("t", &[c]),
        Err(ReportError::BadInput { .. })
    ));
    let mut c = roc("a", 0.5, 10);
    c.auc = Some(f64::NAN);
    assert!(roc_curves("t", &[c]).is_err());
    assert!(roc_curves("t", &[]).is_err());
}

/// The points of the longest `<polyline>` of `svg`.
fn longest_polyline(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .map(|n| {
            n.attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn long_curves_are_thinned_so_the_svg_stays_small() {
    let svg = roc_curves("t", &[roc("a", 0.5, 200_000)]).unwrap();
    assert!(longest_polyline(&svg) <= MAX_CURVE_POINTS + 1);
    assert!(svg.len() < 200_000, "{} bytes", svg.len());
    let ks = KsMark {
        threshold: 0.123_457,
        groups: (0, 1),
        statistic: 0.2,
    };
    let svg = score_ccdf(
        "t",
        &[ccdf("a", 0.0, 100_000), ccdf("b", 0.2, 100_000)],
        Some(ks),
    )
    .unwrap();
    // Steps double the points.
    assert!(longest_polyline(&svg) <= 2 * (MAX_CURVE_POINTS + 2));
    assert!(svg.len() < 300_000, "{} bytes", svg.len());
}

#[test]
fn score_ccdf_marks_the_ks_point() {
    let ks = KsMark {
        threshold: 0.3,
        groups: (0, 1),
        statistic: 0.2,
    };
    let svg = score_ccdf(
        "Score CCDF by group",
        &[ccdf("a", 0.0, 50), ccdf("b", 0.2, 50)],
        Some(ks),
    )
    .unwrap();
    assert_draws(
        &svg,
        0.02,
        &[
            "Score CCDF by group",
            "score threshold t",
            "P(score > t | group)",
            "a",
            "b",
            "KS = 0.200",
            "KS = 0.200 at t = 0.300",
            "between a and b",
        ],
    );
}

#[test]
fn score_ccdf_edge_cases() {
    // One group, no KS mark.
    let svg = score_ccdf("t", &[ccdf("only", 0.0, 10)], None).unwrap();
    assert_draws(&svg, 0.02, &["only", "score threshold t"]);
    // An empty curve is listed, not drawn; a KS mark on it is a typed error.
    let empty = GroupCurve {
        group: "none".into(),
        points: vec![],
        auc: None,
    };
    let svg = score_ccdf("t", &[ccdf("a", 0.0, 10), empty.clone()], None).unwrap();
    assert_draws(&svg, 0.02, &["none: no scores"]);
    let ks = KsMark {
        threshold: 0.5,
        groups: (0, 1),
        statistic: 0.1,
    };
    assert!(matches!(
        score_ccdf("t", &[ccdf("a", 0.0, 10), empty], Some(ks)),
        Err(ReportError::BadInput { .. })
    ));
    let nan = KsMark {
        threshold: f64::NAN,
        ..ks
    };
    assert!(matches!(
        score_ccdf("t", &[ccdf("a", 0.0, 10), ccdf("b", 0.1, 10)], Some(nan)),
        Err(ReportError::NotFinite { .. })
    ));
    let mut unsorted = ccdf("a", 0.0, 10);
    unsorted.points.swap(2, 5);
    assert!(score_ccdf("t", &[unsorted], None).is_err());
    let mut not_prob = ccdf("a", 0.0, 10);
    not_prob.points[0].1 = 1.5;
    assert!(score_ccdf("t", &[not_prob], None).is_err());
}

// ---------------------------------------------------------------------------------------------
// User text is escaped everywhere

const EVIL: &str = "<script>alert(1)</script>";

#[test]
fn a_script_group_name_is_escaped_in_svg_html_and_markdown() {
    let svg = group_rate_bars("t", "rate", &rates(&[EVIL, "b"]), None, "CI").unwrap();
    assert!(!svg.contains("<script"));
    // The escaped text reads back as the group's name.
    assert_draws(&svg, 0.02, &[EVIL]);
    let svg_roc = roc_curves("t", &[roc(EVIL, 0.5, 10)]).unwrap();
    assert!(!svg_roc.contains("<script"));

    let mut table = Table::new(&["group", "rate"]);
    table.text_row(vec![EVIL.into(), "0.5".into()]);
    let mut report = HtmlReport::new(EVIL);
    report
        .heading(EVIL)
        .paragraph(EVIL)
        .table(&table)
        .figure(svg, EVIL, "rate.svg")
        .unwrap();
    let html = report.to_html();
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let md = report.to_markdown();
    assert!(!md.contains("<script"), "{md}");
    assert!(!table.markdown().contains("<script"));
}

#[test]
fn the_html_page_is_self_contained() {
    let svg = roc_curves("t", &[roc("a", 0.5, 10)]).unwrap();
    let mut report = HtmlReport::new("Audit");
    report.figure(svg, "ROC", "roc.svg").unwrap();
    let html = report.to_html();
    assert!(html.contains("<style>") && html.contains("<svg"));
    for banned in ["<script", "<link", "src=", "@import", "<iframe"] {
        assert!(!html.contains(banned), "{banned}");
    }
    // The only URL is the SVG namespace name, which is never fetched.
    let urls = html.matches("http").count();
    assert_eq!(
        urls,
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
    assert!(report.to_markdown().contains("![ROC](roc.svg)"));
}

#[test]
fn an_interactive_page_has_one_inline_script_and_no_url() {
    let mut t = Table::new(&["group", "rate"]);
    t.text_row(vec![EVIL.into(), "0.5".into()]);
    let mut report = HtmlReport::new("Audit");
    report.contents().heading("Rates").table(&t);
    let plain = report.to_html();
    report.interactive();
    let html = report.to_html();
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!plain.contains("<script"));
    for banned in [
        "http",
        "fetch(",
        "XMLHttpRequest",
        "innerHTML",
        "src=",
        "import(",
    ] {
        assert!(!html.contains(banned), "{banned}");
    }
    // User text is still escaped; the markdown is the same either way.
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_eq!(report.to_markdown().matches("<script").count(), 0);
    assert!(html.contains("<a href=\"#rates\">Rates</a>") && html.contains("<h2 id=\"rates\">"));
}

#[test]
fn figures_must_be_inert_svg() {
    let mut report = HtmlReport::new("t");
    assert!(report.figure("<p>hi</p>".into(), "x", "x.svg").is_err());
    assert!(
        report
            .figure("<svg><script>alert(1)</script></svg>".into(), "x", "x.svg")
            .is_err()
    );
    assert!(
        report
            .figure(
                "<svg><image href=\"https://e.invalid/a.png\"/></svg>".into(),
                "x",
                "x.svg"
            )
            .is_err()
    );
}

// ---------------------------------------------------------------------------------------------
// Reproduction charts (moved from xtask)

#[test]
fn labelled_scatter_draws() {
    let pts = vec![
        LabelledPoint {
            x: 0.1,
            y: 0.2,
            label: "adult / sex".into(),
        },
        LabelledPoint {
            x: 0.3,
            y: 0.05,
            label: "compas / race".into(),
        },
    ];
    let svg = labelled_scatter("gaps", "DP difference", "EO difference", &pts).unwrap();
    assert_draws(
        &svg,
        0.01,
        &["gaps", "DP difference", "EO difference", "adult / sex"],
    );
}

#[test]
fn back_to_back_draws_one_rectangle_pair_per_value() {
    let series = vec![
        BarSeries {
            name: "a".into(),
            values: vec![(0.9, 0.8), (0.7, 0.85)],
        },
        BarSeries {
            name: "b".into(),
            values: vec![(0.5, 0.83), (f64::NAN, 0.84)],
        },
    ];
    let svg = back_to_back(
        "t",
        &["[5, 10]".into(), "[5, 30]".into()],
        &series,
        ("fairness", "accuracy"),
    )
    .unwrap();
    assert_draws(
        &svg,
        0.05,
        &["[5, 30]", "a", "b", "↑ fairness   ·   ↓ accuracy"],
    );
    // 2 × 2 × 2 bars less the NaN one, plus the legend swatches and box and the background.
    assert!(svg.matches("<rect").count() >= 7);
}

#[test]
fn multi_series_draws_linear_banded_and_log() {
    let s = vec![
        frontier::Series {
            name: "IDCA".into(),
            points: vec![(0.2, 0.8), (0.5, 0.7), (f64::NAN, 0.1)],
            line: true,
        },
        frontier::Series {
            name: "SSG".into(),
            points: vec![(0.3, 0.75)],
            line: false,
        },
    ];
    let mut axes = Axes {
        title: "frontier",
        x_desc: "pSP fairness",
        y_desc: "test accuracy",
        x: (0.0, 1.0),
        y: (0.5, 1.0),
        log_y: false,
    };
    let svg = frontier::multi_series(&axes, &s, Some((0.1, 0.3))).unwrap();
    assert_draws(
        &svg,
        0.02,
        &["frontier", "pSP fairness", "test accuracy", "IDCA", "SSG"],
    );
    axes.log_y = true;
    axes.y = (1e-6, 1.0);
    let svg = frontier::multi_series(&axes, &s, None).unwrap();
    assert_draws(&svg, 0.02, &["IDCA", "SSG"]);
    axes.x.1 = f64::NAN;
    assert!(frontier::multi_series(&axes, &s, None).is_err());
}

#[test]
fn line_plot_draws_every_marker_kind() {
    let series: Vec<lines::Series> = [
        Marker::Circle,
        Marker::Triangle,
        Marker::Cross,
        Marker::Square,
        Marker::None,
    ]
    .iter()
    .enumerate()
    .map(|(i, &m)| lines::Series {
        label: format!("s{i}"),
        points: (1..6).map(|r| (r as f64, (i + r) as f64 * 0.1)).collect(),
        marker: m,
        color: i,
    })
    .collect();
    let svg = line_plot("loss", "target dimension r", "L / n", &series, false).unwrap();
    assert_draws(
        &svg,
        0.02,
        &["loss", "target dimension r", "L / n", "s0", "s4"],
    );
    let svg = line_plot("loss", "r", "L / n", &series, true).unwrap();
    assert_draws(&svg, 0.02, &["log10 L / n"]);
    let nan = lines::Series {
        label: "x".into(),
        points: vec![(f64::NAN, 1.0)],
        marker: Marker::Circle,
        color: 0,
    };
    assert!(matches!(
        line_plot("t", "x", "y", &[nan], false),
        Err(ReportError::BadInput { .. })
    ));
}

#[test]
fn panel_grid_draws_lines_and_dots() {
    let panel = |title: &str| Panel {
        title: title.into(),
        x_desc: "FPR".into(),
        y_desc: "TPR".into(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        lines: vec![
            Line {
                label: "y ROC".into(),
                points: vec![(0.0, 0.0), (0.2, 0.7), (1.0, 1.0)],
                color: BLUE,
                dashed: false,
                markers: true,
            },
            Line {
                label: String::new(),
                points: vec![(0.0, 0.0), (1.0, 1.0)],
                color: GREY,
                dashed: true,
                markers: false,
            },
        ],
        dots: vec![Dots {
            label: "LSVM".into(),
            points: vec![(0.5, 0.5)],
            color: RED,
            cross: true,
        }],
    };
    let svg = panel_grid("figure", 1, 2, &[panel("left"), panel("right")]).unwrap();
    assert_draws(
        &svg,
        0.02,
        &["figure", "left", "right", "FPR", "TPR", "y ROC", "LSVM"],
    );
    let mut bad = panel("bad");
    bad.y_range.0 = f64::NEG_INFINITY;
    assert!(panel_grid("t", 1, 1, &[bad]).is_err());
}

#[test]
fn tradeoff_draws() {
    let curves = vec![
        Curve {
            label: "KL".into(),
            points: vec![(0.1, 0.8), (0.02, 0.78)],
            dashed: false,
            color: 0,
        },
        Curve {
            label: "CE".into(),
            points: vec![(0.12, 0.81), (0.03, 0.77)],
            dashed: true,
            color: 1,
        },
    ];
    let svg = tradeoff("adult", "MEO (test)", &curves).unwrap();
    assert_draws(
        &svg,
        0.02,
        &["adult", "MEO (test)", "test accuracy", "KL", "CE"],
    );
    assert!(tradeoff("t", "x", &[]).is_err());
}

#[test]
fn stacked_lines_draws_each_panel() {
    let s = |l: &str| trajectory::Series {
        label: l.into(),
        points: (0..20)
            .map(|i| (i as f64, 1.0 / (1.0 + i as f64)))
            .collect(),
    };
    let svg = stacked_lines(
        "training",
        "iteration",
        &[
            ("train error", vec![s("hinge")]),
            ("violation", vec![s("0-1"), s("proxy")]),
        ],
    )
    .unwrap();
    assert_draws(
        &svg,
        0.02,
        &[
            "training",
            "iteration",
            "train error",
            "violation",
            "hinge",
            "proxy",
        ],
    );
}

/// The width of a character in em of the SVG's `font-size` this check assumes, independently of
/// the charts' own [`TEXT_EM`]: DejaVu Sans (the usual sans-serif on Linux) has digits of 0.636 em and lowercase
/// letters of about 0.55 em on average, so 0.6 em is a fair estimate for labels of names and
/// numbers.
const MEASURE_EM: f64 = 0.6;

/// Every horizontal text node of `svg` lies inside the canvas, its width taken as
/// [`MEASURE_EM`] em per character (rotated labels are checked by their anchor only). Returns
/// the offending nodes.
fn text_outside_canvas(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
    let width = num(root, "width").expect("an SVG width");
    let mut out = Vec::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let text = n.text().unwrap_or("").trim();
        let (Some(x), Some(size)) = (num(n, "x"), num(n, "font-size")) else {
            continue;
        };
        let w = text.chars().count() as f64 * MEASURE_EM * size;
        if n.attribute("transform").is_some() {
            if !(0.0..=width).contains(&x) {
                out.push(format!("{text:?} anchored at x = {x}"));
            }
            continue;
        }
        let (lo, hi) = match n.attribute("text-anchor") {
            Some("end") => (x - w, x),
            Some("middle") => (x - w / 2.0, x + w / 2.0),
            _ => (x, x + w),
        };
        if lo < -0.5 || hi > width + 0.5 {
            out.push(format!(
                "{text:?} spans x {lo:.0}–{hi:.0} of a {width}-wide canvas"
            ));
        }
    }
    out
}

#[test]
fn no_chart_text_leaves_the_canvas_and_legends_keep_their_numbers() {
    let long = [
        "Female & Amer-Indian-Eskimo",
        "Male & Asian-Pac-Islander",
        "Female & White",
        "Male & Other",
    ];
    let curves: Vec<GroupCurve> = long
        .iter()
        .enumerate()
        .map(|(i, g)| roc(g, 0.2 + 0.1 * i as f64, 30))
        .collect();
    let roc_svg = roc_curves("ROC curves by race & sex", &curves).unwrap();
    let ccdfs: Vec<GroupCurve> = long
        .iter()
        .enumerate()
        .map(|(i, g)| ccdf(g, 0.1 * i as f64, 30))
        .collect();
    let mark = KsMark {
        threshold: 0.5,
        groups: (0, 3),
        statistic: 0.3,
    };
    let ccdf_svg = score_ccdf("Score distribution by race & sex", &ccdfs, Some(mark)).unwrap();
    let bars = group_rate_bars(
        "true positive rate by race & sex",
        "true positive rate",
        &rates(&long),
        Some(0.4),
        "95 % Wilson interval",
    )
    .unwrap();
    let many: Vec<String> = (0..40)
        .map(|i| format!("a rather long group name {i}"))
        .collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let many_bars = group_rate_bars("t", "selection rate", &rates(&refs), None, "CI").unwrap();
    for (name, svg) in [
        ("roc", &roc_svg),
        ("ccdf", &ccdf_svg),
        ("bars", &bars),
        ("many bars", &many_bars),
    ] {
        let outside = text_outside_canvas(svg);
        assert!(outside.is_empty(), "{name}: {outside:#?}");
    }
    // The ROC legend keeps each AUC whole, shortening the name before it if it must.
    let legend: Vec<String> = texts(&roc_svg)
        .into_iter()
        .filter(|t| t.contains("(AUC"))
        .collect();
    assert_eq!(legend.len(), 4);
    for (t, c) in legend.iter().zip(&curves) {
        let auc = format!("(AUC {:.3})", c.auc.unwrap());
        assert!(t.ends_with(&auc), "{t:?} lost its {auc}");
    }
    // A bar chart's legend names each group with its colour (beside the label under its bar).
    for g in long {
        let stem: String = g.chars().take(12).collect();
        let n = texts(&bars).iter().filter(|t| t.starts_with(&stem)).count();
        assert!(n >= 2, "{g}: {:?}", texts(&bars));
    }
}

#[test]
fn named_positions_label_the_x_axis_by_name() {
    use fair_report::lines::{Band, Marker, Series, line_plot_with_bands_named};
    for n in [1usize, 3, 53, 365] {
        let names: Vec<String> = (0..n).map(|k| format!("2026-W{:02}", k % 53 + 1)).collect();
        let points: Vec<(f64, f64)> = (0..n)
            .map(|k| ((k + 1) as f64, 0.1 + 0.001 * k as f64))
            .collect();
        let s = Series {
            label: "dp_difference".into(),
            points: points.clone(),
            marker: Marker::Circle,
            color: 0,
        };
        let b = Band {
            color: 0,
            points: points
                .iter()
                .map(|&(x, y)| (x, y - 0.05, y + 0.05))
                .collect(),
        };
        let svg = line_plot_with_bands_named("gaps", "week", "gap", &[s], &[b], &names).unwrap();
        assert_draws(&svg, 0.01, &["gaps", "week"]);
        if n <= 8 {
            // Few positions: every one is named.
            for name in &names {
                assert!(texts(&svg).contains(name), "{n}: no tick {name}");
            }
        }
        // Every tick label is a window's name (none is a bare number), at most eight of them.
        let ticks: Vec<String> = texts(&svg)
            .into_iter()
            .filter(|t| t.starts_with("2026-W"))
            .collect();
        assert!(!ticks.is_empty() && ticks.len() <= 8, "{n}: {ticks:?}");
        assert!(
            !texts(&svg).iter().any(|t| t.parse::<u64>().is_ok()),
            "{n}: a tick is numbered: {:?}",
            texts(&svg)
        );
    }
}

/// The SVG `font-size` of every text node of `svg`.
fn font_sizes(svg: &str) -> Vec<(String, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let size = n.attribute("font-size")?.parse::<f64>().ok()?;
            Some((n.text().unwrap_or("").trim().to_string(), size))
        })
        .collect()
}

/// Issue 39: at a 1280 px page the charts are shown at their own width (scale 1), so every
/// label must be at least 10 px in the SVG; the charts keep 10.5 px or more (12.1 px for tick
/// labels and legends), which stays ≥ 10 px down to 95 % of their width.
#[test]
fn every_audit_chart_label_is_at_least_ten_and_a_half_px() {
    let long = [
        "Female & Amer-Indian-Eskimo",
        "Male & Asian-Pac-Islander",
        "Female & White",
    ];
    let curves: Vec<GroupCurve> = long
        .iter()
        .enumerate()
        .map(|(i, g)| roc(g, 0.2 + 0.1 * i as f64, 30))
        .collect();
    let ccdfs: Vec<GroupCurve> = long
        .iter()
        .enumerate()
        .map(|(i, g)| ccdf(g, 0.1 * i as f64, 30))
        .collect();
    let mark = KsMark {
        threshold: 0.5,
        groups: (0, 2),
        statistic: 0.3,
    };
    let many: Vec<String> = (0..50).map(|i| format!("group number {i}")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let s = lines::Series {
        label: "dp_difference".into(),
        points: vec![(1.0, 0.1), (2.0, 0.2)],
        marker: Marker::Circle,
        color: 0,
    };
    let charts = [
        ("roc", roc_curves("ROC", &curves).unwrap()),
        ("ccdf", score_ccdf("CCDF", &ccdfs, Some(mark)).unwrap()),
        (
            "bars",
            group_rate_bars("TPR", "TPR", &rates(&long), Some(0.3), "95 % interval").unwrap(),
        ),
        (
            "50 bars",
            group_rate_bars("TPR", "TPR", &rates(&refs), None, "CI").unwrap(),
        ),
        (
            "lines",
            line_plot("gaps", "window", "gap", &[s], false).unwrap(),
        ),
    ];
    for (name, svg) in &charts {
        let sizes = font_sizes(svg);
        assert!(!sizes.is_empty(), "{name}: no text");
        let small: Vec<_> = sizes.iter().filter(|(_, s)| *s < 10.45).collect();
        assert!(small.is_empty(), "{name}: labels under 10.5 px: {small:?}");
        let ticks: Vec<_> = sizes
            .iter()
            .filter(|(t, s)| t.parse::<f64>().is_ok() && *s < 12.0)
            .collect();
        assert!(
            ticks.is_empty(),
            "{name}: tick labels under 12 px: {ticks:?}"
        );
    }
}

/// Legends wrap long group names instead of cutting them ("Amer-Indian-Esk…" before issue 39):
/// no legend text ends in "…", and the canvas grows to hold every entry.
#[test]
fn legends_wrap_long_names_and_are_never_cut() {
    let names: Vec<String> = (0..14)
        .map(|i| format!("Female & Amer-Indian-Eskimo number {i}"))
        .collect();
    let curves: Vec<GroupCurve> = names
        .iter()
        .enumerate()
        .map(|(i, g)| roc(g, 0.1 + 0.05 * i as f64, 30))
        .collect();
    let svg = roc_curves("ROC", &curves).unwrap();
    let t = texts(&svg);
    assert!(!t.iter().any(|x| x.contains('…')), "{t:?}");
    // Every name is there, over one or more lines, each AUC whole.
    let all = t.join(" ");
    for (c, name) in curves.iter().zip(&names) {
        let auc = format!("(AUC {:.3})", c.auc.unwrap());
        assert!(t.iter().any(|x| x.ends_with(&auc)), "{auc}: {t:?}");
        let last = name.rsplit(' ').next().unwrap();
        assert!(all.contains(&format!("number {last}")), "{name}: {t:?}");
    }
    assert!(text_outside_canvas(&svg).is_empty());
    // 15 entries of three lines do not fit in 640 px: the canvas is taller.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let h: f64 = doc
        .root_element()
        .attribute("height")
        .unwrap()
        .parse()
        .unwrap();
    assert!(h > 640.0, "height {h}");
    let last_y = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.attribute("y")?.parse::<f64>().ok())
        .fold(0.0, f64::max);
    assert!(
        last_y < h,
        "a legend line at y = {last_y} below the {h} px canvas"
    );
}

/// A proportion's interval cannot leave [0, 1] (a normal-approximation interval of a ratio can
/// reach 1.05, of a KS below 0): the whisker is clipped there and the legend says so.
#[test]
fn whiskers_of_proportions_are_clipped_to_zero_and_one() {
    let groups = vec![
        GroupRate {
            group: "eo_ratio".into(),
            rate: Some(0.97),
            interval: Some((0.9, 1.05)),
        },
        GroupRate {
            group: "ks_eo".into(),
            rate: Some(0.02),
            interval: Some((-0.01, 0.06)),
        },
    ];
    let svg = group_rate_bars("gaps", "gap", &groups, None, "95 % interval").unwrap();
    assert!(
        texts(&svg)
            .iter()
            .any(|t| t.contains("whisker clipped to [0, 1]: 2")),
        "{:?}",
        texts(&svg)
    );
    // The y axis stops at 1.05 at most: no tick above it.
    let ticks: Vec<f64> = texts(&svg).iter().filter_map(|t| t.parse().ok()).collect();
    assert!(
        ticks.iter().all(|&t| (0.0..=1.05).contains(&t)),
        "{ticks:?}"
    );
    // A rate beyond 1 is not a proportion: its interval is drawn as given.
    let counts = vec![GroupRate {
        group: "a".into(),
        rate: Some(3.0),
        interval: Some((-0.5, 4.0)),
    }];
    let svg = group_rate_bars("counts", "count", &counts, None, "CI").unwrap();
    assert!(!texts(&svg).iter().any(|t| t.contains("clipped")));
}

/// Groups below the minimum group size are drawn greyed and labelled, and the legend says
/// they are left out of the gaps (issue 39); the others keep their colour.
#[test]
fn small_groups_are_greyed_and_labelled() {
    let groups = rates(&["Female", "Male", "Other"]);
    let colours = [RED, BLUE, GREY];
    let svg = group_rate_bars_small(
        "TPR by sex",
        "TPR",
        &groups,
        None,
        "CI",
        &colours,
        &[false, false, true],
    )
    .unwrap();
    assert_draws(&svg, 0.02, &["Female", "Male", "Other", SMALL_GROUP_MARK]);
    let t = texts(&svg);
    assert_eq!(t.iter().filter(|x| *x == SMALL_GROUP_MARK).count(), 1);
    assert!(t.join(" ").contains(SMALL_GROUP_NOTE), "{t:?}");
    assert!(svg.to_uppercase().contains("#D7D7D7"), "no grey bar");
    // Without small groups: no mark, no note.
    let plain =
        group_rate_bars_coloured("TPR by sex", "TPR", &groups, None, "CI", &colours).unwrap();
    assert!(!texts(&plain).iter().any(|x| x == SMALL_GROUP_MARK));
    assert!(
        group_rate_bars_small("t", "TPR", &groups, None, "CI", &colours, &[true]).is_err(),
        "one flag per group"
    );
}

/// Ratios and differences of a comparison go to separate stacked panels, each at full width
/// with its own axis (issue 39), and a ratio's whisker past 1 is clipped.
#[test]
fn gap_panels_separate_ratios_from_differences() {
    let g = |name: &str, r: f64, i: Option<(f64, f64)>| GroupRate {
        group: name.into(),
        rate: Some(r),
        interval: i,
    };
    let bars = [
        g("dp_difference before", 0.17, None),
        g("dp_difference after", 0.18, Some((0.16, 0.2))),
        g("eo_ratio before", 0.86, None),
        g("eo_ratio after", 0.89, Some((0.8, 1.04))),
    ];
    let ratio = [false, false, true, true];
    let colours = [GREY, BLUE, GREY, BLUE];
    let svg = gap_panels("Gaps across sex", "gap", &bars, &ratio, "CI", &colours).unwrap();
    assert_draws(
        &svg,
        0.02,
        &[
            "Gaps across sex: ratios (1 = parity)",
            "Gaps across sex: differences (0 = parity)",
            "eo_ratio after",
            "dp_difference after",
            "gap",
        ],
    );
    assert!(
        !texts(&svg).iter().any(|t| t == "group"),
        "{:?}",
        texts(&svg)
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("1000"));
    let panels: Vec<_> = root.children().filter(|n| n.has_tag_name("g")).collect();
    assert_eq!(panels.len(), 2);
    // Every label stays ≥ 10.5 px: the panels are not scaled down.
    assert!(font_sizes(&svg).iter().all(|(_, s)| *s >= 10.45));
    assert!(texts(&svg).iter().any(|t| t.contains("whisker clipped")));
    // One kind only: a single chart, as group_rate_bars_coloured draws it.
    let one = gap_panels("G", "gap", &bars[..2], &ratio[..2], "CI", &colours[..2]).unwrap();
    assert!(one.starts_with("<svg width=\"1000\""));
    assert!(gap_panels("G", "gap", &bars, &ratio[..1], "CI", &colours).is_err());
}

#[test]
fn categories_are_all_named_and_never_joined_by_lines() {
    use fair_report::lines::{Band, Marker, Series, dot_plot_with_bands_named};
    for n in [2usize, 6, 12, 30] {
        let names: Vec<String> = (0..n).map(|k| format!("group {k} & female")).collect();
        let s = Series {
            label: "fpr disparity".into(),
            points: (0..n)
                .map(|k| ((k + 1) as f64, 0.5 + 0.05 * k as f64))
                .collect(),
            marker: Marker::Circle,
            color: 1,
        };
        let parity = Band {
            color: 7,
            points: (1..=n).map(|k| (k as f64, 0.8, 1.25)).collect(),
        };
        let svg = dot_plot_with_bands_named(
            "disparities",
            "race & sex",
            "ratio",
            &[s],
            &[parity],
            &names,
        )
        .unwrap();
        assert_draws(&svg, 0.01, &["disparities", "race & sex", "fpr disparity"]);
        // Every category named once, in order, and nothing numbered on the x axis.
        let labels: Vec<String> = texts(&svg)
            .into_iter()
            .filter(|t| t.starts_with("group "))
            .collect();
        assert_eq!(labels, names, "{n} categories");
        // No line joins two categories: the series is drawn as markers only (a series line is
        // a polyline of width 2; the axes' and ticks' are of width 1).
        assert!(
            !svg.lines()
                .any(|l| l.contains("<polyline") && l.contains("stroke-width=\"2\"")),
            "{n}: a line joins categories"
        );
    }
}
