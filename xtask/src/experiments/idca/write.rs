//! The main report (`idca.md`, `idca.json`) and its figures.

use super::*;

/// The `## dataset (I = [α %, β %])` heading of a report section.
pub(super) fn dataset_heading(md: &mut String, spec: &Spec) {
    let _ = writeln!(
        md,
        "## {} (I = [{:.0} %, {:.0} %])\n",
        spec.name,
        spec.interval.0 * 100.0,
        spec.interval.1 * 100.0
    );
}

/// The main report `idca.md` / `idca.json` and its figures.
pub(super) fn write_reports(
    ctx: &Context,
    budget: &Budget,
    results: &[(&Spec, DatasetOut)],
    seconds: f64,
) -> Result<()> {
    let mut md = report_header(ctx, budget, seconds);
    let mut json_ds = Vec::new();
    for (spec, out) in results {
        dataset_heading(&mut md, spec);
        md.push_str(&table4_section(spec, budget, out));
        md.push_str(&gauc_section(budget, &out.points));
        hypotheses_table(&mut md, budget, spec, out);
        frontiers(&mut md, ctx, spec, out)?;
        figures(&mut md, ctx, budget, spec, out)?;
        table3(&mut md, spec, out);
        if !out.robust.is_empty() {
            md.push_str(&robustness::section(ctx, spec, &out.robust)?);
        }
        json_ds.push(json!({
            "dataset": spec.name,
            "interval": [spec.interval.0, spec.interval.1],
            "points": out.points.iter().map(Point::json).collect::<Vec<_>>(),
            "table3": out.table3.iter().map(Point::json).collect::<Vec<_>>(),
            "convergence": out.convergence,
            "figure9": out.robust.iter().map(|b| json!({
                "interval": [b.interval.0, b.interval.1], "method": b.method, "seed": b.seed,
                "accuracy": b.accuracy, "psp_fairness": b.psp,
            })).collect::<Vec<_>>(),
        }));
    }
    md.push_str(NOTES);
    ctx.write("idca.md", &md)?;
    let json = json!({
        "experiment": "idca",
        "quick": ctx.quick,
        "seconds": seconds,
        "budget": {
            "seeds_a9a": budget.seeds_a9a, "seeds_law": budget.seeds_law, "inner_iters_a9a": budget.inner_a9a, "inner_iters_law": budget.inner_law, "eps": budget.eps,
            "checkpoints_a9a": budget.checkpoints_a9a, "checkpoints_law": budget.checkpoints_law,
            "side_seeds": budget.side_seeds, "extra_seeds": budget.extra_seeds, "robust_seeds": budget.robust_seeds,
            "reg_iters": budget.reg_iters,
            "grid_sizes_a9a": budget.grid_sizes_a9a, "grid_sizes_law": budget.grid_sizes_law,
        },
        "datasets": json_ds,
    });
    ctx.write(
        "idca.json",
        &serde_json::to_string_pretty(&json).unwrap_or_default(),
    )?;
    Ok(())
}

/// The title, the reference, the budget and the protocol paragraphs of `idca.md`.
fn report_header(ctx: &Context, budget: &Budget, seconds: f64) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# IDCA: fairness on intervals of percentiles ({} mode)\n",
        if ctx.quick {
            "quick"
        } else {
            "full: Table 4 by the paper's protocol, the rest on a reduced budget"
        }
    );
    let _ = writeln!(
        md,
        "He, Huang, Yao & Lin, *Enforcing Fair Predicted Scores on Intervals of Percentiles by \
         Difference-of-Convex Constraints* (arXiv:2505.12530). Regenerate with `cargo xtask repro idca{}`. \
         Wall time {seconds:.0} s on this machine.\n",
        if ctx.quick { " --quick" } else { "" }
    );
    let _ = writeln!(
        md,
        "Budget: seeds {:?} (a9a) and {:?} (law school) for model (15) with |Î| = 10; seeds {:?} for the pDP \
         frontier (21) and the baselines; seeds {:?} for |Î| ≠ 10 and Table 3; seeds {:?} for model (49) \
         and Figure 9. IDCA T = {} (a9a) / {} (law school) inner SSG steps, ε = {}, \
         K chosen by validation accuracy among checkpoints {:?} (a9a) / {:?} (law school) for every \
         fit outside Table 4's |Î| = 10 rows (those follow the paper's protocol, next paragraph); regularisation \
         baselines {} subgradient steps with step 5e-3; pairwise baselines {:?} projected-gradient steps (a9a, law school); #Î ∈ {:?} (a9a) and {:?} (law school); \
         Table 3 run: a9a {}, law school {}; IDCA-vs-SSG comparison with T · K inner iterations each. The \
         unconstrained rows and the hypotheses use seeds {:?}. All numbers are test-set means ± 95 % \
         t-intervals over the seeds.\n",
        budget.seeds_a9a,
        budget.seeds_law,
        budget.side_seeds,
        budget.extra_seeds,
        budget.robust_seeds,
        budget.inner_a9a,
        budget.inner_law,
        budget.eps,
        budget.checkpoints_a9a,
        budget.checkpoints_law,
        budget.reg_iters,
        budget.pair_iters,
        budget.grid_sizes_a9a,
        budget.grid_sizes_law,
        budget.table3_a9a,
        budget.table3_law,
        budget.hyp_seeds
    );
    let _ = writeln!(
        md,
        "Protocol of Table 4's rows (model (15), |Î| = 10): the paper's G.2.2 — per κ and seed, \
         (T, ε) from T ∈ {:?} × ε ∈ {:?} by validation accuracy after {} outer iterations from \
         w = 0, then the winner continued and K chosen from {:?} by validation accuracy (the chosen \
         T, ε and K are in the table). {}\n",
        budget.protocol.grid.inner,
        budget.protocol.grid.eps,
        budget.protocol.grid.outer,
        budget.protocol.ks,
        if budget.protocol_all {
            "Every other (15)/(21) fit uses the same protocol (`--idca-tune`)."
        } else {
            "Every other IDCA fit (|Î| ≠ 10, the pDP frontier (21), Table 3, Figure 9, model (49), \
             Figures 10–11) uses the fixed T, ε and K checkpoints of the budget line \
             (`--idca-tune` extends the protocol to (15)/(21) everywhere)."
        }
    );
    md
}

/// The points of `method` at `param` (every param when NaN).
fn points_of<'a>(out: &'a DatasetOut, method: &str, param: f64) -> Vec<&'a Point> {
    out.points
        .iter()
        .filter(|p| p.method == method && (param.is_nan() || (p.param - param).abs() < 1e-12))
        .collect()
}

/// The hypotheses for the unconstrained miss, aggregated by label over the seeds.
fn hypotheses_table(md: &mut String, budget: &Budget, spec: &Spec, out: &DatasetOut) {
    // Hypotheses for the unconstrained miss, aggregated by label over the seeds.
    let mut th = Table::new(&[
        "reading / model (unconstrained w*)",
        "fairness",
        "paper",
        "±0.03",
        "accuracy",
        "seeds",
    ]);
    let mut labels: Vec<&str> = Vec::new();
    for rows in &out.hyp {
        for (l, _, _) in rows {
            if !labels.contains(&l.as_str()) {
                labels.push(l);
            }
        }
    }
    for l in labels {
        let vals: Vec<(f64, f64)> = out
            .hyp
            .iter()
            .flat_map(|rows| rows.iter().filter(|r| r.0 == l).map(|r| (r.1, r.2)))
            .collect();
        let f: Vec<f64> = vals.iter().map(|v| v.0).collect();
        let a: Vec<f64> = vals.iter().map(|v| v.1).collect();
        if f.iter().all(|v| v.is_nan()) {
            th.row(vec![
                l.into(),
                "–".into(),
                "".into(),
                "".into(),
                "".into(),
                "".into(),
            ]);
            continue;
        }
        let fm = mean_ci95(&f);
        th.row(vec![
            l.into(),
            pm(fm),
            format!("{:.4}", spec.paper.unconstrained.0),
            hit(fm.0, spec.paper.unconstrained.0, FAIRNESS_TOL).into(),
            pm(mean_ci95(&a)),
            f.len().to_string(),
        ]);
    }
    let _ = writeln!(
        md,
        "### Why the unconstrained pSP fairness misses: hypotheses\n\nEach row re-evaluates \
         the unconstrained model under one alternative reading (seeds {:?}; the column scan \
         on the first seed only, full mode only). Only the first row is the metric reported \
         everywhere else.\n\n{}",
        budget.hyp_seeds,
        th.markdown()
    );
}

/// Figure 1: the table of every method and setting, and the pSP / pDP frontier SVGs.
fn frontiers(md: &mut String, ctx: &Context, spec: &Spec, out: &DatasetOut) -> Result<()> {
    let pts = |method: &str, param: f64| points_of(out, method, param);
    // pDP frontier and baselines.
    let mut tf = Table::new(&[
        "method",
        "κ or λ",
        "pSP fairness",
        "pDP fairness",
        "accuracy",
    ]);
    let mut frontier_sp: Vec<Series> = Vec::new();
    let mut frontier_dp: Vec<Series> = Vec::new();
    let mut methods: Vec<String> = Vec::new();
    for p in &out.points {
        if !methods.contains(&p.method) {
            methods.push(p.method.clone());
        }
    }
    for method in &methods {
        let mut params: Vec<f64> = Vec::new();
        for p in out.points.iter().filter(|p| &p.method == method) {
            if !params
                .iter()
                .any(|q| (q - p.param).abs() < 1e-12 || (q.is_nan() && p.param.is_nan()))
            {
                params.push(p.param);
            }
        }
        let mut sp_pts = Vec::new();
        let mut dp_pts = Vec::new();
        for &param in &params {
            let ps = pts(method, param);
            let (f, d, a) = (
                agg(&ps, |p| p.psp),
                agg(&ps, |p| p.pdp),
                agg(&ps, |p| p.accuracy),
            );
            tf.row(vec![
                method.clone(),
                if param.is_nan() {
                    "–".into()
                } else {
                    format!("{param}")
                },
                pm(f),
                pm(d),
                pm(a),
            ]);
            sp_pts.push((f.0, a.0));
            dp_pts.push((d.0, a.0));
        }
        let is_dp = method.contains("pDP") || method.contains("(119)");
        let is_sp = method.contains("pSP") || method.contains("(114)");
        let unc = method == "unconstrained";
        if is_sp || unc {
            frontier_sp.push(Series {
                name: method.clone(),
                points: sp_pts,
                line: !unc,
            });
        }
        if is_dp || unc {
            frontier_dp.push(Series {
                name: method.clone(),
                points: dp_pts,
                line: !unc,
            });
        }
    }
    // The paper's Table 4 points (|Î| = 10), to show where the two frontiers cross.
    frontier_sp.push(Series {
        name: "paper, IDCA pSP (15), #Î=10 (Table 4)".into(),
        points: std::iter::once((spec.paper.unconstrained.0, spec.paper.unconstrained.1))
            .chain(spec.paper.sp10.iter().map(|&(_, f, a)| (f, a)))
            .collect(),
        line: true,
    });
    let _ = writeln!(
        md,
        "### Frontiers (Figure 1): every method and setting\n\n{}",
        tf.markdown()
    );
    let slug = if spec.name == "a9a" { "a9a" } else { "law" };
    for (kind, series) in [("psp", &frontier_sp), ("pdp", &frontier_dp)] {
        let (xs, ys): (Vec<f64>, Vec<f64>) =
            series.iter().flat_map(|s| s.points.iter().copied()).unzip();
        let lo = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let file = format!("idca_frontier_{slug}_{kind}.svg");
        ctx.write_svg(
            &file,
            multi_series(
                &Axes {
                    title: &format!(
                        "{}: accuracy vs {} fairness (test)",
                        spec.name,
                        if kind == "psp" { "pSP" } else { "pDP" }
                    ),
                    x_desc: if kind == "psp" {
                        "pSP fairness 1 − max SP^I"
                    } else {
                        "pDP fairness 1 − max DP^I"
                    },
                    y_desc: "test accuracy",
                    x: (lo(&xs) - 0.02, (hi(&xs) + 0.02).min(1.01)),
                    y: (lo(&ys) - 0.005, hi(&ys) + 0.005),
                    log_y: false,
                },
                series,
                None,
            )?,
        )?;
        let _ = writeln!(md, "![{kind} frontier]({file})\n");
    }
    Ok(())
}

/// Figure 2 (rank curves), Figures 3–8 (score densities) and Figures 10–11 (IDCA vs SSG).
fn figures(
    md: &mut String,
    ctx: &Context,
    budget: &Budget,
    spec: &Spec,
    out: &DatasetOut,
) -> Result<()> {
    let slug = if spec.name == "a9a" { "a9a" } else { "law" };
    // Figure 2.
    let file = format!("idca_rank_{slug}.svg");
    ctx.write_svg(
        &file,
        multi_series(
            &Axes {
                title: &format!(
                    "{}: F̄₂(θ) vs F̄₁(θ), test, seed {}",
                    spec.name,
                    budget.seeds(spec)[0]
                ),
                x_desc: "F̄ of group 1 (γ = 1)",
                y_desc: "F̄ of group 2 (γ = 2)",
                x: (0.0, 1.0),
                y: (0.0, 1.0),
                log_y: false,
            },
            &out.rank,
            Some(spec.interval),
        )?,
    )?;
    let _ = writeln!(md, "Figure 2 (rank curves; I shaded): ![rank]({file})\n");
    // Figures 3–8: per-group test-score densities (Gaussian KDE, Silverman bandwidth).
    let names = ["group 1 (γ = 1)", "group 2 (γ = 2)"];
    for (family, fig) in [("psp", "Figures 3/5 (pSP)"), ("pdp", "Figures 6/8 (pDP)")] {
        for (code, gname) in names.iter().enumerate() {
            let series: Vec<Series> = out
                .dens
                .iter()
                .filter(|d| d.0 == family || d.0 == "both")
                .map(|(_, label, sc, codes)| {
                    let v: Vec<f64> = sc
                        .iter()
                        .zip(codes)
                        .filter(|&(_, &c)| c == code)
                        .map(|(&x, _)| x)
                        .collect();
                    Series {
                        name: label.clone(),
                        points: kde(&v, 200),
                        line: true,
                    }
                })
                .collect();
            if series.iter().all(|s| s.points.is_empty()) {
                continue;
            }
            let (xs, ys): (Vec<f64>, Vec<f64>) =
                series.iter().flat_map(|s| s.points.iter().copied()).unzip();
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let top = ys.iter().copied().fold(0.0, f64::max);
            let file = format!("idca_density_{slug}_{family}_g{}.svg", code + 1);
            ctx.write_svg(
                &file,
                multi_series(
                    &Axes {
                        title: &format!(
                            "{}: test-score density, {gname}, seed {}",
                            spec.name,
                            budget.seeds(spec)[0]
                        ),
                        x_desc: "score h_w(ξ)",
                        y_desc: "density",
                        x: (lo, hi),
                        y: (0.0, top * 1.05),
                        log_y: false,
                    },
                    &series,
                    None,
                )?,
            )?;
            let _ = writeln!(md, "{fig}, {gname}: ![density]({file})\n");
        }
    }
    // Figures 10–11.
    for (what, series, log) in [
        ("objective", &out.conv_series.0, false),
        ("violation", &out.conv_series.1, true),
    ] {
        let file = format!("idca_vs_ssg_{slug}_{what}.svg");
        let (xs, ys): (Vec<f64>, Vec<f64>) =
            series.iter().flat_map(|s| s.points.iter().copied()).unzip();
        let ymin = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let ymax = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ctx.write_svg(
            &file,
            multi_series(
                &Axes {
                    title: &format!("{}: IDCA vs direct SSG, {what}", spec.name),
                    x_desc: "inner iterations",
                    y_desc: if log {
                        "max_i f_i (floored at 1e-6)"
                    } else {
                        "f_0 (training logistic loss)"
                    },
                    x: (0.0, xs.iter().copied().fold(1.0, f64::max)),
                    y: if log {
                        (1e-6, ymax.max(1e-5) * 2.0)
                    } else {
                        (ymin - 0.01, ymax + 0.01)
                    },
                    log_y: log,
                },
                series,
                None,
            )?,
        )?;
        let _ = writeln!(md, "Figures 10–11 ({what}): ![{what}]({file})\n");
    }
    Ok(())
}

/// Table 3: full-range vs partial SP (when it was run).
fn table3(md: &mut String, spec: &Spec, out: &DatasetOut) {
    if out.table3.is_empty() {
        return;
    }
    let pts = |method: &str, param: f64| points_of(out, method, param);
    let mut t3 = Table::new(&[
        "κ",
        "full-range SP: pSP fairness on I",
        "accuracy",
        "partial SP: pSP fairness",
        "accuracy",
    ]);
    let mut methods3: Vec<String> = Vec::new();
    for p in &out.table3 {
        if !methods3.contains(&p.method) {
            methods3.push(p.method.clone());
        }
    }
    for &kappa in spec.kappa_sp {
        let full: Vec<&Point> = out
            .table3
            .iter()
            .filter(|p| (p.param - kappa).abs() < 1e-12)
            .collect();
        let part = pts("IDCA pSP (15), #Î=10", kappa);
        if full.is_empty() || part.is_empty() {
            continue;
        }
        t3.row(vec![
            format!("{kappa}"),
            pm(agg(&full, |p| p.psp)),
            pm(agg(&full, |p| p.accuracy)),
            pm(agg(&part, |p| p.psp)),
            pm(agg(&part, |p| p.accuracy)),
        ]);
    }
    let _ = writeln!(
        md,
        "### Table 3: full-range vs partial SP ({})\n\n{}",
        methods3.join(", "),
        t3.markdown()
    );
}

pub(super) const NOTES: &str = "
## Stand-ins and open choices

* **Data.** a9a is the workspace's *a9a-like* encoding of UCI Adult (`fair_data::recipes::adult_a9a`, 123
  binary columns; LIBSVM's exact cut points are unpublished), a9a's own train/test rows, 10 % of the
  training part held out for validation (stratified on the label, seeded). Gender is both a feature
  (as in a9a) and γ (Female = 1, Male = 2). Law School is the 21,791-row Kusner et al. file (the
  paper's has 20,798 rows), white (γ = 1) vs non-white (γ = 2), 56.25/18.75/25 split stratified on
  the label, features standardised on the training rows. **Bank and ACS are not available in the
  workspace and were not run.**
* **Model.** `h_w(ξ) = ⟨w, (1, ξ, γ, γξ)⟩`, logistic loss without regulariser, hard sigmoid, θ̂ = 0.
  The unconstrained w* is L-BFGS (argmin, 500 iterations max, no regulariser).
* **Î.** `|Î|` left-closed equally spaced points of Lemma 5.1's range `[α, β − κ(β − α))` (the paper
  says \"in I\"; points beyond β − κ(β − α) over-restrict).
* **IDCA start.** `w = 0`, `θ_p = ½ − p − κ(β − α)/2` (strictly feasible; the paper does not give θ⁽⁰⁾).
* **Model (21).** The paper's redundant `S⁺` terms (Example D.5) are kept.
* **Tuning.** Table 4's rows (model (15), |Î| = 10) follow the paper's G.2.2: per κ and seed,
  the 8 pairs T ∈ {150, 200} × ε ∈ {5e-4, 1e-3, 2e-3, 5e-3} each run 50 outer iterations from
  w = 0, the pair with the highest validation accuracy is kept (accuracy only, as the paper says),
  continued to 400 outer iterations, and K ∈ {100, 150, …, 400} is chosen by validation accuracy.
  The continuation equals a fresh run of K iterations because IDCA carries nothing but w⁽ᵏ⁾ from
  one outer iteration to the next (`dc-opt` test
  `resuming_idca_from_its_last_iterate_equals_one_longer_run`). A run that reaches a fixed point
  (\"stationary\") keeps that iterate for every later K. Every other IDCA fit uses the fixed T, ε
  and checkpoints of the budget line unless `--idca-tune` is given. The regularisation baselines
  use a fixed step 5e-3 (no step search) and start from w = 0 with θ_p = ½ − p.
* **Pairwise baselines (102)/(105)/(107)** with the quadratic surrogate ½(1 + x)², ordered pairs
  k ≠ k' only, projected gradient from w = 0 with step 1/L (L = λ_max(X̃ᵀX̃/n)/4, the logistic
  loss's smoothness bound; the paper gives no step), the projection a QCQP solved by clarabel as an
  SOCP; the number of steps is in the budget line (the paper: 1000 a9a, 500 law school). Their κ
  grids are the paper's (notes §4.4), one grid for the pSP and one for the pDP frontier.
* **Figures 3–8** are one SVG per data set, family (pSP / pDP) and group, Gaussian KDE with
  Silverman's bandwidth (the paper: MATLAB `ksdensity`), I not shaded (it is a different score range
  per group).
* **Model (49)** (partial group AUC): the paper runs no experiment with it, so its κ grid
  {0.1, 0.05, 0.02} is this repro's; hard sigmoid, its own smaller budget (T = 100, K ∈ {20, 40}).
  The DC split is exact at every w (the bands are top-m sums at the current scores, see
  `dc_opt::PartialGauc`); it differs from Example D.7 by splitting σ into convex non-decreasing
  parts instead of using ρ-weak convexity, which the hard sigmoid lacks. The hard sigmoid bounds
  mean clipped score differences, not ranks, so the test AUC gap can exceed κ when scores are
  small (visible in quick mode).
* **Figure 9** (robustness to I): the paper's five intervals per data set and its fixed κ / λ
  (G.6), kept as printed rather than re-tuned to equal accuracies; one seed (budget line); IDCA
  with the Table 4 budget.
* **Table 3** (full-range model) uses `|Î| = 1/spacing` points on [0, 1] with the partial grid's spacing
  and reports pSP fairness on the *partial* I (the notes' reading of the paper's table).
* **Figures 10–11** use the smallest κ of each grid, seed 0, IDCA vs Algorithm 3 with constant
  ε equal to IDCA's ε and the same total number of inner iterations (no ε-schedule search).
* **CI.** Student-t 95 % interval of the mean over the seeds (the paper does not give its formula).

## Why targets are missed (what is known)

* **Unconstrained pSP fairness.** The unconstrained accuracy matches the paper on both data sets, but
  its pSP fairness on I (the notes' §1.5 estimator) is far lower than the paper's 0.5970 / 0.5397.
  The hypotheses table under each Table 4 re-evaluates the same w* under other readings. No
  reading of the *partial* metric comes close on both data sets: F̄ with ≥, the Î grid only and
  Lemma 5.1's κ change little; dropping the 1/(β − α) normalisation, a pooled percentile band, or
  the penalty form without its factor 2 move the figure a lot but in different directions on the
  two data sets; training rows, ridge, and the plain model (no cross terms) do not help; a9a's other
  race/sex columns as γ do not give 0.597. The one reading that lands near **both** figures is the
  **full-range** SP fairness 1 − KS (I = [0, 1]) (the \"full-range\" rows of the hypotheses table). That
  fits the paper's Table 3, whose unconstrained row is the same in the I = [0 %, 100 %] column
  (where full-range SP is the right metric) and the partial column — the partial column may simply
  repeat the full-range figure. It is **not adopted**: it explains only the unconstrained row (a
  model constrained on a partial I does not track the paper's rows in full-range KS either; see the
  \"full-range SP fairness\" column of Table 4), and the paper defines the row as pSP on I. The
  column scan shows that *some* unrelated a9a columns as γ also land near the paper's figure — a
  coincidence of a many-column search, not evidence.
* **Constrained rows, hypothesis by hypothesis.** The row-by-row table under each Table 4 gives a
  verdict per row computed from the row's own numbers. The hypotheses the columns test:
  (1) *train vs test*: \"train − test pSP fairness\" — a fairness miss with a training figure near
  the paper's is generalisation over the test band, not the fit; (2) *the test band's KS noise
  floor*: the \"Test-set noise\" line — the fairness a perfectly fair model falls below one time in
  20 on the first seed's test band (law school's non-white group has only a few hundred test rows
  in I); (3) *the surrogate*: \"train max f_i\" (the hard-sigmoid constraints of (15) on the
  training rows, at most ε) against the exact \"train pSP fairness\" — the surrogate holding while
  exact training pSP stays below 1 − κ means the hard sigmoid is loose at these score scales;
  (4) *the interval grid Î*: the |Î| = 20 rows against the |Î| = 10 ones (fixed budget, fewer
  seeds); (5) *the cross-term model*: the hypotheses table's plain-logistic rows (the unconstrained
  model only; no constrained plain-model run); (6) *the start*: w* is not feasible for (15) (its
  pSP is the unconstrained row), so IDCA cannot start there, and the paper's G.2.2 starts from
  w = 0 as here; (7) *the starting unfairness*: \"fairness gain over unconstrained\" — with the
  notes' estimator the unconstrained model is much less pSP-fair on I than the paper's 0.5970 /
  0.5397, so each row must add more fairness than the paper's row did, and pays for it in
  accuracy (\"accuracy cost\").
* **Stationary runs.** Runs that stop as \"stationary (fixed point)\" found, within T steps, no
  nearly feasible point with a smaller subproblem objective than the current iterate, so IDCA
  would repeat it; more outer iterations (larger K) do not change them.
* **Surrogate scale.** The hard sigmoid is linear on a band of width 1 around each threshold; while the
  scores are small (early iterations, or a stationary run near w = 0) the constraints of (15) only
  match group score *means*, so a run can satisfy them on the training set and still be unfair in
  exact pSP on the test set.
";
