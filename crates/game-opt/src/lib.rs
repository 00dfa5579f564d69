//! Rate-constrained learning with the proxy-Lagrangian game and the m+1 shrinking LP.
//!
//! Not implemented yet: this crate is reserved for the `game-opt` issue and exposes no API.
