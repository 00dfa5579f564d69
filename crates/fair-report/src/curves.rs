//! Per-group curves of the audit: ROC curves and score CCDFs with the KS point marked.

use crate::downsample::{MAX_CURVE_POINTS, downsample};
use crate::error::{ReportError, Result, check_finite, plot_err};
use crate::legend::{Entry, Glyph, LEGEND_FONT, TICK_FONT, TITLE_FONT, draw_legend, legend_height};
use crate::palette::{BLACK, GREY, Rgb, group_colour};
use crate::svg::render;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One group's curve: ROC points `(false positive rate, true positive rate)` or CCDF points
/// `(threshold t, P(score > t | group))`, in increasing x order.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupCurve {
    /// The group's name (from the user's data; escaped wherever it is drawn).
    pub group: String,
    /// The curve's points; an empty curve (e.g. a group with one label only has no ROC) is
    /// listed in the legend as "no curve" and not drawn.
    pub points: Vec<(f64, f64)>,
    /// The area under the ROC curve, shown in the legend (`None`: "AUC n/a"); unused by the
    /// CCDF chart.
    pub auc: Option<f64>,
}

/// Where the KS statistic between two groups is attained, marked on the CCDF chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KsMark {
    /// The score threshold at which the two CCDFs are furthest apart.
    pub threshold: f64,
    /// The two groups (indices into the curves).
    pub groups: (usize, usize),
    /// The KS statistic (shown as "KS = 0.123").
    pub statistic: f64,
}

fn check_points(chart: &'static str, c: &GroupCurve) -> Result<()> {
    for (k, &(x, y)) in c.points.iter().enumerate() {
        check_finite(chart, || format!("point {k} (x) of group {:?}", c.group), x)?;
        check_finite(chart, || format!("point {k} (y) of group {:?}", c.group), y)?;
    }
    Ok(())
}

fn no_curves(chart: &'static str) -> ReportError {
    ReportError::BadInput {
        chart,
        reason: "no groups to draw".into(),
    }
}

/// One ROC curve per group (false positive rate on x, true positive rate on y) with the chance
/// diagonal, and a legend "group (AUC 0.812)". Curves longer than
/// [`MAX_CURVE_POINTS`] are thinned (first and last points kept).
///
/// # Errors
/// [`ReportError::BadInput`] for no curves or a point outside the unit square;
/// [`ReportError::NotFinite`] for a NaN or infinite coordinate or AUC.
///
/// ```
/// use fair_report::{roc_curves, GroupCurve};
/// let c = GroupCurve { group: "a".into(), points: vec![(0.0, 0.0), (0.2, 0.7), (1.0, 1.0)],
///                      auc: Some(0.75) };
/// let svg = roc_curves("ROC by group", &[c])?;
/// assert!(svg.contains("a (AUC 0.750)"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn roc_curves(title: &str, curves: &[GroupCurve]) -> Result<String> {
    let n = curves.len();
    let colours: Vec<Rgb> = (0..n).map(|i| group_colour(i, n)).collect();
    roc_curves_coloured(title, curves, &colours)
}

fn check_colours(chart: &'static str, colours: &[Rgb], curves: &[GroupCurve]) -> Result<()> {
    if colours.len() == curves.len() {
        Ok(())
    } else {
        Err(ReportError::BadInput {
            chart,
            reason: format!("{} colours for {} curves", colours.len(), curves.len()),
        })
    }
}

/// [`roc_curves`] with each group's colour given (one per curve, in order), so a report keeps
/// one colour per group across its charts.
///
/// # Errors
/// As [`roc_curves`], and [`ReportError::BadInput`] when `colours` does not have one colour
/// per curve.
///
/// ```
/// use fair_report::{roc_curves_coloured, GroupCurve, palette::RED};
/// let c = GroupCurve { group: "a".into(), points: vec![(0.0, 0.0), (1.0, 1.0)], auc: Some(0.5) };
/// assert!(roc_curves_coloured("ROC", &[c], &[RED])?.contains("a (AUC 0.500)"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn roc_curves_coloured(title: &str, curves: &[GroupCurve], colours: &[Rgb]) -> Result<String> {
    const CHART: &str = "roc_curves";
    check_colours(CHART, colours, curves)?;
    let err = plot_err(CHART);
    if curves.is_empty() {
        return Err(no_curves(CHART));
    }
    for c in curves {
        check_points(CHART, c)?;
        if let Some(a) = c.auc {
            check_finite(CHART, || format!("the AUC of group {:?}", c.group), a)?;
        }
        let outside = |v: f64| !(-1e-9..=1.0 + 1e-9).contains(&v);
        if let Some(&(x, y)) = c.points.iter().find(|p| outside(p.0) || outside(p.1)) {
            return Err(ReportError::BadInput {
                chart: CHART,
                reason: format!(
                    "group {:?}: ROC point ({x}, {y}) is outside the unit square",
                    c.group
                ),
            });
        }
    }
    let n = curves.len();
    let labels: Vec<String> = curves
        .iter()
        .map(|c| {
            if c.points.is_empty() {
                format!("{}: no curve", c.group)
            } else {
                match c.auc {
                    Some(a) => format!("{} (AUC {a:.3})", c.group),
                    None => format!("{} (AUC n/a)", c.group),
                }
            }
        })
        .collect();
    let chance = "chance (diagonal)";
    let height = legend_height(labels.iter().map(String::as_str).chain([chance]), 300).max(640);
    render(CHART, (1000, height), |root| {
        let (plot, side) = root.split_horizontally(700);
        let (plot, _) = plot.split_vertically(640);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", TITLE_FONT))
            .margin(16)
            .x_label_area_size(55)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..1.0, 0.0..1.0)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", TICK_FONT))
            .x_desc("false positive rate")
            .y_desc("true positive rate")
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| err(&e))?;
        let grey = GREY.to_plotters();
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, 0.0), (1.0, 1.0)],
                6,
                4,
                grey.stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
        let mut entries = Vec::with_capacity(n + 1);
        for (i, c) in curves.iter().enumerate() {
            let colour = colours[i].to_plotters();
            let label = labels[i].clone();
            if !c.points.is_empty() {
                let pts = downsample(&c.points, MAX_CURVE_POINTS, &[]);
                chart
                    .draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                    .map_err(|e| err(&e))?;
            }
            entries.push(Entry {
                label,
                colour,
                glyph: if c.points.is_empty() {
                    Glyph::None
                } else {
                    Glyph::Line
                },
            });
        }
        entries.push(Entry {
            label: chance.into(),
            colour: grey,
            glyph: Glyph::Dashed,
        });
        draw_legend(CHART, &side, &entries)
    })
}

/// The value at `t` of the right-continuous step function through `points` (1 before the
/// first point: every score is above a threshold below them all), and the index of the point
/// giving it.
fn step_at(points: &[(f64, f64)], t: f64) -> (f64, Option<usize>) {
    let k = points.partition_point(|p| p.0 <= t);
    if k == 0 {
        (1.0, None)
    } else {
        (points[k - 1].1, Some(k - 1))
    }
}

/// The CCDF drawn as steps: constant from one threshold to the next, dropping at each.
fn steps(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (k, &p) in points.iter().enumerate() {
        if k > 0 {
            out.push((p.0, points[k - 1].1));
        }
        out.push(p);
    }
    out
}

/// Per-group complementary CDFs of the score (x = threshold t, y = P(score > t | group)),
/// drawn as steps, with the KS point marked: a vertical black segment between the two groups'
/// curves at the KS threshold, labelled "KS = 0.123". Curves longer than [`MAX_CURVE_POINTS`]
/// are thinned, keeping the first, last and KS points.
///
/// # Errors
/// [`ReportError::BadInput`] for no curves, points not sorted by threshold, a probability
/// outside `[0, 1]`, or a KS mark naming a missing or empty curve; [`ReportError::NotFinite`]
/// for a NaN or infinite coordinate, threshold or statistic.
///
/// ```
/// use fair_report::{score_ccdf, GroupCurve, KsMark};
/// let a = GroupCurve { group: "a".into(), points: vec![(0.1, 0.8), (0.5, 0.4), (0.9, 0.0)], auc: None };
/// let b = GroupCurve { group: "b".into(), points: vec![(0.2, 0.5), (0.6, 0.1), (0.8, 0.0)], auc: None };
/// let ks = KsMark { threshold: 0.2, groups: (0, 1), statistic: 0.3 };
/// let svg = score_ccdf("Score CCDF by group", &[a, b], Some(ks))?;
/// assert!(svg.contains("KS = 0.300"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn score_ccdf(title: &str, curves: &[GroupCurve], ks: Option<KsMark>) -> Result<String> {
    let n = curves.len();
    let colours: Vec<Rgb> = (0..n).map(|i| group_colour(i, n)).collect();
    score_ccdf_coloured(title, curves, ks, &colours)
}

/// [`score_ccdf`] with each group's colour given (one per curve, in order).
///
/// # Errors
/// As [`score_ccdf`], and [`ReportError::BadInput`] when `colours` does not have one colour per
/// curve.
///
/// ```
/// use fair_report::{score_ccdf_coloured, GroupCurve, palette::RED};
/// let a = GroupCurve { group: "a".into(), points: vec![(0.1, 0.8), (0.9, 0.0)], auc: None };
/// assert!(score_ccdf_coloured("CCDF", &[a], None, &[RED])?.contains("<svg"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn score_ccdf_coloured(
    title: &str,
    curves: &[GroupCurve],
    ks: Option<KsMark>,
    colours: &[Rgb],
) -> Result<String> {
    value_ccdf_coloured(title, "score", curves, ks, colours)
}

/// [`score_ccdf_coloured`] of any numeric output: `value` names it on the axes ("prediction":
/// x = "prediction threshold t", y = "P(prediction > t | group)") and in the legend.
///
/// # Errors
/// As [`score_ccdf_coloured`].
///
/// ```
/// use fair_report::{value_ccdf_coloured, GroupCurve, palette::RED};
/// let a = GroupCurve { group: "a".into(), points: vec![(1.5, 0.5), (3.0, 0.0)], auc: None };
/// let svg = value_ccdf_coloured("Predictions", "prediction", &[a], None, &[RED])?;
/// assert!(svg.contains("P(prediction &gt; t | group)") || svg.contains("P(prediction > t | group)"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn value_ccdf_coloured(
    title: &str,
    value: &str,
    curves: &[GroupCurve],
    ks: Option<KsMark>,
    colours: &[Rgb],
) -> Result<String> {
    const CHART: &str = "score_ccdf";
    check_colours(CHART, colours, curves)?;
    let err = plot_err(CHART);
    if curves.is_empty() {
        return Err(no_curves(CHART));
    }
    for c in curves {
        check_points(CHART, c)?;
        if c.points.windows(2).any(|w| w[1].0 < w[0].0) {
            return Err(ReportError::BadInput {
                chart: CHART,
                reason: format!("group {:?}: points must be sorted by threshold", c.group),
            });
        }
        if let Some(&(t, p)) = c.points.iter().find(|p| !(0.0..=1.0).contains(&p.1)) {
            return Err(ReportError::BadInput {
                chart: CHART,
                reason: format!(
                    "group {:?}: P({value} > {t}) = {p} is not a probability",
                    c.group
                ),
            });
        }
    }
    // The KS segment, from the full curves (before thinning).
    let mark = match ks {
        None => None,
        Some(m) => {
            check_finite(CHART, || "the KS threshold".into(), m.threshold)?;
            check_finite(CHART, || "the KS statistic".into(), m.statistic)?;
            let curve = |g: usize| {
                curves
                    .get(g)
                    .filter(|c| !c.points.is_empty())
                    .ok_or_else(|| ReportError::BadInput {
                        chart: CHART,
                        reason: format!(
                            "the KS mark names group index {g}, which has no curve ({} curves given)",
                            curves.len()
                        ),
                    })
            };
            let (a, b) = (curve(m.groups.0)?, curve(m.groups.1)?);
            Some((
                m,
                step_at(&a.points, m.threshold),
                step_at(&b.points, m.threshold),
            ))
        }
    };
    let (x_lo, x_hi) = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0))
        .chain(mark.map(|m| m.0.threshold))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
    let (x_lo, x_hi) = if x_lo.is_finite() {
        let pad = ((x_hi - x_lo) * 0.03).max(1e-6);
        (x_lo - pad, x_hi + pad)
    } else {
        (0.0, 1.0)
    };
    let n = curves.len();
    let mut labels: Vec<String> = curves
        .iter()
        .map(|c| {
            if c.points.is_empty() {
                format!("{}: no {value}s", c.group)
            } else {
                c.group.clone()
            }
        })
        .collect();
    if let Some((m, ..)) = mark {
        labels.push(format!("KS = {:.3} at t = {:.3}", m.statistic, m.threshold));
        labels.push(format!(
            "between {} and {}",
            curves[m.groups.0].group, curves[m.groups.1].group
        ));
    }
    let height = legend_height(labels.iter().map(String::as_str), 300).max(640);
    render(CHART, (1000, height), |root| {
        let (plot, side) = root.split_horizontally(700);
        let (plot, _) = plot.split_vertically(640);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", TITLE_FONT))
            .margin(16)
            .x_label_area_size(55)
            .y_label_area_size(70)
            .build_cartesian_2d(x_lo..x_hi, 0.0..1.02)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", TICK_FONT))
            .x_desc(format!("{value} threshold t"))
            .y_desc(format!("P({value} > t | group)"))
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| err(&e))?;
        let mut entries = Vec::with_capacity(n + 1);
        for (i, c) in curves.iter().enumerate() {
            let colour = colours[i].to_plotters();
            if c.points.is_empty() {
                entries.push(Entry {
                    label: format!("{}: no {value}s", c.group),
                    colour,
                    glyph: Glyph::None,
                });
                continue;
            }
            let keep: Vec<usize> = mark
                .iter()
                .filter_map(|(m, ya, yb)| {
                    if i == m.groups.0 {
                        ya.1
                    } else if i == m.groups.1 {
                        yb.1
                    } else {
                        None
                    }
                })
                .collect();
            let pts = steps(&downsample(&c.points, MAX_CURVE_POINTS, &keep));
            chart
                .draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                .map_err(|e| err(&e))?;
            entries.push(Entry {
                label: c.group.clone(),
                colour,
                glyph: Glyph::Line,
            });
        }
        if let Some((m, (ya, _), (yb, _))) = mark {
            let black = BLACK.to_plotters();
            let t = m.threshold;
            chart
                .draw_series([PathElement::new(
                    vec![(t, ya), (t, yb)],
                    black.stroke_width(3),
                )])
                .map_err(|e| err(&e))?;
            chart
                .draw_series([
                    Circle::new((t, ya), 4, black.filled()),
                    Circle::new((t, yb), 4, black.filled()),
                ])
                .map_err(|e| err(&e))?;
            let label = format!("KS = {:.3}", m.statistic);
            let at = chart.backend_coord(&(t, (ya + yb) / 2.0));
            let style = TextStyle::from(("sans-serif", LEGEND_FONT).into_font())
                .pos(Pos::new(HPos::Left, VPos::Center));
            // A white box behind the label keeps it legible where it crosses a curve
            // (about 0.55 em per character).
            let width = (label.chars().count() as f64 * 0.55 * f64::from(LEGEND_FONT)) as i32;
            root.draw(&Rectangle::new(
                [(at.0 + 5, at.1 - 10), (at.0 + 11 + width, at.1 + 10)],
                WHITE.mix(0.85).filled(),
            ))
            .map_err(|e| err(&e))?;
            root.draw(&Text::new(label.clone(), (at.0 + 8, at.1), style))
                .map_err(|e| err(&e))?;
            entries.push(Entry {
                label: format!("{label} at t = {t:.3}"),
                colour: black,
                glyph: Glyph::Whisker,
            });
            entries.push(Entry {
                label: format!(
                    "between {} and {}",
                    curves[m.groups.0].group, curves[m.groups.1].group
                ),
                colour: black,
                glyph: Glyph::None,
            });
        }
        draw_legend(CHART, &side, &entries)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_lookup_is_right_continuous() {
        let pts = [(0.1, 0.8), (0.5, 0.4), (0.9, 0.0)];
        assert_eq!(step_at(&pts, 0.0), (1.0, None));
        assert_eq!(step_at(&pts, 0.1), (0.8, Some(0)));
        assert_eq!(step_at(&pts, 0.7), (0.4, Some(1)));
        assert_eq!(step_at(&pts, 2.0), (0.0, Some(2)));
    }

    #[test]
    fn steps_hold_each_value_until_the_next_threshold() {
        let pts = [(0.0, 1.0), (1.0, 0.5)];
        assert_eq!(steps(&pts), vec![(0.0, 1.0), (1.0, 1.0), (1.0, 0.5)]);
    }
}
