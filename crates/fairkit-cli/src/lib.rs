//! The library behind the `fairkit` command: its flags, the input layer (CSV and Parquet files
//! read as Arrow batches and decoded by `fair_audit::ingest`, the decoder every front end uses),
//! the audit run, the demo data and the report writers. The binary (`src/main.rs`) is a thin
//! wrapper; the fuzz targets link this library.
#![forbid(unsafe_code)]
// The input errors carry the file, row, line, column and offending value so the message can say
// what to fix; they are returned once and end the run, so their size costs nothing that matters
// (the per-cell Ok path only writes a discriminant).
#![allow(clippy::result_large_err)]

pub mod audit;
pub mod cli;
pub mod compare;
pub mod demo;
pub mod entry;
pub mod error;
pub mod fail_if;
pub mod guard;
pub mod input;
pub mod ll144;
pub mod progress;
pub mod report;
pub mod state_dir;
