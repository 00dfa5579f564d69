//! Partial fairness on percentile intervals via difference-of-convex constraints and the inexact DCA (IDCA).
//!
//! Not implemented yet: this crate is reserved for the `dc-opt` issue and exposes no API.
