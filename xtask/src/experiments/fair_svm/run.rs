//! The fits: plain, Zafar and spectral SVMs over the (d, μ) grid, split by split.

use super::*;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Method {
    Plain,
    Zafar,
    Spectral,
}

impl Method {
    pub(super) fn label(self) -> &'static str {
        match self {
            Method::Plain => "LSVM",
            Method::Zafar => "ZSVM",
            Method::Spectral => "SSVM",
        }
    }
}

/// Test-set figures of one configuration, one entry per split.
pub(super) struct Cell {
    pub(super) method: Method,
    pub(super) d: f64,
    pub(super) mu: f64,
    pub(super) delta: Vec<f64>,
    /// Δ of the training scores (what the constraints act on).
    pub(super) delta_train: Vec<f64>,
    pub(super) auc: Vec<f64>,
    pub(super) wnorm: Vec<f64>,
    pub(super) iterations: Vec<usize>,
    pub(super) converged: usize,
    pub(super) max_iterations: usize,
    pub(super) stalled: usize,
}

/// Grid values are copied, never computed: bitwise identity is the right comparison.
pub(super) fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits()
}

pub(super) fn params(method: Method, lambda: f64, d: f64, mu: f64) -> SpectralFairSvmParams {
    match method {
        Method::Plain => SpectralFairSvmParams::plain().lambda(lambda),
        Method::Zafar => SpectralFairSvmParams::zafar(d).lambda(lambda),
        Method::Spectral => SpectralFairSvm::params().lambda(lambda).d(d).mu(mu),
    }
}

pub(super) fn scores(model: &SpectralFairSvm, x: &DMatrix<f64>) -> Result<Vec<f64>> {
    Ok(model.decision_function(x)?.iter().copied().collect())
}

/// The equal-opportunity comparison: model labels, in the order of [`eo_variants`].
pub(super) const EO_LABELS: [&str; 5] = [
    "LSVM",
    "ZSVM, DP moments",
    "SSVM, DP moments",
    "ZSVM, EO moments (y = +1 rows)",
    "SSVM, EO moments (y = +1 rows)",
];

pub(super) fn eo_variants(lambda: f64) -> [SpectralFairSvmParams; 5] {
    let eo = Fairness::EqualOpportunity;
    [
        SpectralFairSvmParams::plain().lambda(lambda),
        SpectralFairSvmParams::zafar(PANEL_D).lambda(lambda),
        SpectralFairSvm::params()
            .lambda(lambda)
            .d(PANEL_D)
            .mu(PANEL_MU),
        SpectralFairSvmParams::zafar(PANEL_D)
            .lambda(lambda)
            .fairness(eo),
        SpectralFairSvm::params()
            .lambda(lambda)
            .d(PANEL_D)
            .mu(PANEL_MU)
            .fairness(eo),
    ]
}

/// Test-set EO-Δ, DP-Δ and AUC of one equal-opportunity variant, one entry per split.
pub(super) struct EoRow {
    pub(super) label: &'static str,
    pub(super) eo: Vec<f64>,
    pub(super) dp: Vec<f64>,
    pub(super) auc: Vec<f64>,
}

/// Facts of split 0 that the text reports: the μ → 0 check and the test group sizes.
pub(super) struct Split0 {
    pub(super) mu_zero_gap: f64,
    pub(super) test_sizes: (usize, usize),
}

pub(super) struct DatasetResult {
    pub(super) cells: Vec<Cell>,
    pub(super) markdown: String,
    pub(super) json: Value,
}

pub(super) fn run_dataset(ctx: &Context, cfg: &Config, src: &Source) -> Result<DatasetResult> {
    let n_splits = splits_for(cfg, src);
    let per_split = 1 + cfg.d_grid.len() * (1 + cfg.mu_grid.len());
    let bar = ProgressBar::new(n_splits * per_split as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(src.name);
    let mut cells = empty_cells(cfg);
    let mut lambdas = Vec::new();
    let mut cv_auc = Vec::new();
    let mut eo_rows: Vec<EoRow> = EO_LABELS
        .iter()
        .map(|&label| EoRow {
            label,
            eo: Vec::new(),
            dp: Vec::new(),
            auc: Vec::new(),
        })
        .collect();
    let mut split0 = Split0 {
        mu_zero_gap: 0.0,
        test_sizes: (0, 0),
    };
    for seed in 0..n_splits {
        let sp = split(src, seed)?;
        let cv = LambdaSearch::new(cfg.lambda_grid.clone())
            .seed(seed)
            .run(&sp.x_train, &sp.y_train)?;
        lambdas.push(cv.best_lambda);
        cv_auc.push(cv.best_auc);
        fit_cells(&mut cells, &sp, cv.best_lambda, &bar)?;
        fit_eo_rows(&mut eo_rows, &sp, cv.best_lambda)?;
        if seed == 0 {
            split0 = first_split(ctx, src, &sp, cv.best_lambda)?;
        }
    }
    bar.finish_and_clear();
    draw_tradeoff(ctx, src, cfg, n_splits, &cells)?;
    let json = dataset_json(src, &lambdas, &cv_auc, split0.mu_zero_gap, &eo_rows, &cells);
    let markdown = dataset_markdown(src, cfg, &cells, &lambdas, &cv_auc, &eo_rows, split0);
    Ok(DatasetResult {
        cells,
        markdown,
        json,
    })
}

/// One empty cell per configuration: plain, then per d ZSVM and SSVM for every μ.
fn empty_cells(cfg: &Config) -> Vec<Cell> {
    let mut configs = vec![(Method::Plain, f64::INFINITY, 0.0)];
    for &d in &cfg.d_grid {
        configs.push((Method::Zafar, d, 0.0));
        for &mu in &cfg.mu_grid {
            configs.push((Method::Spectral, d, mu));
        }
    }
    configs
        .iter()
        .map(|&(method, d, mu)| Cell {
            method,
            d,
            mu,
            delta: Vec::new(),
            delta_train: Vec::new(),
            auc: Vec::new(),
            wnorm: Vec::new(),
            iterations: Vec::new(),
            converged: 0,
            max_iterations: 0,
            stalled: 0,
        })
        .collect()
}

/// Fits every cell on one split and records its test / training Δ, AUC, weight norm and status.
fn fit_cells(cells: &mut [Cell], sp: &Split, lambda: f64, bar: &ProgressBar) -> Result<()> {
    for cell in cells.iter_mut() {
        let model = params(cell.method, lambda, cell.d, cell.mu).fit(
            &sp.x_train,
            &sp.y_train,
            &sp.z_train,
        )?;
        let s = scores(&model, &sp.x_test)?;
        cell.delta.push(ks_statistic(&s, &sp.z_test, None)?.max);
        let s_train = scores(&model, &sp.x_train)?;
        cell.delta_train
            .push(ks_statistic(&s_train, &sp.z_train, None)?.max);
        cell.auc.push(roc_auc(&sp.y_test, &s, None)?);
        cell.wnorm.push(model.weights().norm());
        let r = model.report();
        cell.iterations.push(r.iterations);
        match r.status {
            Termination::Converged => cell.converged += 1,
            Termination::MaxIterations => cell.max_iterations += 1,
            _ => cell.stalled += 1,
        }
        bar.inc(1);
    }
    Ok(())
}

/// Equal opportunity (not in the paper's experiments) on one split.
fn fit_eo_rows(eo_rows: &mut [EoRow], sp: &Split, lambda: f64) -> Result<()> {
    // Every split: EO-Δ, DP-Δ and AUC on
    // the test set for the DP-moment and the EO-moment (y = +1 rows) fits at (PANEL_D, PANEL_MU).
    for (k, p) in eo_variants(lambda).into_iter().enumerate() {
        let m = p.fit(&sp.x_train, &sp.y_train, &sp.z_train)?;
        let s = scores(&m, &sp.x_test)?;
        let row = &mut eo_rows[k];
        row.eo
            .push(equal_opportunity_ks(&sp.y_test, &s, &sp.z_test, None)?.max);
        row.dp.push(ks_statistic(&s, &sp.z_test, None)?.max);
        row.auc.push(roc_auc(&sp.y_test, &s, None)?);
    }
    Ok(())
}

/// The first split: the ROC / density panels, the μ → 0 check and the test group sizes.
fn first_split(ctx: &Context, src: &Source, sp: &Split, lambda: f64) -> Result<Split0> {
    let mut panel_models = Vec::new();
    for method in [Method::Plain, Method::Zafar, Method::Spectral] {
        let m =
            params(method, lambda, PANEL_D, PANEL_MU).fit(&sp.x_train, &sp.y_train, &sp.z_train)?;
        panel_models.push((method, scores(&m, &sp.x_test)?));
    }
    // μ → 0 must reproduce ZSVM (the paper: "equivalent when μ = 0").
    let z =
        params(Method::Zafar, lambda, PANEL_D, 0.0).fit(&sp.x_train, &sp.y_train, &sp.z_train)?;
    let t = params(Method::Spectral, lambda, PANEL_D, 1e-9).fit(
        &sp.x_train,
        &sp.y_train,
        &sp.z_train,
    )?;
    let (dz, dt) = (
        ks_statistic(&scores(&z, &sp.x_test)?, &sp.z_test, None)?.max,
        ks_statistic(&scores(&t, &sp.x_test)?, &sp.z_test, None)?.max,
    );
    let mu_zero_gap = (dz - dt).abs();
    let codes = sp.z_test.codes();
    let positives = codes.iter().filter(|&&c| c == 1).count();
    let test_sizes = (positives, codes.len() - positives);
    draw_panels(ctx, src, sp, &panel_models, lambda)?;
    Ok(Split0 {
        mu_zero_gap,
        test_sizes,
    })
}

/// The data set's JSON: λ per split, the μ → 0 check, equal opportunity and every cell.
fn dataset_json(
    src: &Source,
    lambdas: &[f64],
    cv_auc: &[f64],
    mu_zero_gap: f64,
    eo_rows: &[EoRow],
    cells: &[Cell],
) -> Value {
    json!({
        "dataset": src.name,
        "rows": src.data.n_rows(),
        "features": src.data.n_features(),
        "z": src.z_desc,
        "lambda_per_split": lambdas,
        "cv_auc_per_split": cv_auc,
        "mu_to_zero_delta_difference": mu_zero_gap,
        "equal_opportunity": eo_rows.iter().map(|r| json!({
            "model": r.label, "d": PANEL_D, "mu": PANEL_MU,
            "eo_delta_mean": mean(&r.eo), "eo_delta_sd": sd(&r.eo), "dp_delta_mean": mean(&r.dp),
            "auc_mean": mean(&r.auc), "eo_delta_per_split": r.eo, "dp_delta_per_split": r.dp, "auc_per_split": r.auc,
        })).collect::<Vec<_>>(),
        "results": cells.iter().map(|c| json!({
            "method": c.method.label(), "d": if c.d.is_finite() { json!(c.d) } else { json!("inf") }, "mu": c.mu,
            "delta_mean": mean(&c.delta), "delta_sd": sd(&c.delta), "delta_train_mean": mean(&c.delta_train), "auc_mean": mean(&c.auc), "auc_sd": sd(&c.auc),
            "delta_per_split": c.delta, "auc_per_split": c.auc, "weight_norm_mean": mean(&c.wnorm), "ccp_iterations": c.iterations,
            "converged": c.converged, "max_iterations": c.max_iterations, "stalled": c.stalled,
        })).collect::<Vec<_>>(),
    })
}
