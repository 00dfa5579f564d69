//! `audit`: an unconstrained logistic-regression baseline on every embedded dataset, with the
//! per-group fairness table of its test predictions.

use crate::experiments::Experiment;
use crate::models::logistic::{Logistic, LogisticParams};
use crate::report::{Context, Result};
use fair_data::{Dataset, Groups, Recipe, Splitter, Standardizer};
use fair_metrics::ks::ks_statistic;
use fair_metrics::parity::{ParityGaps, ParityOptions, parity_gaps};
use fair_metrics::roc::{auc_by_group, roc_auc};
use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
use fair_report::{LabelledPoint, Table, fmt4, labelled_scatter};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use std::fmt::Write as _;

pub struct Audit;

/// Split and model settings; written into the report so every figure can be re-derived.
const TEST_FRACTION: f64 = 0.3;
const SPLIT_SEED: u64 = 0;

impl Experiment for Audit {
    fn name(&self) -> &'static str {
        "audit"
    }

    fn description(&self) -> &'static str {
        "unconstrained logistic regression on the six embedded datasets, per-group fairness table"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let params = LogisticParams {
            max_iters: if ctx.quick { 100 } else { 1000 },
            ..LogisticParams::default()
        };
        let recipes = Recipe::ONE_PER_DATASET;
        let bar = ProgressBar::new(recipes.len() as u64).with_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let mut md = header(ctx, &params);
        let mut json_sets = Vec::new();
        let mut points = Vec::new();
        for recipe in recipes {
            bar.set_message(format!("{recipe:?}"));
            let data = recipe.load()?;
            let result = audit_dataset(&data, &params)?;
            bar.suspend(|| println!("{}", result.terminal));
            md.push_str(&result.markdown);
            points.extend(result.points);
            json_sets.push(result.json);
            bar.inc(1);
        }
        bar.finish_and_clear();
        md.push_str("\n![DP vs EO gaps](audit.svg)\n");
        ctx.write("audit.md", &md)?;
        let json = json!({
            "experiment": "audit",
            "quick": ctx.quick,
            "split": { "test_fraction": TEST_FRACTION, "seed": SPLIT_SEED, "stratified_on": "label" },
            "model": { "kind": "logistic regression (argmin L-BFGS)", "l2": params.l2, "max_iters": params.max_iters },
            "datasets": json_sets,
        });
        ctx.write(
            "audit.json",
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        )?;
        let svg = labelled_scatter(
            "Baseline logistic regression: fairness gaps per dataset and attribute (test split)",
            "demographic parity difference",
            "equalized odds difference (worst case)",
            &points,
        )?;
        ctx.write_svg("audit.svg", svg)
    }
}

fn header(ctx: &Context, params: &LogisticParams) -> String {
    let mut s = String::from("# Audit: unconstrained baseline on every embedded dataset\n\n");
    let _ = writeln!(
        s,
        "Produced by `cargo xtask repro audit{}`. Model: L2-regularised logistic regression \
         (λ = {}, argmin L-BFGS, at most {} iterations) on standardized features (scaler fitted on \
         the training part). Split: {:.0}/{:.0} train/test, stratified on the label, seed {}. \
         Prediction: positive when P(y = 1 | x) > 0.5. Rates per group on the test part; \
         difference = max − min over groups, ratio = min / max (fairlearn conventions); groups \
         without positives (or negatives) are skipped for TPR (FPR) and shown as –. KS Δ is the \
         exact all-threshold demographic-parity gap (largest over group pairs) of the scores.\n",
        if ctx.quick { " --quick" } else { "" },
        params.l2,
        params.max_iters,
        (1.0 - TEST_FRACTION) * 100.0,
        TEST_FRACTION * 100.0,
        SPLIT_SEED
    );
    s
}

struct DatasetAudit {
    markdown: String,
    terminal: String,
    json: Value,
    points: Vec<LabelledPoint>,
}

fn audit_dataset(data: &Dataset, params: &LogisticParams) -> Result<DatasetAudit> {
    let (train, _, test) = Splitter::new()
        .test(TEST_FRACTION)
        .seed(SPLIT_SEED)
        .split_dataset(data, true)?;
    let scaler = Standardizer::fit(train.x())?;
    let x_train = scaler.transform(train.x())?;
    let x_test = scaler.transform(test.x())?;
    let model = Logistic::fit(&x_train, train.y(), params)?;
    let scores: Vec<f64> = model.decision_function(&x_test).iter().copied().collect();
    let pred: Vec<usize> = scores.iter().map(|&s| usize::from(s > 0.0)).collect();
    let y = test.y();
    let accuracy = y.iter().zip(&pred).filter(|(a, b)| a == b).count() as f64 / y.len() as f64;
    let auc = roc_auc(y, &scores, None)?;

    let mut md = format!(
        "\n## {}\n\n{} rows × {} features; train {} / test {}; test accuracy {:.4}, AUC {:.4}; \
         L-BFGS {} iterations ({}).\n",
        data.name(),
        data.n_rows(),
        data.n_features(),
        train.n_rows(),
        test.n_rows(),
        accuracy,
        auc,
        model.iterations,
        if model.converged {
            "converged"
        } else {
            "iteration limit"
        }
    );
    let mut terminal = format!(
        "{}: test accuracy {:.4}, AUC {:.4} ({} test rows)\n",
        data.name(),
        accuracy,
        auc,
        test.n_rows()
    );
    let mut attributes: Vec<(String, Groups)> = test
        .sensitive()
        .iter()
        .map(|a| (a.name.clone(), a.groups.compact()))
        .collect();
    if test.sensitive().len() >= 2 {
        let names = [
            test.sensitive()[0].name.as_str(),
            test.sensitive()[1].name.as_str(),
        ];
        attributes.push((names.join(" × "), test.intersection(&names)?.compact()));
    }
    let mut json_attrs = Vec::new();
    let mut points = Vec::new();
    for (name, groups) in attributes {
        let a = audit_attribute(y, &pred, &scores, &groups)?;
        let _ = write!(
            md,
            "\n### {} — {}\n\n{}",
            data.name(),
            name,
            a.table.markdown()
        );
        let _ = writeln!(
            md,
            "\nDP difference {:.4} (ratio {:.4}); equal opportunity difference {:.4}; equalized odds \
             difference {:.4}; accuracy difference {:.4}; KS Δ {:.4}.",
            a.gaps.demographic_parity_difference,
            a.gaps.demographic_parity_ratio,
            a.gaps.equal_opportunity_difference,
            a.gaps.equalized_odds_difference,
            a.gaps.accuracy_difference,
            a.ks
        );
        let _ = write!(terminal, "  by {name}\n{}", indent(&a.table.plain()));
        let _ = writeln!(
            terminal,
            "    DP diff {:.4}  EO diff {:.4}  KS Δ {:.4}",
            a.gaps.demographic_parity_difference, a.gaps.equalized_odds_difference, a.ks
        );
        points.push(LabelledPoint {
            x: a.gaps.demographic_parity_difference,
            y: a.gaps.equalized_odds_difference,
            label: format!("{} / {}", data.name(), name),
        });
        json_attrs.push(json!({
            "attribute": name,
            "groups": a.groups_json,
            "demographic_parity_difference": a.gaps.demographic_parity_difference,
            "demographic_parity_ratio": a.gaps.demographic_parity_ratio,
            "equal_opportunity_difference": a.gaps.equal_opportunity_difference,
            "equalized_odds_difference": a.gaps.equalized_odds_difference,
            "accuracy_difference": a.gaps.accuracy_difference,
            "ks_delta": a.ks,
        }));
    }
    Ok(DatasetAudit {
        markdown: md,
        terminal,
        json: json!({
            "dataset": data.name(),
            "rows": data.n_rows(),
            "features": data.n_features(),
            "train_rows": train.n_rows(),
            "test_rows": test.n_rows(),
            "test_accuracy": accuracy,
            "test_auc": auc,
            "lbfgs_iterations": model.iterations,
            "converged": model.converged,
            "attributes": json_attrs,
        }),
        points,
    })
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

struct AttributeAudit {
    table: Table,
    gaps: ParityGaps,
    ks: f64,
    groups_json: Vec<Value>,
}

fn audit_attribute(
    y: &[usize],
    pred: &[usize],
    scores: &[f64],
    groups: &Groups,
) -> Result<AttributeAudit> {
    let gc = GroupConfusion::new(y, pred, groups, None)?;
    let skip = ZeroDivision::Skip;
    let rates = [
        Rate::Selection,
        Rate::TruePositive,
        Rate::FalsePositive,
        Rate::Accuracy,
    ];
    let summaries = rates
        .iter()
        .map(|&r| gc.summary(r, skip))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let auc = auc_by_group(y, scores, groups, None, skip)?;
    let gaps = parity_gaps(
        &gc,
        &ParityOptions {
            zero_division: skip,
            ..ParityOptions::default()
        },
    )?;
    let ks = ks_statistic(scores, groups, None)?.max;

    let mut table = Table::new(&[
        "group",
        "n",
        "base rate",
        "selection",
        "TPR",
        "FPR",
        "accuracy",
        "AUC",
    ]);
    let mut groups_json = Vec::new();
    for (g, name) in gc.names().iter().enumerate() {
        let c = &gc.by_group()[g];
        let base = c.positives() / c.total();
        let cell = |k: usize| summaries[k].by_group[g];
        table.row(vec![
            name.clone(),
            format!("{}", c.total()),
            format!("{base:.4}"),
            fmt4(cell(0)),
            fmt4(cell(1)),
            fmt4(cell(2)),
            fmt4(cell(3)),
            fmt4(auc.by_group[g]),
        ]);
        groups_json.push(json!({
            "group": name, "n": c.total(), "base_rate": base,
            "selection_rate": cell(0), "tpr": cell(1), "fpr": cell(2),
            "accuracy": cell(3), "auc": auc.by_group[g],
        }));
    }
    let o = gc.overall();
    table.row(vec![
        "**all**".into(),
        format!("{}", o.total()),
        format!("{:.4}", o.positives() / o.total()),
        fmt4(Some(summaries[0].overall)),
        fmt4(Some(summaries[1].overall)),
        fmt4(Some(summaries[2].overall)),
        fmt4(Some(summaries[3].overall)),
        fmt4(Some(auc.overall)),
    ]);
    Ok(AttributeAudit {
        table,
        gaps,
        ks,
        groups_json,
    })
}
