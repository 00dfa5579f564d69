//! The observer sees exactly the iterations the report records, once each; a failing fit never
//! calls it; its `Break` ends the fit with `Ok` and `Termination::Interrupted`.

mod common;

use common::synthetic;
use fair_svm::{IterInfo, Kernel, KernelFairSvm, Observe, SpectralFairSvm, Termination};
use std::ops::ControlFlow;

#[derive(Default)]
struct Recorder {
    seen: Vec<IterInfo>,
}

impl Observe<IterInfo> for Recorder {
    fn observe(&mut self, info: &IterInfo) -> ControlFlow<()> {
        self.seen.push(*info);
        ControlFlow::Continue(())
    }
}

#[test]
fn linear_observer_sees_every_iteration_and_the_report() {
    let (x, y, z) = synthetic(4, 5);
    let mut rec = Recorder::default();
    let svm = SpectralFairSvm::params()
        .lambda(0.01)
        .d(0.05)
        .mu(1.0)
        .check()
        .unwrap()
        .fit_with_observer(&x, &y, &z, &mut rec)
        .unwrap();
    let report = svm.report();
    assert!(report.iterations >= 2, "{report}");
    assert_eq!(rec.seen.len(), report.iterations + 1);
    for (k, (seen, kept)) in rec.seen.iter().zip(&report.history).enumerate() {
        assert_eq!(seen.iteration, k);
        assert_eq!(seen.objective.to_bits(), kept.objective.to_bits());
        assert_eq!(seen.slack.to_bits(), kept.slack.to_bits());
    }
    // Constraint values: the mean constraint holds at every iterate.
    assert!(rec.seen.iter().all(|it| it.mean_gap.abs() <= 0.05 + 1e-6));
    // The plain fit does the same through `NoObserver`.
    let plain = SpectralFairSvm::params().mu(0.0).fit(&x, &y, &z).unwrap();
    assert_eq!(plain.report().history.len(), 1);
}

#[test]
fn kernel_observer_sees_every_iteration() {
    let (x, y, z) = synthetic(3, 6);
    let mut rec = Recorder::default();
    let svm = KernelFairSvm::params(Kernel::Rbf { gamma: 0.5 })
        .lambda(0.01)
        .d(0.05)
        .mu(1.0)
        .check()
        .unwrap()
        .fit_with_observer(&x, &y, &z, &mut rec)
        .unwrap();
    assert_eq!(rec.seen.len(), svm.report().history.len());
}

#[test]
fn failing_fit_never_calls_the_observer() {
    let (x, y, _) = synthetic(2, 7);
    let one_group = common::groups(&vec![1; y.len()]);
    let mut rec = Recorder::default();
    let err = SpectralFairSvm::params()
        .check()
        .unwrap()
        .fit_with_observer(&x, &y, &one_group, &mut rec);
    assert!(err.is_err());
    assert!(rec.seen.is_empty());
}

#[test]
fn a_closure_observer_stops_linear_and_kernel_fits_with_interrupted() {
    let (x, y, z) = synthetic(4, 5);
    for stop_at in [0, 1, 2] {
        let mut calls = 0;
        let mut stop = |info: &IterInfo| {
            calls += 1;
            if info.iteration == stop_at {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let svm = SpectralFairSvm::params()
            .lambda(0.01)
            .d(0.05)
            .mu(1.0)
            .tol(1e-12)
            .check()
            .unwrap()
            .fit_with_observer(&x, &y, &z, &mut stop)
            .unwrap();
        // The warm start is iteration 0: the model is the last iterate the observer saw.
        assert_eq!(svm.report().status, Termination::Interrupted);
        assert_eq!(svm.report().iterations, stop_at);
        assert_eq!(svm.report().history.len(), stop_at + 1);
        assert_eq!(calls, stop_at + 1);
    }
    let (x, y, z) = synthetic(3, 6);
    let mut stop = |info: &IterInfo| {
        if info.iteration == 1 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let svm = KernelFairSvm::params(Kernel::Rbf { gamma: 0.5 })
        .mu(1.0)
        .tol(1e-12)
        .check()
        .unwrap()
        .fit_with_observer(&x, &y, &z, &mut stop)
        .unwrap();
    assert_eq!(svm.report().status, Termination::Interrupted);
    assert_eq!(svm.report().iterations, 1);
}
