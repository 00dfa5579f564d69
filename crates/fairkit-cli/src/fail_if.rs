//! `--fail-if`: the gate language lives in `fair_audit::fail_if` (one vocabulary for every front
//! end, fairlearn's names accepted as aliases). This re-export keeps `crate::fail_if` paths, and
//! the fuzz crate's `#[path]` include of this file, working.

pub use fair_audit::fail_if::*;
