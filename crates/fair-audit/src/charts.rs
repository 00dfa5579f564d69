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

impl ChartData {
    /// The charts of one slice of a regression audit: each group's predictions as the share
    /// above each value (the complement of the ECDF; the LL144 scoring rate is read off it at
    /// the pooled median) with the largest KS pair marked, and the mean residual per group
    /// with its interval. Groups below the minimum group size are greyed and named "(small)".
    pub fn add_regression_slice(
        &mut self,
        slice: &crate::model::regression::RegressionSlice,
        dist: &fair_metrics::distribution::SliceDistribution,
    ) {
        use fair_report::{GroupRate, group_rate_bars_small, value_ccdf_coloured};
        let name = &slice.slice;
        let n = slice.groups.len();
        let is_small = |g: usize| slice.groups[g].small;
        // The KS pair among the groups kept in the gaps.
        let mut ks_pair: Option<(usize, usize, f64)> = None;
        for a in (0..n).filter(|&g| !is_small(g)) {
            for b in (a + 1..n).filter(|&g| !is_small(g)) {
                let v = dist.gaps.ks[a][b];
                if !v.is_nan() && ks_pair.is_none_or(|p| v > p.2) {
                    ks_pair = Some((a, b, v));
                }
            }
        }
        let (mut drawn, subset) = crate::render::extremes_of((0..n).collect(), MAX_CURVES, |&g| {
            slice.groups[g].metrics["mean_prediction"].value
        });
        if n > MAX_CURVES {
            drawn.extend(ks_pair.into_iter().flat_map(|(a, b, _)| [a, b]));
            drawn.sort_unstable();
            drawn.dedup();
        }
        let subset = subset.replace("groups", "groups by mean prediction");
        let colour = |g: usize| {
            if is_small(g) {
                SMALL_CURVE
            } else {
                group_colour(g, n)
            }
        };
        let label = |g: usize| {
            if is_small(g) {
                format!("{} (small)", slice.groups[g].group)
            } else {
                slice.groups[g].group.clone()
            }
        };
        let greyed = if drawn.iter().any(|&g| is_small(g)) {
            "; greyed \"(small)\": below the minimum group size, kept out of the gaps"
        } else {
            ""
        };
        let curves: Vec<GroupCurve> = drawn
            .iter()
            .map(|&g| GroupCurve {
                group: label(g),
                points: downsample(&dist.ccdf[g], MAX_CURVE_POINTS, &[]),
                auc: None,
            })
            .collect();
        let colours: Vec<Rgb> = drawn.iter().map(|&g| colour(g)).collect();
        let position = |g: usize| drawn.iter().position(|&d| d == g);
        let mark = ks_pair.and_then(|(a, b, v)| {
            Some(KsMark {
                threshold: dist.ks_at[a][b],
                groups: (position(a)?, position(b)?),
                statistic: v,
            })
        });
        let w1 = slice
            .gaps
            .iter()
            .find(|g| g.key == crate::Key::WassersteinMax)
            .and_then(|g| g.value);
        let w1_pair = slice
            .pairs
            .iter()
            .max_by(|x, y| x.wasserstein.total_cmp(&y.wasserstein))
            .map(|p| {
                format!(
                    "; the largest Wasserstein-1 distance, {:.4}, is between {} and {}",
                    w1.unwrap_or(p.wasserstein),
                    p.groups[0],
                    p.groups[1]
                )
            })
            .unwrap_or_default();
        let stem = crate::render::stem(name);
        match value_ccdf_coloured(
            &format!("Predictions by {name}"),
            "prediction",
            &curves,
            mark.filter(|m| m.threshold.is_finite()),
            &colours,
        ) {
            Ok(svg) => self.figures.push(Figure {
                slice: name.clone(),
                caption: format!(
                    "Share of each group predicted above each value ({name}){subset}, the largest KS gap marked{w1_pair}{greyed}"
                ),
                file: format!("figures/predictions-{stem}.svg"),
                svg,
            }),
            Err(e) => self
                .notes
                .push(format!("prediction distribution chart of {name}: {e}")),
        }
        let bars: Vec<GroupRate> = slice
            .groups
            .iter()
            .map(|g| {
                let m = g.metrics["mean_residual"];
                GroupRate {
                    group: g.group.clone(),
                    rate: m.value,
                    interval: m.lower.zip(m.upper),
                }
            })
            .collect();
        let colours: Vec<Rgb> = (0..n).map(|g| group_colour(g, n)).collect();
        let small: Vec<bool> = (0..n).map(is_small).collect();
        match group_rate_bars_small(
            &format!("Mean residual (prediction − target) by {name}"),
            "mean residual",
            &bars,
            None,
            "normal interval",
            &colours,
            &small,
        ) {
            Ok(svg) => self.figures.push(Figure {
                slice: name.clone(),
                caption: format!(
                    "Mean residual per group ({name}): above 0 the model over-predicts the group, below 0 it under-predicts; whiskers are the normal interval"
                ),
                file: format!("figures/residuals-{stem}.svg"),
                svg,
            }),
            Err(e) => self.notes.push(format!("residual chart of {name}: {e}")),
        }
    }
}
