//! The observer of `fit_with_observer`: one that never stops changes nothing (same bits as
//! `fit`), and one that stops after k passes ends every solver with `Ok` and
//! `Termination::Interrupted` after exactly k passes — including during the dual solver's warm
//! start on a subsample.

mod common;

use info_projection::{Divergence, FairProjection, PassInfo, Solver, Termination};
use std::ops::ControlFlow;

fn params(solver: Solver, warm: f64) -> info_projection::FairProjectionValidParams {
    FairProjection::params()
        .solver(solver)
        .divergence(Divergence::Kl)
        .alpha(0.05)
        .tol(1e-7)
        .warm_start_fraction(warm)
        .check()
        .unwrap()
}

#[test]
fn a_hook_that_never_stops_gives_the_same_bits_as_fit() {
    let inst = common::lcg_instance(3_000, 3, 3, 7);
    for solver in [Solver::Dual, Solver::Admm] {
        let p = params(solver, 1.0);
        let plain = p.fit(&inst.probs, &inst.groups).unwrap();
        let mut asked = 0;
        let mut hook = |_: &PassInfo| {
            asked += 1;
            ControlFlow::Continue(())
        };
        let hooked = p
            .fit_with_observer(&inst.probs, &inst.groups, None, &mut hook)
            .unwrap();
        assert_eq!(plain.lambda(), hooked.lambda(), "{solver:?}");
        assert_eq!(plain.report().status, hooked.report().status, "{solver:?}");
        assert!(asked >= 2, "{solver:?}: the hook was asked {asked} times");
    }
}

#[test]
fn a_hook_that_stops_ends_every_solver_with_interrupted() {
    let inst = common::lcg_instance(3_000, 3, 3, 7);
    // Warm start 0.5: the dual solver's first passes run on a subsample, and an interrupt there
    // must stop the fit (not fall back to a cold start).
    for (solver, warm) in [
        (Solver::Dual, 1.0),
        (Solver::Dual, 0.5),
        (Solver::Admm, 1.0),
    ] {
        for allowed in [0, 1, 3] {
            let mut asked = 0;
            let mut hook = |info: &PassInfo| {
                asked += 1;
                assert_eq!(info.passes, asked - 1);
                if info.passes == allowed {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            };
            let fit = params(solver, warm)
                .fit_with_observer(&inst.probs, &inst.groups, None, &mut hook)
                .unwrap();
            assert_eq!(asked, allowed + 1, "{solver:?} warm {warm}");
            assert_eq!(
                fit.report().status,
                Termination::Interrupted,
                "{solver:?} warm {warm}"
            );
            assert!(fit.lambda().iter().all(|l| l.is_finite() && *l >= 0.0));
            assert!(
                fit.report().to_string().contains("interrupted"),
                "{}",
                fit.report()
            );
        }
    }
}
