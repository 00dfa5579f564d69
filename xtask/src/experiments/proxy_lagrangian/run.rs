//! The fits: every job of a seed's grid, in parallel, on the seed's 70/10/20 split.

use super::*;

pub(super) struct Splits {
    pub(super) train: Problem,
    pub(super) valid: Problem,
    pub(super) test: Problem,
    pub(super) sizes: [usize; 3],
    pub(super) n_features: usize,
}

pub(super) fn prepare(setup: &Setup, data: &Dataset, split_seed: u64) -> Result<Splits> {
    let (train, valid, test) = Splitter::new()
        .validation(0.1)
        .test(0.2)
        .seed(split_seed)
        .split_dataset(data, false)?;
    let valid = valid.ok_or(XtaskError::Training {
        model: "proxy-lagrangian",
        reason: "empty validation split".into(),
    })?;
    let (train, valid, test) = if setup.standardize {
        let s = Standardizer::fit(train.x())?;
        (
            train.with_features(s.transform(train.x())?)?,
            valid.with_features(s.transform(valid.x())?)?,
            test.with_features(s.transform(test.x())?)?,
        )
    } else {
        (train, valid, test)
    };
    let sizes = [train.n_rows(), valid.n_rows(), test.n_rows()];
    let n_features = train.n_features();
    let train_p = Problem::new(Examples::from_dataset(&train)?, constraints(setup.key))?;
    let valid_p = train_p.on(Examples::from_dataset(&valid)?)?;
    let test_p = train_p.on(Examples::from_dataset(&test)?)?;
    Ok(Splits {
        train: train_p,
        valid: valid_p,
        test: test_p,
        sizes,
        n_features,
    })
}

#[derive(Clone)]
pub(super) struct Job {
    pub(super) family: Algorithm,
    pub(super) lr_theta: f64,
    pub(super) lr_lambda: f64,
    /// R of the multiplier set (Hinge only; `None` = no bound).
    pub(super) radius: Option<f64>,
}

impl Job {
    pub(super) fn describe(&self) -> String {
        match (self.family, self.radius) {
            (Algorithm::Unconstrained, _) => format!("{}", self.lr_theta),
            (_, Some(r)) => format!("{} / {} / R={r}", self.lr_theta, self.lr_lambda),
            (_, None) => format!("{} / {}", self.lr_theta, self.lr_lambda),
        }
    }
}

/// Train/valid/test evaluation of one solution.
#[derive(Clone)]
pub(super) struct Triple {
    pub(super) train: Evaluation,
    pub(super) valid: Evaluation,
    pub(super) test: Evaluation,
}

pub(super) struct JobResult {
    pub(super) job: Job,
    pub(super) seconds: f64,
    pub(super) solutions: Vec<(SolutionType, Triple, usize)>,
    /// (iteration, train error, train max violation) per snapshot.
    pub(super) trajectory: Vec<(f64, f64, f64)>,
}

pub(super) fn run_job<M: Model>(
    setup: &Setup,
    s: &Splits,
    job: &Job,
    model: M,
) -> Result<JobResult> {
    let params = GameOptParams::new()
        .algorithm(job.family)
        .iterations(setup.iterations)
        .batch_size(setup.batch_size)
        .snapshot_every(setup.snapshot_every)
        .lr_theta(job.lr_theta)
        .lr_lambda(job.lr_lambda)
        .multiplier_radius(job.radius)
        .seed(TRAIN_SEED);
    let fit = params.fit(&s.train, model)?;
    let seconds = fit.report().elapsed.as_secs_f64();
    let train: Vec<Evaluation> = fit.snapshots().iter().map(|x| x.train.clone()).collect();
    let valid = fit.evaluate_snapshots(&s.valid)?;
    let test = fit.evaluate_snapshots(&s.test)?;
    let kinds: &[SolutionType] = if job.family == Algorithm::Unconstrained {
        &[SolutionType::Last]
    } else {
        &SOLUTIONS
    };
    let mut solutions = Vec::new();
    for &kind in kinds {
        let sol = fit.solution(kind)?;
        solutions.push((
            kind,
            Triple {
                train: sol.evaluate(&train)?,
                valid: sol.evaluate(&valid)?,
                test: sol.evaluate(&test)?,
            },
            sol.weights.len(),
        ));
    }
    // Cross-check the deterministic last iterate's test error with fair-metrics.
    if let Some(last) = fit.snapshots().last() {
        let scores = s.test.examples().scores(&last.model)?;
        let pred: Vec<usize> = scores.iter().map(|&f| usize::from(f >= 0.0)).collect();
        let y = s.test.examples().label_indices();
        let r = subset_rates(&y, &pred, None, MSubset::All, ZeroDivision::Zero)?;
        let ours = s.test.evaluate_scores(&scores)?.error;
        if (r.error_rate - ours).abs() > 1e-12 {
            return Err(XtaskError::Training {
                model: "proxy-lagrangian",
                reason: format!("error mismatch vs fair-metrics: {ours} vs {}", r.error_rate),
            });
        }
    }
    let trajectory = fit
        .snapshots()
        .iter()
        .map(|x| {
            (
                x.iteration as f64,
                x.train.error,
                x.train.max_violation_or_zero(),
            )
        })
        .collect();
    Ok(JobResult {
        job: job.clone(),
        seconds,
        solutions,
        trajectory,
    })
}

pub(super) fn jobs(setup: &Setup) -> Vec<Job> {
    let mut v: Vec<Job> = setup
        .lr_theta
        .iter()
        .map(|&lr| Job {
            family: Algorithm::Unconstrained,
            lr_theta: lr,
            lr_lambda: 1.0,
            radius: None,
        })
        .collect();
    for fam in FAMILIES {
        let lams = if fam == Algorithm::ProxyLagrangian {
            &setup.lr_lambda_swap
        } else {
            &setup.lr_lambda_additive
        };
        let radii: Vec<Option<f64>> = if fam == Algorithm::Hinge {
            setup.radius_hinge.iter().map(|&r| Some(r)).collect()
        } else {
            vec![None]
        };
        for &lt in &setup.lr_theta {
            for &ll in lams {
                for &radius in &radii {
                    v.push(Job {
                        family: fam,
                        lr_theta: lt,
                        lr_lambda: ll,
                        radius,
                    });
                }
            }
        }
    }
    v
}

/// Runs every job on up to two worker threads (the machine has two cores); results come back in
/// job order, so the report does not depend on scheduling.
pub(super) fn run_all(setup: &Setup, s: &Splits, bar: &ProgressBar) -> Result<Vec<JobResult>> {
    let all = jobs(setup);
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Result<JobResult>>>> =
        Mutex::new((0..all.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 2);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = all.get(i) else { break };
                    let r = match setup.model {
                        ModelKind::Linear => run_job(setup, s, job, Linear::new(s.n_features)),
                        ModelKind::Mlp { hidden } => Mlp::new(s.n_features, hidden, MLP_INIT_SEED)
                            .map_err(XtaskError::from)
                            .and_then(|m| run_job(setup, s, job, m)),
                    };
                    if let Ok(mut o) = out.lock() {
                        o[i] = Some(r);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    let collected = out.into_inner().map_err(|_| XtaskError::Training {
        model: "proxy-lagrangian",
        reason: "a worker thread panicked".into(),
    })?;
    collected
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(XtaskError::Training {
                    model: "proxy-lagrangian",
                    reason: "a job did not run".into(),
                })
            })
        })
        .collect()
}

pub(super) struct SeedRun {
    pub(super) seed: u64,
    pub(super) results: Vec<JobResult>,
    pub(super) rows: Vec<Row>,
    pub(super) wall: f64,
}
