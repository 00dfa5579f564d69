//! One data set, seed by seed: every fit the budget gives a seed, collected into a [`DatasetOut`].

use super::*;

pub(super) struct DatasetOut {
    pub(super) points: Vec<Point>,
    pub(super) rank: Vec<Series>,
    /// Test scores for the density figures: (family "psp"/"pdp"/"both", label, scores, codes).
    pub(super) dens: Vec<(&'static str, String, Vec<f64>, Vec<usize>)>,
    pub(super) convergence: Vec<Value>,
    pub(super) conv_series: (Vec<Series>, Vec<Series>),
    pub(super) table3: Vec<Point>,
    /// Unconstrained pSP fairness with percentiles counted from the bottom (I mirrored to
    /// [1 − β, 1 − α]) — a diagnostic for the reading of the paper's unconstrained figure.
    pub(super) mirror: Vec<f64>,
    /// Per seed: the unconstrained-model hypotheses (reading, pSP fairness, accuracy).
    pub(super) hyp: Vec<Vec<hypotheses::Row>>,
    /// Figure 9's bars (every seed of `robust_seeds`).
    pub(super) robust: Vec<robustness::Bar>,
    /// Test rows per group on the first seed (the sampling noise of the test-set pSP).
    pub(super) test_groups: [usize; 2],
    pub(super) test_group_names: Vec<String>,
}

impl DatasetOut {
    pub(super) fn empty() -> Self {
        Self {
            points: Vec::new(),
            rank: Vec::new(),
            dens: Vec::new(),
            convergence: Vec::new(),
            conv_series: (Vec::new(), Vec::new()),
            table3: Vec::new(),
            mirror: Vec::new(),
            hyp: Vec::new(),
            robust: Vec::new(),
            test_groups: [0, 0],
            test_group_names: Vec::new(),
        }
    }

    /// Appends the output of a later seed.
    pub(super) fn merge(&mut self, o: DatasetOut) {
        self.points.extend(o.points);
        self.rank.extend(o.rank);
        self.dens.extend(o.dens);
        self.convergence.extend(o.convergence);
        self.conv_series.0.extend(o.conv_series.0);
        self.conv_series.1.extend(o.conv_series.1);
        self.table3.extend(o.table3);
        self.mirror.extend(o.mirror);
        self.hyp.extend(o.hyp);
        self.robust.extend(o.robust);
        for (a, b) in self.test_groups.iter_mut().zip(o.test_groups) {
            *a += b;
        }
        if self.test_group_names.is_empty() {
            self.test_group_names = o.test_group_names;
        }
    }
}

/// Every seed of one dataset, in parallel (rayon; the κ of a seed and the (T, ε) trials of the
/// G.2.2 protocol are parallel too), merged in seed order.
pub(super) fn run_dataset(spec: &Spec, budget: &Budget, quick: bool) -> Result<DatasetOut> {
    let seeds = if budget.only_gauc || budget.only_table4 {
        budget.seeds(spec)
    } else {
        &budget.hyp_seeds
    };
    let per_seed: Vec<DatasetOut> = seeds
        .par_iter()
        .map(|&seed| run_seed(spec, budget, quick, seed, seeds))
        .collect::<Result<_>>()?;
    let mut out = DatasetOut::empty();
    for o in per_seed {
        out.merge(o);
    }
    Ok(out)
}

/// What every part of one seed's run reads: the data set, the budget, the seed's split.
struct SeedRun<'a> {
    spec: &'a Spec,
    budget: &'a Budget,
    split: Split,
    seed: u64,
    interval: PercentileInterval,
}

/// One seed of one dataset: the unconstrained model, its hypotheses and every fit the budget
/// gives this seed.
pub(super) fn run_seed(
    spec: &Spec,
    budget: &Budget,
    quick: bool,
    seed: u64,
    seeds: &[u64],
) -> Result<DatasetOut> {
    let interval = PercentileInterval::new(spec.interval.0, spec.interval.1)?;
    let mut out = DatasetOut::empty();
    let t0 = Instant::now();
    let split = load(spec, seed)?;
    if seed == seeds[0] {
        for &c in split.test.g.codes() {
            out.test_groups[c.min(1)] += 1;
        }
        out.test_group_names = split.test.g.names().to_vec();
    }
    let w_star = fit_unconstrained(&split.train, 0.0, 500)?;
    let (acc, psp, pdp) = evaluate(&w_star, &split.test, interval)?;
    out.points.push(Point {
        dataset: spec.name,
        method: "unconstrained".into(),
        param: f64::NAN,
        seed,
        accuracy: acc,
        psp,
        pdp,
        ks_full: full_ks(&w_star, &split.test)?,
        pgauc: pgauc_fairness(&w_star, &split.test, interval)?,
        train_psp: evaluate(&w_star, &split.train_eval, interval)?.1,
        outer_k: 0,
        train_violation: f64::NAN,
        seconds: t0.elapsed().as_secs_f64(),
        status: "L-BFGS".into(),
    });
    if budget.only_gauc {
        for &kappa in &budget.gauc_kappas {
            out.points
                .push(gauc_point(spec, &split, budget, kappa, seed, interval)?);
        }
        return Ok(out);
    }
    if !budget.only_table4 {
        let s_te = cross_scores(&w_star, &split.test.x, &split.test.g)?;
        let rows = hypotheses::run(
            spec,
            &split.raw,
            &s_te,
            &split.train_eval,
            &w_star,
            !quick,
            !quick && seed == budget.hyp_seeds[0],
        )?;
        out.hyp.push(rows);
    }
    if !budget.seeds(spec).contains(&seed) {
        return Ok(out);
    }
    let mirrored = PercentileInterval::new(1.0 - spec.interval.1, 1.0 - spec.interval.0)?;
    let (_, psp_mirror, _) = evaluate(&w_star, &split.test, mirrored)?;
    out.mirror.push(psp_mirror);
    println!(
        "{} seed {seed}: unconstrained acc {acc:.4} pSP {psp:.4} pDP {pdp:.4} \
         (pSP on the mirrored interval {psp_mirror:.4})",
        spec.name
    );
    if seed == budget.seeds(spec)[0] {
        out.dens.push((
            "both",
            "unconstrained".into(),
            cross_scores(&w_star, &split.test.x, &split.test.g)?,
            split.test.g.codes().to_vec(),
        ));
        out.rank.push(Series {
            name: "unconstrained".into(),
            points: rank_curve(&w_star, &split.test)?,
            line: true,
        });
    }
    let run = SeedRun {
        spec,
        budget,
        split,
        seed,
        interval,
    };
    // The main seeds run pSP with |Î| = 10; pDP and the baselines run on `side_seeds`;
    // |Î| ≠ 10 and Table 3 on `extra_seeds`; model (49) and Figure 9 on `robust_seeds`.
    let side = budget.side_seeds.contains(&seed);
    let extra = budget.extra_seeds.contains(&seed);
    let robust = budget.robust_seeds.contains(&seed);
    psp_fits(&run, extra, &mut out)?;
    dp_fits(&run, side, &mut out)?;
    gauc_fits(&run, robust, &mut out)?;
    regularization(&run, side, &mut out)?;
    pairwise_baselines(&run, side, &mut out)?;
    table3(&run, extra, &mut out)?;
    if robust {
        figure9(&run, &mut out)?;
    }
    convergence(&run, &mut out)?;
    println!(
        "{} seed {seed} done in {:.1} s",
        spec.name,
        t0.elapsed().as_secs_f64()
    );
    Ok(out)
}

/// Model (15) by IDCA on every grid size |Î| the budget gives this seed (Table 4 and its
/// |Î| = 20 rows), with the density and rank-curve scores of the first seed.
fn psp_fits(run: &SeedRun, extra: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    let pick = |grid: &'static [f64]| pick(budget, grid);
    for &m in budget.grid_sizes(spec) {
        if m != 10 && !extra {
            continue;
        }
        // Table 4's rows (|Î| = 10) follow the paper's G.2.2 protocol; the other grid
        // sizes too with `--idca-tune`, else the fixed budget.
        let tuning = if m == 10 || budget.protocol_all {
            Tuning::Protocol(&budget.protocol)
        } else {
            Tuning::Fixed
        };
        let fits: Vec<(f64, Point, Vec<f64>)> = pick(spec.kappa_sp)
            .par_iter()
            .map(|&kappa| {
                let model = percentile_parity(interval, kappa, m);
                let (pt, w) = idca_point(
                    spec,
                    split,
                    &model,
                    budget,
                    tuning,
                    format!("IDCA pSP (15), #Î={m}"),
                    kappa,
                    seed,
                    interval,
                )?;
                println!(
                    "{} seed {seed}: {} κ={kappa}: acc {:.4} pSP {:.4} train pSP {:.4} \
                     (K={}, {}, {:.1}s)",
                    spec.name,
                    pt.method,
                    pt.accuracy,
                    pt.psp,
                    pt.train_psp,
                    pt.outer_k,
                    pt.status,
                    pt.seconds
                );
                Ok((kappa, pt, w))
            })
            .collect::<Result<_>>()?;
        for (kappa, pt, w) in fits {
            if seed == budget.seeds(spec)[0] && m == 10 && spec.density_sp.contains(&kappa) {
                out.dens.push((
                    "psp",
                    format!("κ = {kappa}"),
                    cross_scores(&w, &split.test.x, &split.test.g)?,
                    split.test.g.codes().to_vec(),
                ));
            }
            if seed == budget.seeds(spec)[0] && m == 10 && spec.rank_kappas.contains(&kappa) {
                out.rank.push(Series {
                    name: format!("κ = {kappa}"),
                    points: rank_curve(&w, &split.test)?,
                    line: true,
                });
            }
            out.points.push(pt);
        }
    }
    Ok(())
}

/// Model (21) by IDCA (the pDP frontier), with the density scores of the first seed.
fn dp_fits(run: &SeedRun, side: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    let pick = |grid: &'static [f64]| pick(budget, grid);
    let kappas_dp = if side {
        pick(spec.kappa_dp)
    } else {
        Vec::new()
    };
    let tuning_dp = if budget.protocol_all {
        Tuning::Protocol(&budget.protocol)
    } else {
        Tuning::Fixed
    };
    let fits: Vec<(f64, Point, Vec<f64>)> = kappas_dp
        .par_iter()
        .map(|&kappa| {
            let model = PartialParity::params()
                .constraint(PartialConstraint::DemographicParity)
                .interval(interval.alpha(), interval.beta())
                .kappa(kappa)
                .threshold(0.0)
                .surrogate(Surrogate::HardSigmoid);
            let (pt, w) = idca_point(
                spec,
                split,
                &model,
                budget,
                tuning_dp,
                "IDCA pDP (21)".into(),
                kappa,
                seed,
                interval,
            )?;
            println!(
                "{} seed {seed}: {} κ={kappa}: acc {:.4} pDP {:.4} (K={}, {}, {:.1}s)",
                spec.name, pt.method, pt.accuracy, pt.pdp, pt.outer_k, pt.status, pt.seconds
            );
            Ok((kappa, pt, w))
        })
        .collect::<Result<_>>()?;
    for (kappa, pt, w) in fits {
        if seed == budget.seeds(spec)[0] && spec.density_dp.contains(&kappa) {
            out.dens.push((
                "pdp",
                format!("κ = {kappa}"),
                cross_scores(&w, &split.test.x, &split.test.g)?,
                split.test.g.codes().to_vec(),
            ));
        }
        out.points.push(pt);
    }
    Ok(())
}

/// Model (49) on the robustness seeds.
fn gauc_fits(run: &SeedRun, robust: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    // Model (49): the paper runs no (49) experiment, so the κ grid is this repro's own.
    let gauc_kappas = if robust {
        budget.gauc_kappas.clone()
    } else {
        Vec::new()
    };
    for &kappa in &gauc_kappas {
        out.points
            .push(gauc_point(spec, split, budget, kappa, seed, interval)?);
    }
    Ok(())
}

/// The regularisation baselines (114) / (119).
fn regularization(run: &SeedRun, side: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    let pick = |grid: &'static [f64]| pick(budget, grid);
    // Regularisation baselines (114) / (119), same total iteration budget as IDCA.
    let (lambdas_sp, lambdas_dp) = if side {
        (pick(spec.lambda_sp), pick(spec.lambda_dp))
    } else {
        (Vec::new(), Vec::new())
    };
    let grid10 = percentile_grid(interval, 0.0, 10)?;
    for (label, lambdas, penalty) in [
        (
            "regularization (114)",
            lambdas_sp,
            Penalty::PartialSp { grid: grid10 },
        ),
        (
            "regularization (119)",
            lambdas_dp,
            Penalty::PartialDp { threshold: 0.0 },
        ),
    ] {
        for lambda in lambdas {
            let t = Instant::now();
            let params = RegularizedParams {
                lambda,
                step: 5e-3,
                iters: budget.reg_iters,
                surrogate: Surrogate::HardSigmoid,
            };
            let w = fit_regularized(&split.train, interval, &penalty, &params)?;
            let (acc, psp, pdp) = evaluate(&w, &split.test, interval)?;
            out.points.push(Point {
                dataset: spec.name,
                method: label.into(),
                param: lambda,
                seed,
                accuracy: acc,
                psp,
                pdp,
                ks_full: f64::NAN,
                pgauc: f64::NAN,
                train_psp: f64::NAN,
                outer_k: 0,
                train_violation: f64::NAN,
                seconds: t.elapsed().as_secs_f64(),
                status: format!("{} subgradient steps", budget.reg_iters),
            });
        }
    }
    Ok(())
}

/// The pairwise baselines (102)/(105)/(107) on the pSP and the pDP κ grids.
fn pairwise_baselines(run: &SeedRun, side: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    // Pairwise baselines (102)/(105)/(107): projected gradient, clarabel QCQP projection.
    let pair_iters = budget.pair_iters(spec);
    let kinds = [
        (PairwiseKind::GroupAuc, "group AUC (102)"),
        (PairwiseKind::InterGroup, "inter-group pairwise (105)"),
        (PairwiseKind::IntraGroup, "intra-group pairwise (107)"),
    ];
    for (grids, target) in [(&spec.pair_sp, "pSP"), (&spec.pair_dp, "pDP")] {
        for ((kind, label), grid) in kinds.iter().zip(grids.iter()) {
            let kappas: Vec<f64> = if !side {
                Vec::new()
            } else if budget.kappa_pick.is_some() {
                grid.iter().take(1).copied().collect()
            } else {
                grid.to_vec()
            };
            for kappa in kappas {
                let t = Instant::now();
                let fit = pairwise(split, spec, budget, *kind, kappa)?;
                let (acc, psp, pdp) = evaluate(&fit.w, &split.test, interval)?;
                let pt = Point {
                    dataset: spec.name,
                    method: format!("{label}, {target} κ grid"),
                    param: kappa,
                    seed,
                    accuracy: acc,
                    psp,
                    pdp,
                    ks_full: f64::NAN,
                    pgauc: f64::NAN,
                    train_psp: f64::NAN,
                    outer_k: 0,
                    train_violation: fit.max_violation,
                    seconds: t.elapsed().as_secs_f64(),
                    status: format!(
                        "{pair_iters} projected-gradient steps, {} clarabel projections \
                         ({} reduced accuracy)",
                        fit.projections, fit.reduced_accuracy
                    ),
                };
                println!(
                    "{} seed {seed}: {} κ={kappa}: acc {:.4} pSP {:.4} pDP {:.4} ({}; {:.1}s)",
                    spec.name, pt.method, acc, psp, pdp, pt.status, pt.seconds
                );
                out.points.push(pt);
            }
        }
    }
    Ok(())
}

/// Table 3: model (15) on the full range.
fn table3(run: &SeedRun, extra: bool, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    let pick = |grid: &'static [f64]| pick(budget, grid);
    // Table 3: model (15) on the full range, Î with the partial grid's spacing.
    if budget.table3(spec) && extra {
        let spacing = (spec.interval.1 - spec.interval.0) / 10.0;
        let m_full = (1.0 / spacing).round() as usize;
        for kappa in pick(spec.kappa_sp) {
            let full = PercentileInterval::FULL;
            let model = percentile_parity(full, kappa, m_full);
            let (pt, _) = idca_point(
                spec,
                split,
                &model,
                budget,
                if budget.protocol_all {
                    Tuning::Protocol(&budget.protocol)
                } else {
                    Tuning::Fixed
                },
                format!("IDCA full SP (15), #Î={m_full}"),
                kappa,
                seed,
                interval,
            )?;
            println!(
                "{} seed {seed}: {} κ={kappa}: acc {:.4} pSP(I) {:.4}",
                spec.name, pt.method, pt.accuracy, pt.psp
            );
            out.table3.push(pt);
        }
    }
    Ok(())
}

/// Figure 9: the fixed-κ / λ models on the data set's intervals.
fn figure9(run: &SeedRun, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    // Figure 9: the fixed-κ / λ models on every interval of the dataset.
    let all = spec.robust.intervals;
    let intervals = &all[..budget.robust_intervals.unwrap_or(all.len()).min(all.len())];
    let bars = robustness::run(spec, spec.robust, intervals, split, budget, seed)?;
    for b in &bars {
        println!(
            "{} seed {seed}: Figure 9 {} on {}: acc {:.4} pSP {:.4}",
            spec.name,
            b.method,
            robustness::label(b.interval),
            b.accuracy,
            b.psp
        );
    }
    out.robust.extend(bars);
    Ok(())
}

/// Figures 10–11: IDCA against the direct SSG on (15) and (21).
fn convergence(run: &SeedRun, out: &mut DatasetOut) -> Result<()> {
    let spec = run.spec;
    let budget = run.budget;
    let split = &run.split;
    let seed = run.seed;
    let interval = run.interval;
    // IDCA vs direct SSG on (15) and (21) at the smallest κ (first seed only).
    if seed == budget.seeds(spec)[0] && !budget.only_table4 {
        let kappa_sp = *spec.kappa_sp.last().unwrap_or(&0.01);
        let kappa_dp = *spec.kappa_dp.last().unwrap_or(&0.01);
        let grid = percentile_grid(interval, kappa_sp, 10)?;
        let sp = PartialSp::new(
            &split.train,
            interval,
            kappa_sp,
            grid,
            Surrogate::HardSigmoid,
        )?;
        let dp = PartialDp::new(
            &split.train,
            interval,
            kappa_dp,
            0.0,
            Surrogate::HardSigmoid,
            DpVariant::DemographicParity,
        )?;
        // The direct SSG gets IDCA's total number of inner iterations, T · K.
        let total = budget.inner(spec) * budget.outer(spec);
        for (model, (hi, hs)) in [
            (
                "(15)",
                run_pair(&sp, &sp.initial_point(), budget, spec, total)?,
            ),
            (
                "(21)",
                run_pair(&dp, &dp.initial_point(), budget, spec, total)?,
            ),
        ] {
            out.convergence.push(json!({
                "model": model,
                "idca": hi.iter().map(|i| json!([i.inner_iters, i.objective, i.max_violation])).collect::<Vec<_>>(),
                "ssg": hs.iter().map(|i| json!([i.inner_iters, i.objective, i.max_violation])).collect::<Vec<_>>(),
            }));
            let obj = |h: &[dc_opt::IterInfo]| {
                h.iter()
                    .map(|i| (i.inner_iters as f64, i.objective))
                    .collect()
            };
            let vio = |h: &[dc_opt::IterInfo]| {
                h.iter()
                    .map(|i| (i.inner_iters as f64, i.max_violation.max(1e-6)))
                    .collect()
            };
            out.conv_series.0.push(Series {
                name: format!("IDCA {model}"),
                points: obj(&hi),
                line: true,
            });
            out.conv_series.0.push(Series {
                name: format!("direct SSG {model}"),
                points: obj(&hs),
                line: true,
            });
            out.conv_series.1.push(Series {
                name: format!("IDCA {model}"),
                points: vio(&hi),
                line: true,
            });
            out.conv_series.1.push(Series {
                name: format!("direct SSG {model}"),
                points: vio(&hs),
                line: true,
            });
        }
    }
    Ok(())
}
