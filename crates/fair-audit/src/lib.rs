//! The fairness audit report shared by every front end: the `fairkit audit` command, and the
//! Python package's Spark audit. From merged [`ConfusionState`](fair_metrics::state::ConfusionState)s
//! (one per prediction source and slice) and, with a score column, the score sweep's
//! [`SliceScores`](fair_metrics::score_sweep::SliceScores), it computes every rate with its
//! interval, every gap with its bootstrap interval and permutation p-value, the exact score
//! metrics with their inference, the headline and the plain-language summary; it renders the
//! schema-v1 JSON, markdown and self-contained HTML with charts as text. It reads and writes no
//! files: the front ends do.
//!
//! # Example
//! ```
//! use fair_audit::{build_report, render, ReportSpec, SliceDef, Stats, Views};
//! use fair_audit::model::{Columns, InputInfo};
//! use fair_data::Groups;
//! use fair_metrics::ci::RateCiMethod;
//! use fair_metrics::state::ConfusionState;
//!
//! let mut state = ConfusionState::new();
//! let g = Groups::from_labels(&["a", "a", "b", "b", "a", "b"]);
//! state.update(&[1, 0, 1, 1, 0, 0], &[1, 0, 0, 1, 1, 0], &g, None).expect("valid rows");
//! let columns = vec!["group".to_string()];
//! let spec = ReportSpec {
//!     input: InputInfo {
//!         file: "example".into(),
//!         format: "csv".into(),
//!         rows: 6,
//!         columns: Columns {
//!             label: "y".into(),
//!             prediction: Some("p".into()),
//!             score: None,
//!             sensitive: columns.clone(),
//!             weight: None,
//!         },
//!         positive_label: "1".into(),
//!         negative_label: Some("0".into()),
//!     },
//!     slices: SliceDef::all(&columns),
//!     stats: Stats { confidence: 0.95, method: RateCiMethod::Wilson, resamples: 200, seed: 0, min_group_size: 0 },
//!     thresholds: vec![],
//!     interval: None,
//!     weighted: false,
//! };
//! let (report, charts) = build_report(&spec, &[vec![state]], None)?;
//! assert_eq!(report.audits[0].slices[0].groups.len(), 2);
//! let text = render(&report, &charts, Views::default())?;
//! assert!(text.html.unwrap().contains("<svg"));
//! # Ok::<(), fair_audit::AuditError>(())
//! ```

pub mod build;
pub mod charts;
pub mod compare;
pub mod compute;
pub mod disparity;
pub mod disparity_view;
pub mod error;
pub mod fail_if;
pub mod finest;
pub mod first_page;
pub mod glossary;
pub mod guard;
pub mod inferred;
pub mod ingest;
pub mod keys;
pub mod ll144;
pub mod model;
pub mod over_time;
pub mod ranking;
pub mod ranking_view;
pub mod regression;
pub mod regression_over_time;
pub mod regression_view;
pub mod render;
pub mod request;
pub mod run;
pub mod schema;
pub mod scoring_rate;
pub mod summary;
pub mod unknowns;

pub use build::{ReportSpec, apply_multiple_testing, build_report};

/// Points per group of the ROC and CCDF curves a score sweep records for the report's charts
/// (`SweepSettings::curve_points`): half of what a chart draws, so the grid rule's bound
/// (at most `2 · CURVE_POINTS + 2` ROC points) stays within `fair_report::MAX_CURVE_POINTS`
/// after downsampling.
pub const CURVE_POINTS: usize = fair_report::MAX_CURVE_POINTS / 2;
pub use charts::ChartData;
pub use compute::{SliceDef, Stats};
pub use error::AuditError;
pub use keys::Key;
pub use render::{Rendered, Views, render};
pub use request::{AuditRequest, CheckedRequest, ReportFormat, RequestError};
pub use run::{
    Audit, DistributionSlices, Inputs, NoScores, Origin, ScoreSlices, ScoreSource, States,
    WindowedDistributions, run,
};
