//! Sensitivity to the choices the paper leaves open (r = 10, full mode).

use super::*;

pub(super) struct Variant {
    pub(super) name: String,
    pub(super) total_rel: f64,
    pub(super) mean_abs_pairwise: f64,
    pub(super) max_gap: f64,
    pub(super) status: String,
    pub(super) seconds: f64,
}

pub(super) struct Sensitivity {
    pub(super) key: &'static str,
    pub(super) title: &'static str,
    pub(super) bounds: AlphaBounds,
    pub(super) vanilla_total: f64,
    pub(super) vanilla_mean_abs: f64,
    pub(super) variants: Vec<Variant>,
}

pub(super) fn sensitivity_case(case: &Case) -> Result<Sensitivity> {
    let r = DOWNSTREAM_R;
    let (x, g) = (&case.x, &case.groups);
    let bounds = regularization_bounds(x, g, r, LossScale::PerSample, Centering::Global)?;
    let vanilla = vanilla_pca(x, r, Centering::Global)?;
    let vl = vanilla.losses(x, g)?;
    let best = vl.raw.best_loss.clone();
    let base = Eval::new(Method::Vanilla, r, &vl, &best, 0.0, String::new());
    let mut variants = Vec::new();
    let mut add = |name: String, proj: &Projection, status: String, seconds: f64| -> Result<()> {
        let e = Eval::new(
            Method::Pairwise,
            r,
            &proj.losses(x, g)?,
            &best,
            seconds,
            status,
        );
        variants.push(Variant {
            name,
            total_rel: e.total / base.total - 1.0,
            mean_abs_pairwise: e.mean_abs_pairwise,
            max_gap: e.max_gap,
            status: e.status,
            seconds,
        });
        Ok(())
    };
    let pareto_variants: Vec<(String, FairPcaParams)> = vec![
        (
            "paper reading: pairwise, ½z², per sample, unit normalization, Euclidean, 1/√t, T = 500, vanilla start, α = 0".into(),
            paper(r),
        ),
        ("T = 2000".into(), paper(r).max_iter(2000)),
        ("single objectives (eq. 9)".into(), paper(r).objectives(Objectives::Single)),
        ("raw losses (no 1/n_i)".into(), paper(r).scale(LossScale::Raw)),
        ("ψ = |z|".into(), paper(r).penalty(fair_pca::Penalty::Abs)),
        ("Armijo (β = 1e-4), unit normalization".into(), paper(r).step(StepRule::armijo())),
        (
            "Armijo, normalization keeping ψ'".into(),
            paper(r)
                .step(StepRule::armijo())
                .normalization(Normalization::PenaltySlope),
        ),
        (
            format!("α = {:.3e} (exact pairwise eigen-gap bound)", bounds.exact_pairwise.max(0.0)),
            paper(r).alpha(bounds.exact_pairwise.max(0.0)),
        ),
        (
            "vanilla + 3 random starts (seed 0), fairest kept".into(),
            paper(r).random_starts(3),
        ),
        (
            "Riemannian gradients, 3 random starts (seed 0)".into(),
            paper(r)
                .geometry(Geometry::Riemannian)
                .vanilla_start(false)
                .random_starts(3),
        ),
    ];
    for (name, params) in pareto_variants {
        let clock = Instant::now();
        let m = params.fit(x, g)?;
        let status = format!("{} ({} it)", m.report().status, m.report().iterations);
        add(name, m.projection(), status, clock.elapsed().as_secs_f64())?;
    }
    for (name, params) in [
        ("MW, T = 100 (rank r)".to_string(), mw(r).iterations(100)),
        (
            "MW, best iterate (rank r)".to_string(),
            mw(r).rounding(fair_pca::MwRounding::BestIterate),
        ),
    ] {
        let clock = Instant::now();
        let m = params.fit(x, g)?;
        add(
            name,
            m.projection(),
            "–".into(),
            clock.elapsed().as_secs_f64(),
        )?;
    }
    Ok(Sensitivity {
        key: case.key,
        title: case.title,
        bounds,
        vanilla_total: base.total,
        vanilla_mean_abs: base.mean_abs_pairwise,
        variants,
    })
}
