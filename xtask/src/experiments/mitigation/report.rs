//! Aggregation of the raw measurements, the Pareto verdict and the reports of `mitigation`.

use crate::report::{Context, Result};
use crate::stats::mean_sd;
use fair_report::frontier::{Axes, Series, multi_series};
use fair_report::{Table, escape_markdown};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Tolerance of the Pareto verdict (accuracy and gap).
pub const TOLERANCE: f64 = 0.002;

/// The goal's speed half: the dominating fairkit fit at least this many times faster than
/// ExponentiatedGradient (ε = 0.01).
pub const SPEED_GOAL: f64 = 10.0;

/// One method configuration on a front: mean accuracy, mean gap and mean fit time over splits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub accuracy: f64,
    pub gap: f64,
    pub fit_s: f64,
}

/// The verdict on one fairlearn point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// The fastest fairkit point that weakly dominates it within the tolerance (ties: higher
    /// accuracy), if any.
    pub dominated_by: Option<usize>,
    /// The fairkit point nearest to dominating it: the smallest shortfall
    /// `max(0, acc_fl − tol − acc_fk) + max(0, gap_fk − gap_fl − tol)` (ties: higher accuracy);
    /// equals `dominated_by` when that exists. `None` only without fairkit points.
    pub nearest: Option<usize>,
    /// That point's shortfall (0 when dominated).
    pub shortfall: f64,
}

/// Whether fairkit point `k` weakly dominates fairlearn point `f` within `tol`.
fn dominates(k: &Point, f: &Point, tol: f64) -> bool {
    k.accuracy >= f.accuracy - tol && k.gap <= f.gap + tol
}

fn shortfall(k: &Point, f: &Point, tol: f64) -> f64 {
    (f.accuracy - tol - k.accuracy).max(0.0) + (k.gap - f.gap - tol).max(0.0)
}

/// For every fairlearn point: is it weakly dominated within `tol` by some fairkit point
/// (accuracy ≥ its accuracy − tol and gap ≤ its gap + tol)? Points with a non-finite coordinate
/// never dominate.
pub fn pareto_verdict(fairlearn: &[Point], fairkit: &[Point], tol: f64) -> Vec<Verdict> {
    let usable = |p: &Point| p.accuracy.is_finite() && p.gap.is_finite();
    fairlearn
        .iter()
        .map(|f| {
            let mut dominated_by: Option<usize> = None;
            let mut nearest: Option<(usize, f64)> = None;
            for (i, k) in fairkit.iter().enumerate().filter(|(_, k)| usable(k)) {
                if dominates(k, f, tol) {
                    let better = match dominated_by {
                        None => true,
                        Some(j) => {
                            let d = &fairkit[j];
                            k.fit_s < d.fit_s || (k.fit_s <= d.fit_s && k.accuracy > d.accuracy)
                        }
                    };
                    if better {
                        dominated_by = Some(i);
                    }
                }
                let s = shortfall(k, f, tol);
                let better = match nearest {
                    None => true,
                    Some((j, sj)) => s < sj || (s <= sj && k.accuracy > fairkit[j].accuracy),
                };
                if better {
                    nearest = Some((i, s));
                }
            }
            match dominated_by {
                Some(i) => Verdict {
                    dominated_by: Some(i),
                    nearest: Some(i),
                    shortfall: 0.0,
                },
                None => Verdict {
                    dominated_by: None,
                    nearest: nearest.map(|(i, _)| i),
                    shortfall: nearest.map_or(f64::NAN, |(_, s)| s),
                },
            }
        })
        .collect()
}

/// The measured quantities of one configuration, each a mean ± sd over splits.
#[derive(Debug, Clone, Default)]
struct Config {
    case: String,
    library: String,
    method: String,
    constraint: String,
    param: String,
    knob: Option<f64>,
    randomized: bool,
    runs: usize,
    errors: Vec<String>,
    notes: Vec<String>,
    values: std::collections::BTreeMap<String, Vec<f64>>,
}

impl Config {
    fn label(&self) -> String {
        let c = match self.constraint.as_str() {
            "dp" => " DP",
            "eo" => " EO",
            _ => "",
        };
        let p = if self.param.is_empty() {
            String::new()
        } else {
            format!(" {}", self.param)
        };
        format!("{}{c}{p}", self.method)
    }
    fn series(&self) -> String {
        let c = match self.constraint.as_str() {
            "dp" => " DP",
            "eo" => " EO",
            _ => "",
        };
        // A second knob of the same method is a separate curve.
        let knob = match self.param.split_once('=') {
            Some(("difference_bound", _)) => " (difference_bound)",
            _ => "",
        };
        format!("{} {}{c}{knob}", self.library, self.method)
    }
    fn stat(&self, key: &str) -> (f64, f64) {
        self.values
            .get(key)
            .map_or((f64::NAN, f64::NAN), |v| mean_sd(v))
    }
    fn mean(&self, key: &str) -> f64 {
        self.stat(key).0
    }
    fn point(&self, gap: &str) -> Point {
        Point {
            accuracy: self.mean("accuracy"),
            gap: self.mean(gap),
            fit_s: self.mean("fit_s"),
        }
    }
}

const KEYS: [&str; 11] = [
    "accuracy",
    "dp_gap",
    "eo_gap",
    "fit_s",
    "predict_s",
    "exp_accuracy",
    "exp_dp_gap",
    "exp_eo_gap",
    "mc_sp_gap",
    "mc_meo_gap",
    "mc_sp_gap_base",
];

fn aggregate(records: &[Value]) -> Vec<Config> {
    let mut configs: Vec<Config> = Vec::new();
    let s = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    for r in records {
        let key = (
            s(r, "case"),
            s(r, "library"),
            s(r, "method"),
            s(r, "constraint"),
            s(r, "param"),
        );
        let idx = configs.iter().position(|c| {
            (&c.case, &c.library, &c.method, &c.constraint, &c.param)
                == (&key.0, &key.1, &key.2, &key.3, &key.4)
        });
        let idx = idx.unwrap_or_else(|| {
            configs.push(Config {
                case: key.0.clone(),
                library: key.1.clone(),
                method: key.2.clone(),
                constraint: key.3.clone(),
                param: key.4.clone(),
                knob: r.get("knob").and_then(Value::as_f64),
                ..Config::default()
            });
            configs.len() - 1
        });
        let c = &mut configs[idx];
        if let Some(e) = r.get("error").and_then(Value::as_str) {
            c.errors.push(e.to_string());
            continue;
        }
        if let Some(n) = r.get("note").and_then(Value::as_str)
            && !c.notes.iter().any(|x| x == n)
        {
            c.notes.push(n.to_string());
        }
        c.runs += 1;
        if r.get("exp_accuracy").and_then(Value::as_f64).is_some() {
            c.randomized = true;
        }
        for k in KEYS {
            if let Some(v) = r.get(k).and_then(Value::as_f64) {
                c.values.entry(k.to_string()).or_default().push(v);
            }
        }
    }
    configs
}

fn pm(c: &Config, key: &str) -> String {
    let (m, sd) = c.stat(key);
    if !m.is_finite() {
        return "–".into();
    }
    if c.runs > 1 {
        format!("{m:.4} ± {sd:.4}")
    } else {
        format!("{m:.4}")
    }
}

fn secs(c: &Config, key: &str) -> String {
    let (m, _) = c.stat(key);
    if !m.is_finite() {
        "–".into()
    } else if m < 0.1 {
        format!("{:.1} ms", m * 1e3)
    } else {
        format!("{m:.2} s")
    }
}

const FAIRLEARN_FRONT: [&str; 3] = ["ThresholdOptimizer", "ExponentiatedGradient", "GridSearch"];

/// The verdict rows of one case × constraint, as JSON and a markdown table.
fn verdict_section(configs: &[&Config], constraint: &str) -> (Value, String) {
    let gap = if constraint == "dp" {
        "dp_gap"
    } else {
        "eo_gap"
    };
    let fl: Vec<&Config> = configs
        .iter()
        .copied()
        .filter(|c| {
            c.library == "fairlearn"
                && FAIRLEARN_FRONT.contains(&c.method.as_str())
                && c.constraint == constraint
                && c.runs > 0
        })
        .collect();
    let fk: Vec<&Config> = configs
        .iter()
        .copied()
        .filter(|c| c.library == "fairkit" && c.runs > 0)
        .collect();
    let expgrad = configs
        .iter()
        .find(|c| {
            c.library == "fairlearn"
                && c.method == "ExponentiatedGradient"
                && c.constraint == constraint
                && c.param == "eps=0.01"
                && c.runs > 0
        })
        .map(|c| c.mean("fit_s"));
    let fl_pts: Vec<Point> = fl.iter().map(|c| c.point(gap)).collect();
    let fk_pts: Vec<Point> = fk.iter().map(|c| c.point(gap)).collect();
    let verdicts = pareto_verdict(&fl_pts, &fk_pts, TOLERANCE);
    let mut t = Table::new(&[
        "fairlearn point",
        "accuracy",
        "gap",
        "verdict",
        "fairkit point (dominating, or nearest)",
        "its accuracy",
        "its gap",
        "fit time: ExpGrad(ε=0.01) / fairkit",
    ]);
    let mut rows = Vec::new();
    let mut undominated = Vec::new();
    for ((c, p), v) in fl.iter().zip(&fl_pts).zip(&verdicts) {
        let k = v.nearest.map(|i| (fk[i], fk_pts[i]));
        let ratio = match (expgrad, k) {
            (Some(eg), Some((_, kp))) if kp.fit_s > 0.0 => Some(eg / kp.fit_s),
            _ => None,
        };
        let verdict = if v.dominated_by.is_some() {
            "dominated".to_string()
        } else {
            undominated.push(c.label());
            format!("**not dominated** (shortfall {:.4})", v.shortfall)
        };
        t.row(vec![
            escape_markdown(&c.label()),
            format!("{:.4}", p.accuracy),
            format!("{:.4}", p.gap),
            verdict,
            k.map_or("–".into(), |(kc, _)| escape_markdown(&kc.label())),
            k.map_or("–".into(), |(_, kp)| format!("{:.4}", kp.accuracy)),
            k.map_or("–".into(), |(_, kp)| format!("{:.4}", kp.gap)),
            ratio.map_or("–".into(), |r| format!("{r:.1}×")),
        ]);
        rows.push(json!({
            "fairlearn": c.label(),
            "accuracy": p.accuracy,
            "gap": p.gap,
            "fit_s": p.fit_s,
            "dominated": v.dominated_by.is_some(),
            "fairkit": k.map(|(kc, _)| kc.label()),
            "fairkit_accuracy": k.map(|(_, kp)| kp.accuracy),
            "fairkit_gap": k.map(|(_, kp)| kp.gap),
            "fairkit_fit_s": k.map(|(_, kp)| kp.fit_s),
            "shortfall": if v.shortfall.is_finite() { Some(v.shortfall) } else { None },
            "expgrad_over_fairkit_fit_time": ratio,
        }));
    }
    let n_dom = verdicts.iter().filter(|v| v.dominated_by.is_some()).count();
    let n_fast = dominated_by_fast_fits(&fl_pts, &fk_pts, expgrad);
    let speed = format!(
        "{n_fast} of {} by a fairkit fit at least {SPEED_GOAL}× faster than \
         ExponentiatedGradient (ε = 0.01)",
        fl.len()
    );
    let summary = if fl.is_empty() {
        "no fairlearn point measured".to_string()
    } else if undominated.is_empty() {
        format!(
            "all {} fairlearn points are weakly dominated by fairkit within {TOLERANCE}",
            fl.len()
        )
    } else {
        format!(
            "{n_dom} of {} fairlearn points dominated; not dominated: {}",
            fl.len(),
            undominated.join(", ")
        )
    };
    let summary = format!("{summary}; {speed}");
    let md = format!("**Verdict: {summary}.**\n\n{}", t.markdown());
    (
        json!({
            "constraint": constraint,
            "gap": gap,
            "tolerance": TOLERANCE,
            "expgrad_eps_0_01_fit_s": expgrad,
            "fairlearn_points": fl.len(),
            "dominated": n_dom,
            "undominated": undominated,
            "dominated_by_a_fit_10x_faster_than_expgrad": n_fast,
            "summary": summary,
            "rows": rows,
        }),
        md,
    )
}

/// The speed half of the goal: how many fairlearn points a fairkit fit dominates that is at least
/// [`SPEED_GOAL`]× faster than ExponentiatedGradient (ε = 0.01) — the Pareto verdict over the fast
/// fairkit points only (none when ExponentiatedGradient was not measured).
fn dominated_by_fast_fits(fl_pts: &[Point], fk_pts: &[Point], expgrad: Option<f64>) -> usize {
    let fast_pts: Vec<Point> = fk_pts
        .iter()
        .map(|p| match expgrad {
            Some(eg) if p.fit_s * SPEED_GOAL <= eg => *p,
            _ => Point {
                accuracy: f64::NAN,
                ..*p
            },
        })
        .collect();
    pareto_verdict(fl_pts, &fast_pts, TOLERANCE)
        .iter()
        .filter(|v| v.dominated_by.is_some())
        .count()
}

fn frontier_svg(case: &str, configs: &[&Config], constraint: &str) -> Result<String> {
    let gap = if constraint == "dp" {
        "dp_gap"
    } else {
        "eo_gap"
    };
    let mut series: Vec<Series> = Vec::new();
    for c in configs.iter().filter(|c| c.runs > 0) {
        // The DP front shows DP-constrained and unconstrained methods, the EO front EO ones.
        if c.constraint != constraint && c.constraint != "none" {
            continue;
        }
        let p = c.point(gap);
        if !p.accuracy.is_finite() || !p.gap.is_finite() {
            continue;
        }
        let name = c.series();
        match series.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push((p.gap, p.accuracy)),
            None => series.push(Series {
                name,
                points: vec![(p.gap, p.accuracy)],
                line: false,
            }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        s.line = s.points.len() > 1;
    }
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let x_max = xs.fold(0.0_f64, f64::max).max(0.01) * 1.05;
    let (y_min, y_max) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let (y_min, y_max) = if y_min.is_finite() {
        let pad = ((y_max - y_min) * 0.05).max(0.005);
        (y_min - pad, y_max + pad)
    } else {
        (0.0, 1.0)
    };
    let title = format!(
        "{case}: test accuracy vs {} (means over splits)",
        if constraint == "dp" {
            "demographic parity difference"
        } else {
            "equalized odds difference"
        }
    );
    let x_desc = if constraint == "dp" {
        "demographic parity difference (test, hard predictions)"
    } else {
        "equalized odds difference (test, hard predictions)"
    };
    Ok(multi_series(
        &Axes {
            title: &title,
            x_desc,
            y_desc: "accuracy (test)",
            x: (0.0, x_max),
            y: (y_min, y_max),
            log_y: false,
        },
        &series,
        None,
    )?)
}

fn header(ctx: &Context, raw: &Value) -> String {
    let mut s = String::from("# Mitigation benchmark: fairlearn vs fairkit (issue 24)\n\n");
    let settings = raw.get("settings").cloned().unwrap_or(Value::Null);
    let get = |k: &str| settings.get(k).map_or("?".into(), |v| v.to_string());
    let _ = writeln!(
        s,
        "Produced by `cargo xtask repro{} mitigation` (export in Rust, measurements by \
         `python/bench/mitigation.py` in the project's venv `target/py-venv`, this report in Rust).\n",
        if ctx.quick { " --quick" } else { "" }
    );
    s.push_str("## What the benchmark chooses\n\n");
    let _ = writeln!(
        s,
        "* **Data** (embedded in `fair-data`, exported to `target/mitigation-data/`): Adult = \
         `recipes::adult_tfco` (122 one-hot columns, all 48,842 rows of adult.data + adult.test: \
         the UCI train/test split is replaced by the seeded splits so there are 5 of them), \
         attributes sex (Female/Male) and race as White vs all others; COMPAS = \
         `recipes::compas_propublica` (ProPublica filter, one-hot sex/race/age category), \
         African-American vs Caucasian rows only (other races dropped), label two_year_recid; \
         German credit = `recipes::german_credit` (61 columns), attribute sex (A92 = female vs \
         the rest); Law School = `recipes::law_school` (bar passage), race as White vs all \
         others; multi-class: `recipes::law_school_zfya_classes(5)` (ZFYA quintiles), race White \
         vs others, FairProjection vs the base model only (fairlearn has no multi-class \
         mitigation). The sensitive columns stay in the features (as the recipes build them).\n\
         * **Splits**: 70/30 train/test, stratified on the label, `fair_data::Splitter` seeds {}.\n\
         * **Scaling**: scikit-learn `StandardScaler` fitted on each training split.\n\
         * **Base model**: scikit-learn `LogisticRegression(max_iter=1000)`, defaults otherwise \
         (L2, C = 1, lbfgs); every mitigation wraps or starts from it.\n\
         * **Measuring stick**: test split, hard `predict` output: accuracy, \
         `fairlearn.metrics.demographic_parity_difference` and `equalized_odds_difference`. For \
         randomized classifiers (ExponentiatedGradient, ThresholdOptimizer through \
         `_pmf_predict`, RateConstrainedClassifier and FairProjection through `predict_proba`) \
         the expected accuracy and gaps of the decision probabilities are reported beside \
         (columns E[·]), never instead. Multi-class: accuracy and fairkit.metrics' multi-class \
         statistical parity / MEO gaps.\n\
         * **Timing**: wall time of `fit` (including the base model's fit where the method fits \
         it) and of `predict` on the test split, one process, the machine's 2 cores shared.\n\
         * **Grids**: {}\n\
         * **Verdict**: per dataset × constraint, a fairlearn point (ThresholdOptimizer, \
         ExponentiatedGradient per ε, GridSearch; means over splits; the DP front uses the DP \
         gap, the EO front the EO gap) is *dominated* when some fairkit point (any fairkit \
         configuration, hard predictions, means over splits) has accuracy ≥ its accuracy − \
         {TOLERANCE} and gap ≤ its gap + {TOLERANCE}. The dominating point shown is the fastest \
         one; for undominated points the nearest fairkit point (smallest total shortfall). The \
         speed goal is a fit ≥ 10× faster than ExponentiatedGradient (ε = 0.01).\n\
         * **Versions**: {}\n",
        get("seeds"),
        settings
            .get("grids")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_else(|| "?".into()),
        raw.get("versions").map_or("?".into(), Value::to_string),
    );
    if let Some(w) = raw.get("wall_s").and_then(Value::as_f64) {
        let _ = writeln!(
            s,
            "* **Wall time** of the measurements (the Python script, every case × split × \
             method): {w:.0} s."
        );
    }
    if let Some(notes) = raw.get("notes").and_then(Value::as_array) {
        for n in notes.iter().filter_map(Value::as_str) {
            let _ = writeln!(s, "* {n}");
        }
    }
    s
}

/// Aggregates the raw JSON and writes `mitigation.md`, `mitigation.json` and the SVGs.
pub fn write_reports(ctx: &Context, raw: &Value) -> Result<()> {
    let records = raw
        .get("records")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let configs = aggregate(&records);
    let mut cases: Vec<String> = Vec::new();
    for c in &configs {
        if !cases.contains(&c.case) {
            cases.push(c.case.clone());
        }
    }
    let mut md = header(ctx, raw);
    let mut summary = String::from("\n## Verdicts at a glance\n\n");
    let mut body = String::new();
    let mut json_cases = Vec::new();
    for case in &cases {
        let cs: Vec<&Config> = configs.iter().filter(|c| &c.case == case).collect();
        let multiclass = cs.iter().any(|c| c.values.contains_key("mc_sp_gap"));
        let _ = writeln!(body, "\n## {case}\n");
        if multiclass {
            let t = multiclass_table(&cs);
            body.push_str(&t.markdown());
            json_cases.push(json!({
                "case": case,
                "multiclass": true,
                "configs": cs.iter().map(|c| config_json(c)).collect::<Vec<_>>(),
            }));
        } else {
            let t = binary_table(&cs);
            body.push_str(&t.markdown());
            let mut verdicts = Vec::new();
            for constraint in ["dp", "eo"] {
                let (vj, vmd) = verdict_section(&cs, constraint);
                let file = format!("mitigation-{case}-{constraint}.svg");
                ctx.write_svg(&file, frontier_svg(case, &cs, constraint)?)?;
                let name = if constraint == "dp" {
                    "demographic parity"
                } else {
                    "equalized odds"
                };
                let _ = writeln!(
                    body,
                    "\n### {case}: {name} front\n\n{vmd}\n![{case} {name}]({file})"
                );
                let _ = writeln!(
                    summary,
                    "* {case}, {name}: {}",
                    vj.get("summary").and_then(Value::as_str).unwrap_or("")
                );
                verdicts.push(vj);
            }
            json_cases.push(json!({
                "case": case,
                "multiclass": false,
                "verdicts": verdicts,
                "configs": cs.iter().map(|c| config_json(c)).collect::<Vec<_>>(),
            }));
        }
        problems_list(&mut body, &cs);
    }
    md.push_str(&summary);
    md.push_str(&body);
    ctx.write("mitigation.md", &md)?;
    let json = json!({
        "experiment": "mitigation",
        "quick": ctx.quick,
        "tolerance": TOLERANCE,
        "settings": raw.get("settings"),
        "versions": raw.get("versions"),
        "notes": raw.get("notes"),
        "wall_s": raw.get("wall_s"),
        "cases": json_cases,
    });
    ctx.write(
        "mitigation.json",
        &serde_json::to_string_pretty(&json).unwrap_or_default(),
    )?;
    Ok(())
}

/// The table of a multi-class case: accuracy, multi-class SP and MEO gaps, times.
fn multiclass_table(cs: &[&Config]) -> Table {
    let mut t = Table::new(&[
        "method",
        "accuracy",
        "SP gap (multi-class)",
        "MEO gap (multi-class)",
        "fit",
        "predict",
        "splits",
    ]);
    for c in cs {
        t.row(vec![
            escape_markdown(&format!("{} {}", c.library, c.label())),
            pm(c, "accuracy"),
            pm(c, "mc_sp_gap"),
            pm(c, "mc_meo_gap"),
            secs(c, "fit_s"),
            secs(c, "predict_s"),
            c.runs.to_string(),
        ]);
    }
    t
}

/// The table of a binary case: accuracy, DP and EO gaps (hard and expected), times.
fn binary_table(cs: &[&Config]) -> Table {
    let mut t = Table::new(&[
        "library",
        "method",
        "accuracy",
        "DP gap",
        "EO gap",
        "E[accuracy]",
        "E[DP gap]",
        "E[EO gap]",
        "fit",
        "predict",
        "splits",
    ]);
    for c in cs {
        t.row(vec![
            escape_markdown(&c.library),
            escape_markdown(&c.label()),
            pm(c, "accuracy"),
            pm(c, "dp_gap"),
            pm(c, "eo_gap"),
            pm(c, "exp_accuracy"),
            pm(c, "exp_dp_gap"),
            pm(c, "exp_eo_gap"),
            secs(c, "fit_s"),
            secs(c, "predict_s"),
            c.runs.to_string(),
        ]);
    }
    t
}

/// The configurations that failed on a split or carry a note, as a list (nothing when none).
fn problems_list(body: &mut String, cs: &[&Config]) {
    let problems: Vec<String> = cs
        .iter()
        .filter(|c| !c.errors.is_empty() || !c.notes.is_empty())
        .map(|c| {
            let mut s = format!("{} {}", c.library, c.label());
            if !c.errors.is_empty() {
                let _ = write!(
                    s,
                    ": failed on {} split(s): {}",
                    c.errors.len(),
                    c.errors[0]
                );
            }
            if !c.notes.is_empty() {
                let _ = write!(s, " — {}", c.notes.join("; "));
            }
            s
        })
        .collect();
    if !problems.is_empty() {
        body.push_str("\nNotes and failures:\n\n");
        for p in problems {
            let _ = writeln!(body, "* {}", escape_markdown(&p));
        }
    }
}

fn config_json(c: &Config) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("library".into(), json!(c.library));
    m.insert("method".into(), json!(c.method));
    m.insert("constraint".into(), json!(c.constraint));
    m.insert("param".into(), json!(c.param));
    m.insert("knob".into(), json!(c.knob));
    m.insert("splits".into(), json!(c.runs));
    m.insert("randomized".into(), json!(c.randomized));
    for k in KEYS {
        let (mean, sd) = c.stat(k);
        if mean.is_finite() {
            m.insert(k.into(), json!({ "mean": mean, "sd": sd }));
        }
    }
    if !c.errors.is_empty() {
        m.insert("errors".into(), json!(c.errors));
    }
    if !c.notes.is_empty() {
        m.insert("notes".into(), json!(c.notes));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(accuracy: f64, gap: f64, fit_s: f64) -> Point {
        Point {
            accuracy,
            gap,
            fit_s,
        }
    }

    #[test]
    fn dominated_within_tolerance() {
        // fairkit 0.849 ≥ 0.850 − 0.002 and 0.021 ≤ 0.020 + 0.002: dominated.
        let v = pareto_verdict(&[p(0.850, 0.020, 10.0)], &[p(0.849, 0.021, 0.5)], 0.002);
        assert_eq!(v[0].dominated_by, Some(0));
        assert_eq!(v[0].nearest, Some(0));
        assert!(v[0].shortfall.abs() < 1e-12);
    }

    #[test]
    fn not_dominated_reports_nearest_and_shortfall() {
        // Point 0 is 0.008 short on accuracy (0.840 vs 0.850 − 0.002 = 0.848); point 1 has the
        // accuracy but a gap 0.013 too wide (0.035 vs 0.020 + 0.002): point 0 is nearer.
        let fl = [p(0.850, 0.020, 10.0)];
        let fk = [p(0.840, 0.010, 1.0), p(0.860, 0.035, 1.0)];
        let v = pareto_verdict(&fl, &fk, 0.002);
        assert_eq!(v[0].dominated_by, None);
        assert_eq!(v[0].nearest, Some(0));
        assert!((v[0].shortfall - 0.008).abs() < 1e-12);
    }

    #[test]
    fn fastest_dominating_point_is_chosen() {
        let fl = [p(0.80, 0.05, 10.0)];
        let fk = [p(0.82, 0.01, 2.0), p(0.81, 0.04, 0.5), p(0.70, 0.00, 0.1)];
        let v = pareto_verdict(&fl, &fk, 0.002);
        assert_eq!(v[0].dominated_by, Some(1));
    }

    #[test]
    fn both_coordinates_must_hold() {
        // Just inside the tolerance on both sides dominates; just beyond on either does not.
        let fl = [p(0.5, 0.25, 1.0)];
        let at = pareto_verdict(&fl, &[p(0.4981, 0.2519, 1.0)], 0.002);
        assert_eq!(at[0].dominated_by, Some(0));
        let low = pareto_verdict(&fl, &[p(0.4975, 0.20, 1.0)], 0.002);
        assert_eq!(low[0].dominated_by, None);
        let wide = pareto_verdict(&fl, &[p(0.60, 0.2525, 1.0)], 0.002);
        assert_eq!(wide[0].dominated_by, None);
    }

    #[test]
    fn no_fairkit_points_or_nan() {
        let fl = [p(0.8, 0.1, 1.0)];
        let v = pareto_verdict(&fl, &[], 0.002);
        assert_eq!((v[0].dominated_by, v[0].nearest), (None, None));
        let v = pareto_verdict(&fl, &[p(f64::NAN, 0.0, 1.0)], 0.002);
        assert_eq!((v[0].dominated_by, v[0].nearest), (None, None));
    }

    #[test]
    fn the_speed_goal_is_inclusive() {
        // ExponentiatedGradient at 10 s: a dominating fairkit fit counts up to 10 / SPEED_GOAL s.
        let fl = [p(0.80, 0.05, 10.0)];
        let limit = 10.0 / SPEED_GOAL;
        let at = dominated_by_fast_fits(&fl, &[p(0.81, 0.04, limit)], Some(10.0));
        assert_eq!(at, 1);
        let slower = dominated_by_fast_fits(&fl, &[p(0.81, 0.04, limit * 1.001)], Some(10.0));
        assert_eq!(slower, 0);
        // Fast but not dominating; no ExponentiatedGradient time; no fairkit point.
        assert_eq!(
            dominated_by_fast_fits(&fl, &[p(0.70, 0.04, 0.1)], Some(10.0)),
            0
        );
        assert_eq!(dominated_by_fast_fits(&fl, &[p(0.81, 0.04, 0.1)], None), 0);
        assert_eq!(dominated_by_fast_fits(&fl, &[], Some(10.0)), 0);
    }
}
