//! The report's gap and score keys — one typed vocabulary for the writer (`compute`, `summary`,
//! `render`), the readers (`compare`, `fail_if`) and report.json, which writes each key as its
//! snake-case name (`dp_difference`, `ks_dp`, …). fairlearn's names for them are the
//! [`ALIASES`] table, the only one.
//!
//! This module depends on nothing else in the crate, so every module can use it.

use fair_metrics::Rate;
use fair_metrics::ci::{GapKind, GapMetric};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// A headline key: one of the eight count gaps or the four score gaps.
///
/// Ordered by name (report.json's maps keyed by it are sorted by name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Key {
    /// Demographic parity difference (selection rates).
    DpDifference,
    /// Demographic parity ratio.
    DpRatio,
    /// Equal opportunity difference (true positive rates).
    EoDifference,
    /// Equal opportunity ratio.
    EoRatio,
    /// Equalized odds difference (the larger of the TPR and FPR differences).
    EqOddsDifference,
    /// Equalized odds ratio (the smaller of the TPR and FPR ratios).
    EqOddsRatio,
    /// Accuracy difference.
    AccuracyDifference,
    /// Accuracy ratio.
    AccuracyRatio,
    /// max − min of the group AUCs.
    AucDifference,
    /// KS distance between group score distributions (all-threshold DP gap).
    KsDp,
    /// KS distance on the positives (all-threshold EO gap).
    KsEo,
    /// Partial statistical parity on the interval.
    Psp,
    /// max − min of the groups' mean predictions (demographic parity of a numeric output).
    MeanPredictionDifference,
    /// min / max of the groups' mean predictions.
    MeanPredictionRatio,
    /// max − min of the groups' mean residuals (prediction − target).
    MeanResidualDifference,
    /// max − min of the groups' mean absolute errors.
    MaeDifference,
    /// min / max of the groups' mean absolute errors.
    MaeRatio,
    /// max − min of the groups' root mean squared errors.
    RmseDifference,
    /// min / max of the groups' root mean squared errors.
    RmseRatio,
    /// max − min of the groups' R².
    R2Difference,
    /// The largest Wasserstein-1 distance between two groups' predictions.
    WassersteinMax,
    /// The largest Kolmogorov–Smirnov distance between two groups' predictions.
    KsPrediction,
    /// max − min of the groups' scoring rates (share above the pooled median, NYC LL144).
    ScoringRateDifference,
    /// min / max of the groups' scoring rates: LL144's impact ratio.
    ScoringRateRatio,
    /// min / max of the groups' exposure per item in rankings.
    ExposureRatio,
    /// min / max of the groups' exposure per unit of relevance (Singh & Joachims).
    DisparateTreatmentRatio,
    /// min / max of the groups' expected clicks per unit of relevance (Singh & Joachims).
    DisparateImpactRatio,
    /// min / max of the groups' NDCG.
    NdcgRatio,
    /// The lowest of the groups' FA*IR test pass rates over queries.
    FairTestPassRate,
}

impl Key {
    /// The count gaps, in report order.
    pub const COUNT: [Key; 8] = [
        Key::DpDifference,
        Key::DpRatio,
        Key::EoDifference,
        Key::EoRatio,
        Key::EqOddsDifference,
        Key::EqOddsRatio,
        Key::AccuracyDifference,
        Key::AccuracyRatio,
    ];

    /// The score gaps, in report order.
    pub const SCORE: [Key; 4] = [Key::AucDifference, Key::KsDp, Key::KsEo, Key::Psp];

    /// The gaps of a regression audit (a numeric target), in report order.
    pub const REGRESSION: [Key; 12] = [
        Key::MeanPredictionDifference,
        Key::MeanPredictionRatio,
        Key::MeanResidualDifference,
        Key::MaeDifference,
        Key::MaeRatio,
        Key::RmseDifference,
        Key::RmseRatio,
        Key::R2Difference,
        Key::ScoringRateDifference,
        Key::ScoringRateRatio,
        Key::WassersteinMax,
        Key::KsPrediction,
    ];

    /// The ratios of a ranking audit (a query column), in report order.
    pub const RANKING: [Key; 5] = [
        Key::ExposureRatio,
        Key::DisparateTreatmentRatio,
        Key::DisparateImpactRatio,
        Key::NdcgRatio,
        Key::FairTestPassRate,
    ];

    /// Every key: the count gaps, the score gaps, the regression gaps, then the ranking ratios.
    pub const ALL: [Key; 29] = [
        Key::DpDifference,
        Key::DpRatio,
        Key::EoDifference,
        Key::EoRatio,
        Key::EqOddsDifference,
        Key::EqOddsRatio,
        Key::AccuracyDifference,
        Key::AccuracyRatio,
        Key::AucDifference,
        Key::KsDp,
        Key::KsEo,
        Key::Psp,
        Key::MeanPredictionDifference,
        Key::MeanPredictionRatio,
        Key::MeanResidualDifference,
        Key::MaeDifference,
        Key::MaeRatio,
        Key::RmseDifference,
        Key::RmseRatio,
        Key::R2Difference,
        Key::ScoringRateDifference,
        Key::ScoringRateRatio,
        Key::WassersteinMax,
        Key::KsPrediction,
        Key::ExposureRatio,
        Key::DisparateTreatmentRatio,
        Key::DisparateImpactRatio,
        Key::NdcgRatio,
        Key::FairTestPassRate,
    ];

    /// Its name in report.json.
    pub const fn as_str(self) -> &'static str {
        match self {
            Key::DpDifference => "dp_difference",
            Key::DpRatio => "dp_ratio",
            Key::EoDifference => "eo_difference",
            Key::EoRatio => "eo_ratio",
            Key::EqOddsDifference => "eq_odds_difference",
            Key::EqOddsRatio => "eq_odds_ratio",
            Key::AccuracyDifference => "accuracy_difference",
            Key::AccuracyRatio => "accuracy_ratio",
            Key::AucDifference => "auc_difference",
            Key::KsDp => "ks_dp",
            Key::KsEo => "ks_eo",
            Key::Psp => "psp",
            Key::MeanPredictionDifference => "mean_prediction_difference",
            Key::MeanPredictionRatio => "mean_prediction_ratio",
            Key::MeanResidualDifference => "mean_residual_difference",
            Key::MaeDifference => "mae_difference",
            Key::MaeRatio => "mae_ratio",
            Key::RmseDifference => "rmse_difference",
            Key::RmseRatio => "rmse_ratio",
            Key::R2Difference => "r2_difference",
            Key::WassersteinMax => "wasserstein_max",
            Key::KsPrediction => "ks_prediction",
            Key::ScoringRateDifference => "scoring_rate_difference",
            Key::ScoringRateRatio => "scoring_rate_ratio",
            Key::ExposureRatio => "exposure_ratio",
            Key::DisparateTreatmentRatio => "disparate_treatment_ratio",
            Key::DisparateImpactRatio => "disparate_impact_ratio",
            Key::NdcgRatio => "ndcg_ratio",
            Key::FairTestPassRate => "fair_test_pass_rate",
        }
    }

    /// Its plain name, e.g. "demographic parity difference".
    pub const fn name(self) -> &'static str {
        match self {
            Key::DpDifference => "demographic parity difference",
            Key::DpRatio => "demographic parity ratio",
            Key::EoDifference => "equal opportunity difference",
            Key::EoRatio => "equal opportunity ratio",
            Key::EqOddsDifference => "equalized odds difference",
            Key::EqOddsRatio => "equalized odds ratio",
            Key::AccuracyDifference => "accuracy difference",
            Key::AccuracyRatio => "accuracy ratio",
            Key::AucDifference => "AUC difference",
            Key::KsDp => "demographic parity difference over all thresholds (KS)",
            Key::KsEo => "equal opportunity difference over all thresholds (KS on positives)",
            Key::Psp => "partial statistical parity",
            Key::MeanPredictionDifference => "mean prediction difference",
            Key::MeanPredictionRatio => "mean prediction ratio",
            Key::MeanResidualDifference => "mean residual difference (over- or under-prediction)",
            Key::MaeDifference => "mean absolute error difference",
            Key::MaeRatio => "mean absolute error ratio",
            Key::RmseDifference => "root mean squared error difference",
            Key::RmseRatio => "root mean squared error ratio",
            Key::R2Difference => "R² difference",
            Key::WassersteinMax => {
                "largest distance between two groups' predictions (Wasserstein-1)"
            }
            Key::KsPrediction => "largest gap between two groups' prediction distributions (KS)",
            Key::ScoringRateDifference => "scoring rate difference (share above the median)",
            Key::ScoringRateRatio => "scoring rate impact ratio (NYC Local Law 144)",
            Key::ExposureRatio => "exposure ratio (exposure per item, smallest ÷ largest group)",
            Key::DisparateTreatmentRatio => {
                "disparate treatment ratio (exposure per unit of relevance)"
            }
            Key::DisparateImpactRatio => {
                "disparate impact ratio (expected clicks per unit of relevance)"
            }
            Key::NdcgRatio => "NDCG ratio (smallest ÷ largest group NDCG)",
            Key::FairTestPassRate => "FA*IR test pass rate (lowest group)",
        }
    }

    /// Whether it is a gap of a regression audit (needs a numeric target).
    pub const fn is_regression(self) -> bool {
        matches!(
            self,
            Key::MeanPredictionDifference
                | Key::MeanPredictionRatio
                | Key::MeanResidualDifference
                | Key::MaeDifference
                | Key::MaeRatio
                | Key::RmseDifference
                | Key::RmseRatio
                | Key::R2Difference
                | Key::WassersteinMax
                | Key::KsPrediction
                | Key::ScoringRateDifference
                | Key::ScoringRateRatio
        )
    }

    /// Whether it is a ratio of a ranking audit (needs a query column).
    pub const fn is_ranking(self) -> bool {
        matches!(
            self,
            Key::ExposureRatio
                | Key::DisparateTreatmentRatio
                | Key::DisparateImpactRatio
                | Key::NdcgRatio
                | Key::FairTestPassRate
        )
    }

    /// Whether it is a score gap (needs a score column).
    pub const fn is_score(self) -> bool {
        matches!(self, Key::AucDifference | Key::KsDp | Key::KsEo | Key::Psp)
    }

    /// Difference or ratio (every score gap is a difference).
    pub const fn kind(self) -> GapKind {
        match self {
            Key::DpRatio
            | Key::EoRatio
            | Key::EqOddsRatio
            | Key::AccuracyRatio
            | Key::MeanPredictionRatio
            | Key::MaeRatio
            | Key::RmseRatio
            | Key::ScoringRateRatio
            | Key::ExposureRatio
            | Key::DisparateTreatmentRatio
            | Key::DisparateImpactRatio
            | Key::NdcgRatio
            | Key::FairTestPassRate => GapKind::Ratio,
            _ => GapKind::Difference,
        }
    }

    /// Whether it is a ratio: smaller is worse.
    pub const fn is_ratio(self) -> bool {
        matches!(self.kind(), GapKind::Ratio)
    }

    /// Whether a larger value is worse (differences, distances) rather than a smaller one
    /// (ratios).
    pub const fn larger_is_worse(self) -> bool {
        !self.is_ratio()
    }

    /// The ratio of the same rates as a count difference (`None` for a ratio or a score gap).
    pub const fn ratio(self) -> Option<Key> {
        match self {
            Key::DpDifference => Some(Key::DpRatio),
            Key::EoDifference => Some(Key::EoRatio),
            Key::EqOddsDifference => Some(Key::EqOddsRatio),
            Key::AccuracyDifference => Some(Key::AccuracyRatio),
            _ => None,
        }
    }

    /// The rates a count gap compares (`None` for a score gap).
    pub const fn metric(self) -> Option<GapMetric> {
        Some(match self {
            Key::DpDifference | Key::DpRatio => GapMetric::Rate(Rate::Selection),
            Key::EoDifference | Key::EoRatio => GapMetric::Rate(Rate::TruePositive),
            Key::EqOddsDifference | Key::EqOddsRatio => GapMetric::EqualizedOdds,
            Key::AccuracyDifference | Key::AccuracyRatio => GapMetric::Rate(Rate::Accuracy),
            _ => return None,
        })
    }

    /// The key called `name` in report.json (no aliases: see [`Key::from_name`]).
    pub fn parse(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The key `name` stands for: the key itself, or the key of one of fairlearn's names
    /// ([`ALIASES`]).
    pub fn from_name(name: &str) -> Option<Key> {
        Key::parse(name).or_else(|| alias(name).map(|a| a.key))
    }

    /// fairlearn's names for it ([`ALIASES`]).
    pub fn aliases(self) -> impl Iterator<Item = &'static Alias> {
        ALIASES.iter().filter(move |a| a.key == self)
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Hashed, ordered and borrowed as its name, so maps keyed by it are looked up by name too.
impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl std::borrow::Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Key {
    type Err = String;

    /// A report key or one of fairlearn's names for one.
    fn from_str(s: &str) -> Result<Self, String> {
        Key::from_name(s).ok_or_else(|| {
            let known: Vec<&str> = Key::ALL.iter().map(|k| k.as_str()).collect();
            format!(
                "unknown gap key {s:?}: expected one of {}",
                known.join(", ")
            )
        })
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A name from a closed vocabulary (a rate key, a gap kind, a schema name): report fields
/// that hold one are read back by [`de`] into the one `&'static str` of that name. (An alias,
/// so that serde does not take the field for a string borrowed from the input.)
pub type Name = &'static str;

/// A fairlearn name accepted for a report key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alias {
    /// fairlearn's name (`fairlearn.metrics.<name>`, fairlearn 0.15).
    pub name: &'static str,
    /// The report key it evaluates.
    pub key: Key,
    /// The per-group rates (report.json's rate keys) the value is made of: where one is
    /// undefined in a group, or 0 in every group of a slice for a ratio, fairlearn's convention
    /// differs from the report's and the alias is unavailable.
    pub rates: &'static [&'static str],
}

/// fairlearn's names for the report's keys: the single table of aliases.
///
/// Each has the report key's definition (fairlearn's default `method="between_groups"` and, for
/// equalized odds, `agg="worst_case"`: the larger TPR/FPR difference, the smaller ratio), up to
/// the two conventions in the `fail_if` module documentation, where the alias is refused.
///
/// Deliberately not aliased: `zero_one_loss_difference` / `_ratio` (the error rate's gaps: the
/// difference equals `accuracy_difference` only in exact arithmetic, and the ratio is another
/// number), `false_positive_rate_*`, `true_negative_rate_*`, `false_negative_rate_*` (no
/// report key), and the `*_group_min` / `*_group_max` metrics (a group's value, not a gap; the
/// report's `auc_difference` is a difference of AUCs, not `roc_auc_score_group_min`). The score
/// keys (`auc_difference`, `ks_dp`, `ks_eo`, `psp`) have no fairlearn name.
pub const ALIASES: [Alias; 12] = [
    Alias {
        name: "demographic_parity_difference",
        key: Key::DpDifference,
        rates: &["selection_rate"],
    },
    Alias {
        name: "selection_rate_difference",
        key: Key::DpDifference,
        rates: &["selection_rate"],
    },
    Alias {
        name: "demographic_parity_ratio",
        key: Key::DpRatio,
        rates: &["selection_rate"],
    },
    Alias {
        name: "selection_rate_ratio",
        key: Key::DpRatio,
        rates: &["selection_rate"],
    },
    Alias {
        name: "equal_opportunity_difference",
        key: Key::EoDifference,
        rates: &["true_positive_rate"],
    },
    Alias {
        name: "true_positive_rate_difference",
        key: Key::EoDifference,
        rates: &["true_positive_rate"],
    },
    Alias {
        name: "equal_opportunity_ratio",
        key: Key::EoRatio,
        rates: &["true_positive_rate"],
    },
    Alias {
        name: "true_positive_rate_ratio",
        key: Key::EoRatio,
        rates: &["true_positive_rate"],
    },
    Alias {
        name: "equalized_odds_difference",
        key: Key::EqOddsDifference,
        rates: &["true_positive_rate", "false_positive_rate"],
    },
    Alias {
        name: "equalized_odds_ratio",
        key: Key::EqOddsRatio,
        rates: &["true_positive_rate", "false_positive_rate"],
    },
    Alias {
        name: "accuracy_score_difference",
        key: Key::AccuracyDifference,
        rates: &["accuracy"],
    },
    Alias {
        name: "accuracy_score_ratio",
        key: Key::AccuracyRatio,
        rates: &["accuracy"],
    },
];

/// The alias called `name`, if any.
pub fn alias(name: &str) -> Option<&'static Alias> {
    ALIASES.iter().find(|a| a.name == name)
}

/// The `&'static str` of a known rate key (`selection_rate`, …, and the score metrics' `auc`,
/// `ks_dp`, `ks_eo`, `psp` of `small_groups`), for deserializing report fields that hold one.
pub fn static_rate(name: &str) -> Option<&'static str> {
    Rate::ALL
        .iter()
        .map(|r| r.as_str())
        .chain(["auc", "ks_dp", "ks_eo", "psp"])
        .chain(REGRESSION_QUANTITIES)
        .find(|k| *k == name)
}

/// The per-group quantities of a regression audit a gap compares or a small group is kept out
/// of (the keys of `regression.slices[].groups[].metrics`, and `rows`).
pub const REGRESSION_QUANTITIES: [&str; 10] = [
    "mean_target",
    "mean_prediction",
    "mean_residual",
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "r2_score",
    "scoring_rate",
    "prediction",
    "rows",
];

/// serde helpers: read a closed vocabulary written as strings back into `&'static str`.
pub mod de {
    use super::static_rate;
    use serde::Deserialize;
    use serde::de::{Deserializer, Error};
    use std::collections::BTreeMap;

    /// A rate key (see [`static_rate`]).
    pub fn rate<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        let s = String::deserialize(d)?;
        static_rate(&s).ok_or_else(|| D::Error::custom(format!("unknown rate key {s:?}")))
    }

    /// A map keyed by rate keys.
    pub fn rate_map<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<BTreeMap<&'static str, V>, D::Error> {
        BTreeMap::<String, V>::deserialize(d)?
            .into_iter()
            .map(|(k, v)| {
                static_rate(&k)
                    .map(|k| (k, v))
                    .ok_or_else(|| D::Error::custom(format!("unknown rate key {k:?}")))
            })
            .collect()
    }

    /// `Option<Option<T>>` where a present `null` is `Some(None)` and an absent field `None`
    /// (with `#[serde(default)]`).
    pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }

    /// One of `known` strings.
    pub fn one_of<'de, D: Deserializer<'de>>(
        d: D,
        what: &str,
        known: &[&'static str],
    ) -> Result<&'static str, D::Error> {
        let s = String::deserialize(d)?;
        known
            .iter()
            .find(|k| **k == s)
            .copied()
            .ok_or_else(|| D::Error::custom(format!("unknown {what} {s:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sort_by_name() {
        for k in Key::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.as_str()));
            assert_eq!(serde_json::from_str::<Key>(&json).unwrap(), k);
            assert_eq!(k.as_str().parse::<Key>(), Ok(k));
            assert_eq!(
                k.metric().is_none(),
                k.is_score() || k.is_regression() || k.is_ranking()
            );
        }
        let mut sorted = Key::ALL.to_vec();
        sorted.sort();
        let names: Vec<&str> = sorted.iter().map(|k| k.as_str()).collect();
        let mut by_name = names.clone();
        by_name.sort_unstable();
        assert_eq!(names, by_name);
        for a in &ALIASES {
            assert_eq!(Key::from_name(a.name), Some(a.key));
            assert!(Key::parse(a.name).is_none());
        }
        assert!("dp_diff".parse::<Key>().is_err());
    }
}
