//! The score charts of each slice (per-group ROC curves, per-group score CCDFs with the KS
//! point), drawn by fair-report from the curves the score sweep recorded.

use fair_metrics::score_sweep::SliceScores;
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

impl ChartData {
    /// Draws the ROC and CCDF charts of one slice from the sweep's curves (problems become
    /// notes).
    pub fn add_slice(&mut self, slice: &str, m: &SliceScores) {
        let names = &m.names;
        let rocs: Vec<GroupCurve> = names
            .iter()
            .enumerate()
            .map(|(g, name)| GroupCurve {
                group: name.clone(),
                points: downsample(&m.roc[g], MAX_CURVE_POINTS, &[]),
                auc: m.auc_by_group[g],
            })
            .collect();
        let ccdfs: Vec<GroupCurve> = names
            .iter()
            .enumerate()
            .map(|(g, name)| GroupCurve {
                group: name.clone(),
                points: downsample(&m.ccdf[g], MAX_CURVE_POINTS, &[]),
                auc: None,
            })
            .collect();
        // The KS mark where the exact KS of the worst pair is attained.
        let mark = m.ks_dp.as_ref().ok().and_then(|ks| {
            let pair = ks.summary.worst_pair;
            let threshold = ks.worst_threshold?;
            (names.len() >= 2).then_some(KsMark {
                threshold,
                groups: (pair.first, pair.second),
                statistic: ks.summary.max,
            })
        });
        let stem = crate::render::stem(slice);
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
    }
}
