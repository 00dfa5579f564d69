//! FairProjection: multi-class, multi-group post-processing by information projection.
//!
//! Not implemented yet: this crate is reserved for the `info-projection` issue and exposes no API.
