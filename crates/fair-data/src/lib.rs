//! fairkit datasets: the real fairness benchmarks embedded in the binary, encoded the way the
//! papers encode them, plus splits, scaling, one-hot encoding, synthetic generators and loading a
//! user's CSV.
//!
//! Every embedded file is a gzip copy of the original published file, checked against its
//! published sha256 on each load (see `DATA.md` for sources and licences). A [`Dataset`] is
//! validated once at construction — finite features, labels within the declared classes,
//! sensitive attributes covering every row — so methods can trust it.
//!
//! # Example
//! ```
//! use fair_data::{recipes, Splitter, Standardizer};
//! let german = recipes::german_credit()?;
//! assert_eq!(german.n_rows(), 1000);
//! assert_eq!(german.class_counts(), vec![700, 300]);
//! assert_eq!(german.groups("housing")?.counts(), vec![108, 713, 179]); // for free, own, rent
//!
//! let (train, _, test) = Splitter::new().test(0.3).seed(0).split_dataset(&german, true)?;
//! let scaler = Standardizer::fit(train.x())?;            // fitted on the training part only
//! let test = test.with_features(scaler.transform(test.x())?)?;
//! assert_eq!(test.n_rows(), 300);
//! # Ok::<(), fair_data::DataError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod catalog;
mod csv_load;
mod dataset;
mod embedded;
mod encode;
mod error;
pub mod recipes;
mod scale;
mod split;
mod synthetic;

pub use catalog::Recipe;
pub use csv_load::CsvSpec;
pub use dataset::{Dataset, SensitiveAttribute};
pub use embedded::{EMBEDDED_FILES, EmbeddedFile};
pub use encode::{OneHotEncoder, quantile};
pub use error::{DataError, Result};
/// Group membership lives in `fair-core` (method crates need it without the embedded datasets).
pub use fair_core::{Groups, GroupsError};
pub use scale::{MinMaxScaler, Standardizer};
pub use split::{SplitIndices, Splitter};
pub use synthetic::{FAIR_SVM_HALF_WIDTH, FairSvmSample, FairSvmSynthetic, GaussianMixture};
