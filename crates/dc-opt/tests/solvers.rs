//! IDCA and the direct SSG: a known solution, feasibility of the iterates, determinism.

mod common;

use dc_opt::{
    DcProblem, DpVariant, FeasibleSet, History, Idca, Part, PartialDp, PartialSp, Ssg, Surrogate,
    Termination, Tolerance, cross_scores, fit_unconstrained, objective_and_violation,
    percentile_grid,
};
use fair_metrics::partial::{PercentileInterval, partial_statistical_parity};
use std::ops::ControlFlow;

/// `min (x − ½)² + (y − 2)²` s.t. `1 − x² ≤ 0` (|x| ≥ 1) and `y ≤ 1` (convex, f⁻ = 0).
/// From `(2, 0)` the solution is `(1, 1)`.
struct Toy;

impl DcProblem for Toy {
    type Workspace = ();
    fn dim(&self) -> usize {
        2
    }
    fn n_constraints(&self) -> usize {
        2
    }
    fn workspace(&self) {}
    fn prepare(&self, _x: &[f64], _ws: &mut ()) {}
    fn values(&self, part: Part, x: &[f64], _ws: &mut (), out: &mut [f64]) {
        match part {
            Part::Plus => {
                out[0] = (x[0] - 0.5).powi(2) + (x[1] - 2.0).powi(2);
                out[1] = 1.0;
                out[2] = x[1] - 1.0;
            }
            Part::Minus => {
                out[0] = 0.0;
                out[1] = x[0] * x[0];
                out[2] = 0.0;
            }
        }
    }
    fn subgradient(&self, part: Part, i: usize, x: &[f64], _ws: &mut (), out: &mut [f64]) {
        out.fill(0.0);
        match (part, i) {
            (Part::Plus, 0) => {
                out[0] = 2.0 * (x[0] - 0.5);
                out[1] = 2.0 * (x[1] - 2.0);
            }
            (Part::Minus, 1) => out[0] = 2.0 * x[0],
            (Part::Plus, 2) => out[1] = 1.0,
            _ => {}
        }
    }
}

#[test]
fn idca_reaches_the_known_solution_of_a_tiny_problem() {
    let mut hist = History::default();
    let fit = Idca::params()
        .outer_iters(60)
        .inner_iters(400)
        .eps(1e-3)
        .fit_with_observer(&Toy, &[2.0, 0.0], &mut hist)
        .unwrap();
    // Objective steps have length ε/‖g‖, so the accuracy is of the order of ε.
    assert!((fit.x[0] - 1.0).abs() < 5e-3, "{:?} {}", fit.x, fit.report);
    assert!((fit.x[1] - 1.0).abs() < 5e-3, "{:?} {}", fit.x, fit.report);
    assert!(hist.iters.iter().all(|i| i.max_violation <= 1e-3));
    // Objective values are non-increasing along the outer iterations (up to ε-steps).
    for w in hist.iters.windows(2) {
        assert!(w[1].objective <= w[0].objective + 1e-3);
    }
}

#[test]
fn ball_and_box_sets_are_respected() {
    for set in [
        FeasibleSet::Ball { radius: 1.2 },
        FeasibleSet::Box {
            lower: -0.8,
            upper: 1.1,
        },
    ] {
        let x0 = [1.05, 0.0];
        let fit = Idca::params()
            .outer_iters(20)
            .inner_iters(200)
            .eps(1e-3)
            .feasible_set(set)
            .fit(&Toy, &x0)
            .unwrap();
        assert!(set.contains(&fit.x), "{set:?}: {:?}", fit.x);
        assert!(fit.report.max_violation <= 1e-3);
    }
}

#[test]
fn idca_iterates_stay_feasible_on_partial_sp_and_dp() {
    let data = common::cross_data(300, 4, 3);
    let interval = PercentileInterval::new(0.1, 0.5).unwrap();
    let eps = 1e-3;
    let kappa = 0.05;
    let grid = percentile_grid(interval, kappa, 5).unwrap();
    for sur in [Surrogate::HardSigmoid, Surrogate::Logistic] {
        let sp = PartialSp::new(&data, interval, kappa, grid.clone(), sur).unwrap();
        let mut hist = History::default();
        let fit = Idca::params()
            .outer_iters(15)
            .inner_iters(60)
            .eps(eps)
            .fit_with_observer(&sp, &sp.initial_point(), &mut hist)
            .unwrap();
        assert!(hist.iters.len() >= 2);
        assert!(
            hist.iters.iter().all(|i| i.max_violation <= eps),
            "{sur:?}: {:?}",
            hist.iters
        );
        // Training made progress over the start w = 0 (loss ln 2).
        assert!(
            fit.report.objective < std::f64::consts::LN_2 - 1e-3,
            "{}",
            fit.report
        );

        let dp = PartialDp::new(
            &data,
            interval,
            kappa,
            0.0,
            sur,
            DpVariant::DemographicParity,
        )
        .unwrap();
        let mut hist = History::default();
        let fit = Idca::params()
            .outer_iters(15)
            .inner_iters(60)
            .eps(eps)
            .fit_with_observer(&dp, &dp.initial_point(), &mut hist)
            .unwrap();
        assert!(hist.iters.iter().all(|i| i.max_violation <= eps));
        assert!(fit.report.objective < std::f64::consts::LN_2 - 1e-3);
    }
}

#[test]
fn tight_partial_sp_model_is_fairer_than_the_unconstrained_one() {
    let (x, y, g) = common::random_data(400, 4, 5);
    let data = dc_opt::CrossData::new(&x, &y, &g).unwrap();
    let interval = PercentileInterval::new(0.0, 0.5).unwrap();
    let w_star = fit_unconstrained(&data, 0.0, 200).unwrap();
    let unfair =
        partial_statistical_parity(&cross_scores(&w_star, &x, &g).unwrap(), &g, None, interval)
            .unwrap()
            .max;
    let kappa = 0.02;
    let grid = percentile_grid(interval, kappa, 10).unwrap();
    let sp = PartialSp::new(&data, interval, kappa, grid, Surrogate::HardSigmoid).unwrap();
    let fit = Idca::params()
        .outer_iters(40)
        .inner_iters(100)
        .fit(&sp, &sp.initial_point())
        .unwrap();
    let fair = partial_statistical_parity(
        &cross_scores(sp.weights(&fit.x), &x, &g).unwrap(),
        &g,
        None,
        interval,
    )
    .unwrap()
    .max;
    assert!(
        fair < unfair,
        "constrained pSP {fair} vs unconstrained {unfair}"
    );
}

#[test]
fn idca_and_ssg_are_deterministic() {
    let data = common::cross_data(200, 3, 8);
    let interval = PercentileInterval::new(0.2, 0.6).unwrap();
    let grid = percentile_grid(interval, 0.1, 4).unwrap();
    let sp = PartialSp::new(&data, interval, 0.1, grid, Surrogate::HardSigmoid).unwrap();
    let run = || {
        Idca::params()
            .outer_iters(8)
            .inner_iters(30)
            .fit(&sp, &sp.initial_point())
            .unwrap()
            .x
    };
    let (a, b) = (run(), run());
    assert!(a.iter().zip(&b).all(|(u, v)| u.to_bits() == v.to_bits()));
    let ssg = || {
        Ssg::params()
            .iters(200)
            .fit(&sp, &sp.initial_point())
            .unwrap()
            .x
    };
    let (a, b) = (ssg(), ssg());
    assert!(a.iter().zip(&b).all(|(u, v)| u.to_bits() == v.to_bits()));
}

#[test]
fn direct_ssg_improves_and_reports_nearly_feasible_best() {
    let data = common::cross_data(200, 3, 9);
    let interval = PercentileInterval::new(0.2, 0.6).unwrap();
    let dp = PartialDp::new(
        &data,
        interval,
        0.05,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    )
    .unwrap();
    for tol in [Tolerance::Constant(1e-3), Tolerance::Diminishing(0.5)] {
        let fit = Ssg::params()
            .iters(500)
            .tolerance(tol)
            .fit(&dp, &dp.initial_point())
            .unwrap();
        assert_ne!(fit.report.status, Termination::NeverFeasible);
        let (obj, viol) = objective_and_violation(&dp, &fit.x);
        assert!(obj < std::f64::consts::LN_2);
        assert!(viol <= 1e-3 + 1e-12, "{viol}");
    }
}

#[test]
fn observer_can_stop_idca() {
    struct StopAfter(usize);
    impl dc_opt::Observe<dc_opt::IterInfo> for StopAfter {
        fn observe(&mut self, info: &dc_opt::IterInfo) -> ControlFlow<()> {
            if info.iter >= self.0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    let fit = Idca::params()
        .outer_iters(50)
        .fit_with_observer(&Toy, &[2.0, 0.0], &mut StopAfter(3))
        .unwrap();
    assert_eq!(fit.report.status, Termination::Interrupted);
    assert_eq!(fit.report.iterations, 3);
    assert!(format!("{}", fit.report).contains("interrupted by observer"));
}

#[test]
fn a_closure_observer_stops_idca_and_ssg_with_interrupted() {
    let mut seen = Vec::new();
    let mut stop_at_2 = |info: &dc_opt::IterInfo| {
        seen.push(info.iter);
        if info.iter == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let fit = Idca::params()
        .outer_iters(50)
        .fit_with_observer(&Toy, &[2.0, 0.0], &mut stop_at_2)
        .unwrap();
    assert_eq!(fit.report.status, Termination::Interrupted);
    assert_eq!(seen, [0, 1, 2]);
    assert_eq!(fit.report.iterations, 2);
    let mut calls = 0;
    let ssg = Ssg::params()
        .iters(100)
        .fit_with_observer(&Toy, &[2.0, 0.0], &mut |_: &dc_opt::IterInfo| {
            calls += 1;
            if calls == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
    // SSG reports `NeverFeasible` over an observer's stop when no nearly feasible iterate was met.
    assert!(
        matches!(
            ssg.report.status,
            Termination::Interrupted | Termination::NeverFeasible
        ),
        "{}",
        ssg.report
    );
    assert_eq!(ssg.report.iterations, 4);
    assert_eq!(calls, 5);
}

#[test]
fn checkpoints_are_kept() {
    let fit = Idca::params()
        .outer_iters(6)
        .inner_iters(50)
        .checkpoints(vec![0, 2, 6])
        .fit(&Toy, &[2.0, 0.0])
        .unwrap();
    let ks: Vec<usize> = fit.checkpoints.iter().map(|c| c.0).collect();
    assert_eq!(ks, vec![0, 2, 6]);
    assert_eq!(fit.checkpoints[2].1, fit.x);
}

/// IDCA carries nothing from one outer iteration to the next but `w⁽ᵏ⁾`, so a run of `a + b`
/// outer iterations equals a run of `a` continued from its last iterate for `b` more, bit for bit
/// (the G.2.2 protocol in the reproduction continues its 50-iteration trial this way).
#[test]
fn resuming_idca_from_its_last_iterate_equals_one_longer_run() {
    let data = common::cross_data(250, 3, 11);
    let interval = PercentileInterval::new(0.1, 0.5).unwrap();
    let grid = percentile_grid(interval, 0.05, 5).unwrap();
    let sp = PartialSp::new(&data, interval, 0.05, grid, Surrogate::HardSigmoid).unwrap();
    let params = || Idca::params().inner_iters(40).eps(2e-3);
    let long = params()
        .outer_iters(12)
        .checkpoints(vec![4, 9, 12])
        .fit(&sp, &sp.initial_point())
        .unwrap();
    let head = params()
        .outer_iters(4)
        .fit(&sp, &sp.initial_point())
        .unwrap();
    let tail = params()
        .outer_iters(8)
        .checkpoints(vec![5, 8])
        .fit(&sp, &head.x)
        .unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&long.checkpoints[0].1), bits(&head.x));
    assert_eq!(bits(&long.checkpoints[1].1), bits(&tail.checkpoints[0].1));
    assert_eq!(bits(&long.checkpoints[2].1), bits(&tail.checkpoints[1].1));
    assert_eq!(bits(&long.x), bits(&tail.x));
}
