//! The part of report.json a ranking audit writes (`ranking`, absent otherwise): how the
//! rankings were read, and per slice each group's exposure, utility-normalised exposure and
//! impact, NDCG, top-k shares and FA*IR pass rate with intervals from resampling queries, the
//! ratios between groups, and a verdict.

use super::regression::Measured;
use crate::keys::Key;
use serde::{Deserialize, Serialize};

/// A ranking audit (`--query`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingAudit {
    /// The query id column.
    pub query: String,
    /// The rank column (smallest first), when the positions come from one.
    pub rank: Option<String>,
    /// The score column (highest first), when the positions come from it instead.
    pub score: Option<String>,
    /// The relevance column, if any (needed by the treatment/impact ratios and NDCG).
    pub relevance: Option<String>,
    /// `"log2"` (1/log2(1 + position)) or `"geometric"` (persistence^(position − 1)).
    pub discount: String,
    /// The geometric discount's persistence (null for log2).
    pub persistence: Option<f64>,
    /// The top-k cut-offs.
    pub top_k: Vec<u64>,
    /// FA*IR's target share (null: each group's share of each query's items).
    pub fair_p: Option<f64>,
    /// FA*IR's significance level (before the paper's correction).
    pub fair_alpha: f64,
    /// FA*IR's test runs over the first `fair_k` positions of each query (the largest top-k).
    pub fair_k: u64,
    /// Queries read.
    pub queries: u64,
    /// How tied positions are handled.
    pub tie_rule: String,
    /// How the intervals are computed.
    pub inference_method: String,
    /// One per slice (each sensitive column, then their intersection).
    pub slices: Vec<RankingSlice>,
}

/// One slice's rankings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingSlice {
    /// The slice ("race", "race & sex").
    pub slice: String,
    /// One sentence: the exposure ratio and its interval against the parity band, and the
    /// group seen least.
    pub verdict: String,
    /// Its groups, by name.
    pub groups: Vec<RankingGroup>,
    /// The ratios between the groups (min / max; 1 is parity), each with its interval.
    pub gaps: Vec<RankingGap>,
}

/// One group's numbers over the queries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingGroup {
    /// The group.
    pub group: String,
    /// Its items (times the queries' weights).
    pub items: f64,
    /// Its share of all items.
    pub item_share: f64,
    /// Its share of all exposure.
    pub exposure_share: Measured,
    /// Exposure share ÷ item share (1: seen in proportion to its numbers).
    pub exposure_ratio: Measured,
    /// Exposure per unit of relevance (Singh & Joachims' treatment).
    pub exposure_per_relevance: Measured,
    /// Expected clicks (relevance × discount) per unit of relevance (their impact).
    pub impact_per_relevance: Measured,
    /// Mean NDCG of its items over the queries (linear gain).
    pub ndcg: Measured,
    /// Its share of the top-k positions, one per cut-off.
    pub top_k_share: Vec<TopKShare>,
    /// The weight of the queries where FA*IR's test was run for it.
    pub fair_tested: f64,
    /// The share of those that pass.
    pub fair_pass_rate: Measured,
}

/// A group's share of the top `k` positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopKShare {
    /// The cut-off.
    pub k: u64,
    /// The share, with its interval.
    pub share: Measured,
}

/// A ratio between the groups of a slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingGap {
    /// The key (`exposure_ratio`, `disparate_treatment_ratio`, `disparate_impact_ratio`,
    /// `ndcg_ratio`, `fair_test_pass_rate`).
    pub key: Key,
    /// The value, with its interval (value null: undefined, e.g. without relevance).
    pub value: Measured,
}
