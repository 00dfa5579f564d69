//! Spectral (convex–concave) fair SVM, linear and kernel.
//!
//! Not implemented yet: this crate is reserved for the `fair-svm` issue and exposes no API.
