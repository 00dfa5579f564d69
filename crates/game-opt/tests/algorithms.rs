//! End-to-end behaviour of the four games and the solution types on a small two-group problem.

mod common;
use common::two_group_problem;
use game_opt::{
    Algorithm, Evaluation, GameOpt, GameOptError, GameOptParams, IterInfo, Linear, Mlp, Observe,
    Problem, ShrinkOutcome, SolutionType, StochasticClassifier, Termination,
};
use std::ops::ControlFlow;

fn params(alg: Algorithm) -> GameOptParams {
    GameOptParams::new()
        .algorithm(alg)
        .iterations(1500)
        .batch_size(100)
        .lr_theta(0.02)
        .lr_lambda(if alg == Algorithm::ProxyLagrangian {
            2.0
        } else {
            0.5
        })
        .snapshot_every(10)
        .seed(1)
}

#[test]
fn constrained_games_reduce_violation() {
    let p = two_group_problem(900);
    let base = params(Algorithm::Unconstrained)
        .fit(&p, Linear::new(3))
        .unwrap();
    let base_eval = base.snapshots().last().unwrap().train.clone();
    assert!(
        base_eval.max_violation() > 0.02,
        "fixture must violate: {base_eval:?}"
    );
    for alg in [
        Algorithm::ProxyLagrangian,
        Algorithm::ZeroOneExt,
        Algorithm::Hinge,
    ] {
        let fit = params(alg).fit(&p, Linear::new(3)).unwrap();
        assert_eq!(fit.report().status, Termination::MaxIterations);
        let sol = fit.solution(SolutionType::MStoch).unwrap();
        assert!(sol.weights.len() <= p.n_constraints() + 1);
        let train: Vec<Evaluation> = fit.snapshots().iter().map(|s| s.train.clone()).collect();
        let e = sol.evaluate(&train).unwrap();
        assert!(
            e.max_violation() < base_eval.max_violation(),
            "{alg:?}: m-stoch violation {} vs unconstrained {}",
            e.max_violation(),
            base_eval.max_violation()
        );
        // The m-stoch classifier's exact expectation matches the LP's mixture of train values.
        let clf = fit.classifier(&sol).unwrap();
        let direct = clf.evaluate(&p).unwrap();
        assert!((direct.error - e.error).abs() < 1e-12);
        // LP guarantee against the same run's T-stoch.
        let t = fit
            .solution(SolutionType::TStoch)
            .unwrap()
            .evaluate(&train)
            .unwrap();
        if t.max_violation() <= 0.0 {
            assert_eq!(sol.shrink, Some(ShrinkOutcome::Feasible));
            assert!(e.error <= t.error + 1e-12);
        }
        for kind in [
            SolutionType::Best,
            SolutionType::Last,
            SolutionType::TStochLambda1,
        ] {
            let s = fit.solution(kind).unwrap();
            assert!((s.weights.iter().map(|w| w.1).sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

#[test]
fn mlp_trains_under_constraints() {
    let p = two_group_problem(600);
    let fit = params(Algorithm::ProxyLagrangian)
        .iterations(600)
        .fit(&p, Mlp::new(3, 10, 3).unwrap())
        .unwrap();
    let e = fit.snapshots().last().unwrap().train.clone();
    assert!(e.error < 0.45, "{e:?}");
}

struct StopAt(usize, usize);
impl Observe<IterInfo<'_>> for StopAt {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        self.1 += 1;
        if info.iteration + 1 >= self.0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

#[test]
fn observer_can_stop_the_run() {
    let p = two_group_problem(300);
    let solver = game_opt::GameOpt::new(params(Algorithm::ZeroOneExt)).unwrap();
    let mut obs = StopAt(37, 0);
    let fit = solver
        .fit_with_observer(&p, Linear::new(3), &mut obs)
        .unwrap();
    assert_eq!(fit.report().status, Termination::Interrupted);
    assert_eq!(fit.report().iterations, 37);
    assert_eq!(obs.1, 37);
    assert!(fit.report().to_string().contains("interrupted by observer"));
}

#[test]
fn evaluation_on_other_split() {
    let p = two_group_problem(300);
    let other = two_group_problem(150);
    let q: Problem = p.on(other.examples().clone()).unwrap();
    let fit = params(Algorithm::Hinge)
        .iterations(100)
        .fit(&p, Linear::new(3))
        .unwrap();
    let evals = fit.evaluate_snapshots(&q).unwrap();
    assert_eq!(evals.len(), fit.snapshots().len());
    let s = fit.solution(SolutionType::TStoch).unwrap();
    let via_mix = s.evaluate(&evals).unwrap();
    let via_clf = fit.classifier(&s).unwrap().evaluate(&q).unwrap();
    assert!((via_mix.error - via_clf.error).abs() < 1e-12);
}

#[test]
fn public_types_are_send_sync() {
    fn check<T: Send + Sync>() {}
    check::<GameOptError>();
    check::<Problem>();
    check::<GameOptParams>();
    check::<StochasticClassifier<Linear>>();
    check::<StochasticClassifier<Mlp>>();
    check::<game_opt::GameFit<Linear>>();
    check::<game_opt::SwapRegretPlayer>();
}

/// Records every multiplier vector the λ-player plays.
#[derive(Default)]
struct Multipliers(Vec<Vec<f64>>);
impl Observe<IterInfo<'_>> for Multipliers {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        self.0.push(info.multipliers.to_vec());
        ControlFlow::Continue(())
    }
}

#[test]
fn lagrangian_multipliers_stay_in_the_l1_ball() {
    let p = two_group_problem(900);
    let radius = 0.3;
    for alg in [Algorithm::Hinge, Algorithm::ZeroOneExt] {
        // A large λ step makes the radius bind within a few steps.
        let solver = GameOpt::new(
            params(alg)
                .iterations(400)
                .lr_lambda(5.0)
                .multiplier_radius(Some(radius)),
        )
        .unwrap();
        let mut seen = Multipliers::default();
        let fit = solver
            .fit_with_observer(&p, Linear::new(3), &mut seen)
            .unwrap();
        let snap: Vec<Vec<f64>> = fit
            .snapshots()
            .iter()
            .map(|s| s.multipliers.clone())
            .collect();
        let mut largest: f64 = 0.0;
        for lam in seen.0.iter().chain(&snap) {
            assert_eq!(lam.len(), p.n_constraints());
            assert!(lam.iter().all(|&l| l >= 0.0), "{alg:?}: negative λ {lam:?}");
            let norm: f64 = lam.iter().sum();
            assert!(norm <= radius + 1e-12, "{alg:?}: ‖λ‖₁ = {norm} > R");
            largest = largest.max(norm);
        }
        // The ball must actually bind, or the check above proves nothing.
        assert!(
            largest > radius - 1e-9,
            "{alg:?}: radius never reached ({largest})"
        );
    }
    // Hinge's proxies on this fixture stay positive: without a radius its multipliers keep
    // growing, which is what the radius is for.
    let mut seen = Multipliers::default();
    GameOpt::new(params(Algorithm::Hinge).iterations(400).lr_lambda(5.0))
        .unwrap()
        .fit_with_observer(&p, Linear::new(3), &mut seen)
        .unwrap();
    let last: f64 = seen.0.last().unwrap().iter().sum();
    assert!(
        last > radius,
        "unbounded Hinge multipliers stayed at {last}"
    );
}
