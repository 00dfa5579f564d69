//! `fairkit._core.run_cli`: the `fairkit` command inside the extension module, so the wheel's
//! console script (`fairkit`, and `python -m fairkit`) runs the very code of the cargo-built
//! binary (`fairkit_cli::entry::run`) without shipping a second compiled copy of it.

use pyo3::prelude::*;
use std::ffi::OsString;

/// Runs the `fairkit` command with `argv` (the program name first, as `sys.argv`) and returns
/// its exit code: 0 = done, 1 = a `--fail-if` expression held, 2 = bad input or flags,
/// 101 = an internal error (a panic, whose message was printed to stderr, as the binary's).
///
/// The command writes to the process's own stdout and stderr (not `sys.stdout`), flushed before
/// returning; the GIL is released while it runs.
#[pyfunction]
pub fn run_cli(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| {
        // The binary ends with exit code 101 on a panic; do the same rather than raising
        // pyo3's PanicException (a traceback from a command is not what its users expect).
        std::panic::catch_unwind(|| fairkit_cli::entry::run(argv)).unwrap_or(101)
    })
}
