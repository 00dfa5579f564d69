//! Ctrl-C during a fit that runs with the GIL released.
//!
//! Python runs its signal handlers (the one that raises `KeyboardInterrupt`) only in the main
//! thread while it holds the GIL. A fit inside `py.detach(..)` therefore re-acquires the GIL
//! between units of work (an iteration, a pass over the rows) through the crate's observer or
//! interrupt hook and calls `PyErr_CheckSignals`; when a handler raised, the hook tells the crate
//! to stop and the exception is raised in place of the crate's result.

use pyo3::prelude::*;
use std::ops::ControlFlow;

/// The hook state: the exception a signal handler raised, if any.
#[derive(Default)]
pub struct SignalCheck {
    interrupted: Option<PyErr>,
}

impl SignalCheck {
    /// Runs Python's pending signal handlers; `Break` (keeping the exception) when one raised.
    pub fn poll(&mut self) -> ControlFlow<()> {
        if self.interrupted.is_some() {
            return ControlFlow::Break(());
        }
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.interrupted = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// [`poll`](Self::poll) on every `every`-th iteration only (for iterations that take
    /// microseconds, where taking the GIL each time would cost more than the work).
    pub fn poll_every(&mut self, iteration: usize, every: usize) -> ControlFlow<()> {
        if iteration.is_multiple_of(every) {
            self.poll()
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The exception a handler raised, in place of the crate's `result`; else `result`.
    pub fn or<T>(self, result: T) -> PyResult<T> {
        match self.interrupted {
            Some(err) => Err(err),
            None => Ok(result),
        }
    }
}
