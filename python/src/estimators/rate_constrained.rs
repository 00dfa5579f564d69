//! `fairkit._core.estimators`: the rate-constrained classifier (crate `game-opt`).
//!
//! The Python class `fairkit.estimators.RateConstrainedClassifier` writes its constraints in a
//! small Python form (`fairkit.estimators.rates`); each arrives here as a dict read into a typed
//! [`GoalSpec`] and is turned into the crate's rate language ([`game_opt::goals`]). The fit's
//! settings arrive the same way, as one dict read into [`FitSettings`] (errors name the key). The fit runs with the GIL
//! released; an observer ([`game_opt::Observe`]) re-acquires it every [`SIGNAL_CHECK_EVERY`] steps to run
//! `PyErr_CheckSignals`, so Ctrl-C stops a long fit (the interrupt is raised once the crate
//! returns).

use crate::convert::{contiguous, from_kwargs, i64_as_usize, parse_param, to_py};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use fair_data::Groups;
use game_opt::{
    Algorithm, Constraint, Direction, Examples, GameOptError, GameOptParams, GroupConstraint,
    IterInfo, Linear, LogisticOracle, Mlp, Model, NoObserver, ObjectiveLoss, Observe, Optimizer,
    Problem, Slack, SolutionType, StochasticClassifier, Subset, goals, select_solution,
};
use nalgebra::DMatrix;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// Adds the rate-constrained classifier binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RateClassifierCore>()?;
    m.add_function(wrap_pyfunction!(rate_constrained_fit, m)?)?;
    m.add_function(wrap_pyfunction!(rate_classifier_from_components, m)?)?;
    m.add_function(wrap_pyfunction!(rate_classifier_from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(rate_constrained_play, m)?)?;
    m.add_function(wrap_pyfunction!(rate_constrained_defaults, m)?)?;
    Ok(())
}

/// Name of the sensitive attribute inside the crate's examples.
pub const ATTRIBUTE: &str = "group";

/// Steps between two signal checks (each briefly takes the GIL).
pub const SIGNAL_CHECK_EVERY: usize = 50;

/// One goal as sent by Python (`fairkit.estimators.rates.Goal.spec()`, a dict with these keys).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalSpec {
    /// A group goal of the shared constraint vocabulary, or a threshold goal
    /// (`coverage_at_least`, …).
    pub kind: String,
    /// `at_least`, `at_most` or `both`.
    pub direction: String,
    /// `none`, `additive` or `multiplicative`.
    pub slack_kind: String,
    /// The slack's value (ignored with `none`).
    pub slack: f64,
    /// The threshold of a threshold goal.
    pub kappa: f64,
    /// The group a threshold goal applies to (`None`: every row).
    pub group: Option<String>,
}

/// The Python names of the keys of a fit's settings where they differ.
fn python_key(path: &str) -> String {
    match path {
        "iterations" => "max_iter".to_string(),
        other => other.to_string(),
    }
}

/// The goals of a fit, from a list of dicts.
fn goal_specs(goals: &Bound<'_, PyAny>) -> PyResult<Vec<GoalSpec>> {
    from_kwargs(goals, "RateConstrainedClassifier", |p| format!("goals{p}"))
}

/// The crate's constraints for the goals, over the groups `names` of [`ATTRIBUTE`].
pub fn build_constraints(specs: &[GoalSpec], names: &[String]) -> PyResult<Vec<Constraint>> {
    let groups: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for GoalSpec {
        kind,
        direction,
        slack_kind,
        slack: slack_value,
        kappa,
        group,
    } in specs
    {
        let subset = match group {
            None => Subset::all(),
            Some(g) => {
                if !names.contains(g) {
                    return Err(invalid(format!(
                        "constraint {kind}: group {g:?} is not among the sensitive feature's \
                         groups {names:?}"
                    )));
                }
                Subset::group(ATTRIBUTE, g)
            }
        };
        let direction: Direction =
            parse_param(&format!("direction of constraint {kind}"), direction)?;
        let slack = match slack_kind.as_str() {
            "none" => Slack::None,
            "additive" => Slack::Additive(*slack_value),
            "multiplicative" => Slack::Multiplicative(*slack_value),
            other => {
                return Err(invalid(format!(
                    "constraint {kind}: slack kind {other:?}; expected \"none\", \"additive\" \
                     or \"multiplicative\""
                )));
            }
        };
        let k = *kappa;
        // A group goal is a constraint of the shared vocabulary (fair-core's one table: every
        // canonical name and alias); the rest are the crate's threshold goals.
        if kind.parse::<fair_core::Constraint>().is_ok() {
            let c: GroupConstraint = kind
                .parse()
                .map_err(|e: fair_core::ConstraintError| invalid(e.to_string()))?;
            out.extend(goals::parity(c, ATTRIBUTE, &groups, direction, slack));
            continue;
        }
        match kind.as_str() {
            "coverage_at_least" => out.push(goals::coverage_at_least(subset, k)),
            "coverage_at_most" => out.push(goals::coverage_at_most(subset, k)),
            "recall_at_least" => out.push(goals::recall_at_least(subset, k)),
            "precision_at_least" => out.push(goals::precision_at_least(subset, k)),
            "accuracy_at_least" => out.push(goals::accuracy_at_least(subset, k)),
            other => {
                return Err(invalid(format!(
                    "unknown constraint kind {other:?}; expected a group goal ({}, or an alias) \
                     or one of \"coverage_at_least\", \"coverage_at_most\", \
                     \"recall_at_least\", \"precision_at_least\", \"accuracy_at_least\"",
                    GroupConstraint::NAMES
                        .iter()
                        .map(|n| format!("{n:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
    }
    Ok(out)
}

/// Numeric settings of a fit, as the Python class passes them.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// Game.
    pub algorithm: Algorithm,
    /// Solution type.
    pub solution: SolutionType,
    /// θ optimizer.
    pub optimizer: Optimizer,
    /// Objective surrogate.
    pub objective_loss: ObjectiveLoss,
    /// Steps.
    pub iterations: usize,
    /// Minibatch size.
    pub batch_size: usize,
    /// θ step size.
    pub lr_theta: f64,
    /// λ step size.
    pub lr_lambda: f64,
    /// Ridge penalty.
    pub l2: f64,
    /// Snapshot period.
    pub snapshot_every: usize,
    /// Seed of the minibatch order (and of the MLP's initialisation).
    pub seed: u64,
    /// Radius of the Lagrangians' multiplier set (`None`: unbounded).
    pub multiplier_radius: Option<f64>,
    /// L-BFGS iterations per best response (oracle games).
    pub oracle_max_iter: usize,
    /// Gradient tolerance of a best response (oracle games).
    pub oracle_tol: f64,
}

/// A fit's settings as the Python class sends them (one dict, keys as here); parsed into
/// [`GameSettings`] with errors naming the estimator's parameter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitSettings {
    /// Hidden units (0: the linear model).
    pub hidden: usize,
    /// Game.
    pub algorithm: String,
    /// Solution type.
    pub solution: String,
    /// θ optimizer.
    pub optimizer: String,
    /// Objective surrogate.
    pub objective_loss: String,
    /// Steps.
    pub iterations: usize,
    /// Minibatch size.
    pub batch_size: usize,
    /// θ step size.
    pub lr_theta: f64,
    /// λ step size.
    pub lr_lambda: f64,
    /// Ridge penalty.
    pub l2: f64,
    /// Snapshot period.
    pub snapshot_every: usize,
    /// Seed of the minibatch order (and of the MLP's initialisation).
    pub seed: u64,
    /// Radius of the Lagrangians' multiplier set (`None`: unbounded).
    #[serde(default)]
    pub multiplier_radius: Option<f64>,
    /// L-BFGS iterations per best response (oracle games).
    pub oracle_max_iter: usize,
    /// Gradient tolerance of a best response (oracle games).
    pub oracle_tol: f64,
}

impl FitSettings {
    /// The crate's settings, the names parsed (errors name the parameter).
    pub fn parse(&self) -> PyResult<GameSettings> {
        Ok(GameSettings {
            algorithm: parse_param("algorithm", &self.algorithm)?,
            solution: parse_param("solution", &self.solution)?,
            optimizer: parse_param("optimizer", &self.optimizer)?,
            objective_loss: parse_param("objective_loss", &self.objective_loss)?,
            iterations: self.iterations,
            batch_size: self.batch_size,
            lr_theta: self.lr_theta,
            lr_lambda: self.lr_lambda,
            l2: self.l2,
            snapshot_every: self.snapshot_every,
            seed: self.seed,
            multiplier_radius: self.multiplier_radius,
            oracle_max_iter: self.oracle_max_iter,
            oracle_tol: self.oracle_tol,
        })
    }
}

/// The oracle game's settings when the best responses are a Python estimator's fits.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaySettings {
    /// Game (an oracle algorithm).
    pub algorithm: String,
    /// Solution type.
    pub solution: String,
    /// Rounds.
    pub iterations: usize,
    /// λ step size.
    pub lr_lambda: f64,
    /// Radius of the Lagrangians' multiplier set (`None`: unbounded).
    #[serde(default)]
    pub multiplier_radius: Option<f64>,
}

impl GameSettings {
    fn params(&self) -> GameOptParams {
        GameOptParams::new()
            .algorithm(self.algorithm)
            .optimizer(self.optimizer)
            .objective_loss(self.objective_loss)
            .iterations(self.iterations)
            .batch_size(self.batch_size)
            .lr_theta(self.lr_theta)
            .lr_lambda(self.lr_lambda)
            .l2(self.l2)
            .snapshot_every(self.snapshot_every)
            .multiplier_radius(self.multiplier_radius)
            .seed(self.seed)
    }
    fn oracle(&self) -> LogisticOracle {
        LogisticOracle::new()
            .l2(self.l2)
            .max_iters(self.oracle_max_iter)
            .tolerance(self.oracle_tol)
    }
}

/// The fitted stochastic classifier over either model family.
#[derive(Debug, Clone)]
pub enum FittedClassifier {
    /// Mixture of linear models.
    Linear(StochasticClassifier<Linear>),
    /// Mixture of one-hidden-layer MLPs.
    Mlp(StochasticClassifier<Mlp>),
}

impl FittedClassifier {
    fn positive_probability(&self, x: &DMatrix<f64>) -> Result<Vec<f64>, GameOptError> {
        match self {
            Self::Linear(c) => c.positive_probability(x),
            Self::Mlp(c) => c.positive_probability(x),
        }
    }
    fn predict(&self, x: &DMatrix<f64>, seed: u64) -> Result<Vec<usize>, GameOptError> {
        match self {
            Self::Linear(c) => c.predict(x, seed),
            Self::Mlp(c) => c.predict(x, seed),
        }
    }
    fn components(&self) -> Vec<(f64, Vec<f64>)> {
        fn parts<M: Model>(c: &StochasticClassifier<M>) -> Vec<(f64, Vec<f64>)> {
            c.components()
                .iter()
                .map(|(w, m)| (*w, m.parameters().to_vec()))
                .collect()
        }
        match self {
            Self::Linear(c) => parts(c),
            Self::Mlp(c) => parts(c),
        }
    }
}

/// What a fit returns besides the classifier: the crate's report and the solution's weights.
/// Serialized (field order = key order) as the fit's `info` dict by
/// [`to_py`](crate::convert::to_py).
#[derive(Debug, Clone, Serialize)]
pub struct FitSummary {
    /// `FitReport` as text (key `summary`).
    #[serde(rename = "summary")]
    pub report: String,
    /// Whether every step ran (false: stopped by the observer).
    pub completed: bool,
    /// Steps taken.
    pub iterations: usize,
    /// Training error and constraint values of the chosen solution (exact expectations).
    pub train_error: f64,
    /// Constraint values `g_i ≤ 0` of the solution on the training rows.
    pub train_constraints: Vec<f64>,
    /// Names of the constraints (the crate's).
    pub constraint_names: Vec<String>,
}

/// Runs the game on `x` (N × d row-major), labels 0/1 and group codes, with optional row
/// weights; `hidden = 0` fits the linear model, otherwise an MLP with that many hidden units.
/// The observer sees every step.
///
/// # Errors
/// The crate's (invalid settings, data, constraints, numerical breakdown).
#[allow(clippy::too_many_arguments)]
pub fn fit_buffers(
    x: &[f64],
    d: usize,
    y: &[usize],
    codes: &[i64],
    names: Vec<String>,
    constraints: Vec<Constraint>,
    hidden: usize,
    settings: &GameSettings,
    sample_weight: Option<&[f64]>,
    observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
) -> Result<(FittedClassifier, FitSummary), GameOptError> {
    let n = x.len().checked_div(d).unwrap_or(0);
    let xm = DMatrix::from_row_slice(n, d, x);
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    let mut examples = Examples::new(&xm, y)?.with_attribute(ATTRIBUTE, groups)?;
    if let Some(w) = sample_weight {
        examples = examples.with_weights(w)?;
    }
    let problem = if constraints.is_empty() {
        Problem::unconstrained(examples)?
    } else {
        Problem::new(examples, constraints)?
    };
    let game = game_opt::GameOpt::new(settings.params())?;
    fn finish<M: Model>(
        fit: game_opt::GameFit<M>,
        problem: &Problem,
        kind: SolutionType,
        wrap: fn(StochasticClassifier<M>) -> FittedClassifier,
    ) -> Result<(FittedClassifier, FitSummary), GameOptError> {
        let solution = fit.solution(kind)?;
        let clf = fit.classifier(&solution)?;
        let eval = clf.evaluate(problem)?;
        let report = fit.report();
        let summary = FitSummary {
            report: report.to_string(),
            completed: !report.status.is_interrupted(),
            iterations: report.iterations,
            train_error: eval.error,
            train_constraints: eval.constraints.clone(),
            constraint_names: problem
                .constraints()
                .iter()
                .map(|c| c.name().to_string())
                .collect(),
        };
        Ok((wrap(clf), summary))
    }
    if settings.algorithm.uses_oracle() {
        if hidden != 0 {
            return Err(GameOptError::InvalidParam {
                name: "hidden",
                value: hidden.to_string(),
                expected: "0 with an oracle algorithm (its best responses are weighted logistic \
                           regressions, a linear model)",
            });
        }
        let fit = game.fit_oracle(&problem, Linear::new(d), &mut settings.oracle(), observer)?;
        finish(fit, &problem, settings.solution, FittedClassifier::Linear)
    } else if hidden == 0 {
        let fit = game.fit_with_observer(&problem, Linear::new(d), observer)?;
        finish(fit, &problem, settings.solution, FittedClassifier::Linear)
    } else {
        let model = Mlp::new(d, hidden, settings.seed)?;
        let fit = game.fit_with_observer(&problem, model, observer)?;
        finish(fit, &problem, settings.solution, FittedClassifier::Mlp)
    }
}

/// Checks for Ctrl-C every [`SIGNAL_CHECK_EVERY`] steps; a pending signal stops the run.
#[derive(Default)]
struct SignalObserver(SignalCheck);

impl Observe<IterInfo<'_>> for SignalObserver {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        self.0.poll_every(info.iteration, SIGNAL_CHECK_EVERY)
    }
}

fn weights_of<'a>(w: &'a PyReadonlyArray1<'_, f64>, n: usize) -> PyResult<&'a [f64]> {
    let w = contiguous(w.as_slice(), "sample_weight")?;
    if w.len() != n {
        return Err(invalid(format!(
            "length mismatch for sample_weight: expected {n} rows (as X), got {}",
            w.len()
        )));
    }
    Ok(w)
}

fn matrix<'a>(x: &'a PyReadonlyArray2<'_, f64>) -> PyResult<(&'a [f64], usize, usize)> {
    let shape = x.shape();
    Ok((contiguous(x.as_slice(), "X")?, shape[0], shape[1]))
}

/// Fits the rate-constrained classifier; see [`fit_buffers`]. `y` holds 0/1 class codes.
/// The game's settings where the estimator has no value of its own.
#[derive(Debug, Clone, Serialize)]
struct GameDefaults {
    iterations: usize,
    lr_lambda: f64,
    l2: f64,
}

impl GameDefaults {
    fn of(p: &GameOptParams) -> PyResult<Self> {
        let p = p.clone().check().map_err(to_py_err)?;
        Ok(Self {
            iterations: p.iterations(),
            lr_lambda: p.lr_lambda(),
            l2: p.l2(),
        })
    }
}

/// `RateConstrainedClassifier`'s defaults, as the crate documents them (Python reads them
/// here): `oracle` ([`GameOptParams::oracle_game`]) and `minibatch` ([`GameOptParams::new`])
/// games, the minibatch settings and the approximate best response
/// ([`LogisticOracle::approximate`]).
#[derive(Debug, Clone, Serialize)]
struct RateConstrainedDefaults {
    oracle: GameDefaults,
    minibatch: GameDefaults,
    batch_size: usize,
    lr_theta: f64,
    snapshot_every: usize,
    optimizer: String,
    objective_loss: String,
    oracle_max_iter: usize,
    oracle_tol: f64,
}

/// The estimator's defaults as a dict (see [`RateConstrainedDefaults`]).
#[pyfunction]
fn rate_constrained_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let minibatch = GameOptParams::new().check().map_err(to_py_err)?;
    let oracle = LogisticOracle::approximate();
    let defaults = RateConstrainedDefaults {
        oracle: GameDefaults::of(&GameOptParams::oracle_game())?,
        minibatch: GameDefaults::of(&GameOptParams::new())?,
        batch_size: minibatch.batch_size(),
        lr_theta: minibatch.lr_theta(),
        snapshot_every: minibatch.snapshot_every(),
        optimizer: minibatch.optimizer().to_string(),
        objective_loss: minibatch.objective_loss().to_string(),
        oracle_max_iter: oracle.get_max_iters(),
        oracle_tol: oracle.get_tolerance(),
    };
    to_py(py, &defaults)
}

/// `settings` is a dict with [`FitSettings`]' keys; `goals` a list of [`GoalSpec`] dicts.
#[pyfunction]
#[pyo3(signature = (x, y, group_codes, group_names, goals, settings, sample_weight=None))]
#[allow(clippy::too_many_arguments)] // the data arrays, then one settings dict
fn rate_constrained_fit<'py>(
    py: Python<'py>,
    x: PyReadonlyArray2<'_, f64>,
    y: PyReadonlyArray1<'_, i64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    goals: Bound<'py, PyAny>,
    settings: Bound<'py, PyAny>,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<(RateClassifierCore, Bound<'py, PyAny>)> {
    let raw: FitSettings = from_kwargs(&settings, "RateConstrainedClassifier", python_key)?;
    let settings = raw.parse()?;
    let hidden = raw.hidden;
    let goals = goal_specs(&goals)?;
    let constraints = build_constraints(&goals, &group_names)?;
    let (xs, n, d) = matrix(&x)?;
    let ys = contiguous(y.as_slice(), "y")?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    for (len, what) in [(ys.len(), "y"), (codes.len(), "sensitive_features")] {
        if len != n {
            return Err(invalid(format!(
                "length mismatch for {what}: expected {n} rows (as X), got {len}"
            )));
        }
    }
    let weights = match &sample_weight {
        Some(w) => Some(weights_of(w, n)?),
        None => None,
    };
    let mut observer = SignalObserver::default();
    let result = py.detach(|| {
        let y = i64_as_usize(ys);
        fit_buffers(
            xs,
            d,
            &y,
            codes,
            group_names,
            constraints,
            hidden,
            &settings,
            weights,
            &mut observer,
        )
    });
    let (clf, summary) = observer.0.or(result)?.map_err(to_py_err)?;
    let info = to_py(py, &summary)?;
    Ok((RateClassifierCore { inner: clf, d }, info))
}

/// A solution over rounds: `(round, weight)` pairs.
pub type MixtureWeights = Vec<(usize, f64)>;

/// Plays the oracle game with a best response written in Python (a scikit-learn estimator):
/// `respond(targets, weights)` gets the relabelled 0/1 targets (int64) and the row weights
/// (float64) of one round, fits a response and returns its 0/1 predictions on the training rows
/// (int64). The loop, the multiplier player and the solution are the crate's
/// ([`game_opt::GameOpt::play_oracle`], [`select_solution`]); the GIL stays held (the rounds
/// are Python fits), so Ctrl-C interrupts the estimator's fit. Returns the solution as
/// `(round, weight)` pairs and the same info dict as `rate_constrained_fit`.
#[pyfunction]
#[pyo3(signature = (y, group_codes, group_names, goals, respond, settings, sample_weight=None))]
#[allow(clippy::too_many_arguments)] // the data arrays, then one settings dict
fn rate_constrained_play<'py>(
    py: Python<'py>,
    y: PyReadonlyArray1<'_, i64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    goals: Bound<'py, PyAny>,
    respond: Bound<'py, PyAny>,
    settings: Bound<'py, PyAny>,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<(MixtureWeights, Bound<'py, PyAny>)> {
    let PlaySettings {
        algorithm,
        solution,
        iterations,
        lr_lambda,
        multiplier_radius,
    } = from_kwargs(&settings, "RateConstrainedClassifier", python_key)?;
    let goals = goal_specs(&goals)?;
    let algorithm: Algorithm = parse_param("algorithm", &algorithm)?;
    if !algorithm.uses_oracle() {
        return Err(invalid(format!(
            "invalid parameter algorithm: {:?} with an estimator; expected \
             \"oracle_proxy_lagrangian\" or \"oracle_lagrangian\" (best responses)",
            algorithm.label()
        )));
    }
    let kind: SolutionType = parse_param("solution", &solution)?;
    let constraints = build_constraints(&goals, &group_names)?;
    let ys = contiguous(y.as_slice(), "y")?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    let n = ys.len();
    if codes.len() != n {
        return Err(invalid(format!(
            "length mismatch for sensitive_features: expected {n} rows (as y), got {}",
            codes.len()
        )));
    }
    let weights = match &sample_weight {
        Some(w) => Some(weights_of(w, n)?),
        None => None,
    };
    let build = || -> Result<(Problem, game_opt::GameOpt), GameOptError> {
        let groups = Groups::new(i64_as_usize(codes).into_owned(), group_names.clone())?;
        // The responses live in Python: the crate only needs labels, groups and their scores.
        let mut examples = Examples::new(&DMatrix::<f64>::zeros(n, 0), &i64_as_usize(ys))?
            .with_attribute(ATTRIBUTE, groups)?;
        if let Some(w) = weights {
            examples = examples.with_weights(w)?;
        }
        let problem = if constraints.is_empty() {
            Problem::unconstrained(examples)?
        } else {
            Problem::new(examples, constraints.clone())?
        };
        let params = GameOptParams::new()
            .algorithm(algorithm)
            .iterations(iterations)
            .lr_lambda(lr_lambda)
            .multiplier_radius(multiplier_radius);
        Ok((problem, game_opt::GameOpt::new(params)?))
    };
    let (problem, game) = build().map_err(to_py_err)?;
    let mut failure: Option<PyErr> = None;
    let call = |targets: &[bool], weights: &[f64]| -> PyResult<Vec<f64>> {
        let t: Vec<i64> = targets.iter().map(|&b| i64::from(b)).collect();
        let out = respond.call1((t.into_pyarray(py), weights.to_vec().into_pyarray(py)))?;
        let pred: PyReadonlyArray1<'_, i64> = out.extract().map_err(|_| {
            invalid("the estimator's response must return its predictions as an int64 array")
        })?;
        Ok(contiguous(pred.as_slice(), "predictions")?
            .iter()
            .map(|&p| if p == 1 { 1.0 } else { -1.0 })
            .collect())
    };
    let mut respond_fn = |targets: &[bool], weights: &[f64]| match call(targets, weights) {
        Ok(scores) => Ok(scores),
        Err(e) => {
            failure = Some(e);
            Err(GameOptError::InvalidParam {
                name: "estimator",
                value: "a Python exception".into(),
                expected: "a best response",
            })
        }
    };
    let rounds = game.play_oracle(&problem, &mut respond_fn, &mut NoObserver);
    if let Some(e) = failure {
        return Err(e);
    }
    let rounds = rounds.map_err(to_py_err)?;
    let sol =
        select_solution(kind, &rounds.train, &rounds.lambda1, game.params()).map_err(to_py_err)?;
    let eval = sol.evaluate(&rounds.train).map_err(to_py_err)?;
    let info = to_py(
        py,
        &FitSummary {
            report: rounds.report.to_string(),
            completed: !rounds.report.status.is_interrupted(),
            iterations: rounds.report.iterations,
            train_error: eval.error,
            train_constraints: eval.constraints,
            constraint_names: problem
                .constraints()
                .iter()
                .map(|c| c.name().to_string())
                .collect(),
        },
    )?;
    Ok((sol.weights, info))
}

/// Rebuilds a fitted classifier from its mixture (what pickling stores): `hidden = 0` for
/// linear components, and each component's weight and flat parameter vector θ.
#[pyfunction]
fn rate_classifier_from_components(
    d: usize,
    hidden: usize,
    components: Vec<(f64, Vec<f64>)>,
) -> PyResult<RateClassifierCore> {
    fn rebuild<M: Model>(
        template: M,
        components: Vec<(f64, Vec<f64>)>,
    ) -> PyResult<StochasticClassifier<M>> {
        let mut parts = Vec::with_capacity(components.len());
        for (w, theta) in components {
            let mut m = template.clone();
            if theta.len() != m.parameters().len() {
                return Err(invalid(format!(
                    "a stored component has {} parameters, the model needs {}",
                    theta.len(),
                    m.parameters().len()
                )));
            }
            m.parameters_mut().copy_from_slice(&theta);
            parts.push((w, m));
        }
        StochasticClassifier::new(parts).map_err(to_py_err)
    }
    let inner = if hidden == 0 {
        FittedClassifier::Linear(rebuild(Linear::new(d), components)?)
    } else {
        FittedClassifier::Mlp(rebuild(
            Mlp::new(d, hidden, 0).map_err(to_py_err)?,
            components,
        )?)
    };
    Ok(RateClassifierCore { inner, d })
}

/// A fitted stochastic classifier (mixture of models with weights).
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct RateClassifierCore {
    inner: FittedClassifier,
    d: usize,
}

#[pymethods]
impl RateClassifierCore {
    /// `P(ŷ = 1 | x)` of the mixture for every row (exact, no sampling).
    fn positive_probability<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (xs, n, d) = matrix(&x)?;
        let out = py
            .detach(|| {
                self.inner
                    .positive_probability(&DMatrix::from_row_slice(n, d, xs))
            })
            .map_err(to_py_err)?;
        Ok(out.into_pyarray(py))
    }

    /// Sampled 0/1 predictions (one seeded draw per row picks the mixture component).
    fn predict<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'_, f64>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (xs, n, d) = matrix(&x)?;
        let out = py
            .detach(|| {
                self.inner
                    .predict(&DMatrix::from_row_slice(n, d, xs), seed)
                    .map(|v| v.into_iter().map(|l| l as i64).collect::<Vec<_>>())
            })
            .map_err(to_py_err)?;
        Ok(out.into_pyarray(py))
    }

    /// The crate's versioned bytes of the mixture (`game_opt::StochasticClassifier::to_bytes`),
    /// for pickling.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        let bytes = match &self.inner {
            FittedClassifier::Linear(c) => c.to_bytes(),
            FittedClassifier::Mlp(c) => c.to_bytes(),
        };
        pyo3::types::PyBytes::new(py, &bytes)
    }

    /// The mixture: `(weight, θ)` per component.
    fn components(&self) -> Vec<(f64, Vec<f64>)> {
        self.inner.components()
    }

    /// Number of input features.
    #[getter]
    fn n_features(&self) -> usize {
        self.d
    }
}

/// Restores a fitted classifier from [`RateClassifierCore::to_bytes`]; bad bytes raise
/// `FairkitError`.
#[pyfunction]
fn rate_classifier_from_bytes(data: &[u8]) -> PyResult<RateClassifierCore> {
    let inner = match game_opt::SavedClassifier::from_bytes(data).map_err(to_py_err)? {
        game_opt::SavedClassifier::Linear(c) => FittedClassifier::Linear(c),
        game_opt::SavedClassifier::Mlp(c) => FittedClassifier::Mlp(c),
    };
    let d = match &inner {
        FittedClassifier::Linear(c) => c.components()[0].1.n_inputs(),
        FittedClassifier::Mlp(c) => c.components()[0].1.n_inputs(),
    };
    Ok(RateClassifierCore { inner, d })
}
