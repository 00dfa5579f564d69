//! The score charts of each slice (per-group ROC curves, per-group score CCDFs with the KS
//! point), drawn by fair-report from the full per-group curves.

use crate::error::CliError;
use fair_data::Groups;
use fair_metrics::state::ScoreColumns;
use fair_report::{GroupCurve, KsMark, MAX_CURVE_POINTS, downsample, roc_curves, score_ccdf};

/// One drawn chart.
#[derive(Debug, Clone)]
pub struct Figure {
    /// The slice it belongs to.
    pub slice: String,
    /// Caption (also the alt text in markdown).
    pub caption: String,
    /// File name of the SVG beside report.md.
    pub file: String,
    /// The SVG document.
    pub svg: String,
}

/// The score charts of all slices.
#[derive(Debug, Clone, Default)]
pub struct ChartData {
    /// Figures in report order.
    pub figures: Vec<Figure>,
    /// Charts that could not be drawn, with the reason (reported, never silently dropped).
    pub notes: Vec<String>,
}

/// One group's rows: (score, label, weight).
type Rows = Vec<(f64, usize, f64)>;

fn rows_by_group(cols: &ScoreColumns, groups: &Groups) -> Vec<Rows> {
    let mut by: Vec<Rows> = vec![Vec::new(); groups.n_groups()];
    for (i, &g) in groups.codes().iter().enumerate() {
        let w = cols.weights.as_ref().map_or(1.0, |w| w[i]);
        by[g].push((cols.scores[i], cols.y_true[i], w));
    }
    for rows in &mut by {
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    by
}

/// (t, P(score > t)) at every distinct score of the (sorted) rows.
fn ccdf(rows: &Rows) -> Vec<(f64, f64)> {
    let total: f64 = rows.iter().map(|r| r.2).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut below = 0.0;
    let mut i = 0;
    while i < rows.len() {
        let t = rows[i].0;
        while i < rows.len() && rows[i].0.total_cmp(&t).is_eq() {
            below += rows[i].2;
            i += 1;
        }
        out.push((t, ((total - below) / total).clamp(0.0, 1.0)));
    }
    out
}

/// The threshold where two CCDF step functions are furthest apart, and the distance: one
/// linear merge over the union of their thresholds.
fn ks_point(a: &[(f64, f64)], b: &[(f64, f64)]) -> (f64, f64) {
    let (mut i, mut j) = (0, 0);
    let (mut va, mut vb) = (1.0, 1.0);
    let mut best = (f64::NAN, -1.0);
    while i < a.len() || j < b.len() {
        let t = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.0.min(y.0),
            (Some(x), None) => x.0,
            (None, Some(y)) => y.0,
            (None, None) => break,
        };
        while i < a.len() && a[i].0 <= t {
            va = a[i].1;
            i += 1;
        }
        while j < b.len() && b[j].0 <= t {
            vb = b[j].1;
            j += 1;
        }
        let d = (va - vb).abs();
        if d > best.1 {
            best = (t, d);
        }
    }
    best
}

/// The ROC points of the (sorted) rows, ascending in FPR.
fn roc(rows: &Rows) -> (Vec<(f64, f64)>, Option<f64>) {
    let pos: f64 = rows.iter().filter(|r| r.1 == 1).map(|r| r.2).sum();
    let neg: f64 = rows.iter().filter(|r| r.1 == 0).map(|r| r.2).sum();
    if pos <= 0.0 || neg <= 0.0 {
        return (Vec::new(), None);
    }
    let (mut tp, mut fp, mut auc) = (0.0, 0.0, 0.0);
    let mut pts = vec![(0.0, 0.0)];
    let mut i = rows.len();
    while i > 0 {
        let t = rows[i - 1].0;
        let (tp0, fp0) = (tp, fp);
        while i > 0 && rows[i - 1].0.total_cmp(&t).is_eq() {
            let r = rows[i - 1];
            if r.1 == 1 {
                tp += r.2
            } else {
                fp += r.2
            }
            i -= 1;
        }
        // Trapezoid = Mann–Whitney with ties counted ½.
        auc += (fp - fp0) / neg * (tp + tp0) / (2.0 * pos);
        pts.push(((fp / neg).clamp(0.0, 1.0), (tp / pos).clamp(0.0, 1.0)));
    }
    (pts, Some(auc))
}

impl ChartData {
    /// Draws the ROC and CCDF charts of one slice.
    ///
    /// # Errors
    /// Never for data problems (they become notes); the `Result` is kept for future writers.
    pub fn add_slice(
        &mut self,
        slice: &str,
        cols: &ScoreColumns,
        groups: &Groups,
        ks_pair: Option<(&str, &str)>,
    ) -> Result<(), CliError> {
        let by = rows_by_group(cols, groups);
        let names = groups.names();
        let mut rocs = Vec::new();
        let mut ccdfs = Vec::new();
        for (rows, name) in by.iter().zip(names) {
            let (pts, auc) = roc(rows);
            rocs.push(GroupCurve {
                group: name.clone(),
                points: downsample(&pts, MAX_CURVE_POINTS, &[]),
                auc,
            });
            ccdfs.push(GroupCurve {
                group: name.clone(),
                points: ccdf(rows),
                auc: None,
            });
        }
        // The KS mark between the pair fair-metrics found furthest apart (exact KS).
        let index = |name: &str| names.iter().position(|n| n == name);
        let mark = ks_pair.and_then(|(a, b)| {
            let (a, b) = (index(a)?, index(b)?);
            if ccdfs[a].points.is_empty() || ccdfs[b].points.is_empty() {
                return None;
            }
            let (t, d) = ks_point(&ccdfs[a].points, &ccdfs[b].points);
            t.is_finite().then_some(KsMark {
                threshold: t,
                groups: (a, b),
                statistic: d,
            })
        });
        let stem = crate::report::stem(slice);
        match roc_curves(&format!("ROC curves by {slice}"), &rocs) {
            Ok(svg) => self.figures.push(Figure {
                slice: slice.into(),
                caption: format!("Per-group ROC curves ({slice}); AUC in the legend"),
                file: format!("figures/roc-{stem}.svg"),
                svg,
            }),
            Err(e) => self.notes.push(format!("ROC chart of {slice}: {e}")),
        }
        match score_ccdf(&format!("Score distribution by {slice}"), &ccdfs, mark) {
            Ok(svg) => self.figures.push(Figure {
                slice: slice.into(),
                caption: format!("Per-group score CCDF ({slice}) with the exact KS point marked"),
                file: format!("figures/ccdf-{stem}.svg"),
                svg,
            }),
            Err(e) => self.notes.push(format!("score CCDF chart of {slice}: {e}")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roc_auc_matches_fair_metrics() {
        let rows: Rows = vec![(0.1, 0, 1.0), (0.4, 1, 1.0), (0.4, 0, 1.0), (0.8, 1, 1.0)];
        let (_, auc) = roc(&rows);
        let exact = fair_metrics::roc::roc_auc(&[0, 1, 0, 1], &[0.1, 0.4, 0.4, 0.8], None).unwrap();
        assert!((auc.unwrap() - exact).abs() < 1e-12);
    }

    #[test]
    fn ks_point_matches_fair_metrics() {
        let a: Rows = vec![(0.1, 0, 1.0), (0.9, 0, 1.0)];
        let b: Rows = vec![(0.5, 0, 1.0), (0.6, 0, 1.0)];
        let (_, d) = ks_point(&ccdf(&a), &ccdf(&b));
        let g = Groups::from_labels(&["a", "a", "b", "b"]);
        let ks = fair_metrics::ks::ks_statistic(&[0.1, 0.9, 0.5, 0.6], &g, None).unwrap();
        assert!((d - ks.max).abs() < 1e-12);
    }
}
