//! COMPAS encoded as in TFCO's `Oscillation_compas.ipynb` (31 features), the encoding whose
//! feature count matches Table 3 of Cotter et al. (2019).

use crate::dataset::Dataset;
use crate::embedded::COMPAS;
use crate::encode::{ColumnBuilder, OneHotEncoder, quantile};
use crate::error::Result;
use crate::recipes::Table;
use crate::recipes::compas::{finish, propublica_rows};

/// Quantile levels (in %) of the age and decile-score bucket edges; the lowest edge is 0.
const AGE_DECILE_LEVELS: [f64; 6] = [20.0, 40.0, 60.0, 80.0, 90.0, 100.0];
/// Quantile levels (in %) of the priors-count bucket edges, lowest edge included.
const PRIORS_LEVELS: [f64; 6] = [0.0, 50.0, 70.0, 80.0, 90.0, 100.0];

/// COMPAS after the ProPublica filter (6,172 rows), label `two_year_recid`, with the 31 features
/// of TFCO's `Oscillation_compas.ipynb`:
///
/// * `days_b_screening_arrest` (raw, in −30..=30);
/// * one-hot `c_charge_degree` (F, M), `race` (6), `score_text` (High, Low, Medium), `sex` (2);
/// * `age_0..age_5`: one-hot buckets `(e_k, e_{k+1}]` with edges `[0, q20, q40, q60, q80, q90,
///   q100]` of age (on this data: 0, 24, 29, 35, 45, 52.9, 96);
/// * `decile_score_0..5`: the same edges on the decile score (0, 1, 3, 5, 7, 9, 10), encoded
///   cumulatively (`decile_score_k` = bucket ≥ k);
/// * `priors_count_0..4`: edges `[q0, q50, q70, q80, q90, q100]` (0, 1, 3, 5, 9, 38), cumulative.
///   As in the notebook (pandas `cut` is right-closed), a priors count equal to the lowest edge
///   (0 priors, 2,085 rows) falls in no bucket and sets none of the five columns.
///
/// Edges are quantiles (numpy's linear interpolation) of the whole filtered file, as in the
/// notebook, so they do not depend on a train/test split. Attributes `race` (6 groups) and
/// `sex`, as in the other COMPAS recipes.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn compas_tfco() -> Result<Dataset> {
    let t = Table::from_embedded(&COMPAS)?;
    let keep = propublica_rows(&t)?;
    let mut b = ColumnBuilder::default();
    b.push(
        "days_b_screening_arrest",
        t.nums(&keep, "days_b_screening_arrest")?,
    );
    for (name, categories) in [
        ("c_charge_degree", &["F", "M"][..]),
        (
            "race",
            &[
                "African-American",
                "Asian",
                "Caucasian",
                "Hispanic",
                "Native American",
                "Other",
            ][..],
        ),
        ("score_text", &["High", "Low", "Medium"][..]),
        ("sex", &["Female", "Male"][..]),
    ] {
        let v = t.strs(&keep, name)?;
        b.push_one_hot(&OneHotEncoder::with_categories(name, categories), &v);
    }
    let age = t.nums(&keep, "age")?;
    let mut edges = vec![0.0];
    for q in AGE_DECILE_LEVELS {
        edges.push(quantile(&age, q / 100.0)?);
    }
    push_buckets(&mut b, "age", &age, &edges, false);
    let decile = t.nums(&keep, "decile_score")?;
    let mut edges = vec![0.0];
    for q in AGE_DECILE_LEVELS {
        edges.push(quantile(&decile, q / 100.0)?);
    }
    push_buckets(&mut b, "decile_score", &decile, &edges, true);
    let priors = t.nums(&keep, "priors_count")?;
    let edges = PRIORS_LEVELS
        .iter()
        .map(|q| quantile(&priors, q / 100.0))
        .collect::<Result<Vec<_>>>()?;
    push_buckets(&mut b, "priors_count", &priors, &edges, true);
    finish("compas-tfco", &t, &keep, b, "two_year_recid")
}

/// One column per bucket `(edges[k], edges[k+1]]`; a value outside `(edges[0], last]` sets no
/// column (pandas `cut` gives NaN there). `cumulative` sets column k for every bucket ≥ k
/// instead of only the value's own bucket (the notebook's "fill" of decile and priors columns).
fn push_buckets(b: &mut ColumnBuilder, name: &str, v: &[f64], edges: &[f64], cumulative: bool) {
    let bucket_of = |x: f64| -> Option<usize> {
        (1..edges.len())
            .find(|&k| x > edges[k - 1] && x <= edges[k])
            .map(|k| k - 1)
    };
    let buckets: Vec<Option<usize>> = v.iter().map(|&x| bucket_of(x)).collect();
    for k in 0..edges.len() - 1 {
        let column = buckets
            .iter()
            .map(|bk| {
                let set = match bk {
                    Some(j) if cumulative => *j >= k,
                    Some(j) => *j == k,
                    None => false,
                };
                f64::from(u8::from(set))
            })
            .collect();
        b.push(format!("{name}_{k}"), column);
    }
}
