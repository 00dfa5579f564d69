//! The score charts of each slice (per-group ROC curves, per-group score CCDFs with the KS
//! point), drawn by fair-report from the curves the score sweep recorded.

use fair_metrics::score_sweep::SliceScores;
use fair_report::palette::{Rgb, group_colour};
use fair_report::{
    GroupCurve, KsMark, MAX_CURVE_POINTS, downsample, roc_curves_coloured, score_ccdf_coloured,
};

/// Most groups a ROC or CCDF chart draws: beyond, the highest and lowest AUCs (half each) and
/// the KS pair.
pub const MAX_CURVES: usize = 12;

/// The colour of a group below the minimum group size (a light grey, lighter than the palette's
/// reference grey).
const SMALL_CURVE: Rgb = Rgb(190, 190, 190);

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
        self.add_slice_with_small(slice, m, &[]);
    }

    /// [`Self::add_slice`] with the groups kept out of the score gaps for their size drawn in
    /// light grey and named "(small)" in the legend, so their jagged curves are not read as
    /// counted results.
    pub fn add_slice_with_small(&mut self, slice: &str, m: &SliceScores, small: &[String]) {
        let names = &m.names;
        let n = names.len();
        // Beyond MAX_CURVES groups: the highest and lowest AUCs, plus the pair of the KS mark,
        // in name order; each group keeps the colour it has in every chart of the slice.
        let ks_pair = m
            .ks_dp
            .as_ref()
            .ok()
            .map(|ks| (ks.summary.worst_pair.first, ks.summary.worst_pair.second));
        let (mut drawn, subset) =
            crate::render::extremes_of((0..n).collect(), MAX_CURVES, |&g| m.auc_by_group[g]);
        if n > MAX_CURVES {
            drawn.extend(ks_pair.into_iter().flat_map(|(a, b)| [a, b]));
            drawn.sort_unstable();
            drawn.dedup();
        }
        let subset = subset.replace("groups", "groups by AUC");
        let is_small = |g: usize| small.contains(&names[g]);
        let colours: Vec<Rgb> = drawn
            .iter()
            .map(|&g| {
                if is_small(g) {
                    SMALL_CURVE
                } else {
                    group_colour(g, n)
                }
            })
            .collect();
        let label = |g: usize| {
            if is_small(g) {
                format!("{} (small)", names[g])
            } else {
                names[g].clone()
            }
        };
        let any_small = drawn.iter().any(|&g| is_small(g));
        let greyed = if any_small {
            "; greyed \"(small)\": below the minimum group size, kept out of the score gaps"
        } else {
            ""
        };
        let rocs: Vec<GroupCurve> = drawn
            .iter()
            .map(|&g| GroupCurve {
                group: label(g),
                points: downsample(&m.roc[g], MAX_CURVE_POINTS, &[]),
                auc: m.auc_by_group[g],
            })
            .collect();
        let ccdfs: Vec<GroupCurve> = drawn
            .iter()
            .map(|&g| GroupCurve {
                group: label(g),
                points: downsample(&m.ccdf[g], MAX_CURVE_POINTS, &[]),
                auc: None,
            })
            .collect();
        let position = |g: usize| drawn.iter().position(|&d| d == g);
        // The KS mark where the exact KS of the worst pair is attained.
        let mark = m.ks_dp.as_ref().ok().and_then(|ks| {
            let pair = ks.summary.worst_pair;
            let threshold = ks.worst_threshold?;
            (names.len() >= 2).then_some(KsMark {
                threshold,
                groups: (position(pair.first)?, position(pair.second)?),
                statistic: ks.summary.max,
            })
        });
        let stem = crate::render::stem(slice);
        match roc_curves_coloured(&format!("ROC curves by {slice}"), &rocs, &colours) {
            Ok(svg) => self.figures.push(Figure {
                slice: slice.into(),
                caption: format!(
                    "Per-group ROC curves ({slice}){subset}; AUC in the legend{greyed}"
                ),
                file: format!("figures/roc-{stem}.svg"),
                svg,
            }),
            Err(e) => self.notes.push(format!("ROC chart of {slice}: {e}")),
        }
        match score_ccdf_coloured(
            &format!("Score distribution by {slice}"),
            &ccdfs,
            mark,
            &colours,
        ) {
            Ok(svg) => self.figures.push(Figure {
                slice: slice.into(),
                caption: format!(
                    "Per-group score CCDF ({slice}){subset} with the exact KS point marked{greyed}"
                ),
                file: format!("figures/ccdf-{stem}.svg"),
                svg,
            }),
            Err(e) => self.notes.push(format!("score CCDF chart of {slice}: {e}")),
        }
    }
}
