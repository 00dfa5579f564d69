//! `proxy-lagrangian`: Tables 6–7 of Cotter et al. (the TFCO paper) — Adult (linear model, equal
//! opportunity at 95 %) and COMPAS (10-unit ReLU net, equal opportunity with +0.05 slack), all 13
//! rows (Unconstrained; Hinge, 0-1 swap, 0-1 ext × m-stoch, T-stoch, Best, Last), each row's
//! hyperparameters chosen with the Eq. 18 rank rule on validation, repeated over several random
//! 70/10/20 splits (mean ± sd per row).

use crate::experiments::Experiment;
use crate::report::{Context, Result, XtaskError};
use fair_data::{Dataset, Splitter, Standardizer, recipes};
use fair_metrics::ZeroDivision;
use fair_metrics::rate_constraints::{Subset as MSubset, subset_rates};
use fair_report::Table;
use fair_report::trajectory::{Series, stacked_lines};
use game_opt::{
    Algorithm, Direction, Evaluation, Examples, GameOptParams, Linear, Mlp, Model, Problem, Slack,
    SolutionType, goals, rank_select,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct ProxyLagrangianRepro;

/// Split seeds of the full run (one per repetition); quick mode uses the first only.
const SPLIT_SEEDS: [u64; 5] = [0, 1, 2, 3, 4];
const TRAIN_SEED: u64 = 1;
const MLP_INIT_SEED: u64 = 2;

/// Families in table order, with the solution types each reports.
const FAMILIES: [Algorithm; 3] = [
    Algorithm::Hinge,
    Algorithm::ProxyLagrangian,
    Algorithm::ZeroOneExt,
];
const SOLUTIONS: [SolutionType; 4] = [
    SolutionType::MStoch,
    SolutionType::TStoch,
    SolutionType::Best,
    SolutionType::Last,
];

/// The paper's rows: (label, train err, valid err, test err, train vio, valid vio, test vio).
type PaperRow = (&'static str, [f64; 6]);
const ADULT_PAPER: [PaperRow; 13] = [
    (
        "Unconstrained",
        [0.1421, 0.1348, 0.1428, 0.0803, 0.0604, 0.0555],
    ),
    (
        "Hinge m-stoch",
        [0.1431, 0.1348, 0.1442, 0.0, -0.0088, 0.0025],
    ),
    (
        "Hinge T-stoch",
        [0.1462, 0.1394, 0.1481, -0.0409, -0.0372, -0.0436],
    ),
    (
        "Hinge Best",
        [0.1424, 0.1333, 0.1447, -0.028, -0.0154, -0.0317],
    ),
    (
        "Hinge Last",
        [0.1532, 0.1490, 0.1551, -0.0174, -0.0217, -0.0254],
    ),
    (
        "0-1 swap m-stoch",
        [0.1431, 0.1349, 0.1432, 0.0176, 0.0023, 0.0559],
    ),
    (
        "0-1 swap T-stoch",
        [0.1428, 0.1365, 0.1436, 0.0054, 0.0354, 0.0285],
    ),
    (
        "0-1 swap Best",
        [0.1426, 0.1354, 0.1440, -0.0016, 0.0140, 0.0154],
    ),
    (
        "0-1 swap Last",
        [0.1436, 0.1358, 0.1443, 0.0069, 0.0248, 0.0221],
    ),
    (
        "0-1 ext m-stoch",
        [0.1418, 0.1348, 0.1432, 0.0, -0.0019, 0.0059],
    ),
    (
        "0-1 ext T-stoch",
        [0.1441, 0.1369, 0.1447, 0.0034, 0.022, 0.0174],
    ),
    (
        "0-1 ext Best",
        [0.1420, 0.1348, 0.1432, -0.0374, -0.0333, -0.0015],
    ),
    (
        "0-1 ext Last",
        [0.1436, 0.1358, 0.1448, -0.0116, 0.0078, 0.0028],
    ),
];
const COMPAS_PAPER: [PaperRow; 13] = [
    (
        "Unconstrained",
        [0.3056, 0.3160, 0.3109, 0.1151, 0.2143, 0.1082],
    ),
    (
        "Hinge m-stoch",
        [0.3711, 0.3744, 0.3676, 0.0, 0.0395, 0.0284],
    ),
    (
        "Hinge T-stoch",
        [0.2880, 0.3387, 0.3198, 0.1093, 0.1779, 0.0917],
    ),
    (
        "Hinge Best",
        [0.2840, 0.3322, 0.3223, 0.0803, 0.1262, 0.0800],
    ),
    (
        "Hinge Last",
        [0.2882, 0.3322, 0.3231, 0.1275, 0.1968, 0.0996],
    ),
    (
        "0-1 swap m-stoch",
        [0.3132, 0.3015, 0.3174, 0.0004, 0.0851, 0.0111],
    ),
    (
        "0-1 swap T-stoch",
        [0.2968, 0.3208, 0.3219, 0.0257, 0.1286, 0.0547],
    ),
    (
        "0-1 swap Best",
        [0.3009, 0.3096, 0.3125, 0.0281, 0.1084, 0.0356],
    ),
    (
        "0-1 swap Last",
        [0.3023, 0.3096, 0.3158, 0.0412, 0.1153, 0.0480],
    ),
    (
        "0-1 ext m-stoch",
        [0.3145, 0.3080, 0.3146, 0.0, 0.0813, 0.0147],
    ),
    (
        "0-1 ext T-stoch",
        [0.2990, 0.3128, 0.3086, 0.0323, 0.1154, 0.0321],
    ),
    (
        "0-1 ext Best",
        [0.3106, 0.3160, 0.3101, -0.0069, 0.0797, -0.0085],
    ),
    (
        "0-1 ext Last",
        [0.2935, 0.3160, 0.3125, 0.0330, 0.1231, 0.0325],
    ),
];

#[derive(Clone, Copy)]
enum ModelKind {
    Linear,
    Mlp { hidden: usize },
}

/// Everything that defines one dataset's experiment (all open choices live here).
struct Setup {
    key: &'static str,
    title: &'static str,
    model: ModelKind,
    standardize: bool,
    iterations: usize,
    batch_size: usize,
    snapshot_every: usize,
    lr_theta: Vec<f64>,
    lr_lambda_swap: Vec<f64>,
    lr_lambda_additive: Vec<f64>,
    /// Radii R of Λ = {λ ≥ 0, ‖λ‖₁ ≤ R} tried for the Hinge family (its hinge constraints are
    /// never satisfiable, so without a radius its multipliers grow without bound).
    radius_hinge: Vec<f64>,
    split_seeds: Vec<u64>,
    paper: &'static [PaperRow; 13],
}

fn seeds(quick: bool) -> Vec<u64> {
    if quick {
        SPLIT_SEEDS[..1].to_vec()
    } else {
        SPLIT_SEEDS.to_vec()
    }
}

fn setups(quick: bool) -> Vec<Setup> {
    let grid = |full: &[f64], q: &[f64]| if quick { q.to_vec() } else { full.to_vec() };
    vec![
        Setup {
            key: "adult",
            title: "Adult (linear, equal opportunity at 95 %)",
            model: ModelKind::Linear,
            standardize: false,
            iterations: if quick { 600 } else { 3000 },
            batch_size: 512,
            snapshot_every: if quick { 20 } else { 30 },
            lr_theta: grid(&[0.001, 0.01, 0.1], &[0.01]),
            lr_lambda_swap: grid(&[0.1, 1.0, 10.0], &[1.0]),
            lr_lambda_additive: grid(&[0.01, 0.1, 1.0], &[0.1]),
            radius_hinge: grid(&[0.01, 0.1, 1.0], &[0.1]),
            split_seeds: seeds(quick),
            paper: &ADULT_PAPER,
        },
        Setup {
            key: "compas",
            title: "COMPAS (10-unit ReLU net, equal opportunity +0.05)",
            model: ModelKind::Mlp { hidden: 10 },
            standardize: true,
            iterations: if quick { 800 } else { 4000 },
            batch_size: 128,
            snapshot_every: if quick { 20 } else { 40 },
            lr_theta: grid(&[0.001, 0.01, 0.1], &[0.01]),
            lr_lambda_swap: grid(&[0.1, 1.0, 10.0], &[1.0]),
            lr_lambda_additive: grid(&[0.01, 0.1, 1.0], &[0.1]),
            radius_hinge: grid(&[0.01, 0.1, 1.0], &[0.1]),
            split_seeds: seeds(quick),
            paper: &COMPAS_PAPER,
        },
    ]
}

/// Adult: TPR(group) ≥ 0.95·TPR(all) for Black, White, Female, Male (Eq. 19).
/// COMPAS: TPR(group) ≤ TPR(all) + 0.05 for African-American, Caucasian, Female, Male.
fn constraints(key: &str) -> Vec<game_opt::Constraint> {
    if key == "adult" {
        let (d, s) = (Direction::AtLeast, Slack::Multiplicative(0.95));
        let mut c = goals::equal_opportunity("race", &["Black", "White"], d, s);
        c.extend(goals::equal_opportunity("sex", &["Female", "Male"], d, s));
        c
    } else {
        let (d, s) = (Direction::AtMost, Slack::Additive(0.05));
        let mut c = goals::equal_opportunity("race", &["African-American", "Caucasian"], d, s);
        c.extend(goals::equal_opportunity("sex", &["Female", "Male"], d, s));
        c
    }
}

struct Splits {
    train: Problem,
    valid: Problem,
    test: Problem,
    sizes: [usize; 3],
    n_features: usize,
}

fn prepare(setup: &Setup, data: &Dataset, split_seed: u64) -> Result<Splits> {
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
struct Job {
    family: Algorithm,
    lr_theta: f64,
    lr_lambda: f64,
    /// R of the multiplier set (Hinge only; `None` = no bound).
    radius: Option<f64>,
}

impl Job {
    fn describe(&self) -> String {
        match (self.family, self.radius) {
            (Algorithm::Unconstrained, _) => format!("{}", self.lr_theta),
            (_, Some(r)) => format!("{} / {} / R={r}", self.lr_theta, self.lr_lambda),
            (_, None) => format!("{} / {}", self.lr_theta, self.lr_lambda),
        }
    }
}

/// Train/valid/test evaluation of one solution.
#[derive(Clone)]
struct Triple {
    train: Evaluation,
    valid: Evaluation,
    test: Evaluation,
}

struct JobResult {
    job: Job,
    seconds: f64,
    solutions: Vec<(SolutionType, Triple, usize)>,
    /// (iteration, train error, train max violation) per snapshot.
    trajectory: Vec<(f64, f64, f64)>,
}

fn run_job<M: Model>(setup: &Setup, s: &Splits, job: &Job, model: M) -> Result<JobResult> {
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

fn jobs(setup: &Setup) -> Vec<Job> {
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
fn run_all(setup: &Setup, s: &Splits, bar: &ProgressBar) -> Result<Vec<JobResult>> {
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

/// One table row: the selected job's evaluation of one solution type.
struct Row {
    label: String,
    triple: Triple,
    job: Job,
    support: usize,
}

fn select_rows(results: &[JobResult]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut pick = |family: Algorithm, kind: SolutionType, label: String| {
        let cands: Vec<(&JobResult, &Triple, usize)> = results
            .iter()
            .filter(|r| r.job.family == family)
            .filter_map(|r| {
                r.solutions
                    .iter()
                    .find(|(k, _, _)| *k == kind)
                    .map(|(_, t, n)| (r, t, *n))
            })
            .collect();
        let obj: Vec<f64> = cands.iter().map(|c| c.1.valid.error).collect();
        // The unconstrained baseline is validated on error alone (§5.2: "only Adam's learning
        // rate is validated"); ranking it by a violation it does not try to reduce would pick a
        // worse classifier that happens to be fairer.
        let vio: Vec<f64> = if family == Algorithm::Unconstrained {
            vec![0.0; cands.len()]
        } else {
            cands
                .iter()
                .map(|c| c.1.valid.max_violation_or_zero())
                .collect()
        };
        if let Some(i) = rank_select(&obj, &vio) {
            rows.push(Row {
                label,
                triple: cands[i].1.clone(),
                job: cands[i].0.job.clone(),
                support: cands[i].2,
            });
        }
    };
    pick(
        Algorithm::Unconstrained,
        SolutionType::Last,
        "Unconstrained".into(),
    );
    for fam in FAMILIES {
        for kind in SOLUTIONS {
            pick(fam, kind, format!("{} {}", fam.label(), kind.label()));
        }
    }
    rows
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

struct DatasetOutcome {
    markdown: String,
    json: Value,
    terminal: String,
}

/// Mean and sample standard deviation (0 for one value).
fn mean_sd(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = v.iter().sum::<f64>() / n;
    let sd = if v.len() > 1 {
        (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// The six table numbers of a row: train/valid/test error, then train/valid/test violation.
fn six(t: &Triple) -> [f64; 6] {
    [
        t.train.error,
        t.valid.error,
        t.test.error,
        t.train.max_violation_or_zero(),
        t.valid.max_violation_or_zero(),
        t.test.max_violation_or_zero(),
    ]
}

/// One table row aggregated over split seeds.
struct Aggregate {
    label: String,
    /// Per metric (as in [`six`]): the value of every seed.
    values: [Vec<f64>; 6],
    /// Chosen hyperparameters per seed.
    chosen: Vec<String>,
    support: Vec<usize>,
}

impl Aggregate {
    fn stat(&self, k: usize) -> (f64, f64) {
        mean_sd(&self.values[k])
    }
}

fn aggregate(per_seed: &[Vec<Row>]) -> Vec<Aggregate> {
    let mut out: Vec<Aggregate> = Vec::new();
    for rows in per_seed {
        for row in rows {
            let idx = match out.iter().position(|a| a.label == row.label) {
                Some(i) => i,
                None => {
                    out.push(Aggregate {
                        label: row.label.clone(),
                        values: Default::default(),
                        chosen: Vec::new(),
                        support: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            let a = &mut out[idx];
            for (k, x) in six(&row.triple).into_iter().enumerate() {
                a.values[k].push(x);
            }
            a.chosen.push(row.job.describe());
            a.support.push(row.support);
        }
    }
    out
}

/// Whether a row reaches the paper's figure: test error within ±0.005 (on the seed mean) and a
/// test violation no worse than the paper's.
fn verdict(a: &Aggregate, p: &[f64; 6]) -> String {
    let (e, e_sd) = a.stat(2);
    let (v, v_sd) = a.stat(5);
    let err_ok = (e - p[2]).abs() <= 0.005;
    let vio_ok = v <= p[5] + 1e-12;
    let within_noise = (e - p[2]).abs() <= 2.0 * e_sd;
    match (err_ok, vio_ok) {
        (true, true) => "hit".into(),
        (true, false) if v - p[5] <= v_sd => "error hit, violation worse (within 1 sd)".into(),
        (true, false) => "error hit, violation worse".into(),
        (false, true) if within_noise => "error off > 0.005 (within 2 sd)".into(),
        (false, true) => "error off > 0.005".into(),
        (false, false) => "error off > 0.005, violation worse".into(),
    }
}

struct SeedRun {
    seed: u64,
    results: Vec<JobResult>,
    rows: Vec<Row>,
    wall: f64,
}

fn run_dataset(
    ctx: &Context,
    setup: &Setup,
    data: &Dataset,
    bar: &ProgressBar,
) -> Result<DatasetOutcome> {
    let mut runs = Vec::new();
    let mut sizes = [0usize; 3];
    let mut n_features = 0;
    let mut m = 0;
    for &seed in &setup.split_seeds {
        let s = prepare(setup, data, seed)?;
        bar.set_message(format!("{} (split seed {seed})", setup.key));
        sizes = s.sizes;
        n_features = s.n_features;
        m = s.train.n_constraints();
        let started = std::time::Instant::now();
        let results = run_all(setup, &s, bar)?;
        let wall = started.elapsed().as_secs_f64();
        let rows = select_rows(&results);
        runs.push(SeedRun {
            seed,
            results,
            rows,
            wall,
        });
    }
    let per_seed: Vec<Vec<Row>> = runs
        .iter_mut()
        .map(|r| std::mem::take(&mut r.rows))
        .collect();
    let aggs = aggregate(&per_seed);
    let n_seeds = runs.len();

    let f = |x: f64| format!("{x:.4}");
    let cell = |a: &Aggregate, k: usize, paper: Option<&[f64; 6]>| {
        let (mu, sd) = a.stat(k);
        let ours = if n_seeds > 1 {
            format!("{} ± {}", f(mu), f(sd))
        } else {
            f(mu)
        };
        match paper {
            Some(p) => format!("{ours} ({})", f(p[k])),
            None => ours,
        }
    };
    let mut table = Table::new(&[
        "Algorithm",
        "Train Err.",
        "Valid Err.",
        "Test Err.",
        "Train Vio.",
        "Valid Vio.",
        "Test Vio.",
        "Δ test err.",
        "verdict",
        "chosen lr θ / λ (/ R), seed 0",
        "support",
    ]);
    let mut json_rows = Vec::new();
    for a in &aggs {
        let paper = setup.paper.iter().find(|p| p.0 == a.label).map(|p| &p.1);
        let mut cells = vec![a.label.clone()];
        for k in 0..6 {
            cells.push(cell(a, k, paper));
        }
        cells.push(paper.map_or("–".into(), |p| format!("{:+.4}", a.stat(2).0 - p[2])));
        cells.push(paper.map_or("–".into(), |p| verdict(a, p)));
        cells.push(a.chosen.first().cloned().unwrap_or_default());
        cells.push(
            a.support
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
        );
        table.row(cells);
        let names = [
            "train_error",
            "valid_error",
            "test_error",
            "train_violation",
            "valid_violation",
            "test_violation",
        ];
        let mut stats = serde_json::Map::new();
        for (k, name) in names.iter().enumerate() {
            let (mu, sd) = a.stat(k);
            stats.insert(
                (*name).into(),
                json!({"mean": mu, "sd": sd, "per_seed": a.values[k]}),
            );
        }
        json_rows.push(json!({
            "row": a.label,
            "stats": stats,
            "chosen_per_seed": a.chosen,
            "support_per_seed": a.support,
            "verdict": paper.map(|p| verdict(a, p)),
            "paper": paper.map(|p| json!({
                "train_error": p[0], "valid_error": p[1], "test_error": p[2],
                "train_violation": p[3], "valid_violation": p[4], "test_violation": p[5],
            })),
        }));
    }
    // Fit times per variant, pooled over seeds and the grid (one fit yields all four solution
    // types).
    let mut times = Table::new(&["Variant", "fits", "median fit (s)", "total (s)"]);
    let mut json_times = Vec::new();
    for fam in std::iter::once(Algorithm::Unconstrained).chain(FAMILIES) {
        let secs: Vec<f64> = runs
            .iter()
            .flat_map(|r| r.results.iter())
            .filter(|r| r.job.family == fam)
            .map(|r| r.seconds)
            .collect();
        let total: f64 = secs.iter().sum();
        let n = secs.len();
        let med = median(secs);
        times.row(vec![
            fam.label().into(),
            n.to_string(),
            format!("{med:.3}"),
            format!("{total:.2}"),
        ]);
        json_times.push(json!({"variant": fam.label(), "fits": n, "median_seconds": med, "total_seconds": total}));
    }
    let walls: Vec<f64> = runs.iter().map(|r| r.wall).collect();
    let n_fits = runs.first().map_or(0, |r| r.results.len());

    // Trajectory plot of the first seed's selected runs (Figure 1 analogue).
    let (first_results, first_rows) = match (runs.first(), per_seed.first()) {
        (Some(r), Some(rows)) => (&r.results[..], &rows[..]),
        _ => (&[][..], &[][..]),
    };
    let traj_of = |fam: Algorithm| {
        first_rows
            .iter()
            .find(|r| r.job.family == fam && r.label.ends_with("m-stoch"))
            .and_then(|row| {
                first_results.iter().find(|r| {
                    r.job.family == fam
                        && r.job.lr_theta.to_bits() == row.job.lr_theta.to_bits()
                        && r.job.lr_lambda.to_bits() == row.job.lr_lambda.to_bits()
                        && r.job.radius.map(f64::to_bits) == row.job.radius.map(f64::to_bits)
                })
            })
            .map(|r| r.trajectory.clone())
            .unwrap_or_default()
    };
    let mut err_series = Vec::new();
    let mut vio_series = Vec::new();
    for fam in [
        Algorithm::ProxyLagrangian,
        Algorithm::ZeroOneExt,
        Algorithm::Hinge,
    ] {
        let tr = traj_of(fam);
        err_series.push(Series {
            label: fam.label().into(),
            points: tr.iter().map(|p| (p.0, p.1)).collect(),
        });
        vio_series.push(Series {
            label: fam.label().into(),
            points: tr.iter().map(|p| (p.0, p.2)).collect(),
        });
    }
    let svg = format!("proxy-lagrangian-{}.svg", setup.key);
    let chart = stacked_lines(
        &format!(
            "{}: training error and max violation per snapshot (split seed {}, runs selected for m-stoch)",
            setup.title,
            runs.first().map_or(0, |r| r.seed)
        ),
        "iteration",
        &[
            ("train 0-1 error", err_series),
            ("train max violation", vio_series),
        ],
    )?;
    ctx.write_svg(&svg, chart)?;

    let mut md = String::new();
    let _ = writeln!(
        md,
        "\n## {}\n\n{} rows × {} features; random 70/10/20 splits (not stratified; train {} / \
         valid {} / test {}), split seeds {:?}. m = {m} constraints. Grid per seed: lr θ ∈ {:?}; \
         lr λ ∈ {:?} (0-1 swap) and {:?} (Hinge, 0-1 ext); R ∈ {:?} (Hinge only; 0-1 ext and \
         0-1 swap have no radius) — {n_fits} fits per seed, wall time per seed {:?} s on 2 \
         threads. Each cell: mean ± sd over the split seeds (paper's figure in parentheses); \
         each seed selects its own hyperparameters with Eq. 18. Stochastic rows are exact \
         expectations. \"support\" = iterates in the selected solution, per seed.\n",
        setup.title,
        data.n_rows(),
        n_features,
        sizes[0],
        sizes[1],
        sizes[2],
        setup.split_seeds,
        setup.lr_theta,
        setup.lr_lambda_swap,
        setup.lr_lambda_additive,
        setup.radius_hinge,
        walls
            .iter()
            .map(|w| (w * 10.0).round() / 10.0)
            .collect::<Vec<_>>(),
    );
    md.push_str(&table.markdown());
    // The targets: within ±0.005 test error of the paper and no worse test violation.
    let targets: &[&str] = if setup.key == "adult" {
        &["Unconstrained", "Hinge m-stoch", "0-1 ext m-stoch"]
    } else {
        &["0-1 swap m-stoch"]
    };
    let mut hits = Table::new(&[
        "Target row",
        "test err. (ours / paper)",
        "test vio. (ours / paper)",
        "verdict",
    ]);
    for label in targets {
        if let (Some(a), Some(p)) = (
            aggs.iter().find(|r| r.label == *label),
            setup.paper.iter().find(|p| p.0 == *label),
        ) {
            let (e, esd) = a.stat(2);
            let (v, vsd) = a.stat(5);
            hits.row(vec![
                (*label).into(),
                format!("{} ± {} / {}", f(e), f(esd), f(p.1[2])),
                format!("{} ± {} / {}", f(v), f(vsd), f(p.1[5])),
                verdict(a, &p.1),
            ]);
        }
    }
    md.push_str(
        "\nTargets of the issue (seed-mean test error within ±0.005, test violation no worse):\n\n",
    );
    md.push_str(&hits.markdown());
    md.push_str("\nFit times (all seeds and grid points; one fit = all four solution types):\n\n");
    md.push_str(&times.markdown());
    let _ = writeln!(md, "\n![{}]({svg})", setup.title);
    let terminal = format!("{}\n{}\n{}", setup.title, table.plain(), times.plain());
    let headline = |label: &str| {
        aggs.iter().find(|r| r.label == label).map(|a| {
            json!({"test_error_mean": a.stat(2).0, "test_error_sd": a.stat(2).1,
                   "test_violation_mean": a.stat(5).0, "test_violation_sd": a.stat(5).1,
                   "train_error_mean": a.stat(0).0, "train_violation_mean": a.stat(3).0})
        })
    };
    let json = json!({
        "dataset": setup.key,
        "rows_features": [data.n_rows(), n_features],
        "split_sizes": sizes,
        "split_seeds": setup.split_seeds,
        "settings": {
            "iterations": setup.iterations, "batch_size": setup.batch_size,
            "snapshot_every": setup.snapshot_every, "lr_theta": setup.lr_theta,
            "lr_lambda_swap": setup.lr_lambda_swap, "lr_lambda_additive": setup.lr_lambda_additive,
            "radius_hinge": setup.radius_hinge,
            "standardize": setup.standardize,
        },
        "headline": {
            "unconstrained": headline("Unconstrained"),
            "hinge_m_stoch": headline("Hinge m-stoch"),
            "zero_one_ext_m_stoch": headline("0-1 ext m-stoch"),
            "zero_one_swap_m_stoch": headline("0-1 swap m-stoch"),
            "zero_one_ext_best": headline("0-1 ext Best"),
        },
        "rows": json_rows,
        "fit_times": json_times,
        "wall_seconds_per_seed": walls,
    });
    Ok(DatasetOutcome {
        markdown: md,
        json,
        terminal,
    })
}

impl Experiment for ProxyLagrangianRepro {
    fn name(&self) -> &'static str {
        "proxy-lagrangian"
    }

    fn description(&self) -> &'static str {
        "Cotter et al. Tables 6–7: proxy-Lagrangian, 0-1 ext and Hinge on Adult (linear) and COMPAS (ReLU net)"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let setups = setups(ctx.quick);
        let total: usize = setups.iter().map(|s| jobs(s).len()).sum();
        let bar = ProgressBar::new(total as u64).with_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} fits {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let mut md = header(ctx);
        let mut sets = Vec::new();
        for setup in &setups {
            let data = match setup.key {
                "adult" => recipes::adult_tfco()?,
                _ => recipes::compas_tfco()?,
            };
            let out = run_dataset(ctx, setup, &data, &bar)?;
            bar.suspend(|| println!("{}", out.terminal));
            md.push_str(&out.markdown);
            sets.push(out.json);
        }
        bar.finish_and_clear();
        md.push_str(FOOTER);
        ctx.write("proxy-lagrangian.md", &md)?;
        let json = json!({
            "experiment": "proxy-lagrangian",
            "quick": ctx.quick,
            "split_seeds": SPLIT_SEEDS, "train_seed": TRAIN_SEED, "mlp_init_seed": MLP_INIT_SEED,
            "datasets": sets,
        });
        ctx.write(
            "proxy-lagrangian.json",
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        )?;
        Ok(())
    }
}

fn header(ctx: &Context) -> String {
    format!(
        "# Proxy-Lagrangian: Tables 6–7 of Cotter et al. (TFCO paper)\n\n\
         Produced by `cargo xtask repro proxy-lagrangian{}` with the `game-opt` crate. Each row's \
         hyperparameters are chosen separately with the Eq. 18 rank rule on the validation split \
         (max of error rank and clipped-violation rank, ties by error; the Unconstrained row by \
         validation error alone). \"Vio.\" is the largest \
         constraint value `max_i g_i` (negative = satisfied with slack). Training, validation and \
         test numbers are exact 0-1 rates (expectations for stochastic rows).\n",
        if ctx.quick { " --quick" } else { "" }
    )
}

const FOOTER: &str = "\n## Settings and open choices\n\n\
* **Objective surrogate**: hinge `max(0, 1 − y±f)`; **hinge margin** μ = 1 for objective and \
constraint proxies (TFCO's `HingeLoss`); coefficient signs normalised per row before relaxing, so \
every proxy upper-bounds its 0-1 constraint.\n\
* **θ-player**: Adam (β = 0.9, 0.999), minibatches drawn without replacement per epoch \
(ChaCha8, seed 1); constraint minibatch estimates use the same batch, scaled by n/B (unbiased; \
denominators counted on the full split).\n\
* **λ-players** (the paper uses Adam for both; we use the algorithms' own updates): 0-1 swap — \
multiplicative update of the column-stochastic matrix in log space, uniform start, stationary \
distribution by an LU solve; 0-1 ext and Hinge — projected gradient ascent from λ = 0 onto \
Λ = {λ ≥ 0, ‖λ‖₁ ≤ R} (clip at 0, then the sort-based ℓ1-ball projection). R is part of the \
Hinge grid (the paper gives no R); 0-1 ext runs without a radius, as TFCO does, because its 0-1 \
constraints can be met and its multipliers stop growing once they are.\n\
* **Why Hinge needs R**: with hinge relaxation for both players the λ-player never sees a \
satisfied constraint. Since `(1+f)₊ + (1−f)₊ ≥ 2`, for two groups that split the positives \
(Female, Male) with shares p_F, p_M, Adult's proxies `0.95·E_pos[(1+f)₊] − 1 + E_g,pos[(1−f)₊]` \
satisfy `p_F·g̃_F + p_M·g̃_M ≥ 1 − 0.05·E_pos[(1+f)₊]`, and when `E_pos[(1+f)₊] ≥ 20` each is \
≥ 18 on its own; COMPAS's `E_g,pos[(1+f)₊] − 1 + E_pos[(1−f)₊] − 0.05` give \
`p_F·g̃_F + p_M·g̃_M ≥ 0.95`. So for every model some hinge constraint is violated, the \
multipliers climb to ‖λ‖₁ = R, and Hinge becomes a penalty method with \
weight R: R is what trades error for violation, and Eq. 18 on validation picks it. The paper's \
Hinge rows sit close to Unconstrained, which fits small effective multipliers (Adam on λ with \
a small rate grows λ by about the rate per step).\n\
* **Iterates**: a snapshot every k steps (k in the JSON); T-stoch = uniform over snapshots; \
m-stoch = shrinking LP (microlp simplex) on training error and 0-1 constraints, ε = 0, bisection \
tolerance 1e-4 when infeasible; Best = Eq. 18 on training values; Unconstrained row = last iterate.\n\
* **Data**: Adult = `fair_data::recipes::adult_tfco()` (122 features, TFCO's \
`Fairness_adult.ipynb` encoding), features used as is. COMPAS = `compas_tfco()` (6,172 rows, \
31 features, TFCO's `Oscillation_compas.ipynb` encoding: raw days_b_screening_arrest, one-hot \
charge degree, race, score text and sex, six age buckets, six cumulative decile-score buckets and \
five cumulative priors buckets at the notebook's quantile edges), standardised on train (the \
notebook feeds raw values). The paper's COMPAS has 6,157 rows; the notebook's filter leaves \
6,172 here.\n\
* **Splits**: random 70/10/20 of all rows per split seed (Adult: the 48,842 rows of \
adult.data + adult.test; the paper's Table 3 sums to 48,841). Each seed selects its own \
hyperparameters; cells are mean ± sd over seeds. One test split of Adult has sd(test error) \
≈ √(0.145·0.855/9768) ≈ 0.0036 from sampling alone, so a ±0.005 target is about 1.4 sd of a \
single split; COMPAS's 1,234-row test split gives ≈ 0.013.\n\
* **Why rows differ from the paper** (read with the sd columns):\n  \
* *Validation column (Adult)*: the paper's validation errors (0.133–0.139) sit ≈ 0.008 below \
its own train and test errors; ours track train and test. One favourable validation split is the \
likely cause; an average over random splits cannot reproduce it.\n  \
* *Test violations*: their sd over seeds is 0.02–0.05 on Adult, set by the Black group \
(≈ 180 positive test rows, so one changed prediction moves its TPR by ≈ 0.0056), and \
0.01–0.04 on COMPAS. \"Violation worse\" verdicts within one sd are noise, including the \
Unconstrained Adult row (the paper's single split has 0.0555).\n  \
* *Hinge*: our Hinge is the penalty method described above, with R chosen on validation; it \
costs more error than the paper's Hinge on Adult and less on COMPAS (the paper's COMPAS Hinge \
m-stoch pays 0.37 test error). Its T-stoch stays infeasible on Adult because the uniform mixture \
includes every early iterate; the paper's T-stoch is feasible with margin, which points to \
larger early multipliers than ours (its λ optimizer and grid are not given).\n  \
* *T-stoch rows* (all families): the uniform mixture includes the first snapshots (from step \
k on), which are far from converged; the paper's checkpoint schedule is not given.\n  \
* *Train violation of m-stoch*: ours is ≤ 0 by the LP guarantee; the paper's 0-1 swap \
m-stoch shows 0.0176 because each of its rows comes from a separately validated run.\n  \
* *COMPAS*: our unconstrained net fits the training split better (train error ≈ 0.29 vs \
0.306) and is less unfair (train violation ≈ 0.04 vs 0.115), so the constrained rows start \
from a smaller violation; with a 1,234-row test split (sd ≈ 0.013 from sampling) the COMPAS \
test errors are within about one sd of the paper's.\n\
* **Not available**: Bank Marketing (Table 5; encoding of its 60 features unknown and the data \
is not embedded) and the Google-internal sets (Business Entity Resolution, Thresholding, Map \
Intent, Filtering; Tables 8–11) — not reproduced.\n\
* **Timing**: fit times are wall-clock on a shared 2-core machine (other jobs were running), \
so they overstate the cost; per-variant medians are in the JSON.\n\
* The paper's seeds, T, batch size and learning-rate grid are not given; ours are in the JSON.\n";
