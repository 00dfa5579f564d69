//! Cross-crate tests of the fairkit workspace live in this package's test targets; the crate
//! documentation below is the project README, so its example is compiled and run as a doctest.
#![doc = include_str!("../README.md")]
