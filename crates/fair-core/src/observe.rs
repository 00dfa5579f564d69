//! The one observer trait of the method crates.

use std::ops::ControlFlow;

/// Sees one `I` per iteration of a fit and may stop it.
///
/// Each method crate calls `observe` from its one outer loop with its own typed info (for
/// example `fair_pca::IterInfo`). Returning [`ControlFlow::Break`] ends the fit **with `Ok`**:
/// the model holds the last iterate and its report says
/// [`Termination::Interrupted`](crate::Termination::Interrupted). Library crates never print:
/// progress bars, logs, traces and Ctrl-C checks are observers.
///
/// Implemented by [`NoObserver`] (for every `I`) and by every closure
/// `FnMut(&I) -> ControlFlow<()>`.
///
/// # Examples
/// ```
/// use fair_core::{ControlFlow, Observe};
///
/// /// Records every objective and stops after three.
/// #[derive(Default)]
/// struct Recorder(Vec<f64>);
/// impl Observe<f64> for Recorder {
///     fn observe(&mut self, objective: &f64) -> ControlFlow<()> {
///         self.0.push(*objective);
///         if self.0.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
///     }
/// }
/// let mut rec = Recorder::default();
/// let stopped_at = (0..10).map(f64::from).position(|o| rec.observe(&o).is_break());
/// assert_eq!(stopped_at, Some(2));
/// assert_eq!(rec.0, [0.0, 1.0, 2.0]);
/// ```
pub trait Observe<I: ?Sized> {
    /// Called after every iteration; `Break` stops the fit with `Termination::Interrupted`.
    fn observe(&mut self, info: &I) -> ControlFlow<()>;
}

/// The observer that never stops a fit and records nothing.
///
/// # Examples
/// ```
/// use fair_core::{NoObserver, Observe};
/// assert!(NoObserver.observe(&1.0_f64).is_continue());
/// assert!(NoObserver.observe("any info type").is_continue());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoObserver;

impl<I: ?Sized> Observe<I> for NoObserver {
    fn observe(&mut self, _info: &I) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<I: ?Sized, F: FnMut(&I) -> ControlFlow<()> + ?Sized> Observe<I> for F {
    fn observe(&mut self, info: &I) -> ControlFlow<()> {
        self(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An iteration info borrowing from the solver, as fair-pca's and game-opt's do.
    struct Borrowed<'a> {
        values: &'a [f64],
    }

    fn run<O: for<'a> Observe<Borrowed<'a>>>(obs: &mut O) -> usize {
        let data = [1.0, 2.0, 3.0];
        for i in 0..10 {
            if obs
                .observe(&Borrowed {
                    values: &data[..i % 3],
                })
                .is_break()
            {
                return i;
            }
        }
        10
    }

    #[test]
    fn no_observer_never_stops() {
        assert_eq!(run(&mut NoObserver), 10);
    }

    #[test]
    fn closure_observer_stops_and_keeps_state() {
        let mut seen = 0;
        let mut obs = |b: &Borrowed<'_>| {
            seen += b.values.len();
            if seen >= 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        assert_eq!(run(&mut obs), 2);
        assert_eq!(seen, 3);
    }

    #[test]
    fn dyn_observer() {
        let mut obs: Box<dyn Observe<u32>> = Box::new(|i: &u32| {
            if *i > 1 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert!(obs.observe(&1).is_continue());
        assert!(obs.observe(&2).is_break());
    }
}
