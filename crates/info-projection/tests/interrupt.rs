//! The stop hook of `fit_interruptible`: a hook that never stops changes nothing (same bits as
//! `fit`), and a hook that stops after k passes ends every solver with `Interrupted { passes: k }`
//! — including during the dual solver's warm start on a subsample.

mod common;

use info_projection::{Divergence, FairProjection, InfoProjectionError, Solver};
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
        let mut hook = || {
            asked += 1;
            ControlFlow::Continue(())
        };
        let hooked = p
            .fit_interruptible(&inst.probs, &inst.groups, None, &mut hook)
            .unwrap();
        assert_eq!(plain.lambda(), hooked.lambda(), "{solver:?}");
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
            let mut left = allowed;
            let mut hook = || {
                if left == 0 {
                    ControlFlow::Break(())
                } else {
                    left -= 1;
                    ControlFlow::Continue(())
                }
            };
            let err = params(solver, warm)
                .fit_interruptible(&inst.probs, &inst.groups, None, &mut hook)
                .unwrap_err();
            assert_eq!(
                err,
                InfoProjectionError::Interrupted { passes: allowed },
                "{solver:?} warm {warm}"
            );
            assert!(err.to_string().contains("interrupted"), "{err}");
        }
    }
}
