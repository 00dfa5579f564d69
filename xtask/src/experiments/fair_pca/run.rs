//! The compared methods and their fits (with the observer trace of the convergence figure).

use super::*;

/// The compared methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Vanilla,
    /// The crate's default (issue 16): Pareto descent from the MW min–max solution.
    Default,
    Pairwise,
    Single,
    Mw,
    Samadi,
}

impl Method {
    pub(super) const ALL: [Method; 6] = [
        Method::Vanilla,
        Method::Default,
        Method::Pairwise,
        Method::Single,
        Method::Mw,
        Method::Samadi,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Vanilla => "vanilla PCA",
            Self::Default => "Pareto fair PCA (default: descent from min–max)",
            Self::Pairwise => "Pareto fair PCA (pairwise, paper reading)",
            Self::Single => "Pareto fair PCA (single, paper reading)",
            Self::Mw => "MW min–max (rank r)",
            Self::Samadi => "Samadi MW+LP (rank ≤ r+1)",
        }
    }

    pub(super) fn key(self) -> &'static str {
        match self {
            Self::Vanilla => "vanilla",
            Self::Default => "pareto_default",
            Self::Pairwise => "pareto_pairwise",
            Self::Single => "pareto_single",
            Self::Mw => "mw_rank_r",
            Self::Samadi => "samadi_extra_dimension",
        }
    }

    pub(super) fn marker(self) -> Marker {
        match self {
            Self::Vanilla => Marker::Circle,
            Self::Default => Marker::Square,
            Self::Pairwise => Marker::Triangle,
            Self::Single => Marker::Square,
            Self::Mw | Self::Samadi => Marker::Cross,
        }
    }

    pub(super) fn color(self) -> usize {
        match self {
            Self::Vanilla => 0,
            Self::Pairwise => 1,
            Self::Single => 2,
            Self::Mw => 3,
            Self::Samadi => 4,
            Self::Default => 5,
        }
    }

    pub(super) fn applies(self, k: usize) -> bool {
        self != Self::Samadi || k == 2
    }
}

/// Algorithm 1 as printed (the crate's default before issue 16).
pub(super) fn paper(r: usize) -> FairPcaParams {
    FairPca::paper(r)
}

pub(super) fn mw(r: usize) -> MwFairPcaParams {
    MwFairPca::params(r)
}

pub(super) fn samadi(r: usize) -> MwFairPcaParams {
    MwFairPca::samadi(r)
}

/// Fits `method` at `r` and returns its projection and status.
pub(super) fn fit(
    method: Method,
    case_x: &DMatrix<f64>,
    g: &Groups,
    r: usize,
) -> Result<(Projection, String)> {
    Ok(match method {
        Method::Vanilla => (
            vanilla_pca(case_x, r, Centering::Global)?,
            "closed form".into(),
        ),
        Method::Default | Method::Pairwise | Method::Single => {
            let params = match method {
                Method::Pairwise => paper(r),
                Method::Single => paper(r).objectives(Objectives::Single),
                _ => FairPca::params(r),
            };
            let m = params.fit(case_x, g)?;
            let status = format!("{} ({} it)", m.report().status, m.report().iterations);
            (m.projection().clone(), status)
        }
        Method::Mw => {
            let m = mw(r).fit(case_x, g)?;
            (
                m.projection().clone(),
                format!("{} MW rounds", m.report().iterations),
            )
        }
        Method::Samadi => {
            let m = samadi(r).fit(case_x, g)?;
            (
                m.projection().clone(),
                format!("rank {}", m.projection().rank()),
            )
        }
    })
}

/// Records the iterates' total loss and disparity gap (the observer hook of fair-pca).
#[derive(Default)]
pub(super) struct Trace {
    pub(super) points: Vec<(f64, f64, f64, f64)>,
}

impl Observe<IterInfo<'_>> for Trace {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        self.points.push((
            info.iteration as f64,
            info.total_loss,
            info.max_gap,
            info.direction_norm,
        ));
        ControlFlow::Continue(())
    }
}

/// The convergence trace of the default Pareto fit on the first case at r = 10.
pub(super) fn convergence_trace(ctx: &Context, case: &Case) -> Result<Vec<(f64, f64, f64, f64)>> {
    let mut trace = Trace::default();
    FairPca::params(DOWNSTREAM_R).fit_with_observer(&case.x, &case.groups, &mut trace)?;
    ctx.write_svg(
        "fair-pca-convergence.svg",
        line_plot(
            &format!(
                "{}, r = {DOWNSTREAM_R}: Pareto fair PCA iterates (default: descent from min–max)",
                case.title
            ),
            "iteration t",
            "per-sample value",
            &[
                Series {
                    label: "max_{i<j} |Δ_ij| (per sample)".into(),
                    points: trace.points.iter().map(|p| (p.0, p.2)).collect(),
                    marker: Marker::None,
                    color: 1,
                },
                Series {
                    label: "‖D_t‖_F".into(),
                    points: trace.points.iter().map(|p| (p.0, p.3)).collect(),
                    marker: Marker::None,
                    color: 0,
                },
            ],
            true,
        )?,
    )?;
    Ok(trace.points)
}
