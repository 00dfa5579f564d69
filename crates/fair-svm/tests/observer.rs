//! The observer hook sees exactly the iterations the report records, once each, and the final
//! report once; a failing fit never reaches `finish`.

mod common;

use common::synthetic;
use fair_svm::{FitReport, IterInfo, Kernel, KernelFairSvm, Observer, SpectralFairSvm};

#[derive(Default)]
struct Recorder {
    seen: Vec<IterInfo>,
    finished: Vec<FitReport>,
}

impl Observer for Recorder {
    fn iteration(&mut self, info: &IterInfo) {
        assert!(self.finished.is_empty(), "iteration after finish");
        self.seen.push(*info);
    }
    fn finish(&mut self, report: &FitReport) {
        self.finished.push(report.clone());
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
        .fit_observed(&x, &y, &z, &mut rec)
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
    assert_eq!(rec.finished.len(), 1);
    assert_eq!(
        rec.finished[0].objective.to_bits(),
        report.objective.to_bits()
    );
    assert_eq!(rec.finished[0].elapsed, report.elapsed);
    // The plain fit does the same through `()` observer.
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
        .fit_observed(&x, &y, &z, &mut rec)
        .unwrap();
    assert_eq!(rec.seen.len(), svm.report().history.len());
    assert_eq!(rec.finished.len(), 1);
}

#[test]
fn failing_fit_never_finishes() {
    let (x, y, _) = synthetic(2, 7);
    let one_class = vec![1.0; y.len()];
    let mut rec = Recorder::default();
    let err = SpectralFairSvm::params()
        .check()
        .unwrap()
        .fit_observed(&x, &y, &one_class, &mut rec);
    assert!(err.is_err());
    assert!(rec.seen.is_empty() && rec.finished.is_empty());
}

/// Stops before the subproblem after `allowed` have been solved.
struct StopAfter {
    allowed: usize,
    finished: bool,
}

impl Observer for StopAfter {
    fn keep_going(&mut self) -> std::ops::ControlFlow<()> {
        if self.allowed == 0 {
            return std::ops::ControlFlow::Break(());
        }
        self.allowed -= 1;
        std::ops::ControlFlow::Continue(())
    }
    fn finish(&mut self, _report: &FitReport) {
        self.finished = true;
    }
}

#[test]
fn keep_going_stops_linear_and_kernel_fits_with_interrupted() {
    let (x, y, z) = synthetic(4, 5);
    for allowed in [0, 1, 2] {
        let mut stop = StopAfter {
            allowed,
            finished: false,
        };
        let err = SpectralFairSvm::params()
            .lambda(0.01)
            .d(0.05)
            .mu(1.0)
            .tol(1e-12)
            .check()
            .unwrap()
            .fit_observed(&x, &y, &z, &mut stop)
            .unwrap_err();
        // The warm start is subproblem 0, so `allowed` subproblems = `allowed − 1` iterations.
        assert_eq!(
            err,
            fair_svm::FairSvmError::Interrupted {
                iterations: allowed.saturating_sub(1)
            }
        );
        assert!(!stop.finished, "an interrupted fit never reaches finish");
    }
    let (x, y, z) = synthetic(3, 6);
    let mut stop = StopAfter {
        allowed: 1,
        finished: false,
    };
    let err = KernelFairSvm::params(Kernel::Rbf { gamma: 0.5 })
        .mu(1.0)
        .tol(1e-12)
        .check()
        .unwrap()
        .fit_observed(&x, &y, &z, &mut stop)
        .unwrap_err();
    assert!(
        matches!(err, fair_svm::FairSvmError::Interrupted { iterations: 0 }),
        "{err}"
    );
}
