//! Base models the experiments train; method crates never depend on these.

pub mod lbfgs;
pub mod linear_svm;
pub mod logistic;
pub mod ridge_linear;
pub mod softmax;
pub mod trees;
