//! Pareto-optimal fair PCA with an adaptive first-order method.
//!
//! Not implemented yet: this crate is reserved for the `fair-pca` issue and exposes no API.
