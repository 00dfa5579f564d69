//! What every number of the report means, in plain words: one entry per rate and gap, shown as
//! hover text in the HTML tables and as the glossary section of both views.

/// One glossary entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The key the report uses (a rate key, a gap key, or a column of the tables).
    pub key: &'static str,
    /// The plain name.
    pub name: &'static str,
    /// What it measures and which direction is good.
    pub meaning: &'static str,
}

/// Every entry, in the order the glossary lists them.
pub const ENTRIES: [Entry; 32] = [
    Entry {
        key: "rows",
        name: "rows",
        meaning: "rows of the group (unweighted): the denominator of the selection rate and the accuracy.",
    },
    Entry {
        key: "positives",
        name: "positives",
        meaning: "rows of the group whose true label is the positive one: the denominator of the TPR. A group with few positives has a wide TPR interval.",
    },
    Entry {
        key: "negatives",
        name: "negatives",
        meaning: "rows of the group whose true label is the negative one: the denominator of the FPR.",
    },
    Entry {
        key: "selection_rate",
        name: "selection rate",
        meaning: "share of the group predicted positive, P(ŷ = 1). Neither direction is good in itself; fairness asks that it not depend on the group.",
    },
    Entry {
        key: "score_scoring_rate",
        name: "scoring rate of the score (NYC Local Law 144)",
        meaning: "with a score: the share of the group scored above the median score of all rows, and its impact ratio, the group's rate ÷ the largest group rate (below 0.8 fails the four-fifths rule). scoring_rate_difference and scoring_rate_ratio are largest − smallest and smallest ÷ largest. The same numbers as fairkit ll144 --score.",
    },
    Entry {
        key: "true_positive_rate",
        name: "true positive rate (TPR, recall)",
        meaning: "share of the group's positives predicted positive, P(ŷ = 1 | y = 1). Higher is better for the group.",
    },
    Entry {
        key: "false_positive_rate",
        name: "false positive rate (FPR)",
        meaning: "share of the group's negatives predicted positive, P(ŷ = 1 | y = 0). Lower is better for the group.",
    },
    Entry {
        key: "precision",
        name: "precision",
        meaning: "share of the group's positive predictions that are right, P(y = 1 | ŷ = 1). Higher is better.",
    },
    Entry {
        key: "accuracy",
        name: "accuracy",
        meaning: "share of the group's rows predicted right. Higher is better.",
    },
    Entry {
        key: "dp_difference",
        name: "demographic parity difference",
        meaning: "largest minus smallest selection rate over the groups. 0 is parity; 0.1 means one group is selected 10 points more often than another.",
    },
    Entry {
        key: "dp_ratio",
        name: "demographic parity ratio",
        meaning: "smallest over largest selection rate. 1 is parity; below 0.8 fails the 'four-fifths rule' of US employment guidance.",
    },
    Entry {
        key: "eo_difference",
        name: "equal opportunity difference",
        meaning: "largest minus smallest TPR: how much more often one group's positives are recognised than another's. 0 is parity.",
    },
    Entry {
        key: "eo_ratio",
        name: "equal opportunity ratio",
        meaning: "smallest over largest TPR. 1 is parity.",
    },
    Entry {
        key: "eq_odds_difference",
        name: "equalized odds difference",
        meaning: "the larger of the TPR difference and the FPR difference: errors of both kinds equal across groups at 0.",
    },
    Entry {
        key: "eq_odds_ratio",
        name: "equalized odds ratio",
        meaning: "the smaller of the TPR ratio and the FPR ratio. 1 is parity.",
    },
    Entry {
        key: "accuracy_difference",
        name: "accuracy difference",
        meaning: "largest minus smallest accuracy over the groups. 0 is parity.",
    },
    Entry {
        key: "accuracy_ratio",
        name: "accuracy ratio",
        meaning: "smallest over largest accuracy. 1 is parity.",
    },
    Entry {
        key: "auc_difference",
        name: "AUC difference",
        meaning: "highest minus lowest AUC over the groups: how much better the score ranks one group's positives above its negatives than another's. 0 is parity.",
    },
    Entry {
        key: "ks_dp",
        name: "KS distance of scores (DP-Δ)",
        meaning: "the largest demographic parity difference over every threshold on the score (the Kolmogorov–Smirnov distance between two groups' score distributions). 0: no threshold selects the groups at different rates.",
    },
    Entry {
        key: "ks_eo",
        name: "KS distance of positives' scores (EO-Δ)",
        meaning: "the same on the positives only: the largest equal opportunity difference over every threshold.",
    },
    Entry {
        key: "psp",
        name: "partial statistical parity",
        meaning: "the demographic parity gap over the thresholds of a percentile band of the score only (--interval), scaled to [0, 1]. 0 is parity in the band.",
    },
    Entry {
        key: "p-value",
        name: "p-value",
        meaning: "how surprising the gap would be if the groups did not differ; below 1 − confidence the report calls the gap distinguishable from zero.",
    },
    Entry {
        key: "four-fifths rule",
        name: "four-fifths rule",
        meaning: "a ratio gap below 0.8: the worse-off group's rate is less than four fifths of the better-off group's (US employment guidance's test of adverse impact, applied here to every ratio).",
    },
    Entry {
        key: "q-value",
        name: "q-value (Benjamini–Hochberg)",
        meaning: "a p-value adjusted for testing many things at once: of the changes called distinguishable at q below 1 − confidence, at most that share is expected to be noise.",
    },
    Entry {
        key: "permutation",
        name: "permutation test",
        meaning: "the group labels are shuffled many times; the p-value is the share of shuffles that give a gap at least as large as the real one. \"p < 1/(R+1)\": no shuffle did.",
    },
    Entry {
        key: "DKW",
        name: "DKW interval",
        meaning: "an interval for a KS distance that holds for every group at once (the Dvoretzky–Kiefer–Wolfowitz inequality); it is wide on purpose, so it can contain 0 while the test says the groups differ.",
    },
    Entry {
        key: "union bound",
        name: "union bound (Bonferroni)",
        meaning: "testing every pair of groups and multiplying the smallest p-value by the number of pairs, so that asking many questions does not make a difference look real by chance.",
    },
    Entry {
        key: "small group",
        name: "too small to judge",
        meaning: "a group with fewer rows in a rate's denominator than the minimum group size: its rate is shown with its wide interval but kept out of the gaps, so a handful of rows cannot decide them.",
    },
    Entry {
        key: "disparity",
        name: "disparity (Aequitas)",
        meaning: "a group's rate divided by the same rate of the slice's reference group (the largest group by default). 1 is parity; 0.5 means half the reference's rate. A positive rate over a reference rate of 0 is written as 10, as Aequitas caps it.",
    },
    Entry {
        key: "reference group",
        name: "reference group",
        meaning: "the group every other group of the slice is divided by: the largest (Aequitas' default), per rate the one with the smallest rate (min_metric), or the group named with --disparity-reference.",
    },
    Entry {
        key: "parity",
        name: "parity (τ band)",
        meaning: "a disparity inside [τ, 1/τ] (τ = 0.8 by default: [0.8, 1.25]). Outside the band the rate fails parity (Aequitas' \"FPR Parity\" and so on); no test of noise is implied, see the significance mark.",
    },
    Entry {
        key: "ppr",
        name: "predicted positive rate (ppr)",
        meaning: "the group's share of all the rows predicted positive (Aequitas' ppr; its disparity is Statistical Parity). Unlike the selection rate (pprev, Impact Parity) it grows with the group's size.",
    },
];

/// The meaning of a key, for hover text; `None` for a key without an entry.
///
/// ```
/// assert!(fair_audit::glossary::meaning("dp_ratio").unwrap().contains("four-fifths"));
/// assert!(fair_audit::glossary::meaning("no such key").is_none());
/// ```
pub fn meaning(key: &str) -> Option<&'static str> {
    ENTRIES.iter().find(|e| e.key == key).map(|e| e.meaning)
}

/// The entries of a regression audit's report (a numeric target), in the order its glossary
/// lists them.
pub const REGRESSION_ENTRIES: [Entry; 17] = [
    Entry {
        key: "rows",
        name: "rows",
        meaning: "rows of the group (unweighted). With weights, the intervals use Kish's effective size (Σw)²/Σw².",
    },
    Entry {
        key: "mean_target",
        name: "mean target",
        meaning: "the group's (weighted) mean of the true value. A difference here is in the data, not made by the model.",
    },
    Entry {
        key: "mean_prediction",
        name: "mean prediction",
        meaning: "the group's mean predicted value. Demographic parity for a numeric output asks that it not depend on the group.",
    },
    Entry {
        key: "mean_residual",
        name: "mean residual",
        meaning: "the group's mean of prediction − target: above 0 the model over-predicts the group, below 0 it under-predicts. Equal mean residuals mean no group is systematically favoured by the errors.",
    },
    Entry {
        key: "mean_absolute_error",
        name: "mean absolute error (MAE)",
        meaning: "the group's mean of |prediction − target|, in the target's unit. Lower is better for the group; a gap means the model is less accurate for some groups.",
    },
    Entry {
        key: "root_mean_squared_error",
        name: "root mean squared error (RMSE)",
        meaning: "the square root of the group's mean squared error; weighs large errors more than the MAE. Lower is better.",
    },
    Entry {
        key: "r2_score",
        name: "R²",
        meaning: "1 − (the group's squared error ÷ the spread of its target around its own mean), scikit-learn's r2_score. 1 is perfect; it depends on how varied the group's targets are, so compare it with care. No interval.",
    },
    Entry {
        key: "scoring_rate",
        name: "scoring rate",
        meaning: "the share of the group predicted above the median prediction of all rows (NYC Local Law 144's rule for a tool that scores). Its impact ratio is the smallest group's rate ÷ the largest's.",
    },
    Entry {
        key: "prediction_quantile",
        name: "prediction quantile",
        meaning: "the group's quantile of the prediction (the median unless --quantile says otherwise): numpy's default without weights, the inverted weighted CDF with them.",
    },
    Entry {
        key: "mean_prediction_difference",
        name: "mean prediction difference",
        meaning: "largest minus smallest group mean prediction (0 = parity); its ratio (mean_prediction_ratio, smallest ÷ largest, 1 = parity) only when no prediction is negative.",
    },
    Entry {
        key: "mean_residual_difference",
        name: "mean residual difference",
        meaning: "largest minus smallest group mean residual: how much more one group is over-predicted than another (0 = parity).",
    },
    Entry {
        key: "mae_difference",
        name: "MAE difference / ratio",
        meaning: "largest minus smallest group MAE (0 = parity), and smallest ÷ largest (mae_ratio, 1 = parity).",
    },
    Entry {
        key: "rmse_difference",
        name: "RMSE difference / ratio",
        meaning: "largest minus smallest group RMSE (0 = parity), and smallest ÷ largest (rmse_ratio, 1 = parity).",
    },
    Entry {
        key: "scoring_rate_ratio",
        name: "scoring rate impact ratio",
        meaning: "smallest ÷ largest group scoring rate (1 = parity; below 0.8 fails the four-fifths rule); scoring_rate_difference is largest − smallest.",
    },
    Entry {
        key: "ks_prediction",
        name: "KS distance of predictions",
        meaning: "the largest gap, over every cut t, between two groups' shares predicted above t (0 = identical distributions, 1 = no overlap): the worst threshold anyone could apply to the prediction.",
    },
    Entry {
        key: "wasserstein_max",
        name: "Wasserstein-1 distance",
        meaning: "the largest, over pairs of groups, average amount (in the prediction's unit) by which one group's predictions must move to match the other's distribution; 0 = identical. Exact, without an interval.",
    },
    Entry {
        key: "bounded_group_loss",
        name: "largest group loss",
        meaning: "the largest group MAE and MSE: the quantity fairlearn's BoundedGroupLoss constraint bounds.",
    },
];

/// The entries of an audit with inferred sensitive attributes (`sensitive_proba`), listed after
/// [`ENTRIES`] when the report has them. Each says which assumption the number needs.
pub const INFERRED_ENTRIES: [Entry; 7] = [
    Entry {
        key: "inferred_weighted",
        name: "weighted estimate",
        meaning: "the rate with every row counted in every group in proportion to its membership probability. Needs calibrated probabilities and, to be unbiased, that decisions and outcomes do not depend on the group among rows of the same proxy cell; otherwise it usually understates differences between groups.",
    },
    Entry {
        key: "inferred_thresholded",
        name: "most-likely-group estimate",
        meaning: "the rate with every row counted in its most likely group (ties: the first column). Common practice, biased whenever rows are assigned to a group they are not in; shown for contrast, not as the answer.",
    },
    Entry {
        key: "inferred_bounds",
        name: "bounds (partial identification)",
        meaning: "the smallest and largest value the true rate or difference can take given the data, assuming only that the membership probabilities are calibrated within each proxy cell (Kallus, Mao & Zhou 2022). No assumption on how decisions relate to the group within a cell. The truth lies inside; wide bounds mean the data cannot tell.",
    },
    Entry {
        key: "inferred_bounds_sampling",
        name: "bounds with sampling",
        meaning: "the bounds widened for sampling noise: the bootstrap's lower quantile of the lower bound and upper quantile of the upper bound.",
    },
    Entry {
        key: "proxy_cell",
        name: "proxy cell",
        meaning: "rows sharing a proxy value (the --proxy column, or else the same probabilities): the bounds assume the probabilities are right on average within each cell and let the group's relation to decisions vary freely inside it. Cells of one row make the bounds too narrow.",
    },
    Entry {
        key: "selection_rate_disparity_bound",
        name: "selection-rate disparity bound",
        meaning: "the largest absolute difference in selection rate between two groups of an inferred attribute that the bounds allow (a --fail-if key; true_positive_rate_ and false_positive_rate_disparity_bound likewise).",
    },
    Entry {
        key: "inferred_weight",
        name: "membership weight",
        meaning: "the sum over rows of weight × membership probability: how many rows the group counts as in the weighted estimate.",
    },
];

/// The entries of a ranking audit's report (a query column), in the order its glossary lists
/// them.
pub const RANKING_ENTRIES: [Entry; 15] = [
    Entry {
        key: "items",
        name: "items",
        meaning: "the group's items over all queries (each query's items times its weight).",
    },
    Entry {
        key: "item_share",
        name: "item share",
        meaning: "the group's share of all items: what its share of exposure is compared with.",
    },
    Entry {
        key: "exposure",
        name: "exposure",
        meaning: "the attention an item gets at its position: 1/log2(1 + position) by default (DCG's discount), or persistence^(position − 1) with --persistence (rank-biased precision's user). A group's exposure sums its items'.",
    },
    Entry {
        key: "exposure_share",
        name: "exposure share",
        meaning: "the group's share of all exposure over the queries.",
    },
    Entry {
        key: "exposure_ratio",
        name: "exposure ratio",
        meaning: "per group: exposure share ÷ item share (1: seen in proportion to its numbers, below 1: ranked lower than its numbers warrant). Per slice: the smallest group's ÷ the largest's (1 = parity; below tau, 0.8 by default, fails the parity band).",
    },
    Entry {
        key: "exposure_per_relevance",
        name: "exposure per unit of relevance",
        meaning: "the group's exposure ÷ its summed relevance: Singh & Joachims' (KDD 2018) disparate treatment compares it between groups (exposure in proportion to merit). Needs --relevance.",
    },
    Entry {
        key: "disparate_treatment_ratio",
        name: "disparate treatment ratio",
        meaning: "smallest ÷ largest group exposure per unit of relevance (1 = exposure proportional to relevance in every group).",
    },
    Entry {
        key: "impact_per_relevance",
        name: "impact per unit of relevance",
        meaning: "the group's expected clicks (relevance × discount, summed) ÷ its summed relevance: Singh & Joachims' disparate impact compares it between groups. Needs --relevance.",
    },
    Entry {
        key: "disparate_impact_ratio",
        name: "disparate impact ratio",
        meaning: "smallest ÷ largest group impact per unit of relevance (1 = clicks proportional to relevance in every group).",
    },
    Entry {
        key: "ndcg",
        name: "NDCG",
        meaning: "per query, the group's items' DCG (gain = relevance, linear as scikit-learn's ndcg_score, times the discount at their positions) ÷ the DCG of its items ranked best-first at positions 1, 2, …; averaged over the queries where the group has a relevant item. 1 = its items as high and as well ordered as they could be.",
    },
    Entry {
        key: "ndcg_ratio",
        name: "NDCG ratio",
        meaning: "smallest ÷ largest group NDCG (1 = parity of ranking quality).",
    },
    Entry {
        key: "top_k_share",
        name: "top-k share",
        meaning: "the group's share of the first k positions over all queries (a query shorter than k counts its positions); compare with its item share.",
    },
    Entry {
        key: "fair_pass_rate",
        name: "FA*IR pass rate",
        meaning: "the share of queries (weighted) whose top positions pass FA*IR's ranked group fairness test (Zehlike et al. 2017) with the group as the protected one: every prefix holds at least the number of its items a fair coin-flip ranking would have with probability 1 − alpha, corrected for testing every prefix.",
    },
    Entry {
        key: "fair_tested",
        name: "queries tested by FA*IR",
        meaning: "the (weighted) queries where FA*IR's test ran for the group: not those where it has no item, or every item (with the default target share, its share of the query), nor one-item queries; \"not tested\" when there are none.",
    },
    Entry {
        key: "fair_test_pass_rate",
        name: "FA*IR test pass rate (slice)",
        meaning: "the lowest of the groups' FA*IR pass rates: 1 when every query passes for every group.",
    },
];
