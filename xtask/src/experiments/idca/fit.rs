//! The fits: IDCA (fixed settings or the paper's G.2.2 protocol), model (49), the pairwise
//! baselines and the IDCA-vs-direct-SSG convergence pair.

use super::*;

/// The checkpoint `(K, x)` whose weights (the first `2d + 2` entries of `x`) have the best
/// validation accuracy; ties keep the earlier K (G.2.2 step 4).
pub(super) fn best_checkpoint<'a>(
    checkpoints: &'a [(usize, Vec<f64>)],
    split: &Split,
    interval: PercentileInterval,
    model: &'static str,
) -> Result<(usize, &'a Vec<f64>)> {
    let nw = split.train.dim();
    let mut best: Option<(f64, usize, &Vec<f64>)> = None;
    for (k, x) in checkpoints {
        let (acc, _, _) = evaluate(&x[..nw], &split.val, interval)?;
        if best.is_none_or(|b| acc > b.0) {
            best = Some((acc, *k, x));
        }
    }
    let (_, k, x) = best.ok_or_else(|| XtaskError::Training {
        model,
        reason: "no checkpoint reached".into(),
    })?;
    Ok((k, x))
}

/// Model (49) by IDCA with its own (smaller) budget; K by validation accuracy as for (15)/(21).
/// Prints one progress line.
pub(super) fn gauc_point(
    spec: &Spec,
    split: &Split,
    budget: &Budget,
    kappa: f64,
    seed: u64,
    interval: PercentileInterval,
) -> Result<Point> {
    let start = Instant::now();
    let p = PartialGauc::new(&split.train, interval, kappa, Surrogate::HardSigmoid)?;
    let fit = IdcaSolver::params()
        .outer_iters(budget.gauc_checkpoints.iter().copied().max().unwrap_or(1))
        .inner_iters(budget.gauc_inner)
        .eps(budget.eps)
        .checkpoints(budget.gauc_checkpoints.clone())
        .fit(&p, &p.initial_point())?;
    let (k, w) = best_checkpoint(&fit.checkpoints, split, interval, "IDCA (49)")?;
    let (_, viol) = dc_opt::objective_and_violation(&p, w);
    let (acc, psp, pdp) = evaluate(w, &split.test, interval)?;
    let pgauc = pgauc_fairness(w, &split.test, interval)?;
    println!(
        "{} seed {seed}: IDCA pGAUC (49) κ={kappa}: acc {acc:.4} pGAUC {pgauc:.4} pSP {psp:.4} \
         (K={k}, {}, {:.1}s)",
        spec.name,
        fit.report.status,
        start.elapsed().as_secs_f64()
    );
    Ok(Point {
        dataset: spec.name,
        method: "IDCA pGAUC (49)".into(),
        param: kappa,
        seed,
        accuracy: acc,
        psp,
        pdp,
        ks_full: f64::NAN,
        pgauc,
        train_psp: f64::NAN,
        outer_k: k,
        train_violation: viol,
        seconds: start.elapsed().as_secs_f64(),
        status: format!("{} at k={}", fit.report.status, fit.report.iterations),
    })
}

/// The estimator settings of model (15) on `interval` with tolerance κ and `m` grid points
/// (hard sigmoid); the budget sets T, ε and K per fit.
pub(super) fn percentile_parity(
    interval: PercentileInterval,
    kappa: f64,
    m: usize,
) -> PartialParityParams {
    PartialParity::params()
        .constraint(PartialConstraint::PercentileParity)
        .interval(interval.alpha(), interval.beta())
        .kappa(kappa)
        .grid_size(m)
        .surrogate(Surrogate::HardSigmoid)
}

/// Checkpoints `(K, x)` of one IDCA fit and how it ended (with the T and ε used).
pub(super) type Fitted = (Vec<(usize, Vec<f64>)>, String);

/// IDCA with the budget's fixed T and ε, keeping the budget's checkpoints.
pub(super) fn fixed_fit(
    spec: &Spec,
    budget: &Budget,
    model: &PartialParityParams,
    data: &CrossData,
) -> Result<Fitted> {
    let (t, e) = (budget.inner(spec), budget.eps);
    let fit = model
        .clone()
        .max_iter(budget.outer(spec))
        .max_inner_iter(t)
        .eps(e)
        .checkpoints(budget.checkpoints(spec).to_vec())
        .check()?
        .fit_cross(data, None)?;
    let end = format!(
        "{} at k={}, T={t} ε={e}",
        fit.report.status, fit.report.iterations
    );
    Ok((fit.checkpoints, end))
}

/// G.2.2: every (T, ε) of the grid runs `grid.outer` outer iterations (in parallel); the pair
/// with the highest validation accuracy (ties keep the earlier pair, T-major order) is continued
/// from its last iterate up to the largest K — IDCA carries nothing but `w⁽ᵏ⁾` between outer
/// iterations, so this equals a fresh run of K iterations — and the checkpoints `ks` are kept for
/// the choice of K. A trial that fails (ε below the start's violation) is skipped; if all fail,
/// the last error is returned.
pub(super) fn protocol_fit(
    protocol: &Protocol,
    split: &Split,
    model: &PartialParityParams,
    interval: PercentileInterval,
) -> Result<Fitted> {
    let grid = &protocol.grid;
    let nw = split.train.dim();
    let pairs: Vec<(usize, f64)> = grid
        .inner
        .iter()
        .flat_map(|&t| grid.eps.iter().map(move |&e| (t, e)))
        .collect();
    let early: Vec<usize> = protocol
        .ks
        .iter()
        .copied()
        .filter(|&k| k <= grid.outer)
        .collect();
    let trials: Vec<Result<(f64, dc_opt::Idca)>> = pairs
        .par_iter()
        .map(|&(t, e)| {
            let fit = model
                .clone()
                .max_iter(grid.outer)
                .max_inner_iter(t)
                .eps(e)
                .checkpoints(early.clone())
                .check()?
                .fit_cross(&split.train, None)?;
            let (acc, _, _) = evaluate(&fit.x[..nw], &split.val, interval)?;
            Ok((acc, fit))
        })
        .collect();
    let mut best: Option<(f64, usize, f64, dc_opt::Idca)> = None;
    let mut last_err = None;
    for (&(t, e), trial) in pairs.iter().zip(trials) {
        match trial {
            Ok((acc, fit)) => {
                if best.as_ref().is_none_or(|b| acc > b.0) {
                    best = Some((acc, t, e, fit));
                }
            }
            Err(err) => last_err = Some(err),
        }
    }
    let Some((_, t, e, trial)) = best else {
        return Err(last_err.unwrap_or_else(|| XtaskError::Training {
            model: "IDCA (T, ε) grid",
            reason: "the grid is empty".into(),
        }));
    };
    let late: Vec<usize> = protocol
        .ks
        .iter()
        .filter(|&&k| k > grid.outer)
        .map(|&k| k - grid.outer)
        .collect();
    let mut checkpoints = trial.checkpoints;
    let mut end = format!("{} at k={}", trial.report.status, trial.report.iterations);
    if let Some(&more) = late.iter().max() {
        if trial.report.status == Termination::Stationary {
            // A fixed point: every later outer iteration repeats it.
            checkpoints.extend(late.iter().map(|&k| (k + grid.outer, trial.x.clone())));
        } else {
            let rest = model
                .clone()
                .max_iter(more)
                .max_inner_iter(t)
                .eps(e)
                .checkpoints(late)
                .check()?
                .fit_cross(&split.train, Some(&trial.x))?;
            checkpoints.extend(
                rest.checkpoints
                    .into_iter()
                    .map(|(k, w)| (k + grid.outer, w)),
            );
            end = format!(
                "{} at k={}",
                rest.report.status,
                rest.report.iterations + grid.outer
            );
        }
    }
    Ok((checkpoints, format!("{end}, T={t} ε={e}")))
}

/// A pairwise baseline (102)/(105)/(107) by projected gradient with the budget's step count.
pub(super) fn pairwise(
    split: &Split,
    spec: &Spec,
    budget: &Budget,
    kind: PairwiseKind,
    kappa: f64,
) -> Result<dc_opt::baselines::PairwiseFit> {
    Ok(fit_pairwise(
        &split.train,
        kind,
        &PairwiseParams {
            kappa,
            step: None,
            iters: budget.pair_iters(spec),
            max_qp_iter: 100,
        },
    )?)
}

/// Runs IDCA (fixed settings or the G.2.2 protocol), picks the checkpoint K with the best
/// validation accuracy, evaluates it on test (and its exact pSP fairness on the training rows).
#[allow(clippy::too_many_arguments)]
pub(super) fn idca_point(
    spec: &Spec,
    split: &Split,
    model: &PartialParityParams,
    budget: &Budget,
    tuning: Tuning,
    method: String,
    param: f64,
    seed: u64,
    eval_interval: PercentileInterval,
) -> Result<(Point, Vec<f64>)> {
    let start = Instant::now();
    let nw = split.train.dim();
    let (checkpoints, end) = match tuning {
        Tuning::Fixed => fixed_fit(spec, budget, model, &split.train)?,
        Tuning::Protocol(p) => protocol_fit(p, split, model, eval_interval)?,
    };
    let (k, x) = best_checkpoint(&checkpoints, split, eval_interval, "IDCA")?;
    let w = x[..nw].to_vec();
    let (_, viol) = model
        .clone()
        .check()?
        .objective_and_violation(&split.train, x)?;
    let (acc, psp, pdp) = evaluate(&w, &split.test, eval_interval)?;
    let (_, train_psp, _) = evaluate(&w, &split.train_eval, eval_interval)?;
    Ok((
        Point {
            dataset: spec.name,
            method,
            param,
            seed,
            accuracy: acc,
            psp,
            pdp,
            ks_full: full_ks(&w, &split.test)?,
            pgauc: f64::NAN,
            train_psp,
            outer_k: k,
            train_violation: viol,
            seconds: start.elapsed().as_secs_f64(),
            status: end,
        },
        w,
    ))
}

pub(super) type Hist = (Vec<dc_opt::IterInfo>, Vec<dc_opt::IterInfo>);

/// IDCA and the direct SSG (constant ε = IDCA's ε) with the same total inner-iteration budget.
pub(super) fn run_pair<P: dc_opt::DcProblem>(
    p: &P,
    x0: &[f64],
    budget: &Budget,
    spec: &Spec,
    total: usize,
) -> Result<Hist> {
    let mut hi = History::default();
    IdcaSolver::params()
        .outer_iters(budget.outer(spec))
        .inner_iters(budget.inner(spec))
        .eps(budget.eps)
        .fit_with_observer(p, x0, &mut hi)?;
    let mut hs = History::every((total / 400).max(1));
    Ssg::params()
        .iters(total)
        .tolerance(Tolerance::Constant(budget.eps))
        .fit_with_observer(p, x0, &mut hs)?;
    Ok((hi.iters, hs.iters))
}
