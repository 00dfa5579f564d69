//! Cross-crate tests of the fairkit workspace live in this package's test targets.
