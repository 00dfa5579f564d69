//! The SVG figures: the trade-off curves, the ROC / density panels and Figure 2.

use super::*;

pub(super) fn draw_tradeoff(
    ctx: &Context,
    src: &Source,
    cfg: &Config,
    n_splits: u64,
    cells: &[Cell],
) -> Result<()> {
    let curve = |method: Method, mu: f64| -> Vec<(f64, f64)> {
        cfg.d_grid
            .iter()
            .filter_map(|&d| {
                cells.iter().find(|c| {
                    c.method == method
                        && same(c.d, d)
                        && (method == Method::Zafar || same(c.mu, mu))
                })
            })
            .map(|c| (mean(&c.delta), mean(&c.auc)))
            .collect()
    };
    let mut lines = vec![Line {
        label: "ZSVM (over d)".into(),
        points: curve(Method::Zafar, 0.0),
        color: RED,
        dashed: false,
        markers: true,
    }];
    for (i, &mu) in cfg.mu_grid.iter().enumerate() {
        lines.push(Line {
            label: format!("SSVM μ = {mu}"),
            points: curve(Method::Spectral, mu),
            color: blue_shade(i, cfg.mu_grid.len()),
            dashed: true,
            markers: true,
        });
    }
    let plain = &cells[0];
    let dots = vec![Dots {
        label: "LSVM".into(),
        points: vec![(mean(&plain.delta), mean(&plain.auc))],
        color: BLACK,
        cross: false,
    }];
    let all = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter())
            .chain(dots[0].points.iter())
    };
    let panel = Panel {
        title: format!("{} (means over {} split(s), test set)", src.name, n_splits),
        x_desc: "Δ (all-threshold DP gap, KS)".into(),
        y_desc: "AUC".into(),
        x_range: padded_range(all().map(|p| p.0)),
        y_range: padded_range(all().map(|p| p.1)),
        lines,
        dots,
    };
    ctx.write_svg(
        &format!("fair-svm-tradeoff-{}.svg", src.name),
        panel_grid(
            "Fairness–accuracy trade-off over d (paper Fig. 4)",
            1,
            1,
            &[panel],
        )?,
    )
}

pub(super) fn draw_panels(
    ctx: &Context,
    src: &Source,
    sp: &Split,
    models: &[(Method, Vec<f64>)],
    lambda: f64,
) -> Result<()> {
    let z_labels: Vec<usize> = sp.z_test.codes().to_vec();
    let mut roc_panels = Vec::new();
    let mut dens_panels = Vec::new();
    for (method, s) in models {
        roc_panels.push(roc_panel(method, s, sp, &z_labels)?);
        dens_panels.extend(density_panels(method, s, sp, &z_labels));
    }
    let tag = format!("split 0, λ = {lambda}, d = {PANEL_D}, μ = {PANEL_MU}, test set");
    ctx.write_svg(
        &format!("fair-svm-roc-{}.svg", src.name),
        panel_grid(
            &format!(
                "{}: ROC for y (blue), for z (red dashed), per-group y ROC — {tag} (paper Fig. 3)",
                src.name
            ),
            1,
            3,
            &roc_panels,
        )?,
    )?;
    // Reorder to rows: z-densities on top, y-densities below.
    let (z_row, y_row): (Vec<_>, Vec<_>) = dens_panels
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i % 2 == 0);
    let ordered: Vec<Panel> = z_row.into_iter().chain(y_row).map(|(_, p)| p).collect();
    ctx.write_svg(
        &format!("fair-svm-densities-{}.svg", src.name),
        panel_grid(
            &format!(
                "{}: score densities by z (top) and by y (bottom) — {tag}",
                src.name
            ),
            2,
            3,
            &ordered,
        )?,
    )
}

/// The ROC panel of one model: y ROC, z ROC and the y ROC per group.
fn roc_panel(method: &Method, s: &[f64], sp: &Split, z_labels: &[usize]) -> Result<Panel> {
    let y_roc = roc_curve(&sp.y_test, s, None)?;
    let z_roc = roc_curve(z_labels, s, None)?;
    let by_group = roc_curve_by_group(&sp.y_test, s, &sp.z_test, None)?;
    let delta = ks_statistic(s, &sp.z_test, None)?.max;
    let pts = |c: &fair_metrics::roc::RocCurve| {
        c.false_positive_rate
            .iter()
            .copied()
            .zip(c.true_positive_rate.iter().copied())
            .collect::<Vec<_>>()
    };
    Ok(Panel {
        title: format!("{} — AUC {:.3}, Δ {:.3}", method.label(), y_roc.auc, delta),
        x_desc: "false positive rate".into(),
        y_desc: "true positive rate".into(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        lines: vec![
            Line {
                label: "y ROC".into(),
                points: pts(&y_roc),
                color: BLUE,
                dashed: false,
                markers: false,
            },
            Line {
                label: "z ROC".into(),
                points: pts(&z_roc),
                color: RED,
                dashed: true,
                markers: false,
            },
            Line {
                label: "y ROC, z = +1".into(),
                points: pts(&by_group[1]),
                color: GREEN,
                dashed: false,
                markers: false,
            },
            Line {
                label: "y ROC, z = −1".into(),
                points: pts(&by_group[0]),
                color: ORANGE,
                dashed: false,
                markers: false,
            },
            Line {
                label: String::new(),
                points: vec![(0.0, 0.0), (1.0, 1.0)],
                color: GREY,
                dashed: true,
                markers: false,
            },
        ],
        dots: vec![],
    })
}

/// The two score-density panels of one model: by z, then by y.
fn density_panels(method: &Method, s: &[f64], sp: &Split, z_labels: &[usize]) -> [Panel; 2] {
    let (lo, hi) = padded_range(s.iter().copied());
    let grid: Vec<f64> = (0..=120)
        .map(|k| lo + (hi - lo) * k as f64 / 120.0)
        .collect();
    let pick = |keep: &dyn Fn(usize) -> bool| -> Vec<f64> {
        (0..s.len()).filter(|&i| keep(i)).map(|i| s[i]).collect()
    };
    let zp = density(&pick(&|i| z_labels[i] == 1), &grid);
    let zn = density(&pick(&|i| z_labels[i] == 0), &grid);
    let yp = density(&pick(&|i| sp.y_test[i] == 1), &grid);
    let yn = density(&pick(&|i| sp.y_test[i] == 0), &grid);
    let ymax = zp
        .iter()
        .chain(&zn)
        .chain(&yp)
        .chain(&yn)
        .map(|p| p.1)
        .fold(0.0, f64::max)
        * 1.1
        + 1e-9;
    let by_z = Panel {
        title: format!("{}: score | z", method.label()),
        x_desc: "score xᵀw".into(),
        y_desc: "density".into(),
        x_range: (lo, hi),
        y_range: (0.0, ymax),
        lines: vec![
            Line {
                label: "z = +1".into(),
                points: zp,
                color: BLUE,
                dashed: false,
                markers: false,
            },
            Line {
                label: "z = −1".into(),
                points: zn,
                color: RED,
                dashed: false,
                markers: false,
            },
        ],
        dots: vec![],
    };
    let by_y = Panel {
        title: format!("{}: score | y", method.label()),
        x_desc: "score xᵀw".into(),
        y_desc: "density".into(),
        x_range: (lo, hi),
        y_range: (0.0, ymax),
        lines: vec![
            Line {
                label: "y = +1".into(),
                points: yp,
                color: BLUE,
                dashed: false,
                markers: false,
            },
            Line {
                label: "y = −1".into(),
                points: yn,
                color: RED,
                dashed: false,
                markers: false,
            },
        ],
        dots: vec![],
    };
    [by_z, by_y]
}

/// Figure 2: the synthetic data fitted whole with the paper's d = 0.075 and μ = 10 (summed hinge,
/// i.e. μ = 10/200 here), λ by 5-fold CV on all 200 points.
pub(super) fn figure2(ctx: &Context) -> Result<String> {
    let data = FairSvmSynthetic::new().seed(0).generate()?.data;
    let scaler = Standardizer::fit(data.x())?;
    let x = scaler.transform(data.x())?;
    // Classes 0/1 and the groups "z=-1" (code 0) and "z=+1" (code 1, the paper's z = +1).
    let (y, groups) = (data.y(), data.groups("z")?);
    let n = data.n_rows() as f64;
    let mu = FIG2_MU_PAPER / n;
    let cv = LambdaSearch::new(vec![1e-4, 1e-3, 1e-2, 1e-1, 1.0]).run(&x, y)?;
    let corr = {
        let (y, z) = (signs(y), signs(groups.codes()));
        let (my, mz) = (mean(&y), mean(&z));
        let cov: f64 = y.iter().zip(&z).map(|(a, b)| (a - my) * (b - mz)).sum();
        let vy: f64 = y.iter().map(|a| (a - my).powi(2)).sum();
        let vz: f64 = z.iter().map(|b| (b - mz).powi(2)).sum();
        cov / (vy * vz).sqrt()
    };
    let mut t = Table::new(&["method", "Δ (KS, z)", "AUC", "mᵀw", "wᵀ(Σ₊−Σ₋)w", "status"]);
    let mut panels = Vec::new();
    let mut scat = Vec::new();
    let mut dz = Vec::new();
    let mut dy = Vec::new();
    for method in [Method::Plain, Method::Zafar, Method::Spectral] {
        let m = params(method, cv.best_lambda, FIG2_D, mu).fit(&x, y, groups)?;
        let s: Vec<f64> = scores(&m, &x)?;
        let delta = ks_statistic(&s, groups, None)?.max;
        let auc = roc_auc(data.y(), &s, None)?;
        let r = m.report();
        t.row(vec![
            method.label().into(),
            format!("{delta:.4}"),
            format!("{auc:.4}"),
            format!("{:.4}", r.mean_gap),
            format!("{:.4}", r.covariance_gap),
            format!("{} ({} it.)", r.status, r.iterations),
        ]);
        scat.push(scatter_panel(
            method,
            &data,
            &scaler,
            groups,
            (m.weights(), m.intercept()),
            (delta, auc),
        ));
        density_rows(method, &s, (y, groups.codes()), &mut dz, &mut dy);
    }
    panels.extend(scat);
    panels.extend(dz);
    panels.extend(dy);
    let figure = panel_grid(
        &format!(
            "Synthetic data (paper Fig. 2): LSVM, ZSVM, SSVM with d = {FIG2_D}, μ = {mu} (paper's μ = 10 with summed hinge), λ = {}",
            cv.best_lambda
        ),
        3,
        3,
        &panels,
    )?;
    ctx.write_svg("fair-svm-figure2-synthetic.svg", figure)?;
    let mut s = String::from("\n## Figure 2: synthetic data, fitted on all 200 points\n\n");
    let _ = writeln!(
        s,
        "Paper's setting d = {FIG2_D}, μ = 10 with the summed hinge = μ = {mu} with the averaged hinge used here; λ = \
         {} by 5-fold CV of LSVM on all points. Empirical corr(y, z) = {corr:.3} (paper: 0.45). Δ and AUC on the \
         training points (the paper's figure shows the fitted densities).\n",
        cv.best_lambda
    );
    s.push_str(&t.markdown());
    s.push_str(
        "\nWith p = 2 the mean constraint alone leaves one direction for w; the covariance term can then only \
         rescale w, so SSVM's Δ can differ from ZSVM's only when d > 0 leaves room to rotate.\n\n\
         ![Figure 2](fair-svm-figure2-synthetic.svg)\n",
    );
    Ok(s)
}

/// Figure 2's first row for one model: the data (original units) and its separating line.
fn scatter_panel(
    method: Method,
    data: &Dataset,
    scaler: &Standardizer,
    groups: &Groups,
    (w, b): (&DVector<f64>, f64),
    (delta, auc): (f64, f64),
) -> Panel {
    // The separating line wᵀx' + b = 0 in standardized x'.
    let (mu_x, sd_x) = (scaler.means(), scaler.std_devs());
    let raw = data.x();
    let (xlo, xhi) = padded_range(raw.column(0).iter().copied());
    let (ylo, yhi) = padded_range(raw.column(1).iter().copied());
    let line: Vec<(f64, f64)> = (0..=50)
        .map(|k| xlo + (xhi - xlo) * k as f64 / 50.0)
        .filter_map(|x0| {
            if w[1].abs() < 1e-12 {
                return None;
            }
            let x0s = (x0 - mu_x[0]) / sd_x[0];
            let x1s = -(w[0] * x0s + b) / w[1];
            let x1 = x1s * sd_x[1] + mu_x[1];
            (ylo..=yhi).contains(&x1).then_some((x0, x1))
        })
        .collect();
    let pick = |yc: usize, zc: usize| -> Vec<(f64, f64)> {
        (0..raw.nrows())
            .filter(|&i| data.y()[i] == yc && groups.codes()[i] == zc)
            .map(|i| (raw[(i, 0)], raw[(i, 1)]))
            .collect()
    };
    Panel {
        title: format!("{}: Δ {:.3}, AUC {:.3}", method.label(), delta, auc),
        x_desc: "x0".into(),
        y_desc: "x1".into(),
        x_range: (xlo, xhi),
        y_range: (ylo, yhi),
        lines: vec![Line {
            label: "wᵀx + b = 0".into(),
            points: line,
            color: BLACK,
            dashed: false,
            markers: false,
        }],
        dots: vec![
            Dots {
                label: "y=+1, z=+1 (o)".into(),
                points: pick(1, 1),
                color: GREEN,
                cross: false,
            },
            Dots {
                label: "y=−1, z=+1 (o)".into(),
                points: pick(0, 1),
                color: RED,
                cross: false,
            },
            Dots {
                label: "y=+1, z=−1 (x)".into(),
                points: pick(1, 0),
                color: GREEN,
                cross: true,
            },
            Dots {
                label: "y=−1, z=−1 (x)".into(),
                points: pick(0, 0),
                color: RED,
                cross: true,
            },
        ],
    }
}

/// Figure 2's density rows for one model: the score densities by z (into `dz`) and by y (`dy`).
fn density_rows(
    method: Method,
    s: &[f64],
    (y, z): (&[usize], &[usize]),
    dz: &mut Vec<Panel>,
    dy: &mut Vec<Panel>,
) {
    let (lo, hi) = padded_range(s.iter().copied());
    let grid: Vec<f64> = (0..=120)
        .map(|k| lo + (hi - lo) * k as f64 / 120.0)
        .collect();
    let sel = |keep: &dyn Fn(usize) -> bool| -> Vec<f64> {
        (0..s.len()).filter(|&i| keep(i)).map(|i| s[i]).collect()
    };
    let zl = [
        density(&sel(&|i| z[i] == 1), &grid),
        density(&sel(&|i| z[i] == 0), &grid),
    ];
    let yl = [
        density(&sel(&|i| y[i] == 1), &grid),
        density(&sel(&|i| y[i] == 0), &grid),
    ];
    for (target, pair, what) in [(dz, zl, "z"), (dy, yl, "y")] {
        let ymax = pair.iter().flatten().map(|p| p.1).fold(0.0, f64::max) * 1.1 + 1e-9;
        let [pos, neg] = pair;
        target.push(Panel {
            title: format!("{}: density of xᵀw | {what}", method.label()),
            x_desc: "score".into(),
            y_desc: "density".into(),
            x_range: (lo, hi),
            y_range: (0.0, ymax),
            lines: vec![
                Line {
                    label: format!("{what} = +1"),
                    points: pos,
                    color: BLUE,
                    dashed: false,
                    markers: false,
                },
                Line {
                    label: format!("{what} = −1"),
                    points: neg,
                    color: RED,
                    dashed: false,
                    markers: false,
                },
            ],
            dots: vec![],
        });
    }
}
