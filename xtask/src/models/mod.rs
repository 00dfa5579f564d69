//! Base models the experiments train; method crates never depend on these.

pub mod lbfgs;
pub mod linear_svm;
pub mod logistic;
pub mod softmax;
