//! `fair-projection`: FairProjection (Alghamdi et al., NeurIPS 2022) accuracy-vs-MEO and
//! accuracy-vs-SP trade-off curves over the α grid, KL and CE, on Adult and COMPAS (the paper's
//! binary sets), Law School ZFYA in 5 quantile classes × race and a synthetic 5-class × 5-group
//! mixture (stand-ins for ENEM/HSLS, which are not available).

mod verdict;

use crate::experiments::Experiment;
use crate::models::logistic::{Logistic, LogisticParams};
use crate::models::softmax::Softmax;
use crate::models::trees::{BoostParams, Boosting, ForestParams, ProbabilityForest};
use crate::report::{Context, Result};
use crate::stats::{mean, sd};
use fair_data::{Dataset, GaussianMixture, Groups, Splitter, Standardizer, recipes};
use fair_metrics::ZeroDivision;
use fair_metrics::multiclass::{
    multiclass_accuracy, multiclass_equalized_odds, multiclass_statistical_parity,
};
use fair_report::Table;
use fair_report::tradeoff::{Curve, tradeoff};
use indicatif::{ProgressBar, ProgressStyle};
use info_projection::{Constraint, Decision, Divergence, FairProjection, Termination};
use nalgebra::DMatrix;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::time::Instant;

use verdict::*;

pub struct FairProjectionRepro;

/// Groups with fewer rows are merged into one "other (merged)" group, so every (class, group)
/// cell of equalized odds has training rows (Law School: Amerindian, Hispanic, Mexican, Other,
/// Puertorican).
const MIN_GROUP: usize = 600;

fn merge_small(g: &Groups, min: usize) -> Result<Groups> {
    let counts = g.counts();
    if counts.iter().all(|&c| c >= min) {
        return Ok(g.clone());
    }
    let mut names = Vec::new();
    let mut remap = vec![usize::MAX; counts.len()];
    for (k, &c) in counts.iter().enumerate() {
        if c >= min {
            remap[k] = names.len();
            names.push(g.names()[k].clone());
        }
    }
    let merged: Vec<&str> = (0..counts.len())
        .filter(|&k| counts[k] < min)
        .map(|k| g.names()[k].as_str())
        .collect();
    let other = names.len();
    names.push(format!("other (merged: {})", merged.join(", ")));
    let codes = g
        .codes()
        .iter()
        .map(|&c| {
            if remap[c] == usize::MAX {
                other
            } else {
                remap[c]
            }
        })
        .collect();
    Ok(Groups::new(codes, names)?)
}

const TEST_FRACTION: f64 = 0.3;
/// The authors' code: binary runs.
const ALPHAS_BINARY: [f64; 8] = [0.0, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0];
/// The authors' code: multi-class runs.
const ALPHAS_MULTI: [f64; 6] = [0.02, 0.05, 0.1, 0.2, 0.5, 1.0];
const ALPHAS_QUICK: [f64; 3] = [0.01, 0.1, 1.0];
const DIVERGENCES: [Divergence; 2] = [Divergence::Kl, Divergence::CrossEntropy];

#[derive(Clone, Copy, PartialEq)]
enum Criterion {
    Meo,
    Sp,
}

impl Criterion {
    fn name(self) -> &'static str {
        match self {
            Criterion::Meo => "MEO",
            Criterion::Sp => "SP",
        }
    }
    fn constraint(self) -> Constraint {
        match self {
            Criterion::Meo => Constraint::EqualizedOdds,
            Criterion::Sp => Constraint::StatisticalParity,
        }
    }
}

/// The base classifiers whose probabilities are projected.
#[derive(Clone, Copy, PartialEq)]
enum Base {
    Lr,
    Rf,
    Gbm,
}

const BASES: [Base; 3] = [Base::Lr, Base::Rf, Base::Gbm];

impl Base {
    fn name(self) -> &'static str {
        match self {
            Base::Lr => "LR",
            Base::Rf => "RF",
            Base::Gbm => "GBM",
        }
    }
}

/// Random forest: trees, depth, leaf size (full / quick).
fn forest_params(quick: bool, seed: u64) -> ForestParams {
    ForestParams {
        n_trees: if quick { 10 } else { 50 },
        max_depth: 10,
        min_samples_leaf: 5,
        seed,
    }
}

/// Gradient boosting: rounds, shrinkage, depth, leaf size (full / quick).
fn boost_params(quick: bool) -> BoostParams {
    BoostParams {
        rounds: if quick { 10 } else { 60 },
        learning_rate: 0.2,
        max_depth: 3,
        min_samples_leaf: 20,
    }
}

/// Base probabilities of a tree base on train and test, seeded by the split.
fn tree_base(
    b: Base,
    xtr: &DMatrix<f64>,
    ytr: &[usize],
    xte: &DMatrix<f64>,
    c: usize,
    quick: bool,
    seed: u64,
) -> Result<(DMatrix<f64>, DMatrix<f64>)> {
    if b == Base::Rf {
        let m = ProbabilityForest::fit(xtr, ytr, c, &forest_params(quick, seed))?;
        Ok((m.predict_proba(xtr)?, m.predict_proba(xte)?))
    } else {
        let m = Boosting::fit(xtr, ytr, c, &boost_params(quick))?;
        Ok((m.predict_proba(xtr)?, m.predict_proba(xte)?))
    }
}

struct Task {
    name: &'static str,
    attribute: &'static str,
    load: fn(bool) -> fair_data::Result<Dataset>,
    multi: bool,
}

fn tasks(quick: bool) -> Vec<Task> {
    let mut t = vec![
        Task {
            name: "Adult (race)",
            attribute: "race",
            load: |_| recipes::adult_fair_projection(),
            multi: false,
        },
        Task {
            name: "COMPAS (race)",
            attribute: "race",
            load: |_| recipes::compas_fair_projection(),
            multi: false,
        },
    ];
    if !quick {
        t.push(Task {
            name: "Law School ZFYA 5 classes (race)",
            attribute: "race",
            load: |_| recipes::law_school_zfya_classes(5),
            multi: true,
        });
    }
    t.push(Task {
        name: "Synthetic 5 classes × 5 groups",
        attribute: "group",
        load: |quick| {
            GaussianMixture::new(if quick { 3_000 } else { 20_000 })
                .classes(5)
                .groups(5)
                .features(6)
                .group_label_correlation(0.3)
                .separation(1.0)
                .seed(2022)
                .generate()
        },
        multi: true,
    });
    t
}

/// Mean test metrics of one (task, criterion, divergence, α) point over the splits.
#[derive(Default, Clone)]
struct Acc {
    accuracy: Vec<f64>,
    meo: Vec<f64>,
    sp: Vec<f64>,
    seconds: Vec<f64>,
    converged: usize,
}

struct Metrics {
    accuracy: f64,
    meo: f64,
    sp: f64,
}

fn metrics(y: &[usize], pred: &[usize], c: usize, groups: &Groups) -> Result<Metrics> {
    Ok(Metrics {
        accuracy: multiclass_accuracy(y, pred, c, groups, None)?.overall,
        meo: multiclass_equalized_odds(y, pred, c, groups, None, ZeroDivision::Skip)?.value,
        sp: multiclass_statistical_parity(pred, c, groups, None)?.value,
    })
}

fn decide(h: &DMatrix<f64>) -> Vec<usize> {
    (0..h.nrows())
        .map(|i| {
            if h.ncols() == 2 {
                usize::from(h[(i, 1)] > 0.5)
            } else {
                let mut b = 0;
                for k in 1..h.ncols() {
                    if h[(i, k)] > h[(i, b)] {
                        b = k;
                    }
                }
                b
            }
        })
        .collect()
}

/// Base probabilities of the LR base on train and test.
fn lr_base(
    xtr: &DMatrix<f64>,
    ytr: &[usize],
    xte: &DMatrix<f64>,
    c: usize,
    quick: bool,
) -> Result<(DMatrix<f64>, DMatrix<f64>)> {
    if c == 2 {
        let params = LogisticParams {
            max_iters: if quick { 200 } else { 1000 },
            ..LogisticParams::default()
        };
        let m = Logistic::fit(xtr, ytr, &params)?;
        let to_probs = |x: &DMatrix<f64>| {
            let z = m.decision_function(x);
            DMatrix::from_fn(x.nrows(), 2, |i, k| {
                let p1 = 1.0 / (1.0 + (-z[i]).exp());
                if k == 1 { p1 } else { 1.0 - p1 }
            })
        };
        Ok((to_probs(xtr), to_probs(xte)))
    } else {
        let m = Softmax::fit(xtr, ytr, c, 1e-4, if quick { 200 } else { 1000 })?;
        Ok((m.predict_proba(xtr), m.predict_proba(xte)))
    }
}

impl Experiment for FairProjectionRepro {
    fn name(&self) -> &'static str {
        "fair-projection"
    }

    fn description(&self) -> &'static str {
        "FairProjection (KL/CE) accuracy vs MEO/SP curves: Adult, COMPAS, Law School 5-class, synthetic 5×5"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let quick = ctx.quick;
        let n_splits: u64 = if quick { 2 } else { 10 };
        let tasks = tasks(quick);
        let mut md = header(quick, n_splits);
        let mut json_tasks = Vec::new();
        let mut claims = Claims::default();
        let bar = ProgressBar::new(tasks.len() as u64 * n_splits).with_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        for task in &tasks {
            let data = (task.load)(quick)?;
            let c = data.n_classes();
            let alphas: &[f64] = if quick {
                &ALPHAS_QUICK
            } else if task.multi {
                &ALPHAS_MULTI
            } else {
                &ALPHAS_BINARY
            };
            let groups_all = merge_small(&data.groups(task.attribute)?.compact(), MIN_GROUP)?;
            // results[base][criterion][divergence][alpha]
            let mut res = vec![vec![vec![vec![Acc::default(); alphas.len()]; 2]; 2]; BASES.len()];
            let mut base = vec![Acc::default(); BASES.len()];
            let mut alpha1_max_dev = vec![0.0_f64; BASES.len()];
            let mut alpha1_agree = vec![Vec::new(); BASES.len()];
            for seed in 0..n_splits {
                bar.set_message(format!("{} split {seed}", task.name));
                let idx = Splitter::new()
                    .test(TEST_FRACTION)
                    .seed(seed)
                    .split_stratified(data.y())?;
                let (train, test) = (data.select(&idx.train)?, data.select(&idx.test)?);
                let (gtr, gte) = (
                    groups_all.select(&idx.train)?,
                    groups_all.select(&idx.test)?,
                );
                let scaler = Standardizer::fit(train.x())?;
                let (xtr, xte) = (scaler.transform(train.x())?, scaler.transform(test.x())?);
                for (bi, b) in BASES.into_iter().enumerate() {
                    let (ptr, pte) = match b {
                        Base::Lr => lr_base(&xtr, train.y(), &xte, c, quick)?,
                        Base::Rf | Base::Gbm => {
                            tree_base(b, &xtr, train.y(), &xte, c, quick, seed)?
                        }
                    };
                    let m = metrics(test.y(), &decide(&pte), c, &gte)?;
                    base[bi].accuracy.push(m.accuracy);
                    base[bi].meo.push(m.meo);
                    base[bi].sp.push(m.sp);
                    for (ci, crit) in [Criterion::Meo, Criterion::Sp].into_iter().enumerate() {
                        for (di, div) in DIVERGENCES.into_iter().enumerate() {
                            for (ai, &alpha) in alphas.iter().enumerate() {
                                let t0 = Instant::now();
                                let fp = FairProjection::params()
                                    .constraint(crit.constraint())
                                    .divergence(div)
                                    .alpha(alpha)
                                    .tol(1e-8)
                                    .fit_with_labels(&ptr, &gtr, train.y())?;
                                let secs = t0.elapsed().as_secs_f64();
                                let h = fp.predict_proba(&pte, &gte)?;
                                let pred = fp.predict(
                                    &pte,
                                    &gte,
                                    if c == 2 {
                                        Decision::Threshold(0.5)
                                    } else {
                                        Decision::Argmax
                                    },
                                )?;
                                let m = metrics(test.y(), &pred, c, &gte)?;
                                let r = &mut res[bi][ci][di][ai];
                                r.accuracy.push(m.accuracy);
                                r.meo.push(m.meo);
                                r.sp.push(m.sp);
                                r.seconds.push(secs);
                                r.converged +=
                                    usize::from(fp.report().status == Termination::Converged);
                                if (alpha - 1.0).abs() < 1e-12 {
                                    alpha1_max_dev[bi] =
                                        alpha1_max_dev[bi].max((&h - &pte).abs().max());
                                    let same = pred
                                        .iter()
                                        .zip(decide(&pte))
                                        .filter(|(a, b)| **a == *b)
                                        .count();
                                    alpha1_agree[bi].push(same as f64 / pred.len() as f64);
                                }
                            }
                        }
                    }
                }
                bar.inc(1);
            }
            for (bi, b) in BASES.into_iter().enumerate() {
                let out = write_task(
                    ctx,
                    task,
                    b,
                    &data,
                    alphas,
                    &res[bi],
                    &base[bi],
                    alpha1_max_dev[bi],
                    mean(&alpha1_agree[bi]),
                    n_splits,
                    &mut claims,
                )?;
                bar.suspend(|| println!("{}", out.terminal));
                md.push_str(&out.markdown);
                json_tasks.push(out.json);
            }
        }
        bar.finish_and_clear();
        md.push_str(&claims.markdown());
        ctx.write("fair-projection.md", &md)?;
        let json = json!({
            "experiment": "fair-projection",
            "quick": quick,
            "splits": n_splits,
            "test_fraction": TEST_FRACTION,
            "bases": {
                "LR": "logistic regression (binary: L-BFGS logistic, λ = 1e-4; multi-class: softmax regression, λ = 1e-4)",
                "RF": format!("{:?} (smartcore regression forest on class indicators, m = ceil(sqrt(d)), seed = split seed)", forest_params(quick, 0)),
                "GBM": format!("{:?} (Newton boosting of smartcore regression trees, log / softmax loss)", boost_params(quick)),
            },
            "tasks": json_tasks,
            "claims": claims.json(),
        });
        ctx.write(
            "fair-projection.json",
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        )?;
        Ok(())
    }
}

fn header(quick: bool, n_splits: u64) -> String {
    let mut s = String::from(
        "# FairProjection: accuracy vs MEO / SP trade-offs (Alghamdi et al., NeurIPS 2022)\n\n",
    );
    let _ = writeln!(
        s,
        "Produced by `cargo xtask repro fair-projection{}`. Every number below is measured by \
         this run; nothing is copied from the paper except the claims quoted in the last section.\n\n\
         **Protocol.** {n_splits} seeded 70/30 train/test splits (stratified on the label, seeds \
         0..{}), features standardized on the training part. Three bases, as in the paper: \
         logistic regression (binary: L2 logistic regression, λ = 1e-4, argmin L-BFGS; \
         multi-class: softmax regression, λ = 1e-4, argmin L-BFGS), a random forest (smartcore \
         0.7 regression forest on the class indicators — smartcore's classifier forest gives \
         only votes — {:?}, ⌈√d⌉ features per split, seed = split seed) and gradient boosting \
         (second-order boosting of smartcore regression trees, log / softmax loss, {:?}). The \
         paper's RF/GBM settings are not stated beyond the model family (scikit-learn in the \
         authors' code); these are our choices. FairProjection is fitted on the training part \
         (`fit_with_labels`: marginals P(Y, S) are the training frequencies, as in the authors' \
         code; group information = known group labels, the paper's choice when S is a feature) \
         with the dual solver (Newton with the exact Hessian, tol 1e-8), ζ = 1/√N; all metrics \
         are on the test \
         part. MEO curves use the paper's full equalized-odds rows (2AC² rows), SP curves the \
         statistical-parity rows. Hard predictions: threshold 0.5 on h₁ (binary, as the \
         authors' code) or argmax. Metrics: accuracy, MEO (eq. 117) and SP (eq. 118) from \
         `fair_metrics::multiclass` (the paper's formulas; classes without positives in a group \
         are skipped for MEO). α grid: {}.\n\n\
         **Stand-ins.** ENEM and HSLS are not available here. Multi-class, multi-group stand-ins: \
         Law School with ZFYA in 5 equal-frequency classes and its race groups (the five race \
         groups with fewer than 600 rows merged into one, so that every class × group cell of \
         equalized odds has training rows: 4 groups), and a synthetic \
         Gaussian mixture (5 classes × 5 groups, group–label correlation 0.3).\n",
        if quick { " --quick" } else { "" },
        n_splits - 1,
        forest_params(quick, 0),
        boost_params(quick),
        if quick {
            "{0.01, 0.1, 1.0} (quick mode)".to_string()
        } else {
            "binary {0, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0}, multi-class {0.02, 0.05, 0.1, 0.2, 0.5, 1.0} (the authors' code)"
                .to_string()
        }
    );
    s
}

struct TaskOut {
    markdown: String,
    terminal: String,
    json: Value,
}

#[allow(clippy::too_many_arguments)]
fn write_task(
    ctx: &Context,
    task: &Task,
    b: Base,
    data: &Dataset,
    alphas: &[f64],
    res: &[Vec<Vec<Acc>>],
    base: &Acc,
    alpha1_dev: f64,
    alpha1_agree: f64,
    n_splits: u64,
    claims: &mut Claims,
) -> Result<TaskOut> {
    let slug: String = format!(
        "{}-{}",
        task.name.split(' ').next().unwrap_or("task").to_lowercase(),
        b.name().to_lowercase()
    );
    let label = format!("{} — {} base", task.name, b.name());
    let mut md = format!(
        "\n## {}\n\n{} rows, {} classes, attribute `{}`. Base ({}) test accuracy {:.4} ± {:.4}, \
         MEO {:.4}, SP {:.4} (mean ± sd over {} splits).\n",
        label,
        data.n_rows(),
        data.n_classes(),
        task.attribute,
        b.name(),
        mean(&base.accuracy),
        sd(&base.accuracy),
        mean(&base.meo),
        mean(&base.sp),
        n_splits
    );
    let mut terminal = format!(
        "{}: base acc {:.4} MEO {:.4} SP {:.4}\n",
        label,
        mean(&base.accuracy),
        mean(&base.meo),
        mean(&base.sp)
    );
    let mut json_crit = Vec::new();
    for (ci, crit) in [Criterion::Meo, Criterion::Sp].into_iter().enumerate() {
        let gap = |a: &Acc| match crit {
            Criterion::Meo => mean(&a.meo),
            Criterion::Sp => mean(&a.sp),
        };
        let base_gap = gap(base);
        let (t, json_points) = alpha_table(crit, alphas, &res[ci], n_splits);
        let _ = write!(
            md,
            "\n### {} — accuracy vs {} (base {} {:.4})\n\n{}",
            label,
            crit.name(),
            crit.name(),
            base_gap,
            t.markdown()
        );
        claims.record(&label, crit, &res[ci], alphas, base, &mut terminal);
        let curves = tradeoff_curves(b, crit, &res[ci], alphas, base);
        let file = format!("fair-projection-{slug}-{}.svg", crit.name().to_lowercase());
        ctx.write_svg(
            &file,
            tradeoff(
                &format!(
                    "{}: accuracy vs {} (mean of {n_splits} splits)",
                    label,
                    crit.name()
                ),
                &format!("{} (test)", crit.name()),
                &curves,
            )?,
        )?;
        let _ = writeln!(md, "\n![{} {}]({file})", label, crit.name());
        json_crit.push(json!({
            "criterion": crit.name(),
            "base_gap": base_gap,
            "points": json_points,
            "plot": file,
        }));
    }
    claims
        .identity
        .push((label.clone(), alpha1_dev, alpha1_agree));
    Ok(TaskOut {
        markdown: md,
        terminal,
        json: json!({
            "task": task.name,
            "base_model": b.name(),
            "rows": data.n_rows(),
            "classes": data.n_classes(),
            "attribute": task.attribute,
            "base": {"accuracy": mean(&base.accuracy), "accuracy_sd": sd(&base.accuracy),
                     "meo": mean(&base.meo), "sp": mean(&base.sp)},
            "alpha_one": {"max_abs_prob_diff": alpha1_dev, "prediction_agreement": alpha1_agree},
            "criteria": json_crit,
        }),
    })
}

/// One criterion's table of every α (KL and CE accuracy and gap, fit time, convergence) and its
/// JSON points.
fn alpha_table(
    crit: Criterion,
    alphas: &[f64],
    res_c: &[Vec<Acc>],
    n_splits: u64,
) -> (Table, Vec<Value>) {
    let mut json_points = Vec::new();
    let mut t = Table::new(&[
        "α",
        "KL accuracy",
        &format!("KL {}", crit.name()),
        "CE accuracy",
        &format!("CE {}", crit.name()),
        "fit time (s, KL/CE)",
        "converged",
    ]);
    let gap = |a: &Acc| match crit {
        Criterion::Meo => mean(&a.meo),
        Criterion::Sp => mean(&a.sp),
    };
    for (ai, &alpha) in alphas.iter().enumerate() {
        let (kl, ce) = (&res_c[0][ai], &res_c[1][ai]);
        t.row(vec![
            format!("{alpha}"),
            format!("{:.4} ± {:.4}", mean(&kl.accuracy), sd(&kl.accuracy)),
            format!("{:.4}", gap(kl)),
            format!("{:.4} ± {:.4}", mean(&ce.accuracy), sd(&ce.accuracy)),
            format!("{:.4}", gap(ce)),
            format!("{:.3}/{:.3}", mean(&kl.seconds), mean(&ce.seconds)),
            format!("{}/{}", kl.converged + ce.converged, 2 * n_splits),
        ]);
        json_points.push(json!({
            "alpha": alpha,
            "kl": {"accuracy": mean(&kl.accuracy), "accuracy_sd": sd(&kl.accuracy),
                   "meo": mean(&kl.meo), "sp": mean(&kl.sp), "fit_seconds": mean(&kl.seconds)},
            "ce": {"accuracy": mean(&ce.accuracy), "accuracy_sd": sd(&ce.accuracy),
                   "meo": mean(&ce.meo), "sp": mean(&ce.sp), "fit_seconds": mean(&ce.seconds)},
        }));
    }
    (t, json_points)
}

/// The accuracy-vs-gap curves of FairProjection-KL and -CE, each starting at the base model.
fn tradeoff_curves(
    b: Base,
    crit: Criterion,
    res_c: &[Vec<Acc>],
    alphas: &[f64],
    base: &Acc,
) -> Vec<Curve> {
    let gap = |a: &Acc| match crit {
        Criterion::Meo => mean(&a.meo),
        Criterion::Sp => mean(&a.sp),
    };
    let base_gap = gap(base);
    let base_acc = mean(&base.accuracy);
    let mut curves = Vec::new();
    for (di, div) in DIVERGENCES.into_iter().enumerate() {
        let mut pts = vec![(base_gap, base_acc)];
        pts.extend(
            (0..alphas.len())
                .rev()
                .map(|ai| (gap(&res_c[di][ai]), mean(&res_c[di][ai].accuracy))),
        );
        curves.push(Curve {
            label: format!(
                "{} + FairProjection-{} (first point: base)",
                b.name(),
                if div == Divergence::Kl { "KL" } else { "CE" }
            ),
            points: pts,
            dashed: div == Divergence::CrossEntropy,
            color: di,
        });
    }
    curves
}
