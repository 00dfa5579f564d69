//! fairkit metrics: the measuring side of fairness-constrained learning.
//!
//! Every grouped metric takes labels / predictions as `&[usize]` (binary metrics: 0/1 with
//! 1 = positive; multi-class: `0..n_classes`), scores as `&[f64]`, group membership as
//! [`fair_data::Groups`] and optional sample weights `Option<&[f64]>` (finite, `>= 0`, positive
//! total). Inputs are validated up front and every failure is a typed [`MetricError`]; no input
//! reachable from the public API panics.
//!
//! | module | what it measures | source |
//! |---|---|---|
//! | crate root ([`GroupConfusion`], [`GroupSummary`]) | confusion rates per group in one pass, fairlearn `MetricFrame`-style gaps | fairlearn |
//! | [`signed_gaps`] | signed unprivileged − privileged gaps | AIF360 |
//! | [`parity`] | demographic parity, equal opportunity, equalized odds, accuracy equality | fairlearn |
//! | [`multiclass`] | per-class one-vs-rest rates, MEO (eq. 117), SP (eq. 118) | FairProjection |
//! | [`roc`] | exact tie-aware ROC/AUC, per group and across groups | fair SVM, IDCA |
//! | [`ks`] | exact all-threshold DP-Δ / EO-Δ (KS statistic) | fair SVM |
//! | [`partial`] | partial SP/DP/EOP/EOD on a percentile interval | IDCA |
//! | [`rate_constraints`] | subset rates, churn, wins, losses | proxy-Lagrangian (TFCO) |
//! | [`pca_losses`] | reconstruction losses and disparity errors | Efficient Fair PCA |
//! | [`state`] | mergeable per-group sufficient statistics (exact across batches and partitions) | fairkit |
//! | [`score_sweep`] | AUC, KS Δ / EO-Δ, partial SP of many slices in one k-way merge over sorted runs (in memory or spilled by the caller) | fairkit |
//! | [`disparity`] | every confusion rate ÷ a reference group's, parity within [τ, 1/τ], Aequitas' significance test | Aequitas 1.1 |
//! | [`inferred`] | rates when the group is only inferred (membership probabilities): weighted and thresholded estimators, partial-identification bounds of rates and disparities | Chen et al. 2019; Kallus, Mao & Zhou 2022 |
//! | [`ci`] | confidence intervals for rates and gaps, permutation tests; AUC, KS and pSP intervals and p-values | Wilson, Clopper–Pearson, bootstrap, Hanley–McNeil, DKW, Kolmogorov |
//!
//! Rates whose denominator is zero in some group (a TPR without positives, …) follow a
//! [`ZeroDivision`] policy (default: error). A declared group with no rows is always
//! [`MetricError::EmptyGroup`]; drop such groups with [`Groups::compact`](fair_data::Groups::compact).
//!
//! # Example
//! ```
//! use fair_data::Groups;
//! use fair_metrics::parity::{self, ParityOptions};
//! use fair_metrics::{GroupConfusion, ParityMethod, Rate, ZeroDivision};
//!
//! let y_true = [1, 1, 0, 0, 1, 1, 0, 0];
//! let y_pred = [1, 1, 1, 0, 1, 0, 0, 0];
//! let groups = Groups::from_labels(&["f", "f", "f", "f", "m", "m", "m", "m"]);
//!
//! // One pass gives every rate of every group.
//! let gc = GroupConfusion::new(&y_true, &y_pred, &groups, None)?;
//! let sr = gc.summary(Rate::Selection, ZeroDivision::Error)?;
//! assert_eq!(sr.by_group, vec![Some(0.75), Some(0.25)]);
//! assert!((sr.difference - 0.5).abs() < 1e-12);
//! assert!((sr.ratio - 1.0 / 3.0).abs() < 1e-12);
//!
//! // fairlearn's equalized_odds_difference: max(TPR gap 0.5, FPR gap 0.5).
//! let eod = parity::equalized_odds_difference(&y_true, &y_pred, &groups, None, &ParityOptions::default())?;
//! assert!((eod - 0.5).abs() < 1e-12);
//!
//! // The exact KS distance between two groups' scores (fair-SVM DP-Δ).
//! let scores = [0.9, 0.8, 0.7, 0.1, 0.6, 0.3, 0.2, 0.1];
//! let ks = fair_metrics::ks::ks_statistic(&scores, &groups, None)?;
//! assert!((ks.max - 0.75).abs() < 1e-12);
//! # let _ = ParityMethod::BetweenGroups;
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod confusion;
mod error;
mod pairwise;
mod sorted_scores;
mod summary;
mod validate;
mod zero_division;

pub mod ci;
pub mod disparity;
pub mod distribution;
pub mod inferred;
pub mod ks;
pub mod multiclass;
pub mod parity;
pub mod partial;
pub mod pca_losses;
pub mod ranking;
pub mod ranking_state;
pub mod rate_constraints;
pub mod regression;
pub mod roc;
pub mod score_sweep;
pub mod signed_gaps;
pub mod state;

pub use confusion::{CellSums, ConfusionCounts, GroupCode, GroupConfusion, Rate};
pub use error::{MetricError, Result};
pub use pairwise::{GroupPair, PairwiseSummary};
pub use summary::{GroupSummary, ParityMethod};
pub use zero_division::ZeroDivision;
